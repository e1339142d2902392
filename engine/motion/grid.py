"""Terrain: what the pathfinder and the physics see of a ``BlockStore``.

How this works: block states become cell classes and collision-top codes
(``engine.motion.cells``), per section a uint16 and a uint8 array (12 KiB);
the hot loops index them through memoryviews of those arrays (a memoryview
hands out Python ints, far cheaper than numpy scalars, and copies nothing),
and a section becomes a node table (``engine.motion.nodes``) when the
pathfinder asks. ``sync()``
drops what the store changed since the last call: a changed section's classes,
and the node tables whose window (the section, one cell around it, three
above) holds a cell whose class or collision top changed, so digging one
block costs one table to rebuild, not 27. It reads the store's journal of
touched sections, so a sync costs what changed, not what is cached or loaded.

A path *node* ``(x, y, z)`` is the cell holding the player's feet: standing on a
FLOOR block in ``y - 1`` (feet at ``y - 1 + top``) or on a LOW block in ``y``
itself (feet at ``y + top``), or swimming or climbing in ``y``.
"""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

from engine.motion.cells import (
    AVOID as AVOID,
    CLIMB as CLIMB,
    DAMAGE as DAMAGE,
    EMPTY as EMPTY,
    FIRE as FIRE,
    FLOOR as FLOOR,
    JUMP_HEIGHT as JUMP_HEIGHT,
    LAVA as LAVA,
    LOW as LOW,
    LOW_HEADROOM as LOW_HEADROOM,
    SHAPE as SHAPE,
    STEP_HEIGHT as STEP_HEIGHT,
    TALL as TALL,
    UNKNOWN as UNKNOWN,
    UNKNOWN_CELL as UNKNOWN_CELL,
    WATER as WATER,
    body_top_cell as body_top_cell,
    motion_table,
)
from engine.motion.nodes import SectionNodes, build_section_nodes, shared_nodes
from engine.world.blocks import UNKNOWN_STATE, BlockStore, BlockTable, SectionKey


# Per-session bounds of the caches, in sections. When one is full, the quarter farthest
# from the player (the last ``prefetch`` position, else the section being built) goes:
# a plan ~100 blocks long touches ~150 sections, so a search rarely pays for a rebuild.
NODE_TABLE_CAPACITY = 256      # 24 kB each at most (identical tables are one, engine.motion.nodes)
SECTION_CACHE_CAPACITY = 256   # classes and top codes: 12 kB each, none for a section of one state


