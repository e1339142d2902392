"""Void or deep drop ahead → stop at the edge.

Trigger: standing on a block and moving (faster than ``min_speed``) toward a
column that, ``look_ahead`` blocks ahead, has no block to land on within
``deep`` blocks, or none down to the world's bottom (the void). Water
breaks a fall, so landing in water is not deep.
Action: take the movement over, walk back to the centre of the nearest safe
cell behind the player, and hold there for ``hold_ticks``.
Release: held long enough.
"""
from __future__ import annotations

import math

import attrs

from engine.motion import grid as g
from engine.motion.astar import SearchOptions, start_cell
from engine.motion.goals import GoalBlock
from engine.motion.grid import Terrain
from engine.motion.navigator import Navigator, NavState
from engine.actions import ItemAction
from engine.reflex.base import Activity, ReflexContext, ReflexOutput
from engine.reflex.notice import Notice
from engine.world.snapshot import Vec3

NOTICE = Notice("edge", "stopped you at the edge of a deep drop", "已在深坑边缘拦住了你")
BACK_SEARCH = SearchOptions(max_nodes=60)


SCAN_LIMIT = 128


def drop_below(terrain: Terrain, x: int, y: int, z: int, min_y: int) -> float:
    """Blocks fallen from feet level ``y`` in column (x, z) before landing; inf for the void.

    Landing in water counts as no fall at all (it breaks any fall). Unknown cells
    count as something to land on, which keeps the check quiet at unloaded chunks.
    Past ``SCAN_LIMIT`` blocks the drop is as good as the void.
    """
    for fallen in range(SCAN_LIMIT):
        cy = y - 1 - fallen
        if cy < min_y:
            return math.inf
        c = terrain.cell(x, cy, z)
        if c & g.WATER:
            return 0.0
        if c & (g.SHAPE | g.UNKNOWN):
            return float(fallen)
    return math.inf


@attrs.frozen
class EdgeReflex:
    name: str = "edge"
    cooldown: float = 5.0
    timeout: float = 3.0
    deep: int = 4               # falling four blocks or more hurts
    look_ahead: float = 0.8
    min_speed: float = 0.05
    hold_ticks: int = 10

    def _danger(self, ctx: ReflexContext) -> bool:
        i = ctx.inputs
        speed = math.hypot(i.velocity.x, i.velocity.z)
        if not i.on_ground or speed < self.min_speed:
            return False
        ax = i.position.x + i.velocity.x / speed * self.look_ahead
        az = i.position.z + i.velocity.z / speed * self.look_ahead
        cx, cy, cz = math.floor(ax), start_cell(i.position)[1], math.floor(az)
        if ctx.terrain.cell(cx, cy, cz) & g.SHAPE or ctx.terrain.cell(cx, cy + 1, cz) & g.SHAPE:
            return False      # a wall ahead, not a drop
        return drop_below(ctx.terrain, cx, cy, cz, i.min_y) >= self.deep

    def triggered(self, ctx: ReflexContext) -> bool:
        return ctx.inputs.game_mode not in (1, 3) and self._danger(ctx)

    def begin(self, ctx: ReflexContext) -> Activity:
        return _Hold(ctx, self)


class _Hold:
    def __init__(self, ctx: ReflexContext, reflex: EdgeReflex) -> None:
        self.notice = NOTICE
        self.reflex = reflex
        self.held = 0
        i = ctx.inputs
        target = self._safe_cell(ctx)
        self.navigator = Navigator(ctx.terrain, i.position, GoalBlock(*target), BACK_SEARCH, clock=ctx.clock,
                                   on_ground=i.on_ground)

    def _safe_cell(self, ctx: ReflexContext) -> tuple[int, int, int]:
        # The player's own cell if it holds them, else one step back against the motion.
        i = ctx.inputs
        x, y, z = start_cell(i.position)
        speed = math.hypot(i.velocity.x, i.velocity.z) or 1.0
        back = (math.floor(i.position.x - i.velocity.x / speed), y, math.floor(i.position.z - i.velocity.z / speed))
        for cell in ((x, y, z), back):
            if ctx.terrain.is_standable(*cell):
                return cell
        return (x, y, z)

    @property
    def position(self) -> Vec3:
        return self.navigator.position

    def tick(self, ctx: ReflexContext) -> ReflexOutput:
        move = self.navigator.tick()
        if self.navigator.state is not NavState.MOVING:
            self.held += 1
        return ReflexOutput(move=move)

    def done(self, ctx: ReflexContext) -> bool:
        return self.held >= self.reflex.hold_ticks

    def abort(self) -> tuple[ItemAction, ...]:
        return ()
