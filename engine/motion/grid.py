"""Terrain: what the pathfinder and the physics see of a ``BlockStore``.

How this works: every block state maps to a small integer *cell class*: a shape
kind in the low two bits (EMPTY: no collision, LOW: collision top at most half a
block, so one stands *in* that cell on top of it, FLOOR: top above a half and at
most one block, TALL: fences and walls, top above one) plus hazard bits. The
table is computed once per ``BlockTable`` with numpy; per section the classes
are expanded into a Python list on first use, because indexing a list is far
cheaper than indexing numpy scalars in the A* inner loop. ``sync()`` drops the
sections the store changed since the last call.

Simplifications (conservative, shared by the stepper and the checker):
* a cell with collision is a box from its floor to its collision top over the
  whole cell, so thin shapes (doors, panes, fence arms) block the whole cell;
* climbable blocks (ladder, vines, scaffolding) are treated as empty: the
  player's box at a cell centre never touches a ladder plate;
* unknown cells (unloaded, or unknown ids) block everything and support nothing.

A path *node* ``(x, y, z)`` is the cell holding the player's feet: standing on a
FLOOR block in ``y - 1`` (feet at ``y - 1 + top``) or on a LOW block in ``y``
itself (feet at ``y + top``), or swimming or climbing in ``y``.
"""
from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from engine.world.blocks import UNKNOWN_STATE, BlockFlag, BlockStore, BlockTable, SectionKey

EMPTY = 0
LOW = 1
FLOOR = 2
TALL = 3
SHAPE = 3
WATER = 4
LAVA = 8
FIRE = 16
CLIMB = 32
DAMAGE = 64
AVOID = 128
UNKNOWN = 256

UNKNOWN_CELL = UNKNOWN | TALL
# A LOW block at most this high lets the head fit in the two cells above it.
LOW_HEADROOM = 0.2
JUMP_HEIGHT = 1.25   # vanilla jump apex is 1.2522 blocks
STEP_HEIGHT = 0.6    # vanilla walks up 0.6 without jumping


def body_top_cell(feet: float) -> int:
    """The highest cell a 1.8-block-tall body with feet at ``feet`` reaches into."""
    return math.floor(feet + 1.8 - 1e-9)


def cell_classes(table: BlockTable) -> npt.NDArray[np.uint16]:
    """Cell class per state id of a table, plus one trailing entry for unknown ids."""
    flags = table.flags_array.astype(np.int64)
    tops = table.top_array
    climbable = (flags & BlockFlag.CLIMBABLE) != 0
    solid = ((flags & BlockFlag.SOLID) != 0) & ~climbable
    shape = np.where(~solid, EMPTY, np.where(tops <= 0.5, LOW, np.where(tops <= 1.0, FLOOR, TALL)))
    out = shape.astype(np.int64)
    out |= np.where(flags & BlockFlag.WATER, WATER, 0)
    out |= np.where(flags & BlockFlag.LAVA, LAVA, 0)
    out |= np.where(flags & BlockFlag.FIRE, FIRE, 0)
    out |= np.where(climbable, CLIMB, 0)
    out |= np.where(flags & BlockFlag.DAMAGING, DAMAGE, 0)
    out |= np.where(flags & BlockFlag.AVOID, AVOID, 0)
    out |= np.where(flags & BlockFlag.UNKNOWN, UNKNOWN_CELL, 0)
    return np.append(out, UNKNOWN_CELL).astype(np.uint16)


def collision_tops(table: BlockTable) -> npt.NDArray[np.float64]:
    """Collision top per state id as the motion model sees it (climbables: none)."""
    tops = np.where((table.flags_array & BlockFlag.CLIMBABLE) != 0, 0.0, table.top_array)
    return np.append(tops, 1.0)


