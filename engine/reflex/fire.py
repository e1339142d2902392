"""Fire: burning or standing in fire → into water if it is within reach, else away from fire.

Trigger: the on-fire flag from the player's metadata, or the box touching a fire cell.
Action: a short search for water (``WATER_REACH`` nodes, a few blocks); if
found, go there, else to the nearest cell with no fire touching it.
It sprints where the food bar allows: every second on fire costs a point of health.
Release: not burning and not touching fire, or the path ends.
"""
from __future__ import annotations

from typing import ClassVar

import attrs

from engine.motion import grid as g
from engine.motion import physics as ph
from engine.motion.astar import PathStatus, SearchOptions, find_path
from engine.motion.goals import GoalBlock, GoalSafe, GoalWater
from engine.reflex.base import REFLEX_SEARCH, Activity, NavigateActivity, ReflexContext, can_sprint
from engine.reflex.notice import Notice
from engine.world.snapshot import Vec3

TO_WATER = Notice("fire_water", "led you into water to put the fire out", "已带你跳进水里灭火")
AWAY = Notice("fire_away", "moved you away from the fire", "已带你远离火焰")
WATER_REACH = SearchOptions(max_nodes=300, time_budget=0.0002, allow_fire=True)


def touching_fire(ctx: ReflexContext, at: Vec3) -> bool:
    return ph.touching(ctx.terrain, at.x, at.y, at.z, g.FIRE)


def _released(ctx: ReflexContext, at: Vec3) -> bool:
    # Water puts the fire out, which the server reports by clearing the on-fire flag.
    return not ctx.inputs.burning and not touching_fire(ctx, at)


@attrs.frozen
class FireReflex:
    name: str = "fire"
    reads_velocity: ClassVar[bool] = False   # its trigger: see ReflexEngine._candidate
    cooldown: float = 3.0
    timeout: float = 10.0

    def triggered(self, ctx: ReflexContext) -> bool:
        return ctx.inputs.burning or touching_fire(ctx, ctx.inputs.position)

    def begin(self, ctx: ReflexContext) -> Activity:
        options = attrs.evolve(REFLEX_SEARCH, allow_fire=True)
        water = find_path(ctx.terrain, ctx.inputs.position, GoalWater(ctx.terrain), WATER_REACH, ctx.clock)
        sprint = can_sprint(ctx.inputs)
        if water.status is PathStatus.FOUND:
            end = water.end
            return NavigateActivity(ctx, GoalBlock(end.x, end.y, end.z), TO_WATER, _released, options, sprint=sprint)
        return NavigateActivity(ctx, GoalSafe(ctx.terrain, g.FIRE), AWAY, _released, options, sprint=sprint)
