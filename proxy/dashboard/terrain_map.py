"""A top-down map of the blocks a session knows around a point, for the dashboard's canvas.

How this works: the sections of the player's ``BlockStore`` that overlap a box
(``radius`` blocks around the player horizontally, ``BELOW`` under the feet to
``ABOVE`` over them) are copied into one array indexed ``[y, z, x]``; each state
becomes a *kind* (water, lava, stone, leaves, ...) through a per-version table
built once from the block names and flags; then, per column, the highest block
that is neither air nor unknown gives the column its kind and its height
relative to the player's feet. A column with no loaded section is ``UNKNOWN``;
one that is loaded but all air in the box is ``AIR`` (a drop). The page maps
kinds to colours and shades by height; it never sees state ids or names.

The store hands out decoded sections through its small cache (the planner's);
a map every second touches a few dozen sections, which costs ~20 us each to
decode again later, far below a tick.
"""
from __future__ import annotations

import enum
import functools
import math

import attrs
import numpy as np
import numpy.typing as npt

from engine.world.blocks import UNKNOWN_STATE, BlockFlag, BlockStore, BlockTable
from engine.world.snapshot import Vec3
from engine.world.terrain_record import state_box

ABOVE = 8     # blocks over the feet still drawn (a roof, the canopy overhead)
BELOW = 24    # blocks under the feet searched for the ground
MAX_RADIUS = 48


class Kind(enum.IntEnum):
    """What a map cell shows; the page has one colour per kind (``static/map.js``)."""

    UNKNOWN = 0
    AIR = 1
    WATER = 2
    LAVA = 3
    GRASS = 4
    DIRT = 5
    SAND = 6
    STONE = 7
    ORE = 8
    WOOD = 9
    LEAVES = 10
    SNOW = 11
    DANGER = 12   # fire, magma, cactus, berry bushes, cobwebs, portals
    PLANT = 13
    BUILT = 14    # everything else: planks, tables, furnaces, glass, wool


# Name fragments in the order they are tried: the first that occurs in a block's name wins.
_BY_NAME: tuple[tuple[str, Kind], ...] = (
    ("_ore", Kind.ORE), ("ancient_debris", Kind.ORE),
    ("leaves", Kind.LEAVES),
    ("_log", Kind.WOOD), ("_wood", Kind.WOOD), ("_stem", Kind.WOOD), ("_hyphae", Kind.WOOD),
    ("grass_block", Kind.GRASS), ("mycelium", Kind.GRASS), ("podzol", Kind.GRASS), ("moss_block", Kind.GRASS),
    ("snow", Kind.SNOW), ("ice", Kind.SNOW),
    ("sand", Kind.SAND), ("gravel", Kind.SAND), ("clay", Kind.SAND),
    ("dirt", Kind.DIRT), ("farmland", Kind.DIRT), ("mud", Kind.DIRT), ("dirt_path", Kind.DIRT),
    ("stone", Kind.STONE), ("deepslate", Kind.STONE), ("granite", Kind.STONE), ("diorite", Kind.STONE),
    ("andesite", Kind.STONE), ("tuff", Kind.STONE), ("calcite", Kind.STONE), ("bedrock", Kind.STONE),
    ("netherrack", Kind.STONE), ("basalt", Kind.STONE), ("obsidian", Kind.STONE),
    ("grass", Kind.PLANT), ("fern", Kind.PLANT), ("flower", Kind.PLANT), ("sapling", Kind.PLANT),
    ("tulip", Kind.PLANT), ("poppy", Kind.PLANT), ("dandelion", Kind.PLANT), ("wheat", Kind.PLANT),
    ("bush", Kind.PLANT), ("kelp", Kind.PLANT), ("seagrass", Kind.PLANT),
)


def kind_of(name: str | None, flags: BlockFlag) -> Kind:
    """One block's kind: flags first (liquids and danger are what a viewer must not miss)."""
    if flags & BlockFlag.UNKNOWN:
        return Kind.UNKNOWN
    if flags & BlockFlag.AIR:
        return Kind.AIR
    if flags & BlockFlag.LAVA:
        return Kind.LAVA
    if flags & BlockFlag.WATER and not flags & BlockFlag.SOLID:
        return Kind.WATER
    if flags & (BlockFlag.FIRE | BlockFlag.DAMAGING | BlockFlag.AVOID):
        return Kind.DANGER
    named = _kind_by_name(name)
    if named != _NO_NAME_MATCH:
        return Kind(named)
    return Kind.BUILT if flags & BlockFlag.SOLID else Kind.PLANT


