"""Lava: in or touching lava → walk (or swim) to the nearest safe block, away from lava.

Trigger: the body's box, grown by 0.1 block, touches a lava cell.
Action: a path to the nearest standable cell with no lava, fire or damaging
block touching it (``GoalSafe``); the path may cross lava, which costs heavily,
and lava-side cells cost extra, so it prefers leading away from the lava.
Release: the body stands in a safe cell (no lava touching or beside it), or the path ends.
"""
from __future__ import annotations

import attrs

from engine.motion import grid as g
from engine.motion import physics as ph
from engine.motion.astar import start_cell
from engine.motion.goals import GoalSafe
from engine.reflex.base import REFLEX_SEARCH, Activity, NavigateActivity, ReflexContext
from engine.reflex.notice import Notice
from engine.world.snapshot import Vec3

NOTICE = Notice("lava", "pulled you out of lava", "已把你从岩浆里拉了出来")
TOUCH = 0.1


def touching_lava(ctx: ReflexContext, at: Vec3) -> bool:
    return ph.touching(ctx.terrain, at.x, at.y, at.z, g.LAVA, grow=TOUCH)


def _released(ctx: ReflexContext, at: Vec3) -> bool:
    # Out of the lava is not enough: stand in a cell with no lava beside it.
    return (not touching_lava(ctx, at) and ph.supported(ctx.terrain, at.x, at.y, at.z)
            and GoalSafe(ctx.terrain).reached(*start_cell(at)))


@attrs.frozen
class LavaReflex:
    name: str = "lava"
    cooldown: float = 3.0
    timeout: float = 15.0

    def triggered(self, ctx: ReflexContext) -> bool:
        return touching_lava(ctx, ctx.inputs.position)

    def begin(self, ctx: ReflexContext) -> Activity:
        options = attrs.evolve(REFLEX_SEARCH, allow_lava=True, allow_fire=True)
        return NavigateActivity(ctx, GoalSafe(ctx.terrain), NOTICE, _released, options)
