"""Cell classes: what one block state means to the body and the pathfinder.

Every block state maps to a small integer: a shape kind in the low two bits
(EMPTY: no collision; LOW: collision top at most half a block, so one stands
*in* that cell on top of it; FLOOR: top above a half and at most one block;
TALL: fences and walls, top above one) plus hazard bits. The tables are
computed once per ``BlockTable`` with numpy.

Simplifications (conservative, shared by the stepper and the checker):
* a cell with collision is a box from its floor to its collision top over the
  whole cell, so thin shapes (doors, panes, fence arms) block the whole cell;
* climbable blocks (ladder, vines, scaffolding) are treated as empty: the
  player's box at a cell centre never touches a ladder plate;
* unknown cells (unloaded, or unknown ids) block everything and support nothing.

Collision tops are few (21 distinct heights across every version), so the
terrain keeps a section's tops as one byte per block, a code into the table's
distinct tops (``MotionTable``), instead of a float: 4 KiB a section, not 32.
"""
from __future__ import annotations

import functools
import math

import attrs
import numpy as np
import numpy.typing as npt

from engine.world.blocks import BlockFlag, BlockTable

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


@attrs.frozen(eq=False)
class MotionTable:
    """Per state id (plus a trailing unknown id): the cell class and the collision top's code."""

    classes: npt.NDArray[np.uint16]
    top_codes: npt.NDArray[np.uint8]
    top_values: npt.NDArray[np.float64]     # code -> top in blocks
    top_list: list[float]                   # the same as Python floats, for indexing in hot loops
    full_code: int                          # the code of a full block's top (1.0): unknown cells
    _uniform: dict[int, tuple[npt.NDArray[np.uint16], npt.NDArray[np.uint8]]] = attrs.field(
        factory=dict, init=False, repr=False)

    def uniform(self, index: int) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.uint8]]:
        """Classes and top codes of a section of one state (by index into this table), as
        read-only (16, 16, 16) arrays shared by every terrain: most sections near a player are
        one state (air, stone, water), so they cost nothing each."""
        found = self._uniform.get(index)
        if found is None:
            classes = np.full((16, 16, 16), self.classes[index], dtype=np.uint16)
            codes = np.full((16, 16, 16), self.top_codes[index], dtype=np.uint8)
            classes.flags.writeable = codes.flags.writeable = False
            found = self._uniform[index] = (classes, codes)
        return found


@functools.lru_cache(maxsize=64)   # one per version in use (47 known); tables are shared per version
def motion_table(table: BlockTable) -> MotionTable:
    """The motion model's view of a block table, computed once per table (tables are shared)."""
    tops = collision_tops(table)
    values, codes = np.unique(tops, return_inverse=True)
    if len(values) > 256:
        raise ValueError(f"block table {table.version}: {len(values)} distinct collision tops, at most 256 fit a byte")
    values = values.astype(np.float64)
    return MotionTable(cell_classes(table), codes.reshape(-1).astype(np.uint8), values,
                       [float(v) for v in values], int(np.searchsorted(values, 1.0)))
