"""Navigator: a planner and a stepper driven together, one movement packet per tick.

How this works: each ``tick()`` asks the planner whether a (re-)plan is due —
first tick, a block changed on the path, a server teleport, a moving goal
moved, a partial path running out, the stepper stuck — plans from the body's
current position within the budget, hands the path to the stepper, and
returns the stepper's packet. A path that reaches the goal ends in ARRIVED; a
search that found nothing better than standing still ends in FAILED.

    MOVING ──stepper arrived, path complete──► ARRIVED
       │ ──stepper arrived on a partial path──► (re-plan) MOVING
       │ ──a sliced search needs more ticks──► (hold still) MOVING
       │ ──no step to take──► FAILED
    any ──teleport / block change / goal moved──► (re-plan on next tick)
"""
from __future__ import annotations

import enum
from collections.abc import Callable

from engine.actions import InjectMovement
from engine.motion.astar import Path, PathStatus, SearchOptions
from engine.motion.goals import Goal
from engine.motion.grid import Terrain
from engine.motion.planner import PathPlanner
from engine.motion.stepper import Stepper, StepperState
from engine.world.snapshot import Vec3

MAX_STUCK_REPLANS = 3


class NavState(enum.Enum):
    MOVING = "moving"
    ARRIVED = "arrived"
    FAILED = "failed"


class Navigator:
    def __init__(self, terrain: Terrain, position: Vec3, goal: Goal, options: SearchOptions = SearchOptions(),
                 sprint: bool = False, clock: Callable[[], float] | None = None,
                 on_ground: bool | None = None) -> None:
        self.terrain = terrain
        self.planner = PathPlanner(terrain, goal, options, clock)
        self.stepper = Stepper(terrain, position, sprint=sprint, on_ground=on_ground)
        self.state = NavState.MOVING
        self._stuck_replans = 0

    @property
    def path(self) -> Path | None:
        return self.planner.path

    @property
    def position(self) -> Vec3:
        return self.stepper.position

    def set_goal(self, goal: Goal) -> None:
        """Head somewhere else from here (a fleeing goal that moves with its threat)."""
        self.planner.set_goal(goal)
        self._stuck_replans = 0
        self.state = NavState.MOVING

    def block_changed(self, x: int, y: int, z: int) -> None:
        if self.planner.block_changed(x, y, z) and self.state is NavState.ARRIVED:
            self.state = NavState.MOVING

    def teleport(self, position: Vec3) -> None:
        self.stepper.teleport(position)
        self.planner.teleported()
        if self.state is not NavState.FAILED:
            self.state = NavState.MOVING

    def tick(self) -> InjectMovement:
        if self.state is NavState.MOVING:
            self._maybe_plan()
        command = self.stepper.tick()
        if self.state is NavState.MOVING and self.stepper.state is StepperState.ARRIVED:
            path = self.planner.path
            if path is not None and path.status is PathStatus.FOUND:
                self.state = NavState.ARRIVED
            else:
                self.planner.dirty = True
        return command

    def _maybe_plan(self) -> None:
        stepper = self.stepper
        if stepper.state is StepperState.STUCK:
            self._stuck_replans += 1
            if self._stuck_replans > MAX_STUCK_REPLANS:
                self.state = NavState.FAILED
                stepper.stop()
                return
            self.planner.dirty = True
        if stepper.state is StepperState.TELEPORTED:
            self.planner.dirty = True
        new = self.planner.update(stepper.position, progress=stepper.index)
        if new is None:
            if self.planner.searching:
                # A sliced search goes on next tick: stand (and fall) where it started, so
                # the path it finds still starts under the feet.
                stepper.stop()
            return
        if len(new.steps) <= 1 and new.status is not PathStatus.FOUND:
            self.state = NavState.FAILED
            stepper.stop()
            return
        stepper.follow(new)
        if new.status is PathStatus.FOUND and len(new.steps) <= 1:
            self.state = NavState.ARRIVED
