"""A pit the player cannot walk out of, and climbing out of it by pillaring up.

How this works: ``trapped(terrain, pos)`` walks the standing cells the body can
reach from where it stands (a step, a jump of one block, a drop of up to three)
and says the body is trapped when none of them lies ESCAPE blocks away. Mining
leaves such pits (iron two deep under a rocky outcrop, stone beside it), and a
walk never leads out of one: the planner can only walk, so every walk, flight
or step aside fails with "no path" and the player stays in it, a sitting target
for a zombie on the rim. ``ClimbOut`` is what a player does there: with a
block in hand, jump, place it under the feet at the top of the jump (where the
body has cleared the cell), land on it, and again until the body can walk away.

    hold block ──► jump ──feet above the cell──► place under ──landed──► trapped? ──no──► ok
                                                                          └─yes──► jump
"""
from __future__ import annotations

import math
from collections import deque

from engine.actions import InjectMovement
from engine import actions as acts
from engine.actions import Action
from engine.decision.catalog import ActionName, Choice
from engine.decision.executors import ExecContext, Executor, hold
from engine.decision.knowledge import members
from engine.motion import physics as ph
from engine.motion.grid import Terrain
from engine.world.snapshot import Vec3

ESCAPE = 4              # a standing cell this far (Chebyshev, horizontally) is out
MAX_NODES = 256         # standing cells walked at most: a pit is small, open ground is found at once
MAX_DROP = 3            # a drop the body takes without harm
MAX_LEVELS = 6          # blocks placed at most in one climb
PLACE_WAIT = 30         # ticks from placing to landing at most before the climb counts as refused
# Blocks worth spending on a pillar, cheapest first (planks are fuel and tools: last).
PILLAR_BLOCKS = ("dirt", "cobblestone", "cobbled_deepslate", "stone") + members("#planks")

Cell = tuple[int, int, int]


def feet_cell(pos: Vec3) -> Cell:
    return (math.floor(pos.x), math.floor(pos.y + 1e-6), math.floor(pos.z))


def trapped(terrain: Terrain, pos: Vec3) -> bool:
    """No standing cell ESCAPE blocks away can be walked to from here (and the body stands on
    known ground, out of water: a swimmer is not trapped, and unloaded ground next to the
    walk counts as a way out, so only pits seen whole are climbed)."""
    start = feet_cell(pos)
    sx, sy, sz = start
    if not terrain.is_standable(sx, sy, sz) or terrain.is_water(sx, sy, sz):
        return False
    seen = {start}
    queue = deque([start])
    while queue:
        x, y, z = queue.popleft()
        if max(abs(x - sx), abs(z - sz)) >= ESCAPE or len(seen) >= MAX_NODES:
            return False                       # out, or a space too big to be a pit
        for dx, dz in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nx, nz = x + dx, z + dz
            if not terrain.is_known(nx, y, nz):
                return False
            for cell in _moves(terrain, x, y, z, nx, nz):
                if cell not in seen:
                    seen.add(cell)
                    queue.append(cell)
    return True


def _moves(terrain: Terrain, x: int, y: int, z: int, nx: int, nz: int) -> list[Cell]:
    out: list[Cell] = []
    # Up one: a jump needs room above the head here and a standing cell there.
    if terrain.is_passable(x, y + 2, z) and terrain.is_standable(nx, y + 1, nz):
        out.append((nx, y + 1, nz))
    # Level, or down by up to MAX_DROP through open cells.
    if terrain.is_passable(nx, y, nz) and terrain.is_passable(nx, y + 1, nz):
        for drop in range(0, MAX_DROP + 1):
            cy = y - drop
            if drop and not terrain.is_passable(nx, cy, nz):
                break
            if terrain.is_standable(nx, cy, nz):
                out.append((nx, cy, nz))
                break
    return out


def pillar_block(counts: dict[str, int]) -> str | None:
    return next((b for b in PILLAR_BLOCKS if counts.get(b, 0) > 0), None)


