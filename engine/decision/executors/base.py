"""The executors' frame: what each is given every tick, the hand, the base class and walking.

``Executor.step`` runs once per tick (the deadline, the resync after a pause, recording the
move) and calls the subclass's ``run``; ``go``/``move`` are the one way an executor moves: a
``Navigator`` (our A* and the vanilla-legal stepper).
"""
from __future__ import annotations

import math
from collections.abc import Callable

import attrs
import numpy as np

from engine import actions as acts
from engine.actions import Action, InjectMovement, SelectHotbar
from engine.decision.catalog import Choice
from engine.decision.knowledge import dig_ticks
from engine.decision.perception import EYE, BlockFinder
from engine.decision.state import inventory_counts
from engine.events import SlotItem
from engine.motion import physics as ph
from engine.motion.astar import PathStatus, SearchOptions
from engine.motion.goals import Goal, GoalAway, GoalNear, GoalXZ
from engine.motion.grid import Terrain
from engine.motion.navigator import Navigator, NavState
from engine.world.snapshot import Vec3, WorldSnapshot

Pos = tuple[int, int, int]
MAX_PLANS = 8          # searches one navigation may start before it counts as failed
TABLE_RANGE = 24.0     # a known crafting table or furnace this close is walked to, not rebuilt
JOB_RANGE = 48.0       # a furnace holding a job of ours this close is walked back to, not given up


@attrs.define
class ExecContext:
    snapshot: WorldSnapshot
    terrain: Terrain
    finder: BlockFinder
    tick: int
    now: float
    blacklist: set[Pos]
    search: SearchOptions
    smelting: dict[Pos, tuple[str, int, int]]           # furnace → (output, count, start tick): our jobs
    rng: np.random.Generator
    ignored: set[int] = attrs.field(factory=set)        # item entities found unreachable
    clock: Callable[[], float] | None = None            # bounds planning time (with search.time_budget)
    day: bool = True                                    # beds work only at night (the world model's clock)
    shelter: set[Pos] = attrs.field(factory=set)        # blocks our shelter placed that are still to reopen

    @property
    def position(self) -> Vec3:
        p = self.snapshot.player.position
        assert p is not None
        return p

    def counts(self) -> dict[str, int]:
        return inventory_counts(self.snapshot.player.inventory)

    def dig_ticks(self, block: str) -> int | None:
        """Ticks to break ``block`` with what the player holds (None: it cannot be dug so)."""
        held = self.snapshot.player.held_item
        return dig_ticks(block, held.item.removeprefix("minecraft:") if held is not None else None)

    def near_block(self, name: str, reach: float = 4.5) -> Pos | None:
        p = self.position
        eye = Vec3(p.x, p.y + EYE - 0.5, p.z)
        found = self.finder.nearest(name, eye, radius=reach, limit=1, exposed=False)
        return found[0][1] if found else None


def hold(ctx: ExecContext, item: str | None) -> list[Action] | None:
    """Actions that put ``item`` in the hand ([] if it is there; None if it is not in the inventory)."""
    player = ctx.snapshot.player
    held = player.held_item
    if item is None:
        return []

    def named(slot: SlotItem | None) -> bool:
        # A proxy's slots carry the namespace ("minecraft:cobblestone"); the simulator's do not.
        return slot is not None and slot.item.removeprefix("minecraft:") == item

    if named(held):
        return []
    inv = player.inventory
    for i in range(36, 45):
        if named(inv[i]):
            return [SelectHotbar(i - 36)]
    for i in range(9, 36):
        if named(inv[i]):
            return [acts.SwapToHotbar(i, player.held_slot)]
    return None


class Executor:
    name = "executor"

    def __init__(self, choice: Choice, timeout: int, tick: int) -> None:
        self.choice = choice
        self.deadline = tick + timeout
        self.status: str | None = None
        self.target: Pos | None = None
        self.navigator: Navigator | None = None
        self.last_move: InjectMovement | None = None
        self.moved_at: int | None = None          # the tick of last_move

    def step(self, ctx: ExecContext) -> list[Action]:
        if self.status is None and ctx.tick >= self.deadline:
            self.status = "timeout"
        if self.status is not None:
            return []
        nav = self.navigator
        if nav is not None and self.moved_at is not None and ctx.tick > self.moved_at + 1:
            # Ticks without a packet of ours (a fight in reach, a follower standing): the
            # autopilot's hold packets moved the body meanwhile, so the stepper's body (mid-jump,
            # rising) is stale; resuming it would rise again from where it paused. (A walk that
            # arrived, a follower standing beside its player, has nothing to resume.)
            if nav.state is NavState.MOVING:
                nav.teleport(ctx.position)
            elif nav.state is NavState.ARRIVED and not nav.stepper.body.on_ground:
                # Arrived in mid-fall (``move`` lets gravity finish), then a pause: the hold
                # packets went on falling, and the landing goes on from there, not from the
                # stale top of the arc (seed 1208: a hunt stepped off a ledge beside the cow).
                nav.stepper.teleport(ctx.position)
        out = self.run(ctx)
        for a in out:
            if isinstance(a, InjectMovement):
                self.last_move = a
                self.moved_at = ctx.tick
        return out

    def run(self, ctx: ExecContext) -> list[Action]:
        raise NotImplementedError

    @property
    def waiting(self) -> bool:
        """Standing still by choice (idle, a follower beside its player): not what "stuck" means."""
        return False

    def cancel(self, why: str) -> list[Action]:
        if self.status is None:
            self.status = why
        return []

    def resync(self, position: Vec3) -> None:
        if self.navigator is not None:
            self.navigator.teleport(position)

    # -- movement -------------------------------------------------------------------------------
    def go(self, ctx: ExecContext, goal: Goal, sprint: bool = False, urgent: bool = False) -> None:
        """Navigate to ``goal``; ``urgent`` (fleeing): plan in one go, not a slice a tick standing still."""
        search = attrs.evolve(ctx.search, slice_nodes=None) if urgent else ctx.search
        self.navigator = Navigator(ctx.terrain, ctx.position, goal, search, sprint=sprint, clock=ctx.clock)

    def move(self, found_only: bool = False) -> tuple[list[Action], NavState]:
        """One tick of the navigation. ``found_only``: a goal close by (a drop) that a whole
        search did not reach is out of reach; fail at once instead of walking to the nearest
        point and searching again (each search can take many ticks)."""
        nav = self.navigator
        if nav is None:
            return [], NavState.ARRIVED
        if nav.state is NavState.ARRIVED and not nav.stepper.body.on_ground \
                and ph.medium(nav.terrain, nav.stepper.body) in ("air", "ground"):
            # Arrived mid-fall (a goal reached from the air): let gravity finish before acting,
            # or the next packet would come many ticks later from the same point in the air.
            return [nav.tick()], NavState.MOVING
        if nav.state is not NavState.MOVING:
            return [], nav.state
        if nav.planner.plans > MAX_PLANS:
            # The motion layer re-plans a partial path each tick when the goal stays out of
            # reach; give up instead of paying a full search every tick.
            return [], NavState.FAILED
        m = nav.tick()
        path = nav.planner.path
        if found_only and path is not None and path.status is not PathStatus.FOUND:
            nav.state = NavState.FAILED
        return [m], nav.state


