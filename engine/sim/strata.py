"""The simulated world below the surface: deepslate, caves, ore veins and lava at depth, per version family.

How this works: ``Strata.run`` writes into the generation's block array (``[y - min_y, z, x]``)
after the surface is laid, in vanilla's order: the rock (stone, and on 1.18+ deepslate below
y 0 with a gradient up to y 8, bedrock at the bottom), the carvers (worm caves, whose cells
below the family's lava level fill with lava, as vanilla's carvers and 1.18's lava aquifers
do; and lava lakes in cave pockets), then the ore features: per chunk, ``count`` veins of
``size`` at heights drawn from the feature's distribution (uniform or vanilla's trapezoid),
each block replacing only stone (the ore) or deepslate (its deepslate variant), some
discarded where a block touches air (vanilla's ``discard_chance_on_air_exposure``). The
counts and height ranges are vanilla's placed features: ``OrePlacements`` of 1.18 and the
decorators of 1.13–1.17 (``FAMILIES``; redstone: 1.18's ``ORE_REDSTONE`` 4 veins of 8 uniform
from the bottom to y 15 and ``ORE_REDSTONE_LOWER`` 8 of 8 on a triangle from 32 below the bottom
to 32 above it, 1.17's 8 of 8 from y 0 to 15). Caves stay at least ``ROOF`` blocks under the
ground, so the surface the ladder plays on is the one it always was (vanilla's caves do
open to the sky; ours are reached by digging down). Everything draws from a generator of
its own, so the surface, the trees and the animals are those of the same seed without it.

Anti-xray (Paper's engine-mode 2) is ``disguise``: what the server sends of a section in
which a share of the blocks no air touches are shown as ore; ``revealed`` is what the
server sends when a dig opens a face (the true blocks around it).
"""
from __future__ import annotations

import math

import attrs
import numpy as np
import numpy.typing as npt

from engine.world.blocks import BlockTable

ROOF = 6                    # caves keep this many blocks of rock under the ground
HAZARD_POCKETS = 10         # more lava or water pockets in a hazard episode's world below


@attrs.frozen
class OreRule:
    ore: str                # the stone variant; ``deepslate_`` + ore in deepslate
    count: float            # veins per chunk (a fraction: that chance of one)
    size: int               # vanilla's vein size
    shape: str              # "uniform" or "trapezoid" (vanilla's triangle between lo and hi)
    lo: int
    hi: int
    discard: float = 0.0    # chance a block touching air is not placed


@attrs.frozen
class Family:
    min_y: int
    lava_level: int         # carved cells at or below this fill with lava
    deepslate: bool
    caves: int              # worm caves per 96 x 96 world
    lava_lakes: int
    ores: tuple[OreRule, ...]


FAMILIES: dict[str, Family] = {
    # 1.18+ (OrePlacements / OreFeatures, the parts that reach below y 80).
    "1.18": Family(-64, -55, True, 12, 4, (
        OreRule("coal_ore", 20, 17, "trapezoid", 0, 192, 0.5),
        OreRule("iron_ore", 10, 9, "trapezoid", -24, 56),
        OreRule("iron_ore", 10, 4, "uniform", -64, 72),
        OreRule("gold_ore", 4, 9, "trapezoid", -64, 32, 0.5),
        OreRule("gold_ore", 0.5, 9, "uniform", -64, -48, 0.5),
        OreRule("diamond_ore", 7, 4, "trapezoid", -144, 16, 0.5),
        OreRule("diamond_ore", 1 / 9, 12, "trapezoid", -144, 16, 0.7),
        OreRule("diamond_ore", 4, 8, "trapezoid", -144, 16, 1.0),
        # Last, so every vein above is drawn as it was before there was redstone.
        OreRule("redstone_ore", 4, 8, "uniform", -64, 15),
        OreRule("redstone_ore", 8, 8, "trapezoid", -96, -32),
    )),
    # 1.13–1.17 (Features / the range decorators): stone down to bedrock at y 0, lava below y 11.
    "1.17": Family(0, 10, False, 8, 3, (
        OreRule("coal_ore", 20, 17, "uniform", 0, 127),
        OreRule("iron_ore", 20, 9, "uniform", 0, 63),
        OreRule("gold_ore", 2, 9, "uniform", 0, 31),
        OreRule("diamond_ore", 1, 8, "uniform", 0, 15),
        OreRule("redstone_ore", 8, 8, "uniform", 0, 15),
    )),
}


def min_y(family: str | None) -> int:
    return FAMILIES[family].min_y if family is not None else 0


def draw_height(rng: np.random.Generator, rule: OreRule) -> int:
    if rule.shape == "uniform":
        return int(rng.integers(rule.lo, rule.hi + 1))
    return int(round(rng.triangular(rule.lo, (rule.lo + rule.hi) / 2, rule.hi)))


