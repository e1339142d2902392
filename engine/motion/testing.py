"""Drive paths and goals headlessly and replay the packets through the checker.

Used by the motion and reflex tests, the benchmark, and anyone wiring the
motion layer to a session: ``navigate(...)`` returns every packet a Navigator
would send and the checker's verdict on them.
"""
from __future__ import annotations

from collections.abc import Callable

import attrs

from engine.actions import InjectMovement
from engine.motion import physics as ph
from engine.motion.astar import Path, SearchOptions
from engine.motion.checker import Movement, MovementChecker, Violation
from engine.motion.goals import Goal
from engine.motion.grid import Terrain
from engine.motion.navigator import Navigator, NavState
from engine.motion.stepper import Stepper, StepperState
from engine.world.snapshot import Vec3


@attrs.frozen
class Drive:
    packets: tuple[Movement, ...]
    violations: tuple[Violation, ...]
    final: Vec3
    outcome: str          # the navigator's or stepper's last state
    ticks: int


def _packet(tick: int, m: InjectMovement) -> Movement:
    return Movement(tick, m.x, m.y, m.z, m.on_ground)


def drive_path(terrain: Terrain, start: Vec3, path: Path, sprint: bool = False, max_ticks: int = 2000) -> Drive:
    stepper = Stepper(terrain, start, sprint=sprint)
    stepper.follow(path)
    checker = MovementChecker(terrain, ph.SPRINT_SPEED if sprint else ph.WALK_SPEED)
    checker.feed(Movement(0, start.x, start.y, start.z, ph.supported(terrain, start.x, start.y, start.z)))
    packets = []
    tick = 0
    for tick in range(1, max_ticks + 1):
        packet = _packet(tick, stepper.tick())
        packets.append(packet)
        checker.feed(packet)
        if stepper.state is not StepperState.MOVING:
            break
    return Drive(tuple(packets), tuple(checker.violations), stepper.position, stepper.state.value, tick)


def navigate(terrain: Terrain, start: Vec3, goal: Goal, options: SearchOptions = SearchOptions(),
             sprint: bool = False, max_ticks: int = 2000,
             events: dict[int, Callable[[Navigator, MovementChecker], None]] | None = None) -> Drive:
    """Run a Navigator until it arrives or fails; ``events[tick]`` runs before that tick
    (change a block, teleport: tell both the navigator and the checker)."""
    navigator = Navigator(terrain, start, goal, options, sprint=sprint)
    checker = MovementChecker(terrain, ph.SPRINT_SPEED if sprint else ph.WALK_SPEED)
    checker.feed(Movement(0, start.x, start.y, start.z, ph.supported(terrain, start.x, start.y, start.z)))
    packets = []
    tick = 0
    for tick in range(1, max_ticks + 1):
        if events and tick in events:
            events[tick](navigator, checker)
        packet = _packet(tick, navigator.tick())
        packets.append(packet)
        checker.feed(packet)
        if navigator.state is not NavState.MOVING:
            break
    return Drive(tuple(packets), tuple(checker.violations), navigator.position, navigator.state.value, tick)
