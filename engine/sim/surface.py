"""The simulated world's surface past trees and stone: a beach with sugar cane, gravel, a wheat farm, sheep.

How this works: ``Surface.run`` runs after the terrain, the pools and the trees, from a generator
of its own (``(seed, 3)``), so every earlier draw is what it was. Vanilla puts these where a
player finds them in the first minutes:

* a beach two blocks wide around the pond (not a hazard's pond, whose shape the hazard episodes
  rely on), level with the water, sand on dirt; sugar cane 1 to 3 tall on the sand beside the
  water (vanilla's cane grows only on a block next to water);
* two gravel patches (a riverbed's worth, one layer on dirt, away from the water);
* coal in the rocky outcrops: vanilla 1.18's buried coal feature (``strata.FAMILIES``: 20 veins
  of 17 a chunk on a triangle from y 0 to 192, half the blocks that touch air discarded) laid over
  the outcrops' stone only, as a hillside shows coal where its rock comes to light; drawn last, so
  everything above is where it was;
* one village-like wheat farm, grown: two rows of farmland each side of a water channel, ripe
  wheat on them (``SimOptions.farm``; without it, wheat is what the player plants: tilling,
  planting and random-tick growth are ``engine.sim.farming``; seeds from grass are not simulated,
  as there is no grass to break).

``loot`` is what those blocks drop when broken (gravel's flint one time in ten, ripe wheat's
wheat and 1 to 4 seeds, a young crop one seed); ``spawn_sheep`` puts a flock on the grass.
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from engine.decision.knowledge import GAME_HEALTH, MATURE
from engine.world.blocks import BlockTable
from engine.sim.records import Animal
from engine.sim.strata import FAMILIES, veins

SHEEP = 6
SHEEP_IDS = 50_100            # after the cows' ids (rules.ANIMAL_IDS)
FLINT_CHANCE = 0.1            # vanilla's gravel loot table, no fortune
BEACH = 2
FARM = (9, 5)                 # x by z: farmland rows at z 0, 1, 3, 4, the water channel at z 2

Pond = tuple[int, int, int, int]        # x, z, width, water level (first air above the water)


class Surface:
    def __init__(self, table: BlockTable, rng: np.random.Generator, blocks: np.ndarray, ground: np.ndarray,
                 rocky: np.ndarray, ponds: list[Pond], avoid: list[Pond]) -> None:
        self.table = table
        self.rng = rng
        self.blocks = blocks             # [y, z, x], y >= 0
        self.ground = ground             # [x, z]: the first air cell
        self.rocky = rocky
        self.ponds = ponds               # beaches go around these
        self.avoid = ponds + avoid       # and nothing else near these (the hazard's pools too)
        self.size = ground.shape[0]
        self.air = table.state_for("air")
        self.features: dict[str, list[tuple[int, int, int]]] = {}

    def run(self, farm: bool = True) -> None:
        for pond in self.ponds:
            self._beach(pond)
        for _ in range(2):
            self._gravel()
        if farm:
            self._farm()
        self._coal()

    # -- placement -------------------------------------------------------------------------------
    def _free(self, x: int, z: int, margin: int) -> bool:
        """Open grass: in bounds, not rocky, no trunk or leaves on it, ``margin`` from every pool."""
        if not (3 <= x < self.size - 3 and 3 <= z < self.size - 3) or self.rocky[x, z]:
            return False
        g = int(self.ground[x, z])
        if self.blocks[g - 1, z, x] != self.table.state_for("grass_block"):
            return False
        if (self.blocks[g:g + 8, z, x] != self.air).any():
            return False
        return not any(px - margin <= x < px + w + margin and pz - margin <= z < pz + w + margin
                       for px, pz, w, _ in self.avoid)

    def _beach(self, pond: Pond) -> None:
        st = self.table.state_for
        x0, z0, w, level = pond
        for x in range(x0 - BEACH, x0 + w + BEACH):
            for z in range(z0 - BEACH, z0 + w + BEACH):
                if x0 <= x < x0 + w and z0 <= z < z0 + w:
                    continue
                if not (3 <= x < self.size - 3 and 3 <= z < self.size - 3) or self.rocky[x, z]:
                    continue
                g = int(self.ground[x, z])
                if g > level + 2 or (self.blocks[g:g + 8, z, x] != self.air).any():
                    continue              # a steep bank or a tree: left as it is
                self.blocks[level:max(g, level) + 1, z, x] = self.air
                self.blocks[min(g - 1, level - 3):level - 1, z, x] = st("dirt")
                self.blocks[level - 1, z, x] = st("sand")
                self.ground[x, z] = level
                beside = any(x0 <= x + dx < x0 + w and z0 <= z + dz < z0 + w
                             for dx, dz in ((1, 0), (-1, 0), (0, 1), (0, -1)))
                if beside and self.rng.random() < 0.5:
                    tall = int(self.rng.integers(1, 4))
                    self.blocks[level:level + tall, z, x] = st("sugar_cane")
                    self.features.setdefault("sugar_cane", []).append((x, level, z))

    def _gravel(self) -> None:
        centre = self.size // 2
        for _ in range(50):
            angle = self.rng.uniform(0, 2 * math.pi)
            dist = self.rng.uniform(12, 34)
            cx, cz = centre + dist * math.cos(angle), centre + dist * math.sin(angle)
            radius = self.rng.uniform(2.5, 3.5)
            cells = [(x, z) for x in range(int(cx - radius), int(cx + radius) + 1)
                     for z in range(int(cz - radius), int(cz + radius) + 1)
                     if (x - cx) ** 2 + (z - cz) ** 2 <= radius ** 2 and (x, z) != (centre, centre)]
            cells = [(x, z) for x, z in cells if self._free(x, z, 2)]
            if len(cells) < 12:
                continue
            for x, z in cells:
                self.blocks[int(self.ground[x, z]) - 1, z, x] = self.table.state_for("gravel")
            self.features.setdefault("gravel", []).append((int(cx), int(self.ground[int(cx), int(cz)]), int(cz)))
            return

    def _farm(self) -> None:
        st = self.table.state_for
        centre = self.size // 2
        wide, deep = FARM
        ripe = self.table.states_of("wheat").start + MATURE["wheat"]
        for _ in range(80):
            angle = self.rng.uniform(0, 2 * math.pi)
            dist = self.rng.uniform(14, 34)
            x0, z0 = int(centre + dist * math.cos(angle)), int(centre + dist * math.sin(angle))
            cells = [(x, z) for x in range(x0 - 1, x0 + wide + 1) for z in range(z0 - 1, z0 + deep + 1)]
            if any(not self._free(x, z, 2) or (x, z) == (centre, centre) for x, z in cells):
                continue
            heights = [int(self.ground[x, z]) for x, z in cells]
            if max(heights) - min(heights) > 2:
                continue
            level = int(self.ground[x0 + wide // 2, z0 + deep // 2])
            for x, z in cells:
                g = int(self.ground[x, z])
                self.blocks[level:max(g, level) + 1, z, x] = self.air
                self.blocks[min(g - 1, level - 4):level - 1, z, x] = st("dirt")
                self.blocks[level - 1, z, x] = st("grass_block")
                self.ground[x, z] = level
            for x in range(x0, x0 + wide):
                for dz in range(deep):
                    if dz == deep // 2:
                        self.blocks[level - 1, z0 + dz, x] = st("water")
                    else:
                        self.blocks[level - 1, z0 + dz, x] = st("farmland")
                        self.blocks[level, z0 + dz, x] = ripe
            self.features.setdefault("farm", []).append((x0 + wide // 2, level, z0 + deep // 2))
            return


    def _coal(self) -> None:
        st = self.table.state_for
        rule = next(r for r in FAMILIES["1.18"].ores if r.ore == "coal_ore")
        before = self.blocks == st("coal_ore")
        ys = np.arange(self.blocks.shape[0])[:, None, None]
        top = self.ground.T[None, :, :]
        outcrops = self.rocky.T[None, :, :] & (ys >= top - 5) & (ys < top)      # generation's five layers
        veins(self.blocks, 0, rule, {st("stone"): st("coal_ore")}, self.air, self.rng, where=outcrops)
        for y, z, x in zip(*np.nonzero((self.blocks == st("coal_ore")) & ~before)):
            self.features.setdefault("coal_ore", []).append((int(x), int(y), int(z)))


def loot(name: str, state_offset: int, rng: np.random.Generator) -> list[tuple[str, int]] | None:
    """What a block drops broken with a tool that harvests it, where vanilla's loot table is more than
    the block's one drop (None: that one drop)."""
    if name in ("redstone_ore", "deepslate_redstone_ore"):
        return [("redstone", int(rng.integers(4, 6)))]        # vanilla: uniform 4-5, no fortune
    if name == "gravel":
        return [("flint", 1)] if rng.random() < FLINT_CHANCE else [("gravel", 1)]
    if name == "wheat":
        if state_offset == MATURE["wheat"]:
            # Vanilla: 1 wheat, and 1 seed plus 3 tries at 4/7 each.
            return [("wheat", 1), ("wheat_seeds", 1 + int(rng.binomial(3, 4 / 7)))]
        return [("wheat_seeds", 1)]
    return None


