"""What the autopilot can see in the player's block store: known blocks of interest.

How this works: per section, the flat indices of each block of interest
(logs, stone, iron ore, crafting tables, furnaces) are found with numpy once
and kept until the store's revision of that section changes, so a search
costs a few dictionary lookups per tick and numpy only after block changes.
"""
from __future__ import annotations

import math

import attrs
import numpy as np
import numpy.typing as npt

from engine.motion import grid as g
from engine.motion.grid import Terrain
from engine.world.blocks import BlockFlag, SectionKey
from engine.world.snapshot import Vec3

INTEREST = ("oak_log", "stone", "iron_ore", "crafting_table", "furnace")
EYE = 1.62


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


class BlockFinder:
    def __init__(self, terrain: Terrain) -> None:
        self.terrain = terrain
        self.store = terrain.store
        table = terrain.table
        self.states: dict[str, npt.NDArray[np.intp]] = {}
        for name in INTEREST:
            if name in table.names():
                self.states[name] = np.array(list(table.states_of(name)), dtype=np.intp)
        self._cache: dict[SectionKey, tuple[int, dict[str, npt.NDArray[np.intp]]]] = {}
        flags = table.flags_array
        # Open cells: no collision, no liquid, a real block of this version (air, plants, torches).
        self._open = np.zeros(max(int(table.size), 0x10000), dtype=bool)
        self._open[:table.size] = (flags & (BlockFlag.SOLID | BlockFlag.LIQUID | BlockFlag.UNKNOWN)) == 0
        self._keys: npt.NDArray[np.int_] | None = None
        self._keys_count = -1
        self._exposed_cache: dict[SectionKey, tuple[tuple[int, ...], npt.NDArray[np.bool_]]] = {}

    def _key_array(self) -> npt.NDArray[np.int_]:
        """The loaded section keys as a (n, 3) array, rebuilt after the store changed."""
        count = self.store.revision
        if self._keys is None or self._keys_count != count:
            self._keys = np.array(list(self.store.keys()), dtype=int).reshape(-1, 3)
            self._keys_count = count
        return self._keys

    def _section(self, key: SectionKey) -> dict[str, npt.NDArray[np.intp]]:
        revision = self.store.section_revision(key)
        cached = self._cache.get(key)
        if cached is not None and cached[0] == revision:
            return cached[1]
        array = self.store.section(key)
        found: dict[str, npt.NDArray[np.intp]] = {}
        if array is not None:
            for name, states in self.states.items():
                hits = np.nonzero(np.isin(array, states))[0]
                if hits.size:
                    found[name] = hits
        self._cache[key] = (revision, found)
        return found

    _NEIGHBOURS = ((0, 0, 0), (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))

    def _exposed_mask(self, key: SectionKey) -> npt.NDArray[np.bool_]:
        """Per block of a section (flat, chunk order): some face touches an open cell."""
        keys = [(key[0] + dx, key[1] + dy, key[2] + dz) for dx, dy, dz in self._NEIGHBOURS]
        revisions = tuple(self.store.section_revision(k) for k in keys)
        cached = self._exposed_cache.get(key)
        if cached is not None and cached[0] == revisions:
            return cached[1]
        padded = np.zeros((18, 18, 18), dtype=bool)          # [y, z, x], one cell of margin
        centre = self.store.section(key)
        if centre is not None:
            padded[1:17, 1:17, 1:17] = self._open[centre.reshape(16, 16, 16)]
        for (dx, dy, dz), k in zip(self._NEIGHBOURS[1:], keys[1:]):
            array = self.store.section(k)
            if array is None:
                continue
            cube = self._open[array.reshape(16, 16, 16)]
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

    def nearest(self, name: str, at: Vec3, radius: float = 48.0, limit: int = 6, exposed: bool = True,
                skip: frozenset[tuple[int, int, int]] | set[tuple[int, int, int]] = frozenset()
                ) -> list[tuple[float, tuple[int, int, int]]]:
        """Up to ``limit`` blocks named ``name`` within ``radius``, nearest first."""
        if name not in self.states:
            return []
        self.terrain.sync()
        found: list[tuple[float, tuple[int, int, int]]] = []
        r = math.ceil(radius / 16)
        cx, cy, cz = math.floor(at.x) >> 4, math.floor(at.y) >> 4, math.floor(at.z) >> 4
        # Sections nearest first (by the distance to their box), so the scan stops as soon
        # as no section left can hold anything nearer than the ``limit`` found so far.
        keys = self._key_array()
        if len(keys) == 0:
            return []
        near = np.all(np.abs(keys - np.array([cx, cy, cz])) <= r, axis=1)
        lo = keys[near] * 16
        point = np.array([at.x, at.y + 0.5, at.z])
        gaps = np.sqrt((np.maximum(np.maximum(lo - point, 0.0), point - lo - 16) ** 2).sum(axis=1))
        ranked = np.argsort(gaps)
        near_keys = keys[near]
        order = [(float(gaps[i]), (int(near_keys[i][0]), int(near_keys[i][1]), int(near_keys[i][2])))
                 for i in ranked if gaps[i] <= radius]
        for gap, key in order:
            if len(found) >= limit and gap > found[-1][0]:
                break
            hits = self._section(key).get(name)
            if hits is None:
                continue
            if exposed:
                hits = hits[self._exposed_mask(key)[hits]]
                if hits.size == 0:
                    continue
            bx, by, bz = key[0] * 16, key[1] * 16, key[2] * 16
            ys, zs, xs = hits >> 8, (hits >> 4) & 15, hits & 15
            d = np.sqrt((xs + bx + 0.5 - at.x) ** 2 + (ys + by - at.y) ** 2 + (zs + bz + 0.5 - at.z) ** 2)
            for i in np.argsort(d):
                if d[i] > radius or (len(found) >= limit and d[i] > found[-1][0]):
                    break
                pos = (int(xs[i]) + bx, int(ys[i]) + by, int(zs[i]) + bz)
                if pos in skip or (exposed and not (self.exposed(*pos) and (name == "oak_log" or self.ledge(*pos)))):
                    continue
                found.append((float(d[i]), pos))
                found.sort()
                del found[limit:]
        found.sort()
        return found[:limit]
