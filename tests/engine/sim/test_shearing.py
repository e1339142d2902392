"""Shearing in the simulator: shears on a sheep drop 1-3 wool once, the sheep regrows it by
grazing, a sheared sheep killed drops no wool, and nothing else answers the interaction."""
from __future__ import annotations

import numpy as np
import pytest

from engine import actions as acts
from engine import events as ev
from engine.decision.providers import MockProvider
from engine.events import SlotItem
from engine.sim.episode import run_episode
from engine.sim.records import Animal, SimOptions
from engine.sim.world import SimWorld


def _by_a_sheep(held: str | None = "shears") -> tuple[SimWorld, Animal]:
    world = SimWorld(0)
    world.join_events()
    sheep = next(a for a in world.animals.values() if a.kind == "sheep")
    p = world.player
    p.x, p.y, p.z = sheep.x + 1.0, sheep.y, sheep.z
    sheep.goal = None
    if held is not None:
        p.slots[36] = SlotItem(held, 1)
    p.held = 0
    return world, sheep


def _wool(world: SimWorld) -> int:
    return sum(d.count for d in world.drops.values() if d.item == "white_wool")


def test_shears_on_a_sheep_drop_one_to_three_wool_once() -> None:
    world, sheep = _by_a_sheep()
    out = world.apply([acts.InteractEntity(sheep.entity_id)], 5)
    assert sheep.sheared and 1 <= _wool(world) <= 3
    assert any(isinstance(e, ev.EntitySpawned) and e.kind == "item" for e in out)
    before = _wool(world)
    assert world.apply([acts.InteractEntity(sheep.entity_id)], 6) == []  # nothing left to shear
    assert _wool(world) == before and sheep.entity_id in world.animals


def test_many_shearings_give_each_of_1_2_and_3_wool() -> None:
    counts = set()
    for t in range(60):
        world, sheep = _by_a_sheep()
        world.shear_rng = np.random.default_rng(t)
        world.apply([acts.InteractEntity(sheep.entity_id)], 5)
        counts.add(_wool(world))
    assert counts == {1, 2, 3}


def test_no_shears_no_sheep_or_out_of_reach_shears_nothing() -> None:
    world, sheep = _by_a_sheep(held="stick")
    world.apply([acts.InteractEntity(sheep.entity_id)], 5)
    assert not sheep.sheared and _wool(world) == 0
    world, sheep = _by_a_sheep()
    cow = next(a for a in world.animals.values() if a.kind == "cow")
    world.player.x, world.player.y, world.player.z = cow.x + 1.0, cow.y, cow.z
    world.apply([acts.InteractEntity(cow.entity_id)], 5)
    assert not world.drops
    world, sheep = _by_a_sheep()
    world.player.x += 6.0
    world.apply([acts.InteractEntity(sheep.entity_id)], 5)
    assert not sheep.sheared and world.rejected == {"interact refused": 1}


def test_a_sheared_sheep_regrows_its_wool_by_grazing() -> None:
    world, sheep = _by_a_sheep()
    world.apply([acts.InteractEntity(sheep.entity_id)], 5)
    t = 6
    while sheep.sheared and t < 30_000:  # 1/1000 a tick: gone long before 30,000 unless the draw is broken
        world.tick(t)
        t += 1
    assert not sheep.sheared and t > 6


def test_a_sheared_sheep_killed_drops_mutton_but_no_wool() -> None:
    world, sheep = _by_a_sheep()
    world.apply([acts.InteractEntity(sheep.entity_id)], 5)
    world.drops.clear()
    sheep.health = 0.5
    world.apply([acts.AttackEntity(sheep.entity_id)], 20)
    assert sheep.entity_id not in world.animals
    items = {d.item for d in world.drops.values()}
    assert "mutton" in items and "white_wool" not in items


def test_the_autopilot_shears_its_sheep_for_wool_and_makes_the_shears_first(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.sim import world as sim_world
    sheared: list[int] = []
    hit: list[int] = []
    shear, attack = sim_world._HANDLERS[acts.InteractEntity], sim_world._HANDLERS[acts.AttackEntity]

    def spy_shear(world: SimWorld, a: acts.InteractEntity, t: int, out: list[ev.Event]) -> None:
        sheared.append(a.entity_id)
        shear(world, a, t, out)

    def spy_attack(world: SimWorld, a: acts.AttackEntity, t: int, out: list[ev.Event]) -> None:
        if a.entity_id in world.animals and world.animals[a.entity_id].kind == "sheep":
            hit.append(a.entity_id)
        attack(world, a, t, out)

    monkeypatch.setitem(sim_world._HANDLERS, acts.InteractEntity, spy_shear)
    monkeypatch.setitem(sim_world._HANDLERS, acts.AttackEntity, spy_attack)
    options = SimOptions(start_items=(("shears", 1),))
    with_shears = run_episode(1000, 6000, MockProvider(), options, stop_when_done=True, goal="3 white_wool")
    assert with_shears.milestones.get("white_wool") is not None and not with_shears.deaths
    assert sheared and not hit        # shorn, left standing: no sheep is hit
    sheared.clear()
    without = run_episode(1000, 6000, MockProvider(), SimOptions(), stop_when_done=True, goal="3 white_wool")
    assert without.milestones["shears"] < without.milestones["white_wool"]      # the shears made first
    assert sheared and not hit and not without.deaths


def test_a_shearing_and_a_regrowth_send_the_sheeps_shorn_flag() -> None:
    world, sheep = _by_a_sheep()
    out = world.apply([acts.InteractEntity(sheep.entity_id)], 5)
    assert ev.EntitySheared(sheep.entity_id, True) in out
    world.shear_rng = np.random.default_rng(0)
    grown: list[ev.Event] = []
    t = 6
    while sheep.sheared:
        grown += world.tick(t)
        t += 1
    assert ev.EntitySheared(sheep.entity_id, False) in grown
