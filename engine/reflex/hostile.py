"""Point-blank hostile mob → flee to distance 16 along a path.

Trigger: a hostile mob within ``point_blank`` blocks, less than two blocks
above or below the player's feet.
Action: sprint along a path to a cell ``flee_to`` blocks (horizontally) from
the mob; when the mob follows more than ``retarget`` blocks from where the
flight was planned, the goal moves with it and the path is re-planned. With
no way out (a pit the player dug, a dead end), go to the nearest cell the mob
cannot hit from where it stands: ``out_of_reach`` blocks away, or two blocks
above or below it (a melee mob reaches about 1.4 blocks). A player walled in
(``walled_in``: every cell a melee mob could hit from is a full block, as the
autopilot's shelter leaves it) is out of every mob's reach: nothing to flee.
Round the mobs, not past them: A* knows blocks, not mobs, so the flight's search
takes the cells that would pass a hostile (nearer it than the flight starts and
within ``PASSING``, at a height it can hit: ``Sidestep``) last, and a way round
the mob it flees and any other is found first when there is one. With none (a
tunnel whose mouth the mob stands in) it still runs past: a zombie is outrun at a
sprint and costs a hit at most, where a dead end keeps it hitting.
Release: the mob is ``flee_to`` blocks away or gone, or the path ends.
The cooldown is short: another mob (or the same one) at point-blank range
keeps hitting, and every second without a reflex costs health.
"""
from __future__ import annotations

import math

from typing import ClassVar

import attrs

from engine.motion.cells import FLOOR, SHAPE, TALL, UNKNOWN
from engine.motion.goals import Goal, GoalAway
from engine.motion.grid import Terrain
from engine.motion.navigator import Navigator, NavState
from engine.actions import ItemAction
from engine.reflex.base import REFLEX_SEARCH, Activity, ReflexContext, ReflexOutput, replan_if_off_path
from engine.reflex.inputs import Mob
from engine.reflex.notice import Notice
from engine.world.snapshot import Vec3


# Melee mobs reach about 1.4 blocks: two blocks of height between the feet is out of reach.
OUT_OF_REACH_BELOW = 2.0
# The columns around a body's cell: a melee mob standing in any of them (its feet or its head level
# with the player's feet or head) is within reach of a player in the middle of the cell, diagonals too.
AROUND = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
Cell = tuple[int, int, int]
# A flight's step this near a hostile, and nearer it than the flight started, passes it (a zombie
# hits from about 1.4 blocks, and walks toward the player while it passes).
PASSING = 3.0
# Added to the search's estimate at such a cell: every other way is searched first.
PASS_LAST = 1000.0


def reach_cells(x: int, y: int, z: int) -> tuple[Cell, ...]:
    """The cells that must be full blocks for a player standing in (x, y, z) to be out of a melee
    mob's reach: the eight around at the feet and at the head, then the one over the head (a mob
    could drop in). Feet level first, so each head-level block can be placed on the one under it."""
    return tuple((x + dx, y + dy, z + dz) for dy in (0, 1) for dx, dz in AROUND) + ((x, y + 2, z),)


def walls(terrain: Terrain, x: int, y: int, z: int) -> bool:
    """A full block a mob can neither stand in nor reach through (a slab or an unseen cell is not)."""
    c = terrain.cell(x, y, z)
    return not c & UNKNOWN and c & SHAPE in (FLOOR, TALL)


def walled_in(terrain: Terrain, x: int, y: int, z: int) -> bool:
    """Every cell a melee mob could hit a player standing in (x, y, z) from is a full block."""
    return all(walls(terrain, *c) for c in reach_cells(x, y, z))


def _nearest(mobs: tuple[Mob, ...], at: Vec3) -> tuple[Mob, float] | None:
    found = min(((m, m.position.distance_to(at)) for m in mobs), key=lambda pair: pair[1], default=None)
    return found


def _horizontal(a: Vec3, b: Vec3) -> float:
    return math.hypot(a.x - b.x, a.z - b.z)


@attrs.frozen
class GoalOutOfReach:
    """A cell a melee mob standing at (x, y, z) cannot hit: ``distance`` blocks away
    horizontally, or at least ``below`` blocks above or below its feet."""

    x: float
    y: float
    z: float
    distance: float
    below: float = OUT_OF_REACH_BELOW

    def _dist(self, x: int, z: int) -> float:
        return math.hypot(x + 0.5 - self.x, z + 0.5 - self.z)

    def reached(self, x: int, y: int, z: int) -> bool:
        return self._dist(x, z) >= self.distance or abs(y - self.y) >= self.below

    def heuristic(self, x: int, y: int, z: int) -> float:
        return max(0.0, min(self.distance - self._dist(x, z), self.below - abs(y - self.y)))


