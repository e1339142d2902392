"""Farming in the simulator: a hoe tills grass and dirt, seeds plant on farmland, crops grow on
random ticks at vanilla's rate (CropBlock.getGrowthSpeed, randomTickSpeed 3)."""
from __future__ import annotations

import statistics

import numpy as np
import pytest

from engine import actions as acts
from engine import events as ev
from engine.events import SlotItem
from engine.sim.farming import RANDOM_TICK_CHANCE, Crops
from engine.sim.rules import VERSION
from engine.sim.world import SimWorld
from engine.world.blocks import BlockStore, BlockTable

TABLE = BlockTable.for_version(VERSION)


def _yard(farmland: list[tuple[int, int]], water: list[tuple[int, int]] = (), size: int = 24) -> BlockStore:
    """A grass floor at y 0 (farmland and water where given), air above."""
    store = BlockStore()
    for x in range(-size, size):
        for z in range(-size, size):
            store.set_block(x, 0, z, TABLE.state_for("grass_block"))
            store.set_block(x, 1, z, TABLE.state_for("air"))
            store.set_block(x, 2, z, TABLE.state_for("air"))
    for x, z in farmland:
        store.set_block(x, 0, z, TABLE.state_for("farmland"))
    for x, z in water:
        store.set_block(x, 0, z, TABLE.state_for("water"))
    return store


def _wheat(store: BlockStore, cells: list[tuple[int, int]], age: int = 0) -> None:
    for x, z in cells:
        store.set_block(x, 1, z, TABLE.states_of("wheat").start + age)


def _square(cx: int, cz: int) -> list[tuple[int, int]]:
    return [(cx + dx, cz + dz) for dx in (-1, 0, 1) for dz in (-1, 0, 1)]


def test_growth_speed_is_vanillas_for_a_lone_crop_a_row_and_a_field() -> None:
    rng = np.random.default_rng(0)
    # One crop on moist farmland with moist farmland all round: 1 + 3 + 8 x 3/4 = 10.
    store = _yard(_square(0, 0), water=[(3, 0)])
    _wheat(store, [(0, 0)])
    crops = Crops(store, TABLE, rng)
    assert crops.growth_speed((0, 1, 0), "wheat") == 10.0
    # A row (crops east and west only) keeps 10; crops on both axes or a diagonal halve it.
    _wheat(store, [(-1, 0), (1, 0)])
    assert crops.growth_speed((0, 1, 0), "wheat") == 10.0
    _wheat(store, [(0, 1)])
    assert crops.growth_speed((0, 1, 0), "wheat") == 5.0
    diagonal = _yard(_square(0, 0), water=[(3, 0)])
    _wheat(diagonal, [(0, 0), (1, 1)])
    assert Crops(diagonal, TABLE, rng).growth_speed((0, 1, 0), "wheat") == 5.0
    # Dry (no water within 4): farmland counts 1, a lone cell of it 1 + 1 = 2.
    dry = _yard([(0, 0)], water=[(5, 0)])
    _wheat(dry, [(0, 0)])
    assert Crops(dry, TABLE, rng).growth_speed((0, 1, 0), "wheat") == 2.0


def test_a_lone_moist_crop_ripens_in_about_seven_times_4096_ticks() -> None:
    # f 10: a random tick grows it with chance 1/3; one comes every 4096/3 ticks: 4,096 a stage.
    cells = [(x, z) for x in range(-20, 21, 5) for z in range(-20, 21, 5)]    # 81 crops, none touching
    farmland = [c for x, z in cells for c in _square(x, z)]
    store = _yard(farmland, water=[(x + 2, z) for x, z in cells], size=24)
    _wheat(store, cells)
    crops = Crops(store, TABLE, np.random.default_rng(7))
    for x, z in cells:
        crops.planted((x, 1, z), 0)
    ripe: dict[tuple[int, int, int], int] = {}
    t = 0
    while crops.next_tick and t < 200_000:
        t += 1
        for x, y, z, state in crops.tick(t):
            if state == TABLE.states_of("wheat").start + 7:
                ripe[(x, y, z)] = t
    assert len(ripe) == len(cells)
    expected = 7 * 3 / RANDOM_TICK_CHANCE                # 7 stages x 3 random ticks x 4096/3 ticks
    assert 0.85 * expected < statistics.mean(ripe.values()) < 1.15 * expected


def _by_grass(held: str, n: int = 1) -> SimWorld:
    world = SimWorld(1000)
    world.join_events()
    p = world.player
    p.slots[36] = SlotItem(held, n)
    p.held = 0
    return world


def test_a_hoe_tills_grass_under_air_and_seeds_plant_on_the_farmland() -> None:
    world = _by_grass("wooden_hoe")
    p = world.player
    x, z = int(p.x) + 1, int(p.z)
    y = int(world.heights[x, z]) - 1
    assert world.block(x, y, z) in ("grass_block", "dirt")
    out = world.apply([acts.UseBlock(x, y, z, 0)], 5)            # the bottom face: nothing
    assert out == [] and world.block(x, y, z) != "farmland"
    out = world.apply([acts.UseBlock(x, y, z, 1)], 6)
    assert world.block(x, y, z) == "farmland"
    assert out == [ev.BlocksChanged(((x, y, z, world.table.state_for("farmland")),))]
    p.slots[36] = SlotItem("wheat_seeds", 3)
    world.apply([acts.PlaceBlock(x, y + 1, z, (x, y, z), 1, "wheat_seeds")], 7)
    assert world.block(x, y + 1, z) == "wheat" and world.count("wheat_seeds") == 2
    assert (x, y + 1, z) in world.crops.next_tick
    # Not on grass: seeds need farmland.
    world.apply([acts.PlaceBlock(x + 1, y + 1, z, (x + 1, y, z), 1, "wheat_seeds")], 8)
    assert world.block(x + 1, y + 1, z) == "air" and world.count("wheat_seeds") == 2
    assert world.rejected["plant refused"] == 1


@pytest.mark.parametrize("held", [None, "stone_pickaxe"])
def test_no_hoe_tills_nothing(held: str | None) -> None:
    world = _by_grass(held or "stick")
    if held is None:
        world.player.slots[36] = None
    p = world.player
    x, z = int(p.x) + 1, int(p.z)
    y = int(world.heights[x, z]) - 1
    world.apply([acts.UseBlock(x, y, z, 1)], 5)
    assert world.block(x, y, z) != "farmland"
