"""``Control.reflex_tick`` filters the hostile mobs once per entities tuple the world model
keeps (the player's own movement keeps it): the inputs each decision gets hold the same
hostile mobs as filtering the snapshot's entities afresh, over random event streams."""
from __future__ import annotations

import random
from typing import Any

import pytest

from engine import events as ev
from engine.control import Control
from engine.reflex.inputs import ReflexInputs, hostile_mobs
from engine.world.model import WorldModel


@pytest.mark.parametrize("seed", range(4))
def test_each_decision_gets_the_hostile_mobs_of_its_snapshot(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    seen: list[tuple[Any, Any]] = []
    real = ReflexInputs.from_snapshot

    def spy(snapshot: Any, **kw: Any) -> ReflexInputs | None:
        inputs = real(snapshot, **kw)
        if inputs is not None:
            seen.append((inputs.hostile_mobs, hostile_mobs(snapshot.entities)))
        return inputs

    monkeypatch.setattr(ReflexInputs, "from_snapshot", staticmethod(spy))
    control = Control("1.21.11", reflexes_on=True)
    world = WorldModel("alice", "1.21.11")
    world.apply(ev.JoinedGame(1, 0, "minecraft:overworld"))
    kinds = ["zombie", "cow", "skeleton", "player", "minecraft:creeper"]
    for _ in range(300):
        eid = rng.randint(2, 9)
        roll = rng.randrange(6)
        if roll == 0:
            world.apply(ev.EntitySpawned(eid, rng.choice(kinds), rng.uniform(-4, 4), 64.0, rng.uniform(-4, 4),
                                         category=rng.choice(["hostile", "passive", ""])))
        elif roll == 1:
            world.apply(ev.EntityMoved(eid, rng.uniform(-4, 4), 64.0, rng.uniform(-4, 4)))
        elif roll == 2:
            world.apply(ev.EntitiesRemoved((eid,)))
        else:  # the player's own movement: the entities tuple is kept
            world.apply(ev.PositionSet(rng.uniform(-4, 4), 64.0, rng.uniform(-4, 4), 0.0, 0.0, from_server=False))
        control.reflex_tick(world.snapshot(), 0.0)
    assert len(seen) > 200 and any(kept for kept, _ in seen)
    for kept, fresh in seen:
        assert kept == fresh
