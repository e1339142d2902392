"""``WorldModel.snapshot`` keeps its parts until an event changes them (issue 25's tick lever):
at every point of a random event stream the cached snapshot equals one built from scratch."""
from __future__ import annotations

import random

import attrs
import pytest

from engine import events as ev
from engine.events import SlotItem
from engine.world.model import WorldModel
from engine.world.snapshot import Vec3


def _events(seed: int, count: int) -> list[ev.Event]:
    rng = random.Random(seed)
    out: list[ev.Event] = [ev.JoinedGame(1, 0, "minecraft:overworld")]
    kinds = ["zombie", "cow", "player", "minecraft:creeper"]
    for _ in range(count):
        eid = rng.randint(2, 8)
        roll = rng.randrange(15)
        out.append([
            lambda: ev.PositionSet(rng.uniform(-5, 5), 64.0, rng.uniform(-5, 5), 0.0, 0.0,
                                   from_server=rng.random() < 0.3, on_ground=rng.random() < 0.5),
            lambda: ev.HealthChanged(rng.choice([20.0, 3.0, 0.0]), rng.randint(0, 20), 1.0),
            lambda: ev.EntitySpawned(eid, rng.choice(kinds), 1.0, 2.0, 3.0, uuid=f"u{eid}",
                                     category=rng.choice(["hostile", "passive", ""])),
            lambda: ev.EntityMoved(eid, rng.uniform(0, 9), 64.0, 1.0),
            lambda: ev.EntityMovedBy(eid, 0.5, 0.0, -0.5),
            lambda: ev.EntitiesRemoved((eid, eid + 1)),
            lambda: ev.PlayerListed(f"u{eid}", f"name{eid}"),
            lambda: ev.PlayerUnlisted(f"u{eid}"),
            lambda: ev.InventorySlotSet(rng.randrange(46), SlotItem("minecraft:stone", rng.randint(1, 64))),
            lambda: ev.HeldSlotChanged(rng.randrange(9)),
            lambda: ev.Respawned(0, rng.choice(["minecraft:overworld", "minecraft:the_nether"])),
            lambda: ev.ClientSettings(rng.choice(["en_us", "de_de"])),
            lambda: ev.TimeUpdated(0, rng.randrange(24000)),
            lambda: ev.EntitySheared(eid, rng.random() < 0.5),
            lambda: ev.LookSet(rng.uniform(-180, 180), rng.uniform(-90, 90), rng.random() < 0.5),
        ][roll]())
    return out


@pytest.mark.parametrize("seed", range(6))
def test_cached_snapshot_equals_a_fresh_one_after_every_event(seed: int) -> None:
    events = _events(seed, 150)
    cached = WorldModel("alice", "1.21.11")
    for i, event in enumerate(events):
        cached.apply(event)
        if i % 3:  # read between some events only, so parts are kept across several
            continue
        fresh = WorldModel("alice", "1.21.11")
        for earlier in events[: i + 1]:
            fresh.apply(earlier)
        assert cached.snapshot() == fresh.snapshot(), (i, event)
        assert cached.snapshot() == fresh.snapshot()  # a second read, from the cache


def test_parts_are_kept_until_their_events() -> None:
    model = WorldModel("alice", "1.21.11")
    model.apply(ev.PositionSet(1.0, 64.0, 1.0, 0.0, 0.0, from_server=True))
    model.apply(ev.EntitySpawned(5, "zombie", 0.0, 64.0, 0.0, category="hostile"))
    first = model.snapshot()
    assert model.snapshot() is first  # nothing changed: the same snapshot
    model.apply(ev.EntityMoved(5, 2.0, 64.0, 0.0))
    moved = model.snapshot()
    assert moved is not first and moved.player is first.player  # a mob's move rebuilds the entities only
    assert moved.entities[0].position.x == 2.0
    model.apply(ev.PositionSet(3.0, 64.0, 1.0, 0.0, 0.0, from_server=False, on_ground=True))
    walked = model.snapshot()
    assert walked.player is not moved.player and walked.player.position is not None
    assert walked.player.position.x == 3.0
    # The player's own movement and look rebuild the player's state only.
    assert walked.entities is moved.entities and walked.online_players is moved.online_players
    model.apply(ev.LookSet(90.0, 10.0, False))
    looked = model.snapshot()
    assert looked.player.yaw == 90.0 and looked.player is not walked.player
    assert looked.entities is moved.entities and looked.online_players is moved.online_players


@pytest.mark.parametrize("seed", range(3))
def test_entity_moves_keep_every_other_field(seed: int) -> None:
    """An entity's move (absolute or by a delta) changes its position only: the entity equals
    ``attrs.evolve`` of the one before with the new position, whatever its fields were."""
    rng = random.Random(seed)
    model = WorldModel("alice", "1.21.11")
    model.apply(ev.PlayerListed("u3", "bob"))
    for eid in range(2, 6):
        model.apply(ev.EntitySpawned(eid, rng.choice(["zombie", "cow", "player"]), 1.0, 2.0, 3.0,
                                     uuid=rng.choice([None, "u3", f"u{eid}"]),
                                     category=rng.choice(["hostile", "passive", ""])))
    for _ in range(200):
        eid = rng.randint(1, 6)  # 1 and 6: not kept, nothing happens
        before = dict(model.entities)
        old = before.get(eid)
        event: ev.EntityMoved | ev.EntityMovedBy
        if rng.random() < 0.5:
            event = ev.EntityMoved(eid, rng.uniform(-9, 9), 64.0, rng.uniform(-9, 9))
            position = Vec3(event.x, event.y, event.z)
        else:
            event = ev.EntityMovedBy(eid, rng.uniform(-1, 1), 0.25, rng.uniform(-1, 1))
            position = (Vec3(old.position.x + event.dx, old.position.y + event.dy, old.position.z + event.dz)
                        if old is not None else Vec3(0.0, 0.0, 0.0))
        model.apply(event)
        if old is not None:
            before[eid] = attrs.evolve(old, position=position)
        assert model.entities == before


def test_a_shorn_sheep_stays_shorn_when_it_moves() -> None:
    """The moves' fast path rebuilds the entity's view field by field: the shorn flag is one of them."""
    model = WorldModel("me")
    for event in (ev.JoinedGame(1, 0, "minecraft:overworld"), ev.EntitySpawned(7, "sheep", 1.0, 64.0, 1.0),
                  ev.EntitySheared(7, True), ev.EntityMoved(7, 2.0, 64.0, 1.0), ev.EntityMovedBy(7, 0.5, 0.0, 0.0)):
        model.apply(event)
    assert model.entities[7].sheared
    assert model.entities[7].position == Vec3(2.5, 64.0, 1.0)
