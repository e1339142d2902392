"""The ground under an episode's track, as a small file beside its logs: ``terrain.json``.

How this works: a decision log holds where the player stood, not what lay around, so both
``mcagent sim --log-dir`` (the simulator's world) and the proxy (the player's live world
model, at the end of an episode) add this record for the replay page to draw the map under
the track. Blocks are read through a ``BlockStore`` and its ``BlockTable`` only, the pair the
live map reads, so one algorithm serves both. The box is the track's extent plus ``MARGIN``
blocks, square, at most ``MAX_SIZE`` blocks a side (centred on the track when it is larger).
Each column gets the block the live map would show there: the highest one that is neither
air nor unknown from ``BELOW`` blocks under to ``ABOVE`` over the feet of the nearest point of
the track (underground, the rock around the player rather than the grass far over it). A
column none of whose window was ever loaded is unknown (-1, no top); one loaded but all air
there is "air" with its top just under the feet. Blocks are named (a palette, an index per
column), never state ids, so the reader needs only the version's names; heights are absolute y.

Cost: the box's sections are copied once into one uint16 array and the columns are found
with array operations, so a full 128 x 128 box costs milliseconds (docs/dashboard.md).
"""
from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.world.blocks import UNKNOWN_STATE, BlockFlag, BlockStore, BlockTable

FORMAT = "mcagent-terrain/1"
FILE = "terrain.json"
MARGIN = 12
MAX_SIZE = 128
ABOVE = 8      # the same window as the live map (proxy/dashboard/terrain_map.py)
BELOW = 24
MAX_TRACK = 1024   # track columns the nearest-point search uses (evenly thinned beyond)
CHUNK = 32


def _track(decisions: Iterable[dict[str, Any]]) -> list[tuple[int, int, int]]:
    """Distinct block positions the player decided at, in order."""
    seen: dict[tuple[int, int, int], None] = {}
    for record in decisions:
        state = record.get("state")
        pos = state.get("pos") if record.get("kind") == "decision" and isinstance(state, dict) else None
        if isinstance(pos, list) and len(pos) == 3 and all(isinstance(v, (int, float)) for v in pos) \
                and all(math.isfinite(v) for v in pos):
            seen[(math.floor(pos[0]), math.floor(pos[1]), math.floor(pos[2]))] = None
    return list(seen)


def state_box(store: BlockStore, x0: int, y0: int, z0: int, size: int, height: int) -> npt.NDArray[np.int32]:
    """The state ids of the box [y - y0, z - z0, x - x0] (``size`` square, ``height`` tall);
    UNKNOWN_STATE where no section is loaded. The live map reads its window the same way."""
    out = np.full((height, size, size), UNKNOWN_STATE, dtype=np.int32)
    for sy in range(y0 >> 4, ((y0 + height - 1) >> 4) + 1):
        for cz in range(z0 >> 4, ((z0 + size - 1) >> 4) + 1):
            for cx in range(x0 >> 4, ((x0 + size - 1) >> 4) + 1):
                section = store.section((cx, sy, cz))
                if section is None:
                    continue
                cube = np.asarray(section).reshape(16, 16, 16)  # [y, z, x]
                ya, yb = max(y0, sy * 16), min(y0 + height, sy * 16 + 16)
                za, zb = max(z0, cz * 16), min(z0 + size, cz * 16 + 16)
                xa, xb = max(x0, cx * 16), min(x0 + size, cx * 16 + 16)
                out[ya - y0:yb - y0, za - z0:zb - z0, xa - x0:xb - x0] = \
                    cube[ya - sy * 16:yb - sy * 16, za - cz * 16:zb - cz * 16, xa - cx * 16:xb - cx * 16]
    return out


def terrain_record(store: BlockStore, table: BlockTable,
                   decisions: Iterable[dict[str, Any]]) -> dict[str, Any] | None:
    """The record for the blocks of ``store`` under the track of ``decisions``; None without a
    position or without a single known column.
    Reads the store only (call it where the store is not being changed: the proxy's reactor thread)."""
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
    zs, xs = np.mgrid[z0:z0 + size, x0:x0 + size].astype(np.int32)
    feet = np.empty((size, size), dtype=np.int64)
    best = np.full((size, size), np.iinfo(np.int32).max, dtype=np.int32)
    for start in range(0, len(points), CHUNK):     # a few points at a time: bounded memory, few Python steps
        chunk = points[start:start + CHUNK].astype(np.int32)
        d = (xs[None] - chunk[:, 0, None, None]) ** 2 + (zs[None] - chunk[:, 2, None, None]) ** 2
        which = np.argmin(d, axis=0)
        near = np.take_along_axis(d, which[None], axis=0)[0]
        closer = near < best
        best[closer] = near[closer]
        feet[closer] = chunk[which[closer], 1]
    y0 = int(feet.min()) - BELOW
    height = int(feet.max()) + ABOVE - y0 + 1
    states = state_box(store, x0, y0, z0, size, height)
    # Each column's own window, [k, z, x] for y = feet - BELOW + k: only those cells are looked up.
    span = BELOW + ABOVE + 1
    offsets = (feet - BELOW - y0)[None] + np.arange(span).reshape(span, 1, 1)
    window = np.take_along_axis(states, offsets, axis=0)
    solid = (np.asarray(table.flags_array) & int(BlockFlag.AIR | BlockFlag.UNKNOWN)) == 0   # by state id
    known = (window != UNKNOWN_STATE) & (window < len(solid))
    safe = np.where(known, window, 0)
    ground = known & solid[safe]
    top_index = span - 1 - np.argmax(ground[::-1], axis=0)       # the highest ground per column
    has_ground = ground.any(axis=0)
    seen = known.any(axis=0)
    if not seen.any():
        return None    # nothing of it ever loaded (the world was dropped first): no file, the page's grid
    rows, cols = np.indices((size, size))
    top_state = safe[top_index, rows, cols]
    # Name each distinct top state once; columns then index the palette of names.
    index = np.full((size, size), -1, dtype=np.int64)
    palette: dict[str, int] = {}
    open_air = seen & ~has_ground
    if open_air.any():
        index[open_air] = palette.setdefault("air", 0)
    states_used, inverse = np.unique(top_state[has_ground], return_inverse=True)
    names = np.array([palette.setdefault(table.name(int(state)) or "air", len(palette)) for state in states_used],
                     dtype=np.int64)
    index[has_ground] = names[inverse.reshape(-1)]
    tops = np.where(has_ground, feet - BELOW + top_index, feet - 1)
    blocks = [int(i) for i in index.ravel()]
    return {"format": FORMAT, "version": table.version, "x0": x0, "z0": z0, "size": size,
            "names": list(palette), "blocks": blocks,
            "tops": [int(t) if i >= 0 else None for i, t in zip(blocks, tops.ravel())]}


def write(folder: str, record: dict[str, Any] | None) -> None:
    if record is None:
        return
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, FILE), "w", encoding="utf-8") as f:
        json.dump(record, f, separators=(",", ":"))
