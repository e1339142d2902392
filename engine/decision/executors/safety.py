"""The digging safety rules every executor that breaks blocks obeys (``Mine``, ``MineOre``).

A block is dug only when it and its six neighbours are known to the world model (a block never
seen may be lava or a drop) and no neighbour is lava, fire or water: opening it would let the
fluid in, or leave the player digging from inside a pond. A cell is stepped into only over a
known, solid floor that does not hurt, and never toward a deep drop right beyond it: the edge
reflex stops a body moving at such a drop and takes the task over, so a tunnel that runs beside
an open shaft would be started and stopped there again and again. These answer "why not" (None:
safe), for the logs.
"""
from __future__ import annotations

from engine.motion.cells import DAMAGE, EMPTY, FIRE, LAVA, SHAPE, UNKNOWN, WATER
from engine.motion.grid import Terrain
from engine.reflex.edge import EdgeReflex, drop_below

Pos = tuple[int, int, int]
WORLD_BOTTOM = -64         # the lowest overworld floor (1.18+); below a world's own bottom, cells are unknown
SIDES = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))


def unsafe(terrain: Terrain, x: int, y: int, z: int) -> str | None:
    """Why the block at (x, y, z) must not be dug (None: it may): not seen, or beside lava or water."""
    if terrain.cell(x, y, z) & UNKNOWN:
        return "unseen"
    for dx, dy, dz in SIDES:
        cell = terrain.cell(x + dx, y + dy, z + dz)
        if cell & UNKNOWN:
            return "unseen neighbour"
        if cell & (LAVA | FIRE):
            return "lava beside"
        if cell & WATER:
            return "water beside"
    return None


def floor_unsafe(terrain: Terrain, x: int, y: int, z: int) -> str | None:
    """Why (x, y, z) cannot be stood on: its floor (y - 1) unknown, open, or a hazard."""
    below = terrain.cell(x, y - 1, z)
    if below & UNKNOWN:
        return "unseen floor"
    if below & (LAVA | FIRE | DAMAGE | WATER):
        return "hazard floor"
    if below & SHAPE == EMPTY:
        return "no floor"
    return None


def edge_beyond(terrain: Terrain, at: Pos, to: Pos) -> str | None:
    """Why the step from ``at`` to its neighbour ``to`` would end facing a drop the edge reflex guards:
    the cell beyond ``to`` in the same direction, at its feet level, is open to the body and falls
    the reflex's ``deep`` blocks or more (None: no such drop)."""
    bx, by, bz = 2 * to[0] - at[0], to[1], 2 * to[2] - at[2]
    if terrain.cell(bx, by, bz) & (SHAPE | UNKNOWN) or terrain.cell(bx, by + 1, bz) & (SHAPE | UNKNOWN):
        return None
    if drop_below(terrain, bx, by, bz, WORLD_BOTTOM) >= EdgeReflex().deep:
        return "deep drop beyond"
    return None


def step_cells(at: Pos, to: Pos) -> tuple[Pos, ...]:
    """The cells the body passes through from standing cell ``at`` to neighbour ``to``, top first."""
    x, y, z = at
    nx, ny, nz = to
    if ny < y:              # a stair down: the head goes through the cell above the new one
        return ((nx, y + 1, nz), (nx, y, nz), (nx, ny, nz))
    if ny > y:              # a stair up: jump through the cell above the head
        return ((x, y + 2, z), (nx, ny + 1, nz), (nx, ny, nz))
    return ((nx, y + 1, nz), (nx, y, nz))


ROOF_SCAN = 8              # cells above an open face looked at for a roof


def sealed(terrain: Terrain, x: int, y: int, z: int) -> bool:
    """Every open face of the block at (x, y, z) is roofed within ROOF_SCAN cells: the block is seen
    through a cave's air (the server sends buried caves too), not from ground a walk reaches."""
    for dx, dy, dz in SIDES:
        nx, ny, nz = x + dx, y + dy, z + dz
        if terrain.cell(nx, ny, nz) & (SHAPE | UNKNOWN) != EMPTY:
            continue
        if not any(terrain.cell(nx, ny + up, nz) & SHAPE != EMPTY for up in range(1, ROOF_SCAN + 1)):
            return False
    return True
