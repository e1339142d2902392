"""Cows in the simulator: spawned with the world on grass, strolling, hit like mobs, dropping beef."""
from __future__ import annotations

import math

import pytest

from engine import events as ev
from engine.actions import SelectHotbar, UseHeldItem
from engine import actions as acts
from engine.decision.knowledge import SMELT_TICKS
from engine.events import SlotItem
from engine.sim.world import COW_SPEED, SimOptions, SimWorld


def _world(seed: int = 0, **options: object) -> SimWorld:
    world = SimWorld(seed, SimOptions(**options))  # type: ignore[arg-type]
    world.join_events()
    return world


def _next_to_a_cow(world: SimWorld) -> int:
    """Put the player a block from the first cow, facing nothing in between; its entity id."""
    eid, cow = next(iter(world.animals.items()))
    p = world.player
    p.x, p.y, p.z = cow.x + 1.0, cow.y, cow.z
    return eid


def test_cows_spawn_on_grass_and_the_session_hears_of_them_as_passive() -> None:
    world = SimWorld(0)
    spawned = [e for e in world.join_events() if isinstance(e, ev.EntitySpawned) and e.kind == "cow"]
    cows = [a for a in world.animals.values() if a.kind == "cow"]
    assert len(spawned) == len(cows) >= 4
    assert all(e.category == "passive" for e in spawned)
    for cow in cows:
        assert world.block(math.floor(cow.x), int(cow.y) - 1, math.floor(cow.z)) == "grass_block"


def test_cows_stroll_slowly_on_grass_and_never_hurt_the_player() -> None:
    world = _world()
    eid = _next_to_a_cow(world)
    start = {k: (a.x, a.z) for k, a in world.animals.items()}
    last = dict(start)
    moved = 0
    for t in range(1, 2001):
        for e in world.tick(t):
            if isinstance(e, ev.EntityMoved) and e.entity_id in last:
                px, pz = last[e.entity_id]
                assert math.hypot(e.x - px, e.z - pz) <= COW_SPEED + 1e-9
                last[e.entity_id] = (e.x, e.z)
                moved += 1
    assert moved > 0 and world.player.health == 20.0 and not world.damage_taken
    for cow in world.animals.values():
        assert world.block(math.floor(cow.x), int(cow.y) - 1, math.floor(cow.z)) == "grass_block"
    assert eid in world.animals


@pytest.mark.parametrize("held,hits", [(None, 10), ("stone_pickaxe", 4)])
def test_a_cow_takes_10_health_of_hits_and_drops_1_to_3_raw_beef(held: str | None, hits: int) -> None:
    world = _world()
    if held is not None:
        world.player.slots[36] = SlotItem(held, 1)
    world.player.held = 0 if held is not None else 1
    eid = _next_to_a_cow(world)
    for i in range(hits - 1):
        assert world.apply([acts.AttackEntity(eid)], 10 + 12 * i) == []
    out = world.apply([acts.AttackEntity(eid)], 200)
    assert eid not in world.animals and ev.EntitiesRemoved((eid,)) in out
    drops = [d for d in world.drops.values() if d.item == "beef"]
    assert len(drops) == 1 and 1 <= drops[0].count <= 3
    assert any(isinstance(e, ev.EntitySpawned) and e.kind == "item" for e in out)
    n = drops[0].count
    for t in range(201, 230):
        world.tick(t)
    assert world.count("beef") == n and not world.drops


def test_a_cow_out_of_reach_is_not_hit() -> None:
    world = _world()
    eid = _next_to_a_cow(world)
    world.player.x += 5.0
    world.apply([acts.AttackEntity(eid)], 1)
    assert world.animals[eid].health == 10.0 and world.rejected == {"attack refused": 1}


def test_raw_beef_smelts_into_cooked_beef() -> None:
    world = _world()
    p = world.player
    x, y, z = math.floor(p.x) + 2, math.floor(p.y), math.floor(p.z)
    world.store.set_block(x, y, z, world.table.state_for("furnace"))
    world.give("beef", 2)
    world.give("oak_planks", 2)
    world.apply([acts.SmeltStart((x, y, z), "beef", 2, "oak_planks", 2)], 1)
    world.apply([acts.SmeltCollect((x, y, z))], 1 + 2 * SMELT_TICKS)
    assert world.count("cooked_beef") == 2 and world.count("beef") == 0


@pytest.mark.parametrize("food,nutrition,saturation", [("beef", 3, 1.8), ("cooked_beef", 8, 12.8)])
def test_beef_is_eaten_raw_or_cooked_with_vanillas_nutrition(food: str, nutrition: int, saturation: float) -> None:
    world = _world(start_bread=0)
    p = world.player
    p.food, p.saturation = 10, 0.0
    world.player.slots[44] = SlotItem(food, 1)
    world.apply([SelectHotbar(8), UseHeldItem()], 1)
    for t in range(2, 35):
        world.tick(t)
    assert p.food == 10 + nutrition and p.saturation == pytest.approx(saturation)
    assert world.count(food) == 0
