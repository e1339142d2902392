"""Node tables: for every cell of a section, can the feet be there, how high, at what cost.

How this works: ``build_section_nodes`` gets the cell classes and collision
tops of a section padded by one cell on every side (three above, for the
head), and answers for all 4096 cells at once with numpy:

* kind bits: STAND (on a FLOOR block below, or on a LOW block in the cell),
  SWIM (water in the cell), CLIMB (a ladder or vine), LAVA_SWIM (lava in the
  cell: a node only for searches that allow lava), TOUCH_LAVA / TOUCH_FIRE
  (the body would be in lava or fire: refused or charged by the search);
  0 means the feet cannot be there (blocked body, nothing holding them);
* CLEAR (bit 7): the body may pass through the cell (walking off an edge,
  cutting a corner, the room a jump needs); CLEAR2 (bit 6): this cell and the
  one above both are, a whole body's room;
* the feet height relative to the cell's floor (-0.5..0.5);
* a penalty in blocks of walking: damaging blocks touched or underfoot, and
  lava, fire or cactus beside the node, which is what keeps paths a block
  away from a lava lake's rim.

The search options (allow lava, allow fire) are applied by the search, so one
table serves every search. Tables are bytes and a float array, 24 kB a section,
cheap to index from Python. The feet heights are single-precision floats: every
collision top is a multiple of 1/32 block (``tests/engine/motion/test_cells.py``
checks each version's), so they and the feet heights made from them are exact
in 24 bits and read back as the same Python floats.

Tables are immutable, and many are alike (all air, all stone, the same sea):
``shared_nodes`` hands back the one table already alive with the same contents,
so identical sections, in one session or across players, hold one copy.
"""
from __future__ import annotations

import hashlib
import weakref
from array import array

import attrs
import numpy as np
import numpy.typing as npt

from engine.motion.cells import AVOID, DAMAGE, FIRE, FLOOR, LAVA, LOW, LOW_HEADROOM, SHAPE, TALL, UNKNOWN, WATER
from engine.motion.cells import CLIMB as CLIMB_CELL
from engine.motion.cells import EMPTY

STAND = 1
SWIM = 2
CLIMB = 4
LAVA_SWIM = 8
TOUCH_LAVA = 16
TOUCH_FIRE = 32
CLEAR2 = 64               # this cell and the one above are both CLEAR: room for a body
CLEAR = 128

DAMAGE_COST = 8          # berry bush or campfire in the body, magma underfoot
LAVA_NEAR = 4            # per side: lava at the feet, head or floor level next to the node
FIRE_NEAR = 2
CACTUS_NEAR = 4

BLOCKED = SHAPE | UNKNOWN | AVOID


@attrs.frozen
class SectionNodes:
    kinds: bytes              # kind bits | CLEAR, index (y << 8) | (z << 4) | x
    penalties: bytes
    feet: array[float]        # feet height minus the cell's y (typecode "f")


def build_section_nodes(cells: npt.NDArray[np.uint16], tops: npt.NDArray[np.float64]) -> SectionNodes:
    """``cells``/``tops``: shape (20, 18, 18) = (y, z, x) from one below to three above the
    section, one cell around it; unknown cells are ``UNKNOWN_CELL`` with top 1."""
    # Booleans and uint8 throughout: this runs once per section and costs ~0.2 ms.
    here = cells[1:17, 1:17, 1:17]
    below = cells[0:16, 1:17, 1:17]
    head = cells[2:18, 1:17, 1:17]
    above = cells[3:19, 1:17, 1:17]
    top_here = tops[1:17, 1:17, 1:17]
    top_below = tops[0:16, 1:17, 1:17]
    shape_here = here & SHAPE
    shape_below = below & SHAPE
    blocked = (cells & BLOCKED) != 0

    low = (shape_here == LOW) & ((here & AVOID) == 0)
    tall_low = low & (top_here > LOW_HEADROOM)
    empty = (shape_here == EMPTY) & ((here & (UNKNOWN | AVOID)) == 0) & (shape_below != TALL)
    on_floor = empty & (shape_below == FLOOR) & ((below & UNKNOWN) == 0)
    body_ok = ~blocked[2:18, 1:17, 1:17] & ~(tall_low & blocked[3:19, 1:17, 1:17]) & (low | empty)

    touched = here | head | (above * tall_low).astype(np.uint16)
    supported = (low | on_floor).astype(np.uint8) * STAND
    supported |= (empty & ((here & WATER) != 0)).astype(np.uint8) * SWIM
    supported |= (empty & ((here & CLIMB_CELL) != 0)).astype(np.uint8) * CLIMB
    supported |= (empty & ((here & LAVA) != 0)).astype(np.uint8) * LAVA_SWIM
    kind = supported * body_ok.astype(np.uint8)
    valid = kind != 0
    kind |= (valid & ((touched & LAVA) != 0)).astype(np.uint8) * TOUCH_LAVA
    kind |= (valid & ((touched & FIRE) != 0)).astype(np.uint8) * TOUCH_FIRE
    passable = ~((cells & (BLOCKED | LAVA | FIRE)) != 0)
    passable[1:] &= (cells[:-1] & SHAPE) != TALL
    clear = passable[1:17, 1:17, 1:17]
    kind |= clear.astype(np.uint8) * CLEAR
    kind |= (clear & passable[2:18, 1:17, 1:17]).astype(np.uint8) * CLEAR2

    # ``touched`` includes a LOW block stood on (a campfire burns too).
    hurt = ((touched & DAMAGE) != 0) | (on_floor & ((below & DAMAGE) != 0))
    penalty = hurt.astype(np.uint8) * DAMAGE_COST
    lava = (cells & LAVA) != 0
    fire = (cells & FIRE) != 0
    cactus = ((cells & DAMAGE) != 0) & ((cells & SHAPE) != 0)
    for dz, dx in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        zs, xs = slice(1 + dz, 17 + dz), slice(1 + dx, 17 + dx)
        penalty += (lava[0:16, zs, xs] | lava[1:17, zs, xs] | lava[2:18, zs, xs]).astype(np.uint8) * LAVA_NEAR
        penalty += (fire[1:17, zs, xs] | fire[2:18, zs, xs]).astype(np.uint8) * FIRE_NEAR
        penalty += (cactus[1:17, zs, xs] | cactus[2:18, zs, xs]).astype(np.uint8) * CACTUS_NEAR

    feet = np.where(low, top_here, np.where(on_floor, top_below - 1.0, 0.0))
    return SectionNodes(kind.tobytes(), penalty.tobytes(), array("f", feet.astype(np.float32).tobytes()))


_ALIVE: weakref.WeakValueDictionary[bytes, SectionNodes] = weakref.WeakValueDictionary()


def shared_nodes(table: SectionNodes) -> SectionNodes:
    """The live table equal to ``table`` if there is one, else ``table`` (now the shared one)."""
    digest = hashlib.blake2b(table.kinds, digest_size=16)
    digest.update(table.penalties)
    digest.update(table.feet)
    key = digest.digest()
    found = _ALIVE.get(key)
    if found is not None and found == table:
        return found
    _ALIVE[key] = table
    return table