@attrs.frozen
class Sidestep:
    """``goal``, round the hostiles rather than past them: a cell that passes one (``passes``) is
    searched last (an estimate far too high keeps A* off it while any other way is open) and is
    never the end. ``mobs``: each hostile's feet and the distance within which a cell passes it
    (the flight's start's distance from it, at most PASSING)."""

    goal: Goal
    mobs: tuple[tuple[float, float, float, float], ...]

    def passes(self, x: int, y: int, z: int) -> bool:
        return any(abs(y - my) < OUT_OF_REACH_BELOW and math.hypot(x + 0.5 - mx, z + 0.5 - mz) < limit
                   for mx, my, mz, limit in self.mobs)

    def reached(self, x: int, y: int, z: int) -> bool:
        return self.goal.reached(x, y, z) and not self.passes(x, y, z)

    def heuristic(self, x: int, y: int, z: int) -> float:
        return self.goal.heuristic(x, y, z) + (PASS_LAST if self.passes(x, y, z) else 0.0)


def sidestep(goal: Goal, mobs: tuple[Mob, ...], at: Vec3) -> Sidestep:
    cx, cz = math.floor(at.x) + 0.5, math.floor(at.z) + 0.5
    return Sidestep(goal, tuple((m.position.x, m.position.y, m.position.z,
                                 min(PASSING, math.hypot(cx - m.position.x, cz - m.position.z))) for m in mobs))


@attrs.frozen
class HostileReflex:
    name: str = "hostile"
    reads_velocity: ClassVar[bool] = False   # its trigger: see ReflexEngine._candidate
    cooldown: float = 2.0
    timeout: float = 15.0
    point_blank: float = 3.0
    flee_to: float = 16.0
    retarget: float = 3.0
    out_of_reach: float = 4.0

    def _nearest(self, ctx: ReflexContext) -> tuple[Mob, float] | None:
        # Two blocks above or below, a mob cannot hit; it has to come round first.
        at = ctx.inputs.position
        within = tuple(m for m in ctx.inputs.hostile_mobs if abs(m.position.y - at.y) < OUT_OF_REACH_BELOW)
        return _nearest(within, at)

    def triggered(self, ctx: ReflexContext) -> bool:
        nearest = self._nearest(ctx)
        if nearest is None or nearest[1] > self.point_blank:
            return False
        at = ctx.inputs.position
        return not walled_in(ctx.terrain, math.floor(at.x), math.floor(at.y + 1e-6), math.floor(at.z))

    def begin(self, ctx: ReflexContext) -> Activity:
        nearest = self._nearest(ctx)
        assert nearest is not None
        return _Flee(ctx, nearest[0], self)


class _Flee:
    def __init__(self, ctx: ReflexContext, mob: Mob, reflex: HostileReflex) -> None:
        name = mob.kind.removeprefix("minecraft:").replace("_", " ")
        self.notice = Notice("hostile", f"ran from a {name} at point-blank range",
                             f"已带你逃离近在眼前的{name}")
        self.mob = mob
        self.reflex = reflex
        self.planned_from = mob.position
        self.cornered = False          # no way to get flee_to away: keep out of its reach instead
        goal = self._round(ctx, GoalAway(mob.position.x, mob.position.z, reflex.flee_to), ctx.inputs.position)
        self.navigator = Navigator(ctx.terrain, ctx.inputs.position, goal, REFLEX_SEARCH, sprint=True,
                                   clock=ctx.clock, on_ground=ctx.inputs.on_ground)

    def _mob_now(self, ctx: ReflexContext) -> Mob | None:
        return next((m for m in ctx.inputs.hostile_mobs if m.entity_id == self.mob.entity_id), None)

    def _round(self, ctx: ReflexContext, goal: Goal, at: Vec3) -> Sidestep:
        return sidestep(goal, ctx.inputs.hostile_mobs, at)

    def _goal(self, at: Vec3) -> GoalAway | GoalOutOfReach:
        if self.cornered:
            return GoalOutOfReach(at.x, at.y, at.z, self.reflex.out_of_reach)
        return GoalAway(at.x, at.z, self.reflex.flee_to)

    def tick(self, ctx: ReflexContext) -> ReflexOutput:
        mob = self._mob_now(ctx)
        if mob is not None:
            moved = _horizontal(mob.position, self.planned_from) > self.reflex.retarget
            caught_up = self.navigator.state is NavState.ARRIVED and not self.cornered
            if moved or caught_up:
                # The mob followed: flee from where it is now.
                self.planned_from = mob.position
                self.navigator.set_goal(self._round(ctx, self._goal(mob.position), self.navigator.position))
        replan_if_off_path(self.navigator)
        move = self.navigator.tick()
        if self.navigator.state is NavState.FAILED and not self.cornered:
            # Nowhere to run to: the nearest cell out of its reach (this tick's packet stands).
            self.cornered = True
            where = mob.position if mob is not None else self.planned_from
            self.planned_from = where
            self.navigator.set_goal(self._round(ctx, self._goal(where), self.navigator.position))
        return ReflexOutput(move=move)

    def done(self, ctx: ReflexContext) -> bool:
        mob = self._mob_now(ctx)
        if mob is None or _horizontal(mob.position, self.navigator.position) >= self.reflex.flee_to:
            return True
        if self.cornered and self.navigator.state is NavState.ARRIVED:
            return True
        return self.navigator.state is NavState.FAILED

    def abort(self) -> tuple[ItemAction, ...]:
        return ()
