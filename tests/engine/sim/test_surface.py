"""The simulator's surface for the goals: a beach with cane, gravel, a grown farm, sheep, and their loot."""
from __future__ import annotations

import math

import numpy as np
import pytest

from engine import actions as acts
from engine import events as ev
from engine.decision.knowledge import MATURE, dig_ticks
from engine.sim.surface import FLINT_CHANCE, animal_loot, loot
from engine.sim.world import SimOptions, SimWorld

SIDES = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _world(seed: int, **options: object) -> SimWorld:
    world = SimWorld(seed, SimOptions(**options))  # type: ignore[arg-type]
    world.join_events()
    return world


@pytest.mark.parametrize("seed", [0, 1000, 1003])
def test_cane_stands_on_sand_beside_water_and_the_farm_is_ripe_wheat_on_farmland_by_a_channel(seed: int) -> None:
    world = _world(seed)
    canes = world.features["sugar_cane"]
    assert canes
    for x, y, z in canes:
        assert world.block(x, y, z) == "sugar_cane" and world.block(x, y - 1, z) == "sand"
        assert any(world.block(x + dx, y - 1, z + dz) == "water" for dx, dz in SIDES)
    ripe = world.table.states_of("wheat").start + MATURE["wheat"]
    (fx, fy, fz), = world.features["farm"]
    crops = [(x, z) for x in range(fx - 5, fx + 6) for z in range(fz - 3, fz + 4)
             if world.store.get(x, fy, z) == ripe]
    assert len(crops) == 36
    assert all(world.block(x, fy - 1, z) == "farmland" for x, z in crops)
    assert all(world.block(x, fy - 1, fz) == "water" for x in range(fx - 4, fx + 5))
    gravel = sum(world.block(x, int(world.heights[x, z]) - 1, z) == "gravel"
                 for x in range(world.options.size) for z in range(world.options.size))
    assert gravel >= 24


def test_a_hazard_pond_keeps_its_banks() -> None:
    # The water hazard's pond beside spawn is what the drowning episodes rely on: no beach there.
    world = _world(1000, hazard="water")
    assert "sugar_cane" not in world.features
    assert world.features["farm"]


def test_loot_gravel_flint_one_in_ten_ripe_wheat_wheat_and_seeds_young_wheat_a_seed() -> None:
    rng = np.random.default_rng(0)
    draws = [loot("gravel", 0, rng) for _ in range(1000)]
    flints = sum(d == [("flint", 1)] for d in draws)
    assert all(d in ([("flint", 1)], [("gravel", 1)]) for d in draws)
    assert 0.5 * FLINT_CHANCE * 1000 < flints < 1.5 * FLINT_CHANCE * 1000
    for _ in range(50):
        (wheat, one), (seeds, n) = loot("wheat", MATURE["wheat"], rng)  # type: ignore[misc]
        assert (wheat, one, seeds) == ("wheat", 1, "wheat_seeds") and 1 <= n <= 4
    assert loot("wheat", 3, rng) == [("wheat_seeds", 1)]
    assert loot("stone", 0, rng) is None
    assert [i for i, _ in animal_loot("sheep", rng)] == ["mutton", "white_wool"]
    assert all(0 <= n <= 2 for _, n in (animal_loot("cow", rng)[0] for _ in range(30)))


def test_breaking_the_bottom_cane_breaks_the_column_and_drops_each() -> None:
    world = _world(1000)
    x, y, z = world.features["sugar_cane"][0]
    world.store.set_block(x, y + 1, z, world.table.state_for("sugar_cane"))
    world.store.set_block(x, y + 2, z, world.table.state_for("sugar_cane"))
    p = world.player
    p.x, p.y, p.z = x + 1.5, float(y), z + 0.5
    world.checker.teleport(p.x, p.y, p.z, 0)
    need = dig_ticks("sugar_cane", None)
    assert need == 1
    world.apply([acts.StartDigging(x, y, z)], 1)
    out = world.apply([acts.FinishDigging(x, y, z)], 2)
    assert [world.block(x, y + i, z) for i in range(3)] == ["air"] * 3
    dropped = [world.drops[e.entity_id].item for e in out if isinstance(e, ev.EntitySpawned) and e.kind == "item"]
    assert dropped == ["sugar_cane"] * 3


def test_sheep_graze_on_grass_and_a_killed_one_drops_mutton_and_wool() -> None:
    world = _world(0)
    sheep = [a for a in world.animals.values() if a.kind == "sheep"]
    assert len(sheep) >= 4
    assert all(world.block(math.floor(s.x), int(s.y) - 1, math.floor(s.z)) == "grass_block" for s in sheep)
    target = sheep[0]
    p = world.player
    p.x, p.y, p.z = target.x + 1.0, target.y, target.z
    out: list[ev.Event] = []
    for t in range(1, 200, 12):
        out += world.apply([acts.AttackEntity(target.entity_id)], t)
        if target.entity_id not in world.animals:
            break
    items = sorted(world.drops[e.entity_id].item for e in out if isinstance(e, ev.EntitySpawned) and e.kind == "item")
    assert items == ["mutton", "white_wool"]


def test_outcrops_show_coal_at_vanillas_rate_and_nowhere_else_changes() -> None:
    exposed = 0
    for seed in range(1000, 1010):
        world = _world(seed)
        coal = world.features.get("coal_ore", [])
        for x, y, z in coal:
            assert world.block(x, y, z) == "coal_ore"
            assert y >= int(world.heights[x, z]) - 5          # in an outcrop's five layers of stone
            exposed += world.block(x, y + 1, z) == "air"
        # Off the outcrops the surface has no coal (the deep world's strata lay it below).
        tops = {world.block(x, int(world.heights[x, z]) - 1, z) for x in range(5, 90, 7) for z in range(5, 90, 7)
                if (x, int(world.heights[x, z]) - 1, z) not in coal}
        assert "coal_ore" not in tops
    # 1.18's buried coal at the sim's surface height (y 35-43 of a 0-192 triangle, half of the blocks
    # that touch air discarded): about one exposed block per world, none on some.
    assert 3 <= exposed <= 30
