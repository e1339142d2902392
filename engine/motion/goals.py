"""Goals for the pathfinder: where a search may stop, and how far that looks.

A goal answers two questions about a node (the cell holding the feet):
``reached(x, y, z)`` and ``heuristic(x, y, z)``, a lower bound of the remaining
cost in blocks (every move costs at least its length, so plain distances are
admissible). Goals that track something moving (``GoalFollow``) read their
target each time they are asked, so a search and a planner always see the
target where it is now; ``moved_since_plan`` tells a planner when to re-plan.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Protocol

import attrs

from engine.motion import grid as g
from engine.motion.grid import Terrain
from engine.world.snapshot import Vec3


class Goal(Protocol):
    def reached(self, x: int, y: int, z: int) -> bool:
        ...

    def heuristic(self, x: int, y: int, z: int) -> float:
        ...


def _octile(dx: float, dz: float) -> float:
    # Diagonal steps cost sqrt(2), straight ones 1: the exact cost on open ground.
    ax, az = abs(dx), abs(dz)
    return max(ax, az) + (math.sqrt(2) - 1) * min(ax, az)


@attrs.frozen
class GoalBlock:
    """Stand with the feet in exactly this cell."""

    x: int
    y: int
    z: int

    def reached(self, x: int, y: int, z: int) -> bool:
        return x == self.x and y == self.y and z == self.z

    def heuristic(self, x: int, y: int, z: int) -> float:
        return _octile(x - self.x, z - self.z) + abs(y - self.y)


@attrs.frozen
class GoalNear:
    """Within ``radius`` blocks (straight-line, cell to cell) of a cell."""

    x: int
    y: int
    z: int
    radius: float

    def reached(self, x: int, y: int, z: int) -> bool:
        return (x - self.x) ** 2 + (y - self.y) ** 2 + (z - self.z) ** 2 <= self.radius ** 2

    def heuristic(self, x: int, y: int, z: int) -> float:
        d = math.sqrt((x - self.x) ** 2 + (y - self.y) ** 2 + (z - self.z) ** 2)
        return max(0.0, d - self.radius)


@attrs.frozen
class GoalXZ:
    """Any height in this column."""

    x: int
    z: int

    def reached(self, x: int, y: int, z: int) -> bool:
        return x == self.x and z == self.z

    def heuristic(self, x: int, y: int, z: int) -> float:
        return _octile(x - self.x, z - self.z)


@attrs.frozen
class GoalY:
    """Any cell at this height."""

    y: int

    def reached(self, x: int, y: int, z: int) -> bool:
        return y == self.y

    def heuristic(self, x: int, y: int, z: int) -> float:
        return float(abs(y - self.y))


class GoalFollow:
    """Within ``radius`` of a moving target, read through ``target()`` on every question.

    ``target`` returns the entity's current position (None once it is gone: then
    nothing is reached and a planner stops).
    """

    def __init__(self, target: Callable[[], Vec3 | None], radius: float = 2.0, replan_distance: float = 2.0) -> None:
        self.target = target
        self.radius = radius
        self.replan_distance = replan_distance
        self.planned_at: Vec3 | None = None

    def _cell_centre(self) -> tuple[float, float, float] | None:
        at = self.target()
        if at is None:
            return None
        return (math.floor(at.x) + 0.5, math.floor(at.y + 0.5 - 1e-6), math.floor(at.z) + 0.5)

    def reached(self, x: int, y: int, z: int) -> bool:
        c = self._cell_centre()
        if c is None:
            return False
        return (x + 0.5 - c[0]) ** 2 + (y - c[1]) ** 2 + (z + 0.5 - c[2]) ** 2 <= self.radius ** 2

    def heuristic(self, x: int, y: int, z: int) -> float:
        c = self._cell_centre()
        if c is None:
            return 0.0
        d = math.sqrt((x + 0.5 - c[0]) ** 2 + (y - c[1]) ** 2 + (z + 0.5 - c[2]) ** 2)
        return max(0.0, d - self.radius)

    def mark_planned(self) -> None:
        self.planned_at = self.target()

    def moved_since_plan(self) -> bool:
        now = self.target()
        if now is None or self.planned_at is None:
            return now is not self.planned_at
        return now.distance_to(self.planned_at) > self.replan_distance


@attrs.frozen
class GoalAway:
    """At least ``distance`` blocks (horizontally) from a point: fleeing."""

    x: float
    z: float
    distance: float

    def _dist(self, x: int, z: int) -> float:
        return math.hypot(x + 0.5 - self.x, z + 0.5 - self.z)

    def reached(self, x: int, y: int, z: int) -> bool:
        return self._dist(x, z) >= self.distance

    def heuristic(self, x: int, y: int, z: int) -> float:
        # Each block of movement adds at most one block of distance.
        return max(0.0, self.distance - self._dist(x, z))


class GoalSafe:
    """The nearest cell to stand on with no lava, fire or damaging block touching the body.

    Used by the lava and fire reflexes; ``heuristic`` is 0 (so the search is a
    Dijkstra flood), 1 on a hazardous node, which is still a lower bound: leaving it
    takes at least one move.
    """

    def __init__(self, terrain: Terrain, avoid: int = g.LAVA | g.FIRE | g.DAMAGE) -> None:
        self.terrain = terrain
        self.avoid = avoid

    def _touches(self, x: int, y: int, z: int) -> bool:
        cell = self.terrain.cell
        for cy in (y - 1, y, y + 1):
            if cell(x, cy, z) & self.avoid:
                return True
            for dx, dz in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if cell(x + dx, cy, z + dz) & self.avoid:
                    return True
        return False

    def reached(self, x: int, y: int, z: int) -> bool:
        return self.terrain.feet_y(x, y, z) is not None and not self._touches(x, y, z)

    def heuristic(self, x: int, y: int, z: int) -> float:
        return 1.0 if self.terrain.cell(x, y, z) & self.avoid else 0.0


class GoalWater:
    """A cell of water to stand or swim in (putting out fire)."""

    def __init__(self, terrain: Terrain) -> None:
        self.terrain = terrain

    def reached(self, x: int, y: int, z: int) -> bool:
        return bool(self.terrain.cell(x, y, z) & g.WATER)

    def heuristic(self, x: int, y: int, z: int) -> float:
        return 0.0


class GoalAir:
    """Head out of water: the cell above the feet holds no water (surfacing)."""

    def __init__(self, terrain: Terrain) -> None:
        self.terrain = terrain

    def reached(self, x: int, y: int, z: int) -> bool:
        return not self.terrain.cell(x, y + 1, z) & g.WATER

    def heuristic(self, x: int, y: int, z: int) -> float:
        return 0.0
