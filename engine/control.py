"""Sense and act for one player: the block world, movement commands and reflexes.

How this works: ``Control`` owns the player's block store (fed by chunk and
block events), a ``Terrain`` view for the planner, and a ``ReflexEngine``.
The Session asks it to turn explicit commands (``!goto``, ``!follow``) into
drivers, and each tick asks ``reflex_tick`` whether a reflex takes over. The
priority is fixed here and in the Session: kill switch > reflex > command driver.
Nothing here reads a clock or touches the network.
"""
from __future__ import annotations

import math

from engine import events as ev
from engine.actions import Action
from engine.motion.driver import NavigatorDriver
from engine.motion.goals import GoalBlock, GoalFollow
from engine.motion.grid import Terrain
from engine.reflex.engine import ReflexDecision, ReflexEngine
from engine.reflex.inputs import Mob, ReflexInputs, hostile_mobs
from engine.world.blocks import BlockStore, BlockTable
from engine.world.snapshot import EntityView, Vec3, WorldSnapshot

FOLLOW_RADIUS = 2.5
# Columns kept around the player (Chebyshev distance in chunks), so memory stays bounded
# however far the client sees. A server sends a column once, when it comes into view, and
# never again while it stays there: a column dropped on arrival is a hole the player later
# walks into. So the radius covers vanilla's default view distance (10) with room to spare;
# beyond 12, the holes come back (and the planner treats them as unknown ground).
WORLD_RADIUS = 12


class FollowDriver:
    """Keep within reach of another player: navigate when they get away, wait when close."""

    def __init__(self, control: "Control", target: str, snapshot: WorldSnapshot) -> None:
        self.name = f"follow {target}"
        self.control = control
        self.target = target
        self.snapshot = snapshot
        self.inner: NavigatorDriver | None = None
        self._gone = False

    def _where(self) -> Vec3 | None:
        for entity in self.snapshot.entities:
            if entity.kind == "player" and (entity.name or "").lower() == self.target.lower():
                return entity.position
        return None

    def step(self, snapshot: WorldSnapshot, now: float) -> list[Action]:
        self.snapshot = snapshot
        me = snapshot.player.position
        there = self._where()
        if there is None or me is None:
            self._gone = there is None
            return []
        if self.inner is not None and self.inner.finished() is None:
            return self.inner.step(snapshot, now)
        terrain = self.control.terrain
        if terrain is not None and me.distance_to(there) > FOLLOW_RADIUS + 1.0:
            self.inner = NavigatorDriver(terrain, me, GoalFollow(self._where, FOLLOW_RADIUS),
                                         name=self.name, on_ground=snapshot.player.on_ground)
            return self.inner.step(snapshot, now)
        return []

    def finished(self) -> str | None:
        return f"{self.target} is out of sight" if self._gone else None

    def server_moved(self, x: float, y: float, z: float, now: float) -> None:
        if self.inner is not None:
            self.inner.server_moved(x, y, z, now)

    def block_changed(self, x: int, y: int, z: int) -> None:
        if self.inner is not None:
            self.inner.block_changed(x, y, z)


