"""Drowning: air below a threshold with the head under water → up to air.

Trigger: air (ticks of breath, from metadata) at or below ``threshold`` and
the eyes in a water cell.
Action: a path to the nearest cell to stand on with the head out of water if
one is close (``LAND_REACH`` nodes), else to the nearest surface cell.
Release: the eyes are out of water and the path ended, or air is back above
``release_air``.
"""
from __future__ import annotations

import math

from typing import ClassVar

import attrs

from engine.motion import grid as g
from engine.motion.astar import PathStatus, SearchOptions, find_path
from engine.motion.goals import GoalAir, GoalBlock
from engine.motion.grid import Terrain
from engine.world.vanilla import EYE_HEIGHT
from engine.reflex.base import REFLEX_SEARCH, Activity, NavigateActivity, ReflexContext
from engine.reflex.notice import Notice
from engine.world.snapshot import Vec3

NOTICE = Notice("drowning", "brought you up for air", "已带你浮出水面换气")
LAND_REACH = SearchOptions(max_nodes=400, time_budget=0.0002)


def eyes_in_water(terrain: Terrain, at: Vec3) -> bool:
    return bool(terrain.cell(math.floor(at.x), math.floor(at.y + EYE_HEIGHT), math.floor(at.z)) & g.WATER)


class _GoalDryLand:
    """Standing on a block with the head out of water."""

    def __init__(self, terrain: Terrain) -> None:
        self.terrain = terrain

    def reached(self, x: int, y: int, z: int) -> bool:
        t = self.terrain
        return t.feet_y(x, y, z) is not None and not t.cell(x, y + 1, z) & g.WATER

    def heuristic(self, x: int, y: int, z: int) -> float:
        return 0.0


@attrs.frozen
class DrowningReflex:
    name: str = "drowning"
    reads_velocity: ClassVar[bool] = False   # its trigger: see ReflexEngine._candidate
    cooldown: float = 3.0
    timeout: float = 20.0
    threshold: int = 100          # 5 seconds of breath left
    release_air: int = 200

    def triggered(self, ctx: ReflexContext) -> bool:
        air = ctx.inputs.air
        return air is not None and air <= self.threshold and eyes_in_water(ctx.terrain, ctx.inputs.position)

    def begin(self, ctx: ReflexContext) -> Activity:
        release_air = self.release_air

        def released(c: ReflexContext, at: Vec3) -> bool:
            return c.inputs.air is not None and c.inputs.air >= release_air

        land = find_path(ctx.terrain, ctx.inputs.position, _GoalDryLand(ctx.terrain), LAND_REACH, ctx.clock)
        if land.status is PathStatus.FOUND:
            end = land.end
            return NavigateActivity(ctx, GoalBlock(end.x, end.y, end.z), NOTICE, released, REFLEX_SEARCH)
        return NavigateActivity(ctx, GoalAir(ctx.terrain), NOTICE, released, REFLEX_SEARCH)
