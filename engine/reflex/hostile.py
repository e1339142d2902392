"""Point-blank hostile mob → flee to distance 16 along a path.

Trigger: a hostile mob within ``point_blank`` blocks.
Action: sprint along a path to a cell ``flee_to`` blocks (horizontally) from
the mob; when the mob follows more than ``retarget`` blocks from where the
flight was planned, the goal moves with it and the path is re-planned.
Release: the mob is ``flee_to`` blocks away or gone, or the path ends.
"""
from __future__ import annotations

import math

import attrs

from engine.motion.goals import GoalAway
from engine.motion.navigator import Navigator, NavState
from engine.reflex.base import REFLEX_SEARCH, Activity, ItemOp, ReflexContext, ReflexOutput
from engine.reflex.inputs import Mob
from engine.reflex.notice import Notice
from engine.world.snapshot import Vec3


def _nearest(mobs: tuple[Mob, ...], at: Vec3) -> tuple[Mob, float] | None:
    found = min(((m, m.position.distance_to(at)) for m in mobs), key=lambda pair: pair[1], default=None)
    return found


def _horizontal(a: Vec3, b: Vec3) -> float:
    return math.hypot(a.x - b.x, a.z - b.z)


@attrs.frozen
class HostileReflex:
    name: str = "hostile"
    cooldown: float = 10.0
    timeout: float = 15.0
    point_blank: float = 3.0
    flee_to: float = 16.0
    retarget: float = 3.0

    def triggered(self, ctx: ReflexContext) -> bool:
        nearest = _nearest(ctx.inputs.hostile_mobs, ctx.inputs.position)
        return nearest is not None and nearest[1] <= self.point_blank

    def begin(self, ctx: ReflexContext) -> Activity:
        nearest = _nearest(ctx.inputs.hostile_mobs, ctx.inputs.position)
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
        goal = GoalAway(mob.position.x, mob.position.z, reflex.flee_to)
        self.navigator = Navigator(ctx.terrain, ctx.inputs.position, goal, REFLEX_SEARCH, sprint=True,
                                   clock=ctx.clock, on_ground=ctx.inputs.on_ground)

    def _mob_now(self, ctx: ReflexContext) -> Mob | None:
        return next((m for m in ctx.inputs.hostile_mobs if m.entity_id == self.mob.entity_id), None)

    def tick(self, ctx: ReflexContext) -> ReflexOutput:
        mob = self._mob_now(ctx)
        if mob is not None:
            moved = _horizontal(mob.position, self.planned_from) > self.reflex.retarget
            caught_up = self.navigator.state is NavState.ARRIVED
            if moved or caught_up:
                # The mob followed: flee from where it is now.
                self.planned_from = mob.position
                self.navigator.set_goal(GoalAway(mob.position.x, mob.position.z, self.reflex.flee_to))
        return ReflexOutput(move=self.navigator.tick())

    def done(self, ctx: ReflexContext) -> bool:
        mob = self._mob_now(ctx)
        if mob is None or _horizontal(mob.position, self.navigator.position) >= self.reflex.flee_to:
            return True
        return self.navigator.state is NavState.FAILED

    def abort(self) -> tuple[ItemOp, ...]:
        return ()
