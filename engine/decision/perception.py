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
from engine.world.blocks import SectionKey
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
        for key in list(self.store.keys()):
            if abs(key[0] - cx) > r or abs(key[1] - cy) > r or abs(key[2] - cz) > r:
                continue
            hits = self._section(key).get(name)
            if hits is None:
                continue
            bx, by, bz = key[0] * 16, key[1] * 16, key[2] * 16
            ys, zs, xs = hits >> 8, (hits >> 4) & 15, hits & 15
            d = np.sqrt((xs + bx + 0.5 - at.x) ** 2 + (ys + by + 0.5 - at.y - 0.5) ** 2 + (zs + bz + 0.5 - at.z) ** 2)
            for i in np.argsort(d)[:limit * 4]:
                if d[i] > radius:
                    break
                pos = (int(xs[i]) + bx, int(ys[i]) + by, int(zs[i]) + bz)
                if pos in skip or (exposed and not (self.exposed(*pos) and (name == "oak_log" or self.ledge(*pos)))):
                    continue
                found.append((float(d[i]), pos))
        found.sort()
        return found[:limit]
