"""What the autopilot can see in the player's block store: known blocks of interest.

How this works: blocks of interest come in kinds (``knowledge.KINDS``: any
log, stone or deepslate, either iron ore, crafting tables, furnaces). A
lookup table turns each block state of the version into its kind's code (0:
of no interest), so one gather over a section finds the flat indices of every
kind at once; they are kept until the store's revision of that section
changes. A search walks the loaded sections nearest first (their order is
worked out with numpy, once per point and radius, from the loaded sections
in the box around the point's section, which are kept until a section is
loaded or unloaded: the store's ``layout``, which block changes leave alone) and stops as soon as no
section left can hold anything nearer than what it found; ``search``
answers several queries (kinds, radii) in one walk. Only blocks with an open face count
(per-section exposure masks, also cached by revision), and, but for logs,
only blocks with a ledge beside them (so mining never digs a pit).

Before 1.13 a block name covers its metadata variants: ``log`` is oak, spruce,
birch and jungle, but ``stone`` is also granite, diorite and andesite, so only
the variants ``knowledge.LEGACY_VARIANTS`` names are of interest there.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from engine.decision.knowledge import KINDS, LEGACY_VARIANTS, MATURE, YOUNG
from engine.motion import grid as g
from engine.motion.grid import Terrain
from engine.world.blocks import BlockFlag, BlockStore, SectionKey
from engine.world.snapshot import Vec3
from engine.world.vanilla import EYE_HEIGHT

INTEREST = tuple(KINDS)
EYE = EYE_HEIGHT
Pos = tuple[int, int, int]
Found = list[tuple[float, Pos]]
# Sections a cache of the finder keeps (~4 kB each for exposure masks and open cells): a
# radius-48 search touches ~350 sections, and a player walking on keeps meeting new ones.
CACHE_SECTIONS = 1024


def _trim(cache: dict[SectionKey, Any], store: BlockStore) -> None:
    """Keep a per-section cache within CACHE_SECTIONS: forget unloaded sections, then the oldest."""
    if len(cache) <= CACHE_SECTIONS:
        return
    for key in [k for k in cache if not store.has_section(k)]:
        del cache[key]
    excess = len(cache) - CACHE_SECTIONS * 3 // 4
    if excess > 0:
        for key in list(itertools.islice(cache, excess)):
            del cache[key]


@attrs.frozen
class GoalReach:
    """Stand where the eyes are within ``reach`` of a block's centre (not in its own column)."""

    x: int
    y: int
    z: int
    reach: float = 4.0

    def _distance(self, x: int, y: int, z: int) -> float:
        return math.sqrt((x - self.x) ** 2 + (y + EYE - 0.5 - self.y) ** 2 + (z - self.z) ** 2)

    def reached(self, x: int, y: int, z: int) -> bool:
        return (x != self.x or z != self.z) and self._distance(x, y, z) <= self.reach

    def heuristic(self, x: int, y: int, z: int) -> float:
        return max(0.0, self._distance(x, y, z) - self.reach)


@attrs.frozen
class Query:
    """What one search asks: blocks of a kind within a radius (with an open face and, but
    for logs, a ledge: ``exposed``), at most ``limit`` of them, none of ``skip``."""

    kind: str
    radius: float = 48.0
    exposed: bool = True
    limit: int = 1
    skip: frozenset[Pos] | set[Pos] = frozenset()