class Terrain:
    def __init__(self, store: BlockStore, table: BlockTable) -> None:
        self.store = store
        self.table = table
        self._classes = cell_classes(table)
        self._tops = collision_tops(table)
        self._unknown_index = len(self._classes) - 1
        self._cells: dict[SectionKey, list[int]] = {}
        self._heights: dict[SectionKey, list[float]] = {}
        self._revisions: dict[SectionKey, int] = {}
        self._seen = store.revision

    def sync(self) -> None:
        """Forget cached sections the store changed. Cheap when nothing changed."""
        if self.store.revision == self._seen:
            return
        self._seen = self.store.revision
        for key in [k for k, rev in self._revisions.items() if self.store.section_revision(k) != rev]:
            self._cells.pop(key, None)
            self._heights.pop(key, None)
            del self._revisions[key]

    def _indices(self, key: SectionKey) -> npt.NDArray[np.intp] | None:
        states = self.store.section(key)
        if states is None:
            return None
        index = states.astype(np.intp)
        # The store's partial-section marker and ids past this version's table are unknown.
        index[(index >= self._unknown_index) | (index == UNKNOWN_STATE)] = self._unknown_index
        self._revisions[key] = self.store.section_revision(key)
        return index

    def section_cells(self, key: SectionKey) -> list[int] | None:
        cells = self._cells.get(key)
        if cells is None:
            index = self._indices(key)
            if index is None:
                return None
            cells = self._classes[index].tolist()
            self._cells[key] = cells
        return cells

    def cell(self, x: int, y: int, z: int) -> int:
        key = (x >> 4, y >> 4, z >> 4)
        cells = self._cells.get(key)
        if cells is None:
            cells = self.section_cells(key)
            if cells is None:
                return UNKNOWN_CELL
        return cells[((y & 15) << 8) | ((z & 15) << 4) | (x & 15)]

    def top(self, x: int, y: int, z: int) -> float:
        """Collision top of a cell in block units (0 = no collision); unknown cells are full."""
        key = (x >> 4, y >> 4, z >> 4)
        heights = self._heights.get(key)
        if heights is None:
            index = self._indices(key)
            if index is None:
                return 1.0
            heights = self._tops[index].tolist()
            self._heights[key] = heights
        return heights[((y & 15) << 8) | ((z & 15) << 4) | (x & 15)]

    # Questions asked at integer coordinates -------------------------------------------------

    def is_passable(self, x: int, y: int, z: int) -> bool:
        """The player's body can occupy this cell: no collision in it or reaching into it."""
        return self.cell(x, y, z) & (SHAPE | UNKNOWN) == EMPTY and self.cell(x, y - 1, z) & SHAPE != TALL

    def feet_y(self, x: int, y: int, z: int) -> float | None:
        """Where the feet rest when standing at node (x, y, z), or None if nothing holds them."""
        here = self.cell(x, y, z)
        if here & UNKNOWN:
            return None
        if here & SHAPE == LOW:
            return y + self.top(x, y, z)
        below = self.cell(x, y - 1, z)
        if here & SHAPE == EMPTY and below & SHAPE == FLOOR and not below & UNKNOWN:
            return y - 1 + self.top(x, y - 1, z)
        return None

    def is_standable(self, x: int, y: int, z: int) -> bool:
        """Feet held at this node with room for the body above them."""
        feet = self.feet_y(x, y, z)
        if feet is None:
            return False
        first = y + 1 if self.cell(x, y, z) & SHAPE == LOW else y
        return all(self.is_passable(x, cy, z) for cy in range(first, body_top_cell(feet) + 1))

    def is_hazard(self, x: int, y: int, z: int) -> bool:
        """Touching this cell hurts: lava, fire, cactus, magma, berry bush..."""
        return bool(self.cell(x, y, z) & (LAVA | FIRE | DAMAGE))

    def is_water(self, x: int, y: int, z: int) -> bool:
        return bool(self.cell(x, y, z) & WATER)

    def is_lava(self, x: int, y: int, z: int) -> bool:
        return bool(self.cell(x, y, z) & LAVA)

    def is_climbable(self, x: int, y: int, z: int) -> bool:
        return bool(self.cell(x, y, z) & CLIMB)

    def is_known(self, x: int, y: int, z: int) -> bool:
        return not self.cell(x, y, z) & UNKNOWN
