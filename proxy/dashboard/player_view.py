"""A player's page: the map around them, who is near, what the autopilot is doing and why.

How this works: ``player_view(name, session, now)`` reads one engine ``Session``
(its world model, block store, reflex engine and autopilot) and returns a
frozen ``PlayerView``. The autopilot's path and target come from its running
executor's navigator; the ladder from its milestones; the last decisions from
its episode log (which already holds no chat and no secret: ``engine.decision.logs``),
paired with their outcomes. Only names, kinds, positions and labels leave.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from engine.decision.ladder import NAMES as MILESTONES
from engine.reflex.engine import Event as ReflexEvent
from engine.session import Session
from proxy.dashboard.terrain_map import TopDownMap, top_down

MAP_RADIUS = 24
DECISIONS_SHOWN = 12
NEAR = 48.0      # entities farther than this from the player are left off the map


@attrs.frozen
class Marker:
    kind: str            # "player", a mob's kind ("zombie"), or an object's
    x: float
    y: float
    z: float
    name: str | None = None
    hostile: bool = False


@attrs.frozen
class LastReflex:
    name: str
    seconds_ago: float
    active: bool


@attrs.frozen
class Rung:
    name: str
    reached: bool
    current: bool


@attrs.frozen
class DecisionRow:
    tick: int
    choice: str
    reason: str
    source: str
    outcome: str | None


@attrs.frozen
class PlayerView:
    name: str
    version: str | None
    dimension: str | None
    position: tuple[float, float, float] | None
    yaw: float
    health: float | None
    food: int | None
    map: TopDownMap | None
    markers: tuple[Marker, ...]
    autopilot: bool
    action: str | None                         # the running executor's choice
    path: tuple[tuple[int, int, int], ...]     # the autopilot's current path, from where it is now
    target: tuple[int, int, int] | None
    last_reflex: LastReflex | None
    ladder: tuple[Rung, ...]
    progress: str | None
    decisions: tuple[DecisionRow, ...]


def _last_reflex(session: Session, now: float) -> LastReflex | None:
    reflexes = session.control.reflexes
    for when, name, event in reversed(reflexes.history):
        if event is ReflexEvent.TRIGGER:
            active = reflexes.active is not None and reflexes.active.name == name
            return LastReflex(name, round(max(0.0, now - when), 1), active)
    return None


def decision_rows(records: Iterable[dict[str, Any]], count: int = DECISIONS_SHOWN) -> tuple[DecisionRow, ...]:
    """The last ``count`` decisions of a decision log, each with the outcome recorded after it."""
    rows: list[DecisionRow] = []
    for record in records:
        kind = record.get("kind")
        if kind == "decision":
            decision = record.get("decision") or {}
            choice = str(decision.get("choice", "?"))
            args = decision.get("args") or []
            label = choice + (f"({','.join(str(a) for a in args)})" if args else "")
            rows.append(DecisionRow(int(record.get("tick", 0)), label, str(decision.get("reason", "")),
                                    str(decision.get("source", record.get("provider", ""))), None))
        elif kind == "outcome" and rows and rows[-1].outcome is None:
            rows[-1] = attrs.evolve(rows[-1], outcome=str(record.get("outcome", "")))
    return tuple(rows[-count:])


def _ladder(reached: Iterable[str], current: str | None) -> tuple[Rung, ...]:
    done = set(reached)
    return tuple(Rung(name, name in done, name == current) for name in MILESTONES)


def player_view(name: str, session: Session, now: float, radius: int = MAP_RADIUS) -> PlayerView:
    snap = session.snapshot()
    me = snap.player.position
    control = session.control
    terrain_map = None
    if me is not None and control.table is not None:
        terrain_map = top_down(control.store, control.table, me, radius)
    markers = tuple(
        Marker(e.kind, round(e.position.x, 2), round(e.position.y, 2),
               round(e.position.z, 2), e.name if e.kind == "player" else None, e.hostile)
        for e in snap.entities if me is None or e.position.distance_to(me) <= NEAR)
    autopilot = session.pilot.autopilot
    executor = autopilot.executor if autopilot is not None else None
    path: tuple[tuple[int, int, int], ...] = ()
    target = None
    action = None
    if executor is not None and session.pilot.active:
        action = executor.choice.label()
        target = executor.target
        nav = executor.navigator
        if nav is not None and nav.path is not None:
            start = max(0, nav.planner.progress - 1)
            path = tuple((s.x, s.y, s.z) for s in nav.path.steps[start:])
            if target is None and nav.path.steps:
                end = nav.path.steps[-1]
                target = (end.x, end.y, end.z)
    return PlayerView(
        name=name,
        version=snap.version,
        dimension=snap.player.dimension,
        position=(round(me.x, 2), round(me.y, 2), round(me.z, 2)) if me is not None else None,
        yaw=round(snap.player.yaw, 1),
        health=snap.player.health,
        food=snap.player.food,
        map=terrain_map,
        markers=markers,
        autopilot=session.pilot.active,
        action=action,
        path=path,
        target=target,
        last_reflex=_last_reflex(session, now),
        ladder=_ladder(autopilot.ladder.first if autopilot is not None else (),
                       autopilot.ladder.current if autopilot is not None else None),
        progress=session.pilot.progress,
        decisions=decision_rows(autopilot.log.decisions) if autopilot is not None else (),
    )