class Strata:
    def __init__(self, family: str, rng: np.random.Generator, table: BlockTable,
                 blocks: npt.NDArray[np.uint16], ground: npt.NDArray[np.int_]) -> None:
        self.family = FAMILIES[family]
        self.rng = rng
        self.blocks = blocks            # [y - min_y, z, x]
        self.ground = ground            # [x, z]: the first air cell of each column
        self.st = table.state_for
        self.features: dict[str, list[tuple[int, int, int]]] = {}

    def run(self) -> None:
        self._rock()
        self._caves()
        self._lava_lakes()
        self._ores()

    def _rock(self) -> None:
        f, b, st = self.family, self.blocks, self.st
        low = f.min_y
        ys = np.arange(b.shape[0])[:, None, None] + low
        stone = b == st("stone")
        if f.deepslate:
            # Vanilla's deepslate rule: all of it below y 0, a random gradient from 0 to 8.
            chance = np.clip((8 - ys) / 8.0, 0.0, 1.0)
            deep = stone & (self.rng.random(b.shape) < chance)
            b[deep] = st("deepslate")
        # Bedrock: the bottom layer, then thinning over four more (vanilla's bedrock floor).
        b[0] = st("bedrock")
        for dy in range(1, 5):
            b[dy][self.rng.random(b.shape[1:]) < (5 - dy) / 5.0] = st("bedrock")

    def _rock_at(self, y: int, z: int, x: int) -> bool:
        return int(self.blocks[y, z, x]) in (self.st("stone"), self.st("deepslate"))

    def _caves(self) -> None:
        f, b, rng = self.family, self.blocks, self.rng
        size = b.shape[1]
        air, lava = self.st("air"), self.st("lava")
        for _ in range(f.caves):
            x, z = rng.uniform(8, size - 8, 2)
            y = rng.uniform(f.min_y + 8, int(self.ground.min()) - ROOF - 4)
            yaw, pitch = rng.uniform(0, 2 * math.pi), rng.uniform(-0.3, 0.3)
            for _step in range(int(rng.integers(60, 140))):
                radius = 1.2 + 1.4 * rng.random()
                yaw += rng.normal(0, 0.25)
                pitch = float(np.clip(pitch * 0.8 + rng.normal(0, 0.15), -0.6, 0.6))
                x += math.cos(yaw) * math.cos(pitch)
                z += math.sin(yaw) * math.cos(pitch)
                y += math.sin(pitch)
                if not (4 <= x < size - 4 and 4 <= z < size - 4):
                    break
                self._carve(x, y, z, radius, air, lava)
            self.features.setdefault("cave", []).append((int(x), int(y), int(z)))

    def _carve(self, x: float, y: float, z: float, radius: float, air: int, lava: int) -> None:
        """One step of a worm: the rock in an ellipsoid (flatter than high) becomes air, or lava
        at and below the lava level; never within ROOF of the ground, nor the bedrock floor."""
        f, b = self.family, self.blocks
        size = b.shape[1]
        r = math.ceil(radius)
        x0, x1 = max(1, int(x) - r), min(size - 1, int(x) + r + 1)
        z0, z1 = max(1, int(z) - r), min(size - 1, int(z) + r + 1)
        y0, y1 = max(f.min_y + 5, int(y) - r), int(y) + r + 1
        if x0 >= x1 or z0 >= z1 or y0 >= y1:
            return
        ys = np.arange(y0, y1)[:, None, None]
        zs = np.arange(z0, z1)[None, :, None]
        xs = np.arange(x0, x1)[None, None, :]
        inside = (xs - x) ** 2 + (zs - z) ** 2 + ((ys - y) * 1.4) ** 2 <= radius ** 2
        inside &= ys < (self.ground[x0:x1, z0:z1].T - ROOF)[None, :, :]
        part = b[y0 - f.min_y:y1 - f.min_y, z0:z1, x0:x1]
        inside &= (part == self.st("stone")) | (part == self.st("deepslate"))
        part[inside & (ys <= f.lava_level)] = lava
        part[inside & (ys > f.lava_level)] = air

    def _lava_lakes(self) -> None:
        """Pockets at depth, their lower half lava: what a tunnel may open into."""
        f = self.family
        top = min(f.min_y + 60, int(self.ground.min()) - ROOF - 6)
        self.pockets("lava", f.lava_lakes, self.rng, f.min_y + 8, top, "lava_lake")

    def pockets(self, fluid: str, count: int, rng: np.random.Generator, lo: int, hi: int, feature: str) -> None:
        """``count`` pockets centred between y ``lo`` and ``hi``, their lower half ``fluid``, in the rock
        and the caves (the lava lakes; a hazard episode's extra lava or underground water)."""
        f, b = self.family, self.blocks
        size = b.shape[1]
        air, liquid = self.st("air"), self.st(fluid)
        for _ in range(count):
            cx, cz = (int(v) for v in rng.integers(10, size - 10, 2))
            cy = int(rng.integers(lo, max(lo + 1, hi)))
            rx, ry, rz = rng.uniform(2.0, 4.0), rng.uniform(1.5, 2.5), rng.uniform(2.0, 4.0)
            for x in range(cx - 4, cx + 5):
                for z in range(cz - 4, cz + 5):
                    for y in range(cy - 3, cy + 4):
                        if ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 + ((z - cz) / rz) ** 2 <= 1.0:
                            row = y - f.min_y
                            if self._rock_at(row, z, x) or int(b[row, z, x]) == air:
                                b[row, z, x] = liquid if y <= cy else air
            self.features.setdefault(feature, []).append((cx, cy, cz))

    def hazard_pockets(self, fluid: str, rng: np.random.Generator) -> None:
        """A lava or water hazard episode's world below: ``HAZARD_POCKETS`` more pockets of that fluid,
        anywhere from the bottom to under the ground's roof, so a descent meets them on the way."""
        f = self.family
        top = int(self.ground.min()) - ROOF - 6
        self.pockets(fluid, HAZARD_POCKETS, rng, f.min_y + 8, top, fluid + "_pocket")

    def _ores(self) -> None:
        stone, deepslate = self.st("stone"), self.st("deepslate")
        for rule in self.family.ores:
            replace = {stone: self.st(rule.ore), deepslate: self.st("deepslate_" + rule.ore)}
            veins(self.blocks, self.family.min_y, rule, replace, self.st("air"), self.rng)


