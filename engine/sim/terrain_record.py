"""The ground under an episode's track, as a small file beside its logs: ``terrain.json``.

How this works: a decision log holds where the player stood, not what lay around, so
``mcagent sim --log-dir`` adds this record for the replay page to draw the map under the
track. The box is the track's extent plus ``MARGIN`` blocks, square, at most ``MAX_SIZE``
blocks a side (centred on the track when it is larger). Each column gets the block the
live map would show there: the highest one that is not air from ``BELOW`` blocks under to
``ABOVE`` over the feet of the nearest point of the track (underground, the rock around the
player rather than the grass far over it), from the world as it is when the episode ends. A column outside the
simulator's world is unknown. Blocks are named (a palette, an index per column), never
state ids, so the reader needs only the version's names; heights are absolute y.
"""
from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable
from typing import Any

import numpy as np

from engine.sim.rules import HEIGHT
from engine.sim.server import ServerWorld
from engine.world.blocks import BlockFlag

FORMAT = "mcagent-terrain/1"
FILE = "terrain.json"
MARGIN = 12
MAX_SIZE = 128
ABOVE = 8      # the same window as the live map (proxy/dashboard/terrain_map.py)
BELOW = 24
MAX_TRACK = 1024   # track columns the nearest-point search uses (evenly thinned beyond)


def _track(decisions: Iterable[dict[str, Any]]) -> list[tuple[int, int, int]]:
    """Distinct block positions the player decided at, in order."""
    seen: dict[tuple[int, int, int], None] = {}
    for record in decisions:
        state = record.get("state")
        pos = state.get("pos") if record.get("kind") == "decision" and isinstance(state, dict) else None
        if isinstance(pos, list) and len(pos) == 3 and all(isinstance(v, (int, float)) for v in pos):
            seen[(math.floor(pos[0]), math.floor(pos[1]), math.floor(pos[2]))] = None
    return list(seen)


def _box(world: ServerWorld) -> tuple[np.ndarray, int]:
    """The state ids of the whole simulated world, [y - low, z, x], and its lowest y (below 0 with
    the deep strata of 1.18+); a section never generated reads as air."""
    low = world.min_y
    size = world.options.size
    out = np.full((HEIGHT - low, size, size), world.air, dtype=np.int64)
    for sy in range(low >> 4, HEIGHT >> 4):
        for cz in range(size // 16):
            for cx in range(size // 16):
                section = world.store.section((cx, sy, cz))
                if section is not None:
                    out[sy * 16 - low:sy * 16 + 16 - low, cz * 16:cz * 16 + 16, cx * 16:cx * 16 + 16] = \
                        np.asarray(section).reshape(16, 16, 16)
    return out, low


def terrain_record(world: ServerWorld, decisions: Iterable[dict[str, Any]]) -> dict[str, Any] | None:
    """The record for ``world`` under the track of ``decisions``; None without a position."""
    track = _track(decisions)
    if not track:
        return None
    points = np.array(track, dtype=np.int64)
    if len(points) > MAX_TRACK:
        points = points[np.linspace(0, len(points) - 1, MAX_TRACK).astype(np.int64)]
    lo_x, hi_x = int(points[:, 0].min()), int(points[:, 0].max())
    lo_z, hi_z = int(points[:, 2].min()), int(points[:, 2].max())
    size = min(MAX_SIZE, max(hi_x - lo_x, hi_z - lo_z) + 2 * MARGIN + 1)
    x0 = (lo_x + hi_x) // 2 - size // 2
    z0 = (lo_z + hi_z) // 2 - size // 2
    # The feet height of the nearest track point, per column (squared distance in x and z).
    zs, xs = np.mgrid[z0:z0 + size, x0:x0 + size]
    nearest = np.empty((size, size), dtype=np.int64)
    best = np.full((size, size), np.iinfo(np.int64).max)
    for px, py, pz in points:
        d = (xs - px) ** 2 + (zs - pz) ** 2
        closer = d < best
        best[closer] = d[closer]
        nearest[closer] = py
    states, low_y = _box(world)
    height, world_size = states.shape[0], states.shape[1]
    table = world.table
    air = (np.asarray(table.flags_array) & int(BlockFlag.AIR)) != 0    # by state id
    palette: dict[str, int] = {}
    blocks: list[int] = []
    tops: list[int | None] = []
    for row in range(size):
        for col in range(size):
            x, z = x0 + col, z0 + row
            if not (0 <= x < world_size and 0 <= z < world_size):
                blocks.append(-1)
                tops.append(None)
                continue
            feet = int(nearest[row, col]) - low_y        # an index into the box's y
            low, high = max(0, feet - BELOW), min(height - 1, feet + ABOVE)
            column = states[low:high + 1, z, x]
            solid = np.flatnonzero(~air[column])
            if solid.size == 0:
                name, top = "air", feet - 1 + low_y
            else:
                top = low + int(solid[-1]) + low_y
                name = table.name(int(column[solid[-1]])) or "air"
            blocks.append(palette.setdefault(name, len(palette)))
            tops.append(top)
    return {"format": FORMAT, "version": table.version, "x0": x0, "z0": z0, "size": size,
            "names": list(palette), "blocks": blocks, "tops": tops}


def write(folder: str, record: dict[str, Any] | None) -> None:
    if record is None:
        return
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, FILE), "w", encoding="utf-8") as f:
        json.dump(record, f, separators=(",", ":"))
