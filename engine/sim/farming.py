"""Farming in the simulated world: tilling with a hoe, planting seeds, crops growing on random ticks.

How this works (vanilla 1.18.2, by class):

* ``HoeItem.useOn``: a hoe used on the top or a side of grass, a dirt path or dirt with air above
  turns it into farmland (``till``).
* ``ItemNameBlockItem`` / ``CropBlock.mayPlaceOn``: wheat seeds used on farmland's top face plant
  a wheat crop of age 0 in the air above (``plant``).
* ``ServerLevel.tickChunk``: every tick each 16³ section gets ``randomTickSpeed`` (3) random
  ticks, so a block gets one about every 4,096 / 3 ticks; ``Crops`` draws each crop's next random
  tick from that geometric law (a generator of its own: nothing else the world draws moves).
* ``CropBlock.randomTick``: below its last age (7), with the sky's light (the simulator's crops
  stand in the open), a crop grows one age with chance 1 / (⌊25 / f⌋ + 1), ``f`` from
  ``CropBlock.getGrowthSpeed``: 1, plus for the nine farmland cells under and around it 1 each
  (3 if moist) with the eight around counted a quarter, halved when the same crop stands both
  east-or-west and north-or-south of it, or else on a diagonal (rows grow faster than a field).
  Moist is vanilla's ``FarmBlock.isNearWater``: water within 4 blocks across, level or one up
  (the moisture the farmland's own random tick sets; its drying out is not modelled).

A lone row of moist farmland grows a seed to ripe in about 7 × 4,096 ticks (f 10: a chance of 1/3
a random tick), a crowded field in 7 × 8,192: longer than a 24,000-tick day.
"""
from __future__ import annotations

import numpy as np

from engine.decision.knowledge import MATURE, TILLABLE
from engine.planning.sources import CROPS
from engine.world.blocks import BlockStore, BlockTable

RANDOM_TICK_SPEED = 3          # the gamerule's default
SECTION_BLOCKS = 16 ** 3
RANDOM_TICK_CHANCE = RANDOM_TICK_SPEED / SECTION_BLOCKS
WATER_REACH = 4                # FarmBlock.isNearWater: x and z within 4, y 0 to 1 above
SEEDS: dict[str, str] = {seed: crop for seed, crop in CROPS.values()}      # the item and the crop it plants
MAX_AGE: dict[str, int] = dict(MATURE)                                    # wheat: 7

Pos = tuple[int, int, int]


def till(store: BlockStore, table: BlockTable, x: int, y: int, z: int, face: int) -> int | None:
    """The farmland state a hoe makes of the block at (x, y, z) clicked on ``face`` (0: the bottom),
    or None when vanilla's hoe does nothing there."""
    name = table.name(store.get(x, y, z) or 0)
    above = table.name(store.get(x, y + 1, z) or 0)
    if face == 0 or name not in TILLABLE or above != "air":
        return None
    return table.state_for("farmland")


def plant(store: BlockStore, table: BlockTable, item: str, x: int, y: int, z: int) -> int | None:
    """The crop state seeds ``item`` put at (x, y, z) (air over farmland), or None."""
    crop = SEEDS.get(item)
    if crop is None or table.name(store.get(x, y, z) or 0) != "air" \
            or table.name(store.get(x, y - 1, z) or 0) != "farmland":
        return None
    return table.states_of(crop).start


class Crops:
    """The crops growing in the world: each one's next random tick, and its growth on it."""

    def __init__(self, store: BlockStore, table: BlockTable, rng: np.random.Generator) -> None:
        self.store = store
        self.table = table
        self.rng = rng
        self.next_tick: dict[Pos, int] = {}

    def planted(self, pos: Pos, t: int) -> None:
        self.next_tick[pos] = t + int(self.rng.geometric(RANDOM_TICK_CHANCE))

    def tick(self, t: int) -> list[tuple[int, int, int, int]]:
        """The crops that grew an age this tick: (x, y, z, new state)."""
        changed: list[tuple[int, int, int, int]] = []
        for pos, due in list(self.next_tick.items()):
            if due > t:
                continue
            crop = self._crop(pos)
            if crop is None:
                del self.next_tick[pos]            # picked or trampled: nothing grows there now
                continue
            name, age = crop
            if age < MAX_AGE[name] and self.rng.integers(int(25.0 / self.growth_speed(pos, name)) + 1) == 0:
                age += 1
                state = self.table.states_of(name).start + age
                self.store.set_block(*pos, state)
                changed.append((*pos, state))
            if age >= MAX_AGE[name]:
                del self.next_tick[pos]            # ripe: no random tick changes it any more
            else:
                self.next_tick[pos] = t + int(self.rng.geometric(RANDOM_TICK_CHANCE))
        return changed

    def _crop(self, pos: Pos) -> tuple[str, int] | None:
        state = self.store.get(*pos)
        name = self.table.name(state or 0)
        if state is None or name not in MAX_AGE:
            return None
        return name, state - self.table.states_of(name).start

    def _name(self, x: int, y: int, z: int) -> str | None:
        state = self.store.get(x, y, z)
        return None if state is None else self.table.name(state)

    def moist(self, x: int, y: int, z: int) -> bool:
        return any(self._name(x + dx, y + dy, z + dz) == "water"
                   for dx in range(-WATER_REACH, WATER_REACH + 1) for dz in range(-WATER_REACH, WATER_REACH + 1)
                   for dy in (0, 1))

    def growth_speed(self, pos: Pos, crop: str) -> float:
        """CropBlock.getGrowthSpeed for the crop at ``pos``."""
        x, y, z = pos
        f = 1.0
        for dx in (-1, 0, 1):
            for dz in (-1, 0, 1):
                g = 0.0
                if self._name(x + dx, y - 1, z + dz) == "farmland":
                    g = 3.0 if self.moist(x + dx, y - 1, z + dz) else 1.0
                if dx or dz:
                    g /= 4.0
                f += g

        def same(dx: int, dz: int) -> bool:
            return self._name(x + dx, y, z + dz) == crop

        east_west = same(-1, 0) or same(1, 0)
        north_south = same(0, -1) or same(0, 1)
        if east_west and north_south:
            f /= 2.0
        elif any(same(dx, dz) for dx in (-1, 1) for dz in (-1, 1)):
            f /= 2.0
        return f