CENTRED = 0.05          # close enough to the middle of the cell to pillar straight up


class ClimbOut(Executor):
    """Pillar up out of a pit: jump, place a block under the feet, land on it, until out."""

    def __init__(self, tick: int, item: str, timeout: int = 400) -> None:
        super().__init__(Choice(ActionName.PLACE_BLOCK, (item,)), timeout, tick)
        self.item = item
        self.phase = "hold"
        self.body: ph.Body | None = None
        self.cell: Cell | None = None          # where the next block goes (the cell the feet left)
        self.placed_at = 0
        self.levels = 0

    def run(self, ctx: ExecContext) -> list[Action]:
        terrain = ctx.terrain
        if self.phase == "hold":
            ops = hold(ctx, self.item)
            if ops is None:
                self.status = f"no {self.item}"
                return []
            self.phase = "ready"
            if ops:
                return ops
        if self.phase == "ready":
            pos = ctx.position
            if not trapped(terrain, pos):
                self.status = "ok"
                return []
            x, y, z = feet_cell(pos)
            if self.levels >= MAX_LEVELS or not terrain.is_passable(x, y + 2, z):
                self.status = "cannot climb"              # a roof over the pit, or too deep
                return []
            if ctx.counts().get(self.item, 0) == 0:
                self.status = f"no {self.item}"
                return []
            dx, dz = x + 0.5 - pos.x, z + 0.5 - pos.z
            off = math.hypot(dx, dz)
            if off > CENTRED:
                # Onto the middle of the cell first, at the medium's speed: snapping there in one
                # packet outran a walk (too_fast, seed 1110 under lava: 0.29 blocks in a tick).
                body = ph.Body(pos.x, pos.y, pos.z, 0.0, ph.supported(terrain, pos.x, pos.y, pos.z))
                scale = min(ph.max_speed(ph.medium(terrain, body)), off) / off
                b = ph.advance(terrain, body, ph.Controls(dx * scale, dz * scale, False)).body
                return [InjectMovement(b.x, b.y, b.z, ctx.snapshot.player.yaw, 90.0, b.on_ground)]
            self.cell = (x, y, z)
            self.body = ph.Body(pos.x, pos.y, pos.z, 0.0, True)
            self.phase = "jump"
            return [self._advance(ctx, jump=True)]
        assert self.body is not None and self.cell is not None
        x, y, z = self.cell
        if self.phase == "jump":
            move = self._advance(ctx, jump=False)
            if self.body.y >= y + 1.0:
                # The feet have cleared the cell: the block goes in under them (a server refuses a
                # block placed where the body still is).
                self.phase = "placed"
                self.placed_at = ctx.tick
                self.levels += 1
                # The position goes first: the server checks the block against where the
                # body is when the placement arrives.
                ops = hold(ctx, self.item) or []
                return [move] + ops + [acts.PlaceBlock(x, y, z, (x, y - 1, z), 1, self.item)]
            if self.body.on_ground:
                self.status = "jump blocked"
            return [move]
        # placed: fall onto the new block; once standing, look again.
        move = self._advance(ctx, jump=False)
        if self.body.on_ground:
            # Landed on the block (the server's echo reached the store), or back where it stood.
            self.phase = "ready" if self.body.y >= y + 1.0 - 1e-6 else "refused"
        if self.phase == "refused" or ctx.tick - self.placed_at > PLACE_WAIT:
            self.status = "place refused"
        return [move]

    def _advance(self, ctx: ExecContext, jump: bool) -> InjectMovement:
        assert self.body is not None
        ctx.terrain.sync()
        self.body = ph.advance(ctx.terrain, self.body, ph.Controls(0.0, 0.0, jump)).body
        b = self.body
        return InjectMovement(b.x, b.y, b.z, ctx.snapshot.player.yaw, 90.0, b.on_ground)