class Terrain:
    def __init__(self, store: BlockStore, table: BlockTable) -> None:
        self.store = store
        self.table = table
        motion = self._motion = motion_table(table)
        self._classes = motion.classes
        self._top_codes = motion.top_codes
        self._top_values = motion.top_values
        self._top_list = motion.top_list
        self._full_code = motion.full_code
        self._unknown_index = len(self._classes) - 1
        self._class_arrays: dict[SectionKey, npt.NDArray[np.uint16]] = {}
        self._top_arrays: dict[SectionKey, npt.NDArray[np.uint8]] = {}      # top codes
        # Flat memoryviews of the two arrays above, made on first use by cell() and top().
        self._cells: dict[SectionKey, memoryview] = {}
        self._heights: dict[SectionKey, memoryview] = {}
        self._nodes: dict[SectionKey, SectionNodes] = {}
        self._revisions: dict[SectionKey, int] = {}
        self._missing: dict[SectionKey, int] = {}     # asked for but not loaded: revision then
        self._seen = store.revision
        self._dropped = 0           # bumped whenever a node table is forgotten
        self._prefetched: tuple[int, int, int, int, int] | None = None   # see prefetch
        self._centre: SectionKey | None = None      # the player's section, from prefetch

    def _farthest(self, keys: list[SectionKey], near: SectionKey) -> list[SectionKey]:
        """The quarter of ``keys`` farthest from the player's section (or ``near``)."""
        cx, sy, cz = self._centre or near
        keys.sort(key=lambda k: max(abs(k[0] - cx), abs(k[1] - sy), abs(k[2] - cz)), reverse=True)
        return keys[:max(1, len(keys) // 4)]

    def sync(self) -> None:
        """Forget cached sections the store changed. Cheap when nothing changed."""
        store = self.store
        if store.revision == self._seen:
            return
        touched = store.changed_since(self._seen)
        self._seen = store.revision
        tables = len(self._nodes)
        revision = store.section_revision
        if touched is None:         # too many changes for the journal: look at everything
            changed = [k for k, rev in self._revisions.items() if revision(k) != rev]
            loaded = any(revision(k) != rev for k, rev in self._missing.items())
        else:
            cached, missing = self._revisions, self._missing
            changed = [k for k in dict.fromkeys(touched) if k in cached and revision(k) != cached[k]]
            loaded = any(k in missing and revision(k) != missing[k] for k in touched)
        # A section the cache never saw may have been loaded: its neighbours' tables
        # treated it as unknown. Unknown-to-known is rare (chunk loads), so drop all tables then.
        if loaded:
            self._nodes.clear()
            self._missing.clear()
        self._forget(changed)
        if len(self._nodes) < tables:
            self._dropped += 1

    def _forget(self, changed: list[SectionKey]) -> None:
        for key in changed:
            old_classes = self._class_arrays.pop(key, None)
            old_tops = self._top_arrays.pop(key, None)
            self._cells.pop(key, None)
            self._heights.pop(key, None)
            del self._revisions[key]
            cx, sy, cz = key
            around = [(cx + dx, sy + dy, cz + dz) for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1)]
            if not any(k in self._nodes for k in around):
                continue
            new = self._arrays(key)
            if new is None or old_classes is None or old_tops is None:
                for k in around:
                    self._nodes.pop(k, None)
                continue
            # Digging a block changes one cell: drop only the node tables whose window (one
            # cell around the section, three above) holds a cell whose class or top changed.
            differs: npt.NDArray[np.bool_] = np.not_equal(old_classes, new[0]) | np.not_equal(old_tops, new[1])
            ys, zs, xs = np.nonzero(differs)
            if ys.size == 0:
                continue
            dxs = (0,) + ((1,) if (xs == 15).any() else ()) + ((-1,) if (xs == 0).any() else ())
            dzs = (0,) + ((1,) if (zs == 15).any() else ()) + ((-1,) if (zs == 0).any() else ())
            dys = (0,) + ((1,) if (ys == 15).any() else ()) + ((-1,) if (ys <= 2).any() else ())
            for dx in dxs:
                for dy in dys:
                    for dz in dzs:
                        self._nodes.pop((cx + dx, sy + dy, cz + dz), None)

    def _arrays(self, key: SectionKey) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.uint8]] | None:
        classes = self._class_arrays.get(key)
        if classes is None:
            states = self.store.section(key)
            if states is None:
                self._missing[key] = self.store.section_revision(key)
                return None
            if len(self._class_arrays) >= SECTION_CACHE_CAPACITY:
                # Their revisions stay: a later change to an evicted section still drops
                # every node table around it (_forget treats missing old arrays so).
                for far in self._farthest(list(self._class_arrays), key):
                    del self._class_arrays[far], self._top_arrays[far]
                    self._cells.pop(far, None)
                    self._heights.pop(far, None)
            index = states.astype(np.intp)
            # The store's partial-section marker and ids past this version's table are unknown.
            index[(index >= self._unknown_index) | (index == UNKNOWN_STATE)] = self._unknown_index
            self._revisions[key] = self.store.section_revision(key)
            first = int(index[0])
            if (index == first).all():
                classes, codes = self._motion.uniform(first)
            else:
                classes = self._classes[index].reshape(16, 16, 16)
                codes = self._top_codes[index].reshape(16, 16, 16)
            self._class_arrays[key] = classes
            self._top_arrays[key] = codes
        return classes, self._top_arrays[key]

    def section_cells(self, key: SectionKey) -> memoryview | None:
        """The classes of a section's 4096 cells, in chunk order, or None if not loaded."""
        cells = self._cells.get(key)
        if cells is None:
            arrays = self._arrays(key)
            if arrays is None:
                return None
            cells = arrays[0].data.cast("B").cast("H")
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

    def any_cell(self, x0: int, x1: int, y0: int, y1: int, z0: int, z1: int, mask: int) -> bool:
        """Some cell of the box x0..x1, y0..y1, z0..z1 (inclusive) has one of the ``mask`` bits.
        As ``cell`` over each; a box inside one section (a body's, nearly always) looks the
        section up once instead of once a cell: the reflexes ask this twice a decision."""
        key = (x0 >> 4, y0 >> 4, z0 >> 4)
        if key != (x1 >> 4, y1 >> 4, z1 >> 4):
            cell = self.cell
            return any(cell(x, y, z) & mask for x in range(x0, x1 + 1) for z in range(z0, z1 + 1)
                       for y in range(y0, y1 + 1))
        cells = self._cells.get(key)
        if cells is None:
            cells = self.section_cells(key)
            if cells is None:
                return bool(UNKNOWN_CELL & mask)
        for y in range(y0 & 15, (y1 & 15) + 1):
            for z in range(z0 & 15, (z1 & 15) + 1):
                row = (y << 8) | (z << 4)
                for x in range(x0 & 15, (x1 & 15) + 1):
                    if cells[row | x] & mask:
                        return True
        return False

    def top(self, x: int, y: int, z: int) -> float:
        """Collision top of a cell in block units (0 = no collision); unknown cells are full."""
        key = (x >> 4, y >> 4, z >> 4)
        codes = self._heights.get(key)
        if codes is None:
            arrays = self._arrays(key)
            if arrays is None:
                return 1.0
            codes = arrays[1].data.cast("B")
            self._heights[key] = codes
        return self._top_list[codes[((y & 15) << 8) | ((z & 15) << 4) | (x & 15)]]

    def node_section(self, key: SectionKey) -> SectionNodes:
        """The node table of a section (see ``engine.motion.nodes``), built on first use."""
        found = self._nodes.get(key)
        if found is not None:
            return found
        cells = np.full((20, 18, 18), UNKNOWN_CELL, dtype=np.uint16)
        codes = np.full((20, 18, 18), self._full_code, dtype=np.uint8)
        cx, sy, cz = key
        # Window rows: y from -1 to 18, z and x from -1 to 16, relative to the section.
        for dy, (wy, ly) in ((-1, (slice(0, 1), slice(15, 16))), (0, (slice(1, 17), slice(0, 16))),
                             (1, (slice(17, 20), slice(0, 3)))):
            for dz, (wz, lz) in ((-1, (slice(0, 1), slice(15, 16))), (0, (slice(1, 17), slice(0, 16))),
                                 (1, (slice(17, 18), slice(0, 1)))):
                for dx, (wx, lx) in ((-1, (slice(0, 1), slice(15, 16))), (0, (slice(1, 17), slice(0, 16))),
                                     (1, (slice(17, 18), slice(0, 1)))):
                    arrays = self._arrays((cx + dx, sy + dy, cz + dz))
                    if arrays is None:
                        continue
                    cells[wy, wz, wx] = arrays[0][ly, lz, lx]
                    codes[wy, wz, wx] = arrays[1][ly, lz, lx]
        table = shared_nodes(build_section_nodes(cells, self._top_values[codes]))
        if len(self._nodes) >= NODE_TABLE_CAPACITY:
            for far in self._farthest(list(self._nodes), key):
                del self._nodes[far]
            self._dropped += 1
        self._nodes[key] = table
        return table

    def prefetch(self, x: float, y: float, z: float, budget: int = 1) -> int:
        """Build up to ``budget`` missing node tables in the sections around a position.

        Called once a tick with the player's position, it keeps the tables a reflex
        will need warm, so the tick a reflex fires on does not pay ~0.4 ms a section.
        Returns how many it built. Once all 27 are built (or not loaded), it does nothing
        until the player enters another section, a table is forgotten or a section is
        loaded or unloaded."""
        self.sync()
        cx, sy, cz = int(x) >> 4, int(y) >> 4, int(z) >> 4
        self._centre = (cx, sy, cz)
        if self._prefetched == (cx, sy, cz, self._dropped, self.store.layout):
            return 0
        built = 0
        for dy in (0, -1, 1):
            for dx in (0, -1, 1):
                for dz in (0, -1, 1):
                    key = (cx + dx, sy + dy, cz + dz)
                    if key in self._nodes or not self.store.has_section(key):
                        continue
                    if built >= budget:
                        return built
                    self.node_section(key)
                    built += 1
        self._prefetched = (cx, sy, cz, self._dropped, self.store.layout)
        return built

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

    def is_known(self, x: int, y: int, z: int) -> bool:
        return not self.cell(x, y, z) & UNKNOWN
