"""The simulated world's generation: terrain, ponds and a lava pool, trees, cows and a bed, from a seed.

How this works: ``Generation.run`` draws from the world's generator in a fixed order (hills,
rocky outcrops with iron, the pools, the trees) and writes the blocks into the ``BlockStore``;
``heights`` (the first air cell of each column) and ``features`` (where the pools and trees
are, for hazard episodes and tests) come out of it. The cows draw from a generator of their
own, so the terrain and every other draw are what they were before there were animals.
With ``SimOptions.underground`` (a version family) the world reaches down to the family's
bottom and ``strata`` lays deepslate, caves, ores and lava there, from a generator of its own.
``surface`` lays a beach with sugar cane, gravel and a wheat farm after the trees, from a
generator of its own too.
"""
from __future__ import annotations

import math

import numpy as np

from engine.world.blocks import BlockStore, BlockTable
from engine.sim.rules import ANIMAL_IDS, COWS, HEIGHT
from engine.sim.records import Animal, SimOptions
from engine.sim.strata import Strata, min_y
from engine.sim.surface import Surface, spawn_herd


def walkable(store: BlockStore, table: BlockTable, x: int, y: int, z: int) -> bool:
    """Grass underfoot and two cells of air: where a cow stands and strolls."""
    def block(bx: int, by: int, bz: int) -> str | None:
        state = store.get(bx, by, bz)
        return None if state is None else table.name(state)
    return block(x, y - 1, z) == "grass_block" and block(x, y, z) == "air" and block(x, y + 1, z) == "air"