class Control:
    def __init__(self, version: str | None, reflexes_on: bool = False) -> None:
        self.table = BlockTable.for_version(version) if version else None
        self.store = BlockStore()
        self.terrain = Terrain(self.store, self.table) if self.table is not None else None
        self.min_y = 0
        self.reflexes = ReflexEngine()
        if reflexes_on:
            self.reflexes.set_all(True)
        self.reflex_driving = False
        self._last: Vec3 | None = None
        self._loads = 0
        self.velocity = Vec3(0.0, 0.0, 0.0)
        # The hostile mobs of the last entities seen: the world keeps its entities tuple until an
        # entity event, so the reflex checks on the player's own movement filter it once.
        self._entities_seen: tuple[EntityView, ...] | None = None
        self._hostile: tuple[Mob, ...] = ()

    # -- the block world ---------------------------------------------------------------
    def world_event(self, event: ev.Event) -> list[tuple[int, int, int]]:
        """Apply a block-world event; return the changed block positions."""
        if isinstance(event, ev.ChunkColumnLoaded):
            here = self._last
            if here is not None and max(abs(event.cx - (int(here.x) >> 4)), abs(event.cz - (int(here.z) >> 4))) > WORLD_RADIUS:
                return []
            if event.source is not None:
                self.store.set_lazy_column(event.cx, event.cz, event.source, replace=event.full)
            else:
                self.store.set_column(event.cx, event.cz, event.sections, replace=event.full)
            self._loads += 1
            if here is not None and self._loads % 64 == 0:
                self.store.keep_near(int(here.x) >> 4, int(here.z) >> 4, WORLD_RADIUS)
        elif isinstance(event, ev.BlocksChanged):
            changed = []
            for x, y, z, state in event.changes:
                if self._keeps(x >> 4, y >> 4, z >> 4):
                    self.store.set_block(x, y, z, state)
                    changed.append((x, y, z))
            for x, y, z in changed:
                self.reflexes.block_changed(x, y, z)
            return changed
        elif isinstance(event, ev.ChunkUnloaded):
            self.store.unload_chunk(event.cx, event.cz)
        elif isinstance(event, ev.DimensionChanged):
            self.store.clear()
            self.min_y = event.min_y
        return []

    def _keeps(self, cx: int, sy: int, cz: int) -> bool:
        """Whether a block change there is worth keeping: inside the kept radius of the player,
        or (before the first position) in a section a chunk packet already filled. Anything
        else would allocate a section per change at any distance (8 KB each) for nothing."""
        here = self._last
        if here is None:
            return self.store.has_section((cx, sy, cz))
        return max(abs(cx - (int(here.x) >> 4)), abs(cz - (int(here.z) >> 4))) <= WORLD_RADIUS

    def ready(self, snapshot: WorldSnapshot) -> str | None:
        """Why movement cannot start now, or None."""
        if self.terrain is None:
            return "no block data for this Minecraft version"
        if snapshot.player.position is None:
            return "your position is not known yet"
        return None

    # -- commands ------------------------------------------------------------------------
    def goto(self, x: int, y: int, z: int, snapshot: WorldSnapshot) -> NavigatorDriver | str:
        why = self.ready(snapshot)
        if why is not None or self.terrain is None or snapshot.player.position is None:
            return why or "not ready"
        return NavigatorDriver(self.terrain, snapshot.player.position, GoalBlock(x, y, z), name=f"goto {x} {y} {z}",
                               on_ground=snapshot.player.on_ground)

    def follow(self, target: str, snapshot: WorldSnapshot) -> FollowDriver | str:
        why = self.ready(snapshot)
        if why is not None:
            return why
        if not any(e.kind == "player" and (e.name or "").lower() == target.lower() for e in snapshot.entities):
            return f"I cannot see {target} nearby"
        return FollowDriver(self, target, snapshot)

    # -- reflexes ------------------------------------------------------------------------
    def observe(self, pos: Vec3 | None) -> None:
        """The player's position at this tick: the velocity the reflexes read, and the centre
        of the columns kept (``world_event``)."""
        if pos is not None and self._last is not None:
            self.velocity = Vec3(pos.x - self._last.x, pos.y - self._last.y, pos.z - self._last.z)
        self._last = pos

    def reflexes_may_fire(self, autopilot: bool = False) -> bool:
        """Whether ``reflex_tick`` could decide anything (False: it returns None at once)."""
        return self.terrain is not None and bool(self.reflexes.enabled or autopilot)

    def reflex_tick(self, snapshot: WorldSnapshot, now: float, autopilot: bool = False) -> ReflexDecision | None:
        terrain = self.terrain
        if terrain is None or not self.reflexes_may_fire(autopilot):
            return None
        entities = snapshot.entities
        if entities is not self._entities_seen:
            self._entities_seen = entities
            self._hostile = hostile_mobs(entities)
        inputs = ReflexInputs.from_snapshot(snapshot, velocity=self.velocity, min_y=self.min_y, hostile=self._hostile)
        if inputs is None:
            return None
        pos = inputs.position
        terrain.prefetch(math.floor(pos.x), math.floor(pos.y), math.floor(pos.z))
        return self.reflexes.decide(inputs, terrain, now, autopilot)

    def moved(self, x: float, y: float, z: float) -> None:
        """The server teleported the player (a correction): reflex paths start over."""
        self.reflexes.teleported(Vec3(x, y, z))
        self._last = Vec3(x, y, z)