def animal_loot(kind: str, rng: np.random.Generator) -> list[tuple[str, int]]:
    """A goal's loot from a killed animal, vanilla's tables without looting (a cow's beef is the
    simulator's food rule, ``rules.COW_DROPS``): a cow's 0-2 leather, a sheep's 1-2 mutton and its wool."""
    if kind == "cow":
        return [("leather", int(rng.integers(0, 3)))]
    if kind == "sheep":
        return [("mutton", int(rng.integers(1, 3))), ("white_wool", 1)]
    return []


def spawn_herd(kind: str, count: int, first_id: int, near: float, walkable: Callable[[int, int, int], bool],
               heights: np.ndarray, rng: np.random.Generator, tries_each: int) -> dict[int, Animal]:
    """Up to ``count`` animals on open grass ``near`` to 40 blocks from spawn (``walkable(x, y, z)``:
    grass, two air), ids from ``first_id`` (ids of their own, so items' and zombies' ids do not
    depend on the animals); ``count * tries_each`` spots drawn at most."""
    size = heights.shape[0]
    centre = size // 2
    herd: dict[int, Animal] = {}
    for _ in range(count * tries_each):
        if len(herd) >= count:
            break
        angle = rng.uniform(0, 2 * math.pi)
        dist = rng.uniform(near, 40)
        x, z = int(centre + dist * math.cos(angle)), int(centre + dist * math.sin(angle))
        if not (3 <= x < size - 3 and 3 <= z < size - 3):
            continue
        y = int(heights[x, z])
        if walkable(x, y, z):
            eid = first_id + len(herd)
            herd[eid] = Animal(eid, kind, x + 0.5, float(y), z + 0.5, GAME_HEALTH[kind])
    return herd


def spawn_sheep(walkable: Callable[[int, int, int], bool], heights: np.ndarray,
                rng: np.random.Generator) -> dict[int, Animal]:
    """A flock on open grass 10 to 40 blocks from spawn."""
    return spawn_herd("sheep", SHEEP, SHEEP_IDS, 10, walkable, heights, rng, tries_each=30)
