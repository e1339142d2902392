"""Lava: in or touching lava → out, into water if there is some close by, else to the nearest safe block.

Trigger: the body's box, grown by 0.1 block, touches a lava cell.
Action: lava sets the player on fire for 15 seconds, which costs a point of
health a second once out, so first a short search (``WATER_REACH`` nodes) for
water with no lava beside it: found, the path leads out of the lava and into
the water, which puts the fire out on arrival. Else a path to the nearest
standable cell with no lava, fire or damaging block touching it
(``GoalSafe``), and the fire reflex takes over from there. Either path may
cross lava, which costs heavily, and lava-side cells cost extra, so both lead
out of the lava the shortest way.
Every tick on fire costs: it sprints where the food bar allows.
Release: out of the lava and in the water (or standing in a safe cell), or the path ends.
"""
from __future__ import annotations

from typing import ClassVar

import attrs

from engine.motion import grid as g
from engine.motion import physics as ph
from engine.motion.astar import LAVA_CELL, PathStatus, SearchOptions, find_path, start_cell
from engine.motion.goals import GoalBlock, GoalSafe
from engine.motion.grid import Terrain
from engine.reflex.base import REFLEX_SEARCH, Activity, NavigateActivity, ReflexContext, can_sprint
from engine.reflex.notice import Notice
from engine.world.snapshot import Vec3

NOTICE = Notice("lava", "pulled you out of lava", "已把你从岩浆里拉了出来")
TOUCH = 0.1
WATER_REACH = SearchOptions(max_nodes=600, time_budget=0.0003, allow_lava=True, allow_fire=True)


def touching_lava(ctx: ReflexContext, at: Vec3) -> bool:
    return ph.touching(ctx.terrain, at.x, at.y, at.z, g.LAVA, grow=TOUCH)


class GoalCoolWater:
    """A water cell with no lava in or beside it (above, below, the four sides)."""

    def __init__(self, terrain: Terrain) -> None:
        self.terrain = terrain

    def reached(self, x: int, y: int, z: int) -> bool:
        cell = self.terrain.cell
        if not cell(x, y, z) & g.WATER:
            return False
        around = ((x, y - 1, z), (x, y + 1, z), (x + 1, y, z), (x - 1, y, z), (x, y, z + 1), (x, y, z - 1))
        return not any(cell(*c) & g.LAVA for c in around)

    def heuristic(self, x: int, y: int, z: int) -> float:
        return 0.0


def _released(ctx: ReflexContext, at: Vec3) -> bool:
    # Out of the lava is not enough: stand in a cell with no lava beside it.
    return (not touching_lava(ctx, at) and ph.supported(ctx.terrain, at.x, at.y, at.z)
            and GoalSafe(ctx.terrain).reached(*start_cell(at)))


def _released_in_water(ctx: ReflexContext, at: Vec3) -> bool:
    return not touching_lava(ctx, at) and ph.touching(ctx.terrain, at.x, at.y, at.z, g.WATER)


@attrs.frozen
class LavaReflex:
    name: str = "lava"
    reads_velocity: ClassVar[bool] = False   # its trigger: see ReflexEngine._candidate
    cooldown: float = 3.0
    timeout: float = 15.0

    def triggered(self, ctx: ReflexContext) -> bool:
        return touching_lava(ctx, ctx.inputs.position)

    def begin(self, ctx: ReflexContext) -> Activity:
        options = attrs.evolve(REFLEX_SEARCH, allow_lava=True, allow_fire=True)
        at = ctx.inputs.position
        water = find_path(ctx.terrain, at, GoalCoolWater(ctx.terrain), WATER_REACH, ctx.clock)
        if water.status is PathStatus.FOUND:
            # Only if it leaves the lava as quickly as the way to dry land: one more
            # lava cell on the way costs more than the whole burn.
            safe = find_path(ctx.terrain, at, GoalSafe(ctx.terrain), options, ctx.clock)
            if safe.status is not PathStatus.FOUND or water.cost < safe.cost + LAVA_CELL / 2:
                end = water.end
                return NavigateActivity(ctx, GoalBlock(end.x, end.y, end.z), NOTICE, _released_in_water, options,
                                        sprint=can_sprint(ctx.inputs))
        return NavigateActivity(ctx, GoalSafe(ctx.terrain), NOTICE, _released, options, sprint=can_sprint(ctx.inputs))