def veins(b: npt.NDArray[np.uint16], low: int, rule: OreRule, replace: dict[int, int], air: int,
          rng: np.random.Generator, where: npt.NDArray[np.bool_] | None = None) -> None:
    """One ore feature over a block array (``[y - low, z, x]``): per chunk, ``rule.count`` veins of
    ``rule.size`` blocks around a spot at a height from the rule's distribution; a block replaces a
    rock of ``replace`` (stone by the ore, deepslate by its deepslate variant), only in the cells
    ``where`` (``[y - low, z, x]``) says when given (the surface's outcrops), discarded by the rule's
    chance where air touches it."""
    height, size = b.shape[0], b.shape[1]
    for chunk_x in range(size // 16):
        for chunk_z in range(size // 16):
            whole = int(rule.count)
            count = whole + int(rng.random() < rule.count - whole)
            for _ in range(count):
                y = draw_height(rng, rule) - low
                x, z = chunk_x * 16 + int(rng.integers(16)), chunk_z * 16 + int(rng.integers(16))
                if not 0 <= y < height:
                    continue
                spread = 1 if rule.size <= 4 else 2
                for dx, dy, dz in rng.integers(-spread, spread + 1, (rule.size, 3)).tolist():
                    px, py, pz = x + dx, y + dy, z + dz
                    if not (0 <= px < size and 1 <= py < height - 1 and 0 <= pz < size):
                        continue
                    here = int(b[py, pz, px])
                    if here not in replace or (where is not None and not where[py, pz, px]):
                        continue
                    if rule.discard and rng.random() < rule.discard and _touches(b, py, pz, px, air):
                        continue
                    b[py, pz, px] = replace[here]


def _touches(b: npt.NDArray[np.uint16], y: int, z: int, x: int, state: int) -> bool:
    for dy, dz, dx in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)):
        ny, nz, nx = y + dy, z + dz, x + dx
        if 0 <= ny < b.shape[0] and 0 <= nz < b.shape[1] and 0 <= nx < b.shape[2] and int(b[ny, nz, nx]) == state:
            return True
    return False


# -- anti-xray ---------------------------------------------------------------------------------------------
ORES = ("coal_ore", "iron_ore", "gold_ore", "diamond_ore")


def disguise(section: npt.NDArray[np.uint16], hidden: npt.NDArray[np.bool_], table: BlockTable,
             share: float, rng: np.random.Generator) -> npt.NDArray[np.uint16]:
    """A section as Paper's anti-xray (engine-mode 2) sends it: ``share`` of the stone and deepslate
    no air touches (``hidden``) shown as a random ore of its rock."""
    st = table.state_for
    out = section.copy()
    flat = out.reshape(-1)
    for rock, prefix in ((st("stone"), ""), (st("deepslate"), "deepslate_")):
        picks = np.flatnonzero(hidden & (section == rock) & (rng.random(section.shape) < share))
        if picks.size:
            fakes = np.array([st(prefix + o) for o in ORES], dtype=np.uint16)
            flat[picks] = fakes[rng.integers(len(fakes), size=picks.size)]
    return out


def enclosed(blocks: npt.NDArray[np.uint16], air_like: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Cells (``[y, z, x]``) with no open neighbour: what an anti-xray server may disguise."""
    open_ = air_like[blocks]
    near = open_.copy()
    near[1:] |= open_[:-1]
    near[:-1] |= open_[1:]
    near[:, 1:] |= open_[:, :-1]
    near[:, :-1] |= open_[:, 1:]
    near[:, :, 1:] |= open_[:, :, :-1]
    near[:, :, :-1] |= open_[:, :, 1:]
    return ~near
