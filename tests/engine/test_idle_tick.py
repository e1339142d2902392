"""The idle tick (``Session._idle``): when nothing can act, the tick builds no snapshot, and
everything it does is what the full tick would have done (the CPU lever of issue 25)."""
from __future__ import annotations

import math
import random

import pytest

from engine import events as ev
from engine.actions import Action
from engine.motion.worlds import WorldBuilder
from engine.session import Session, SessionConfig


def _session(reflexes: bool, terrain: bool) -> Session:
    session = Session("alice", SessionConfig(version="1.18.2" if terrain else None, reflexes=reflexes))
    if terrain:
        world = WorldBuilder("1.18.2", x=(-16, 32), y=(0, 16), z=(-16, 32))
        world.fill(-16, 0, -16, 31, 3, 31, "stone")
        session.control.store = world.store
        session.control.terrain = world.terrain()
    return session


def _script(seed: int) -> list[tuple[str, object]]:
    """Events and ticks in a seeded order: the player walks, is hurt (to 0 and NaN too), a
    reflex's early move is pending now and then, and midway the reflexes go on and off again."""
    rng = random.Random(seed)
    steps: list[tuple[str, object]] = [("event", ev.JoinedGame(7, 0, "minecraft:overworld"))]
    x, z = 0.5, 0.5
    for i in range(300):
        roll = rng.random()
        if roll < 0.45:
            x += rng.uniform(-0.3, 0.3)
            z += rng.uniform(-0.3, 0.3)
            steps.append(("event", ev.PositionSet(x, 4.0, z, 0.0, 0.0, from_server=rng.random() < 0.1,
                                                  on_ground=True)))
        elif roll < 0.5:
            steps.append(("event", ev.HealthChanged(rng.choice([20.0, 5.0, 0.0, math.nan]), 20, 5.0)))
        elif roll < 0.55:
            steps.append(("early", None))  # as if a reflex had moved on a packet since the last tick
        else:
            steps.append(("tick", None))
        if i == 120:
            steps.append(("reflexes", True))
        if i == 200:
            steps.append(("reflexes", False))
    return steps


def _run(session: Session, steps: list[tuple[str, object]]) -> list[tuple[object, ...]]:
    seen: list[tuple[object, ...]] = []
    now = 0.0
    for kind, what in steps:
        actions: list[Action] = []
        if kind == "tick":
            now += 0.05
            actions = session.tick(now)
        elif kind == "reflexes":
            session.control.reflexes.set_all(bool(what), now)
        elif kind == "early":
            session._early_move = True
        else:
            actions = session.handle(what, now)  # type: ignore[arg-type]
        seen.append((kind, repr(actions), session.control.velocity, session.control._last,
                     session._early_move, session.control.reflex_driving))
    return seen


@pytest.mark.parametrize("reflexes,terrain", [(False, False), (False, True), (True, True)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_idle_tick_does_what_the_full_tick_does(reflexes: bool, terrain: bool, seed: int) -> None:
    steps = _script(seed)
    fast = _session(reflexes, terrain)
    full = _session(reflexes, terrain)
    full._idle = lambda: False  # type: ignore[method-assign]
    assert _run(fast, steps) == _run(full, steps)


def test_an_idle_tick_builds_no_snapshot() -> None:
    session = _session(reflexes=False, terrain=True)
    built = 0
    snapshot = session.world.snapshot

    def counting():  # type: ignore[no-untyped-def]
        nonlocal built
        built += 1
        return snapshot()

    session.world.snapshot = counting  # type: ignore[method-assign]
    session.handle(ev.PositionSet(0.5, 4.0, 0.5, 0.0, 0.0, from_server=False, on_ground=True), 0.0)
    session.handle(ev.PositionSet(1.5, 4.0, 0.5, 0.0, 0.0, from_server=False, on_ground=True), 0.0)
    for i in range(20):
        session.tick(0.05 * i)
    assert built == 0
    assert session.control._last is not None and session.control._last.x == 1.5
    session.control.reflexes.set_all(True, 1.0)  # a reflex may fire now: every tick reads the world
    session.tick(1.05)
    assert built == 1
