"""Crafted and generated worlds for tests, benchmarks and the headless simulation.

``WorldBuilder`` fills a ``BlockStore`` by block name over a box of sections
(everything inside starts as air, everything outside stays unknown), with
section-wide numpy writes so a 200x200 floor costs a handful of array slices.
``generate_terrain`` makes seeded random landscapes (hills, walls, pits, lava
and water pools) for property tests and the pathfinding benchmark.
"""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

from engine.motion.grid import Terrain
from engine.world.blocks import BlockStore, BlockTable


class WorldBuilder:
    def __init__(self, version: str = "1.18.2", x: tuple[int, int] = (-32, 32), y: tuple[int, int] = (0, 32),
                 z: tuple[int, int] = (-32, 32)) -> None:
        """An all-air world over the sections covering [x0, x1) x [y0, y1) x [z0, z1)."""
        self.table = BlockTable.for_version(version)
        self.store = BlockStore()
        self.air = self.table.state_for("air")
        for cx in range(x[0] >> 4, ((x[1] - 1) >> 4) + 1):
            for sy in range(y[0] >> 4, ((y[1] - 1) >> 4) + 1):
                for cz in range(z[0] >> 4, ((z[1] - 1) >> 4) + 1):
                    self.store.fill_section(cx, sy, cz, self.air)

    def state(self, name: str) -> int:
        return self.table.state_for(name)

    def set(self, x: int, y: int, z: int, name: str) -> "WorldBuilder":
        self.store.set_block(x, y, z, self.state(name))
        return self

    def fill(self, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int, name: str) -> "WorldBuilder":
        """Fill the inclusive box between two corners, like /fill."""
        self.fill_state(x0, y0, z0, x1, y1, z1, self.state(name))
        return self

    def fill_state(self, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int, state: int) -> None:
        x0, x1 = sorted((x0, x1))
        y0, y1 = sorted((y0, y1))
        z0, z1 = sorted((z0, z1))
        for cx in range(x0 >> 4, (x1 >> 4) + 1):
            for sy in range(y0 >> 4, (y1 >> 4) + 1):
                for cz in range(z0 >> 4, (z1 >> 4) + 1):
                    current = self.store.section((cx, sy, cz))
                    states = (np.full(4096, self.air, dtype=self.store.dtype) if current is None else current.copy())
                    cube = states.reshape(16, 16, 16)  # (y, z, x)
                    ys = slice(max(y0, sy * 16) - sy * 16, min(y1, sy * 16 + 15) - sy * 16 + 1)
                    zs = slice(max(z0, cz * 16) - cz * 16, min(z1, cz * 16 + 15) - cz * 16 + 1)
                    xs = slice(max(x0, cx * 16) - cx * 16, min(x1, cx * 16 + 15) - cx * 16 + 1)
                    cube[ys, zs, xs] = state
                    self.store.set_section(cx, sy, cz, states)

    def terrain(self) -> Terrain:
        return Terrain(self.store, self.table)


def generate_terrain(seed: int, size: int = 128, version: str = "1.18.2", base: int = 64,
                     hazards: bool = True) -> WorldBuilder:
    """A seeded landscape over [0, size) x [0, size): rolling stone hills with grass tops,
    walls, pits, and (with ``hazards``) lava and water pools. Ground level is ``base``
    give or take eight blocks."""
    rng = np.random.default_rng(seed)
    world = WorldBuilder(version, x=(0, size), y=(base - 16, base + 32), z=(0, size))
    # Smooth heights from a few random bumps: hills of varied steepness, some steps of two.
    xs, zs = np.meshgrid(np.arange(size), np.arange(size), indexing="ij")
    height = np.zeros((size, size))
    for _ in range(max(4, size // 12)):
        cx, cz = rng.uniform(0, size, 2)
        radius = rng.uniform(6, 24)
        amp = rng.uniform(-5, 6)
        height += amp * np.exp(-((xs - cx) ** 2 + (zs - cz) ** 2) / (2 * radius ** 2))
    ground = (base + np.round(height)).astype(int)
    stone = world.state("stone")
    grass = world.state("grass_block" if "grass_block" in world.table.names() else "grass")
    _columns(world, ground, base - 16, stone, grass)
    for _ in range(size // 8):
        # Walls three high and up to twenty long: obstacles to walk around.
        x, z = (int(v) for v in rng.integers(4, size - 4, 2))
        length = int(rng.integers(5, 20))
        along_x = bool(rng.integers(0, 2))
        for i in range(length):
            wx, wz = (x + i, z) if along_x else (x, z + i)
            if 0 <= wx < size and 0 <= wz < size:
                top = int(ground[wx, wz])
                world.fill_state(wx, top, wz, wx, top + 2, wz, stone)
    for _ in range(size // 16):
        # Pits three deep.
        x, z = (int(v) for v in rng.integers(4, size - 8, 2))
        top = int(ground[x, z])
        world.fill_state(x, top - 3, z, x + 2, top - 1, z + 2, world.air)
    if hazards:
        for name in ("lava", "water") * max(1, size // 32):
            x, z = (int(v) for v in rng.integers(4, size - 8, 2))
            top = int(ground[x, z])
            w = int(rng.integers(2, 5))
            world.fill_state(x, top - 2, z, x + w, top - 1, z + w, world.state(name))
    return world


def _columns(world: WorldBuilder, ground: npt.NDArray[np.int_], bottom: int, stone: int, grass: int) -> None:
    size_x, size_z = ground.shape
    store = world.store
    for cx in range(0, (size_x - 1) // 16 + 1):
        for cz in range(0, (size_z - 1) // 16 + 1):
            patch = ground[cx * 16:cx * 16 + 16, cz * 16:cz * 16 + 16]
            lo, hi = bottom >> 4, (int(patch.max()) >> 4) + 1
            for sy in range(lo, hi + 1):
                current = store.section((cx, sy, cz))
                states = np.full(4096, world.air, dtype=store.dtype) if current is None else current.copy()
                cube = states.reshape(16, 16, 16)
                ys = np.arange(16)[:, None, None] + sy * 16
                # patch is indexed [x, z]; the cube is [y, z, x].
                top = np.zeros((16, 16), dtype=int) - 10_000
                top[:patch.shape[1], :patch.shape[0]] = patch.T
                # ground[x, z] is the first air cell: stone below, grass on top.
                cube[(ys >= bottom) & (ys < top[None, :, :] - 1)] = stone
                cube[ys == top[None, :, :] - 1] = grass
                store.set_section(cx, sy, cz, states)