class Generation:
    def __init__(self, options: SimOptions, rng: np.random.Generator, table: BlockTable, store: BlockStore,
                 seed: int = 0) -> None:
        self.options = options
        self.seed = seed
        self.rng = rng
        self.table = table
        self.store = store
        self.air = table.state_for("air")
        self.heights = np.zeros((options.size, options.size), dtype=int)
        self.features: dict[str, list[tuple[int, int, int]]] = {}
        self.ponds: list[tuple[int, int, int, int]] = []       # a pond with a beach: x, z, width, level
        self.pools: list[tuple[int, int, int, int]] = []       # the hazards' pools (nothing is put near)

    def block(self, x: int, y: int, z: int) -> str | None:
        state = self.store.get(x, y, z)
        return None if state is None else self.table.name(state)

    def run(self) -> None:
        o, rng = self.options, self.rng
        size = o.size
        xs, zs = np.meshgrid(np.arange(size), np.arange(size), indexing="ij")
        height = np.zeros((size, size))
        for _ in range(6):
            cx, cz = rng.uniform(0, size, 2)
            radius = rng.uniform(10, 28)
            height += rng.uniform(-2.5, 3.0) * np.exp(-((xs - cx) ** 2 + (zs - cz) ** 2) / (2 * radius ** 2))
        ground = (40 + np.round(height)).astype(int)       # first air cell of each column
        st = self.table.state_for
        low = min_y(o.underground)
        whole = np.full((HEIGHT - low, size, size), self.air, dtype=np.uint16)    # [y - low, z, x]
        if low:
            whole[:-low] = st("stone")
        blocks = whole[-low:]          # y >= 0, indexed by y: the surface as it always was
        ys = np.arange(HEIGHT)[:, None, None]
        top = ground.T[None, :, :]
        blocks[ys < top - 4] = st("stone")
        blocks[(ys >= top - 4) & (ys < top - 1)] = st("dirt")
        blocks[ys == top - 1] = st("grass_block")
        if o.underground is None:
            blocks[0] = st("bedrock")
        rocky = np.zeros((size, size), dtype=bool)
        centre = size // 2
        for i in range(4):
            # Rocky outcrops with iron showing, 12 to 36 blocks from spawn.
            angle = rng.uniform(0, 2 * math.pi)
            dist = rng.uniform(12, 30)
            cx, cz = centre + dist * math.cos(angle), centre + dist * math.sin(angle)
            radius = rng.uniform(3.5, 6.0)
            patch = (xs - cx) ** 2 + (zs - cz) ** 2 <= radius ** 2
            rocky |= patch
        for x, z in zip(*np.nonzero(rocky)):
            t = ground[x, z]
            blocks[t - 5:t, z, x] = st("stone")
            if rng.random() < 0.18:
                blocks[t - 1, z, x] = st("iron_ore")
            if rng.random() < 0.12:
                blocks[t - 2, z, x] = st("iron_ore")
        self._pools(blocks, ground, rocky)
        self._trees(blocks, ground, rocky)
        # Beaches, cane, gravel and a farm, from a generator of their own: the draws above are what
        # they were before there was a surface.
        surface = Surface(self.table, np.random.default_rng((self.seed, 3)), blocks, ground, rocky,
                          self.ponds, self.pools)
        surface.run(farm=self.options.farm)
        self.features.update(surface.features)
        self.heights = ground
        if o.underground is not None:
            # Below the surface, from a generator of its own: the surface, the trees and the animals
            # of a seed are the same with or without it.
            strata = Strata(o.underground, np.random.default_rng((self.seed, 2)), self.table, whole, ground)
            strata.run()
            if o.hazard in ("lava", "water"):
                # The hazard met at depth too, drawn after everything else from a generator of its own.
                strata.hazard_pockets(o.hazard, np.random.default_rng((self.seed, 4)))
            self.features.update(strata.features)
        self.blocks = whole
        for cx in range(size // 16):
            for cz in range(size // 16):
                for sy in range(low // 16, HEIGHT // 16):
                    r = (sy - low // 16) * 16
                    part = whole[r:r + 16, cz * 16:cz * 16 + 16, cx * 16:cx * 16 + 16]
                    self.store.set_section(cx, sy, cz, part.reshape(4096))

    def _pools(self, blocks: np.ndarray, ground: np.ndarray, rocky: np.ndarray) -> None:
        size = self.options.size
        centre = size // 2
        st = self.table.state_for
        hazard = self.options.hazard
        # A pond (4 deep when water is the hazard) and a lava pool (next to spawn when lava is).
        # With lava as the hazard the pond lies two blocks past the lava pool: within the
        # fire reflex's short search for water, as a player would keep a bucket's worth near.
        for name, near, depth in (("water", hazard in ("water", "lava"), 4 if hazard == "water" else 2),
                                  ("lava", hazard == "lava", 2)):
            for _ in range(50):
                if near:
                    x, z = (centre + 4, centre - 1) if hazard == name else (centre + 9, centre - 1)
                else:
                    angle = self.rng.uniform(0, 2 * math.pi)
                    dist = self.rng.uniform(16, 36)
                    x, z = int(centre + dist * math.cos(angle)), int(centre + dist * math.sin(angle))
                w = 4 if name == "water" else 3
                if not (2 <= x < size - w - 2 and 2 <= z < size - w - 2) or (rocky[x:x + w, z:z + w].any() and not near):
                    continue
                level = int(ground[x:x + w, z:z + w].min())
                for px in range(x, x + w):
                    for pz in range(z, z + w):
                        blocks[level - depth:ground[px, pz], pz, px] = self.air
                        blocks[level - depth:level, pz, px] = st(name)
                        blocks[level - depth - 1, pz, px] = st("stone")
                        ground[px, pz] = level
                # Where a hazard episode puts the player: the bottom of the pond (drowning), the
                # top layer of the lava (a misstep into it).
                self.features.setdefault(name, []).append((x + w // 2, level - (depth if name == "water" else 1),
                                                           z + w // 2))
                (self.ponds if name == "water" and not near else self.pools).append((x, z, w, level))
                break

    def spawn_animals(self, rng: np.random.Generator) -> dict[int, Animal]:
        """Cows on open grass 8 to 40 blocks from spawn, away from trees, water and lava."""
        return spawn_herd("cow", COWS, ANIMAL_IDS, 8, self._walkable, self.heights, rng, tries_each=20)

    def _walkable(self, x: int, y: int, z: int) -> bool:
        return walkable(self.store, self.table, x, y, z)

    def _trees(self, blocks: np.ndarray, ground: np.ndarray, rocky: np.ndarray) -> None:
        size = self.options.size
        st = self.table.state_for
        log, leaves, grass = st("oak_log"), st("oak_leaves"), st("grass_block")
        placed: list[tuple[int, int]] = []
        for _ in range(size * size // 160):
            x, z = (int(v) for v in self.rng.integers(3, size - 3, 2))
            t = int(ground[x, z])
            if blocks[t - 1, z, x] != grass or any(abs(x - a) < 4 and abs(z - b) < 4 for a, b in placed):
                continue
            if x == z == size // 2:
                # Not on the spawn point: vanilla spawns a player on open ground, never inside a
                # trunk (seed 1119 did, and every first step was inside a block).
                continue
            placed.append((x, z))
            trunk = int(self.rng.integers(4, 6))
            for dy in (trunk - 2, trunk - 1):
                for dx in range(-2, 3):
                    for dz in range(-2, 3):
                        if abs(dx) + abs(dz) < 4 and blocks[t + dy, z + dz, x + dx] == self.air:
                            blocks[t + dy, z + dz, x + dx] = leaves
            for dx, dz in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                blocks[t + trunk, z + dz, x + dx] = leaves
            blocks[t:t + trunk, z, x] = log
            self.features.setdefault("tree", []).append((x, t, z))

    def place_bed(self) -> tuple[int, int, int] | None:
        """A bed (foot and head) on open grass a few blocks from spawn, as a player would put one."""
        c = self.options.size // 2
        for dx, dz in ((3, 3), (-3, 3), (3, -3), (-3, -3), (5, 0), (0, 5), (-5, 0), (0, -5)):
            x, z = c + dx, c + dz
            y = int(self.heights[x, z])
            if all(self._walkable(x + i, y, z) and int(self.heights[x + i, z]) == y for i in (0, 1)):
                state = self.table.state_for("red_bed")
                for i in (0, 1):
                    self.store.set_block(x + i, y, z, state)
                return (x, y, z)
        return None