class BlockFinder:
    def __init__(self, terrain: Terrain) -> None:
        self.terrain = terrain
        self.store = terrain.store
        table = terrain.table
        size = max(int(table.size), 0x10000)
        # Block state → 1 + index of its kind in INTEREST (0: not of interest).
        self._code = np.zeros(size, dtype=np.uint8)
        names = table.names()
        legacy = "log" in names and "oak_log" not in names
        for index, kind in enumerate(INTEREST):
            for block in KINDS[kind]:
                if block not in names:
                    continue
                states = table.states_of(block)
                variants = LEGACY_VARIANTS.get(block) if legacy else None
                if kind in YOUNG and block in MATURE and len(states) > MATURE[block]:
                    # A crop still growing: every age but the ripe one (1.8-1.12's metadata 0-7).
                    for age in range(MATURE[block]):
                        self._code[states.start + age] = index + 1
                elif block in MATURE and len(states) > MATURE[block]:
                    self._code[states.start + MATURE[block]] = index + 1
                elif variants is not None and len(states) == 16:
                    for meta in variants:
                        self._code[states.start + meta] = index + 1
                else:
                    self._code[states.start:states.stop] = index + 1
        present = set(np.unique(self._code).tolist())
        self.kinds = frozenset(kind for index, kind in enumerate(INTEREST) if index + 1 in present)
        self._cache: dict[SectionKey, tuple[int, dict[int, npt.NDArray[np.intp]]]] = {}
        flags = table.flags_array
        # Open cells: no collision, no liquid, a real block of this version (air, plants, torches).
        self._open = np.zeros(size, dtype=bool)
        self._open[:table.size] = (flags & (BlockFlag.SOLID | BlockFlag.LIQUID | BlockFlag.UNKNOWN)) == 0
        self._layout_seen = -1
        self._boxes: dict[tuple[SectionKey, int], tuple[npt.NDArray[np.int64], list[SectionKey]]] = {}
        self._orders: dict[tuple[float, float, float, float], list[tuple[float, SectionKey]]] = {}
        self._exposed_cache: dict[SectionKey, tuple[tuple[int, ...], npt.NDArray[np.bool_]]] = {}
        self._open_cache: dict[SectionKey, tuple[int, npt.NDArray[np.bool_] | None]] = {}

    def kind_at(self, x: int, y: int, z: int) -> str | None:
        """The kind of interest of the block at a position (None: air, unknown, of no interest)."""
        state = self.store.get(x, y, z)
        code = int(self._code[state]) if state is not None else 0
        return INTEREST[code - 1] if code else None

    def _refresh(self) -> None:
        """Forget section boxes and orders when sections were loaded or unloaded (not when
        blocks changed: they depend only on which sections exist), and keep the per-section
        caches within bounds."""
        if self._layout_seen != self.store.layout:
            self._layout_seen = self.store.layout
            self._boxes.clear()
            self._orders.clear()
        for cache in (self._cache, self._exposed_cache, self._open_cache):
            _trim(cache, self.store)

    def _box(self, centre: SectionKey, r: int) -> tuple[npt.NDArray[np.int64], list[SectionKey]]:
        """The loaded sections at most ``r`` sections from ``centre`` on every axis, sorted:
        their low corners in blocks, and their keys."""
        memo = (centre, r)
        box = self._boxes.get(memo)
        if box is None:
            keys = self.store.keys_near(centre[0], centre[1], centre[2], r)
            keys.sort()
            box = (np.array(keys, dtype=np.int64).reshape(len(keys), 3) * 16, keys)
            if len(self._boxes) >= 8:
                self._boxes.clear()
            self._boxes[memo] = box
        return box

    def _order(self, at: Vec3, radius: float) -> list[tuple[float, SectionKey]]:
        """Loaded sections within ``radius`` of a point, nearest first by the distance to their box
        (ties: by key)."""
        memo = (at.x, at.y, at.z, radius)
        order = self._orders.get(memo)
        if order is not None:
            return order
        centre = (math.floor(at.x) >> 4, math.floor(at.y) >> 4, math.floor(at.z) >> 4)
        lo, keys = self._box(centre, math.ceil(radius / 16))
        point = np.array([at.x, at.y + 0.5, at.z])
        gaps = np.sqrt((np.maximum(np.maximum(lo - point, 0.0), point - lo - 16) ** 2).sum(axis=1))
        ranked = np.argsort(gaps, kind="stable")
        ranked = ranked[gaps[ranked] <= radius]
        values = gaps.tolist()
        order = [(values[i], keys[i]) for i in ranked.tolist()]
        if len(self._orders) >= 8:
            self._orders.clear()
        self._orders[memo] = order
        return order

    def _section(self, key: SectionKey) -> dict[int, npt.NDArray[np.intp]]:
        """Flat indices of the blocks of each kind (by code) in a section."""
        revision = self.store.section_revision(key)
        cached = self._cache.get(key)
        if cached is not None and cached[0] == revision:
            return cached[1]
        array = self.store.section(key)
        found: dict[int, npt.NDArray[np.intp]] = {}
        if array is not None:
            codes = self._code[array]
            hits = np.flatnonzero(codes)
            if hits.size:
                hit_codes = codes[hits]
                first = int(hit_codes[0])
                if (hit_codes == first).all():
                    found[first] = hits
                else:
                    for code in np.unique(hit_codes).tolist():
                        found[code] = hits[hit_codes == code]
        self._cache[key] = (revision, found)
        return found

    _NEIGHBOURS = ((0, 0, 0), (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))

    def _open_cube(self, key: SectionKey) -> npt.NDArray[np.bool_] | None:
        """Which cells of a section are open, as a [y, z, x] cube (None: not loaded)."""
        revision = self.store.section_revision(key)
        cached = self._open_cache.get(key)
        if cached is not None and cached[0] == revision:
            return cached[1]
        array = self.store.section(key)
        cube = self._open[array].reshape(16, 16, 16) if array is not None else None
        self._open_cache[key] = (revision, cube)
        return cube

    def _exposed_mask(self, key: SectionKey) -> npt.NDArray[np.bool_]:
        """Per block of a section (flat, chunk order): some face touches an open cell."""
        keys = [(key[0] + dx, key[1] + dy, key[2] + dz) for dx, dy, dz in self._NEIGHBOURS]
        revisions = tuple(self.store.section_revision(k) for k in keys)
        cached = self._exposed_cache.get(key)
        if cached is not None and cached[0] == revisions:
            return cached[1]
        padded = np.zeros((18, 18, 18), dtype=bool)          # [y, z, x], one cell of margin
        centre = self._open_cube(key)
        if centre is not None:
            padded[1:17, 1:17, 1:17] = centre
        for (dx, dy, dz), k in zip(self._NEIGHBOURS[1:], keys[1:]):
            cube = self._open_cube(k)
            if cube is None:
                continue
            if dx:
                padded[1:17, 1:17, 17 if dx > 0 else 0] = cube[:, :, 0 if dx > 0 else 15]
            elif dy:
                padded[17 if dy > 0 else 0, 1:17, 1:17] = cube[0 if dy > 0 else 15, :, :]
            else:
                padded[1:17, 17 if dz > 0 else 0, 1:17] = cube[:, 0 if dz > 0 else 15, :]
        mask = (padded[2:, 1:17, 1:17] | padded[:16, 1:17, 1:17] | padded[1:17, 2:, 1:17]
                | padded[1:17, :16, 1:17] | padded[1:17, 1:17, 2:] | padded[1:17, 1:17, :16]).reshape(4096)
        self._exposed_cache[key] = (revisions, mask)
        return mask

    def exposed(self, x: int, y: int, z: int) -> bool:
        cell = self.terrain.cell
        for dx, dy, dz in ((0, 1, 0), (1, 0, 0), (-1, 0, 0), (0, 0, 1), (0, 0, -1), (0, -1, 0)):
            c = cell(x + dx, y + dy, z + dz)
            if (c & g.SHAPE) == g.EMPTY and not c & (g.UNKNOWN | g.LAVA | g.WATER):
                return True
        return False

    def ledge(self, x: int, y: int, z: int) -> bool:
        """A neighbouring column has a place to stand level with this block's top.

        Mining only such blocks never digs a pit deeper than one step below the
        ground around it, so a player who walks into the hole can always climb out."""
        cell = self.terrain.cell
        for dx, dz in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            floor, feet, head = cell(x + dx, y, z + dz), cell(x + dx, y + 1, z + dz), cell(x + dx, y + 2, z + dz)
            if (floor & g.SHAPE) == g.FLOOR and (feet & g.SHAPE) == g.EMPTY and (head & g.SHAPE) == g.EMPTY \
                    and not (floor | feet | head) & (g.UNKNOWN | g.LAVA):
                return True
        return False

    def nearest(self, kind: str, at: Vec3, radius: float = 48.0, limit: int = 6, exposed: bool = True,
                skip: frozenset[Pos] | set[Pos] = frozenset()) -> Found:
        """Up to ``limit`` blocks of a kind (``knowledge.KINDS``) within ``radius``, nearest first."""
        return self.search((Query(kind, radius, exposed, limit, skip),), at)[0]

    def nearest_each(self, kinds: Iterable[str], at: Vec3, radius: float = 48.0, exposed: bool = True,
                     skip: frozenset[Pos] | set[Pos] = frozenset()) -> dict[str, tuple[float, Pos]]:
        """The nearest block of each kind within ``radius`` (kinds with none are left out), in one walk."""
        kinds = tuple(kinds)
        found = self.search(tuple(Query(kind, radius, exposed, 1, skip) for kind in kinds), at)
        return {kind: hits[0] for kind, hits in zip(kinds, found) if hits}

    def search(self, queries: tuple[Query, ...], at: Vec3) -> list[Found]:
        """Answer several queries from one point in one walk over the sections, nearest first."""
        found: list[Found] = [[] for _ in queries]
        wanted = [(INTEREST.index(q.kind) + 1, q, found[i]) for i, q in enumerate(queries) if q.kind in self.kinds]
        if not wanted:
            return found
        self.terrain.sync()
        self._refresh()
        # The distance a block must beat to be kept, per query: its radius, then its limit-th best.
        bounds = [q.radius for _, q, _ in wanted]
        farthest = max(bounds)
        for gap, key in self._order(at, farthest):
            if gap > farthest:          # no query can keep anything from here on
                break
            section = self._section(key)
            if not section:
                continue
            mask: npt.NDArray[np.bool_] | None = None
            for i, (code, q, hits_of) in enumerate(wanted):
                hits = section.get(code)
                if hits is None or gap > bounds[i]:
                    continue
                if q.exposed:
                    if mask is None:
                        mask = self._exposed_mask(key)
                    hits = hits[mask[hits]]
                    if hits.size == 0:
                        continue
                self._collect(q, key, hits, at, hits_of)
                if len(hits_of) >= q.limit:
                    bounds[i] = hits_of[-1][0]
                    farthest = max(bounds)
        return found

    def _collect(self, q: Query, key: SectionKey, hits: npt.NDArray[np.intp], at: Vec3, found: Found) -> None:
        """Add a section's hits to ``found`` (nearest first, at most ``q.limit``)."""
        bx, by, bz = key[0] * 16, key[1] * 16, key[2] * 16
        ys, zs, xs = hits >> 8, (hits >> 4) & 15, hits & 15
        d = np.sqrt((xs + bx + 0.5 - at.x) ** 2 + (ys + by - at.y) ** 2 + (zs + bz + 0.5 - at.z) ** 2)
        # For one block, the nearest hit usually qualifies: try it before sorting them all
        # (unless another hit is as near: ties go to the smallest position, as in a full sort).
        first = int(np.argmin(d))
        order: Iterable[int]
        if q.limit == 1 and int(np.count_nonzero(d == d[first])) == 1 \
                and self._qualifies(q, found, float(d[first]), xs, ys, zs, first, key):
            order = (first,)
        else:
            order = np.argsort(d, kind="stable").tolist()
        for i in order:
            di = float(d[i])
            if di > q.radius or (len(found) >= q.limit and di > found[-1][0]):
                break
            pos = (int(xs[i]) + bx, int(ys[i]) + by, int(zs[i]) + bz)
            if pos in q.skip or (q.exposed and not (self.exposed(*pos) and (q.kind == "log" or self.ledge(*pos)))):
                continue
            found.append((di, pos))
            found.sort()
            del found[q.limit:]

    def _qualifies(self, q: Query, found: Found, di: float, xs: npt.NDArray[np.intp], ys: npt.NDArray[np.intp],
                   zs: npt.NDArray[np.intp], i: int, key: SectionKey) -> bool:
        """The hit at index ``i`` would be kept (or is too far to matter)."""
        if di > q.radius or (len(found) >= q.limit and di > found[-1][0]):
            return True
        pos = (int(xs[i]) + key[0] * 16, int(ys[i]) + key[1] * 16, int(zs[i]) + key[2] * 16)
        # Trees stand on the ground: a log needs no ledge (no pit to fall into).
        return pos not in q.skip and not (q.exposed and not (self.exposed(*pos) and (q.kind == "log"
                                                                                      or self.ledge(*pos))))