class Walk(Executor):
    """explore, go_to, flee, step aside: walk toward a goal; ok on arrival or after ``enough`` blocks."""

    def __init__(self, choice: Choice, timeout: int, tick: int, goal_of: Callable[[ExecContext], Goal | None],
                 enough: float = math.inf, sprint: bool = False, urgent: bool = False) -> None:
        super().__init__(choice, timeout, tick)
        self.goal_of = goal_of
        self.enough = enough
        self.sprint = sprint
        self.urgent = urgent
        self.start: Vec3 | None = None

    def run(self, ctx: ExecContext) -> list[Action]:
        if self.navigator is None:
            goal = self.goal_of(ctx)
            if goal is None:
                self.status = "no target"
                return []
            self.start = ctx.position
            self.go(ctx, goal, self.sprint, self.urgent)
        out, state = self.move()
        assert self.start is not None
        far = ctx.position.distance_to(self.start) >= self.enough
        if state is NavState.ARRIVED or (far and self.navigator is not None and self.navigator.stepper.body.on_ground):
            self.status = "ok"
        elif state is NavState.FAILED:
            self.status = "no path"
        return out


CENTRED = 0.19             # off the cell's middle by more: the body (0.3 each side) overhangs a neighbour


def off_centre(ctx: ExecContext, at: Pos) -> bool:
    p = ctx.position
    return max(abs(p.x - at[0] - 0.5), abs(p.z - at[2] - 0.5)) > CENTRED


def centre_move(ctx: ExecContext, at: Pos) -> InjectMovement:
    """One tick's walk toward the middle of the cell ``at``, at walking speed."""
    t, p = ctx.terrain, ctx.position
    body = ph.Body(p.x, p.y, p.z, 0.0, ph.supported(t, p.x, p.y, p.z))
    dx, dz = at[0] + 0.5 - p.x, at[2] + 0.5 - p.z
    off = math.hypot(dx, dz)
    scale = min(ph.max_speed(ph.medium(t, body)), off) / off
    b = ph.advance(t, body, ph.Controls(dx * scale, dz * scale, False)).body
    player = ctx.snapshot.player
    return InjectMovement(b.x, b.y, b.z, player.yaw, player.pitch, b.on_ground)


def explore_goal(ctx: ExecContext) -> Goal | None:
    # Head for a random column 24 blocks away, inside the area the store has loaded
    # (none yet just after a respawn or a dimension change: nothing to explore toward).
    keys = list(ctx.terrain.store.keys())
    if not keys:
        return None
    xs = [k[0] for k in keys]
    zs = [k[2] for k in keys]
    lo_x, hi_x = min(xs) * 16 + 4, (max(xs) + 1) * 16 - 5
    lo_z, hi_z = min(zs) * 16 + 4, (max(zs) + 1) * 16 - 5
    angle = float(ctx.rng.uniform(0, 2 * math.pi))
    p = ctx.position
    x = int(min(max(p.x + 24 * math.cos(angle), lo_x), hi_x))
    z = int(min(max(p.z + 24 * math.sin(angle), lo_z), hi_z))
    return GoalXZ(x, z)


FLEE_TO = 16.0


def flee_goal(ctx: ExecContext, distance: float = FLEE_TO) -> Goal | None:
    p = ctx.position
    mobs = [e for e in ctx.snapshot.entities if e.hostile]
    if not mobs:
        return None
    m = min(mobs, key=lambda e: e.position.distance_to(p))
    return GoalAway(m.position.x, m.position.z, distance)


def aside_goal(ctx: ExecContext) -> Goal:
    p = ctx.position
    angle = float(ctx.rng.uniform(0, 2 * math.pi))
    return GoalNear(math.floor(p.x + 3 * math.cos(angle)), math.floor(p.y + 0.5), math.floor(p.z + 3 * math.sin(angle)), 1.5)

