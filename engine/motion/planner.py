"""PathPlanner: keeps a path to a goal current while the world and the goal change.

How this works: the planner holds the last path. It marks itself dirty when
told of a block change on or next to a step still ahead (the cells a step's
body, floor or sides use), when the server teleports the player, or when a
moving goal has moved; ``update(position)`` then plans again from the current
position. A partial path (budget ran out) is extended the same way once the
player gets near its end. Planning reuses ``find_path`` with the caller's node
and time budgets, so one ``update`` never takes longer than the budget. With
``SearchOptions.slice_nodes`` a search runs in slices, one per ``update``:
until it ends, ``update`` returns None and ``searching`` is true (a teleport
or a new goal drops it and starts over).
"""
from __future__ import annotations

import math
from collections.abc import Callable

from engine.motion.astar import Path, PathStatus, Search, SearchOptions, find_path
from engine.motion.goals import Goal, GoalFollow
from engine.motion.grid import Terrain
from engine.world.snapshot import Vec3

# Re-plan a partial path when this few steps of it are left.
EXTEND_WHEN_LEFT = 3


class PathPlanner:
    def __init__(self, terrain: Terrain, goal: Goal, options: SearchOptions = SearchOptions(),
                 clock: Callable[[], float] | None = None) -> None:
        self.terrain = terrain
        self.goal = goal
        self.options = options
        self.clock = clock
        self.path: Path | None = None
        self.progress = 0          # index of the step the follower is heading to
        self.dirty = True
        self.plans = 0
        self.search: Search | None = None      # a sliced search still running

    @property
    def searching(self) -> bool:
        return self.search is not None

    def plan(self, start: Vec3) -> Path:
        """Plan from ``start`` now, in one go."""
        self.search = None
        return self._adopt(find_path(self.terrain, start, self.goal, self.options, self.clock))

    def _adopt(self, path: Path) -> Path:
        self.path = path
        self.progress = 1
        self.dirty = False
        self.plans += 1
        if isinstance(self.goal, GoalFollow):
            self.goal.mark_planned()
        return path

    def set_goal(self, goal: Goal) -> None:
        self.goal = goal
        self.dirty = True
        self.search = None

    def block_changed(self, x: int, y: int, z: int) -> bool:
        """Note a block change; True if it touches the path ahead (a re-plan is due)."""
        if self.path is None:
            return False
        for step in self.path.steps[max(0, self.progress - 1):]:
            if abs(step.x - x) <= 1 and abs(step.z - z) <= 1 and step.y - 1 <= y <= step.y + 2:
                self.dirty = True
                return True
        return False

    def teleported(self) -> None:
        self.dirty = True
        self.search = None

    def needs_replan(self) -> bool:
        if self.dirty or self.path is None:
            return True
        if isinstance(self.goal, GoalFollow) and self.goal.moved_since_plan():
            return True
        if self.path.status is PathStatus.PARTIAL and len(self.path.steps) - self.progress <= EXTEND_WHEN_LEFT:
            return True
        return False

    def update(self, position: Vec3, progress: int | None = None) -> Path | None:
        """Re-plan from ``position`` if due; returns the new path, or None if the old one stands."""
        if progress is not None:
            self.progress = progress
        if self.search is None:
            if not self.needs_replan():
                return None
            if self.options.slice_nodes is None:
                return self.plan(position)
            self.search = Search(self.terrain, position, self.goal, self.options, self.clock)
            self.dirty = False          # a change from now on calls for the search after this one
        path = self.search.run()
        if path is None:
            return None
        self.search = None
        dirty = self.dirty
        self._adopt(path)
        self.dirty = dirty
        return path

    def remaining(self, position: Vec3) -> float:
        """Straight-line distance from ``position`` to the path's last step (inf without a path)."""
        if self.path is None:
            return math.inf
        end = self.path.end
        return math.dist((position.x, position.y, position.z), (end.x + 0.5, end.feet_y, end.z + 0.5))