def _kind_by_name(name: str | None) -> int:
    if name is None:
        return Kind.UNKNOWN
    for fragment, kind in _BY_NAME:
        if fragment in name:
            return kind
    return _NO_NAME_MATCH


_NO_NAME_MATCH = 255


@functools.cache
def kinds_for(version: str) -> npt.NDArray[np.uint8]:
    """``kind_of`` for every state id of a version, built once per version on the reactor thread, so
    vectorised: the name rules run once per block name (~1,000), the flag rules over the arrays."""
    table = BlockTable.for_version(version)
    ids = table.name_index
    names, firsts = np.unique(ids, return_index=True)
    by_name = np.zeros(int(names.max()) + 1, dtype=np.uint8)
    for name_id, first in zip(names, firsts):
        by_name[name_id] = _kind_by_name(table.name(int(first)))
    flags = table.flags_array

    def has(flag: BlockFlag) -> npt.NDArray[np.bool_]:
        return np.asarray((flags & int(flag)) != 0)

    kinds = by_name[ids]
    kinds[kinds == _NO_NAME_MATCH] = Kind.PLANT
    kinds[(by_name[ids] == _NO_NAME_MATCH) & has(BlockFlag.SOLID)] = Kind.BUILT
    # The rules of ``kind_of`` from the last to the first, so the first that holds is written last.
    for rule, kind in ((has(BlockFlag.FIRE | BlockFlag.DAMAGING | BlockFlag.AVOID), Kind.DANGER),
                       (has(BlockFlag.WATER) & ~has(BlockFlag.SOLID), Kind.WATER), (has(BlockFlag.LAVA), Kind.LAVA),
                       (has(BlockFlag.AIR), Kind.AIR), (has(BlockFlag.UNKNOWN), Kind.UNKNOWN)):
        kinds[rule] = kind
    return kinds


@attrs.frozen
class TopDownMap:
    """``size`` x ``size`` cells from (``x0``, ``z0``), rows along z: ``kinds[row * size + col]``;
    ``heights`` are block tops relative to the feet (``feet_y``), clamped to a byte."""

    x0: int
    z0: int
    size: int
    feet_y: int
    kinds: tuple[int, ...]
    heights: tuple[int, ...]

    def at(self, x: int, z: int) -> tuple[Kind, int] | None:
        col, row = x - self.x0, z - self.z0
        if not (0 <= col < self.size and 0 <= row < self.size):
            return None
        i = row * self.size + col
        return Kind(self.kinds[i]), self.heights[i]


def top_down(store: BlockStore, table: BlockTable, centre: Vec3, radius: int) -> TopDownMap:
    radius = max(1, min(radius, MAX_RADIUS))
    px, py, pz = math.floor(centre.x), math.floor(centre.y), math.floor(centre.z)
    size = 2 * radius + 1
    x0, z0, y0 = px - radius, pz - radius, py - BELOW
    height = BELOW + ABOVE + 1
    states = state_box(store, x0, y0, z0, size, height)
    lookup = kinds_for(table.version)
    known = (states != UNKNOWN_STATE) & (states < len(lookup))
    kinds = np.where(known, lookup[np.where(known, states, 0)], Kind.UNKNOWN).astype(np.uint8)
    ground = (kinds != Kind.AIR) & (kinds != Kind.UNKNOWN)
    # Highest ground per column: search the flipped y axis for the first hit.
    from_top = np.argmax(ground[::-1], axis=0)
    top_index = height - 1 - from_top
    has_ground = ground.any(axis=0)
    rows, cols = np.indices((size, size))
    column_kind = np.where(has_ground, kinds[top_index, rows, cols],
                           np.where(known.any(axis=0), Kind.AIR, Kind.UNKNOWN))
    column_height = np.where(has_ground, top_index - BELOW, 0).clip(-128, 127)
    return TopDownMap(x0, z0, size, py, tuple(int(k) for k in column_kind.ravel()),
                      tuple(int(h) for h in column_height.ravel()))
