"""A Navigator as a Session driver: ``!goto`` and the like, one InjectMovement a tick.

It meets the Session's ``Driver`` protocol (``name``, ``step``, ``finished``,
``server_moved``) without importing the session: the Session hands it the
snapshot each tick; the navigator keeps its own body, which is what the Session
writes back into the world model while it drives.
"""
from __future__ import annotations

from engine.actions import Action, InjectMovement
from engine.motion.astar import SearchOptions
from engine.motion.goals import Goal
from engine.motion.grid import Terrain
from engine.motion.navigator import Navigator, NavState
from engine.world.snapshot import Vec3, WorldSnapshot


# Give up when the goal has come no closer for this long: the known blocks offer no
# way forward (say, the path ends where the server has sent no chunks yet), and
# holding the player's controls forever would be worse than handing them back.
STALL_SECONDS = 10.0
PROGRESS = 1.0  # blocks closer to the goal that count as progress


class NavigatorDriver:
    def __init__(self, terrain: Terrain, position: Vec3, goal: Goal, name: str = "goto",
                 options: SearchOptions = SearchOptions(max_nodes=4000), sprint: bool = False,
                 on_ground: bool | None = None) -> None:
        self.name = name
        self.goal = goal
        self.navigator = Navigator(terrain, position, goal, options, sprint=sprint, on_ground=on_ground)
        self._best: float | None = None
        self._best_at: float | None = None
        self._stalled = False

    def step(self, snapshot: WorldSnapshot, now: float) -> list[Action]:
        if self.navigator.state is not NavState.MOVING:
            return []
        move = self.navigator.tick()
        remaining = self.goal.heuristic(int(move.x // 1), int(move.y // 1), int(move.z // 1))
        if self._best is None or remaining < self._best - PROGRESS:
            self._best, self._best_at = remaining, now
        elif self._best_at is not None and now - self._best_at > STALL_SECONDS:
            self._stalled = True
        return [move]

    def finished(self) -> str | None:
        state = self.navigator.state
        if state is NavState.ARRIVED:
            return "arrived"
        if state is NavState.FAILED:
            return "no path"
        if self._stalled:
            return f"stuck: no way forward for {STALL_SECONDS:g} s in the blocks I know"
        return None

    def server_moved(self, x: float, y: float, z: float, now: float) -> None:
        self.navigator.teleport(Vec3(x, y, z))

    def block_changed(self, x: int, y: int, z: int) -> None:
        self.navigator.block_changed(x, y, z)
