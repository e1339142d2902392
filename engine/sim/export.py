"""The simulator's world as a file a real test server loads: ``mcagent sim export``.

A seed then means the same terrain, cows, spawn, clock and starting inventory in the
simulator and end to end (``peers/world.js --world FILE``), which is what lets
``bench/sim_vs_real.py`` put the two side by side. The format ("mcagent-world/1") is
described in docs/world-file.md; its blocks are run-length runs over the box in the
order y, z, x (x fastest), the order of a chunk section's own array.
"""
from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from engine.decision.knowledge import MATURE
from engine.sim.records import SimOptions
from engine.sim.rules import HEIGHT
from engine.sim.server import ServerWorld

FORMAT = "mcagent-world/1"
OUTSIDE = "bedrock"             # the simulator has no blocks past its edge: a wall there keeps both the same
BED_FACING = "east"             # the simulator's bed: foot at (x, y, z), head one step east


class ExportError(ValueError):
    """The world holds something the file cannot say (a block state other than a default, a bed's
    halves or a ripe crop)."""


def box(world: ServerWorld) -> np.ndarray:
    """The state ids of the whole box, indexed [y, z, x]."""
    size = world.options.size
    out = np.empty((HEIGHT, size, size), dtype=np.int64)
    for sy in range(HEIGHT // 16):
        for cz in range(size // 16):
            for cx in range(size // 16):
                section = world.store.section((cx, sy, cz))
                if section is None:
                    raise ExportError(f"section {(cx, sy, cz)} of the box was never generated")
                out[sy * 16:(sy + 1) * 16, cz * 16:(cz + 1) * 16, cx * 16:(cx + 1) * 16] = \
                    np.asarray(section).reshape(16, 16, 16)
    return out


def runs(values: np.ndarray) -> list[tuple[int, int]]:
    """Run-length runs (value, length) of a flat array, in order."""
    flat = values.ravel()
    if flat.size == 0:
        return []
    starts = np.concatenate(([0], np.flatnonzero(flat[1:] != flat[:-1]) + 1))
    lengths = np.diff(np.concatenate((starts, [flat.size])))
    return [(int(flat[s]), int(n)) for s, n in zip(starts, lengths)]


def document(world: ServerWorld) -> dict[str, Any]:
    """The world file's JSON object for a freshly generated simulator world."""
    table = world.table
    states = box(world)
    if world.bed is not None:
        # One state stands for both halves in the simulator; a real server needs each half.
        x, y, z = world.bed
        states[y, z, x] = -1
        states[y, z, x + 1] = -2
    palette: list[str] = []
    index: dict[int, int] = {}
    for state in np.unique(states).tolist():
        if state == -1:
            spec = f"red_bed[part=foot,facing={BED_FACING}]"
        elif state == -2:
            spec = f"red_bed[part=head,facing={BED_FACING}]"
        else:
            name = table.name(state)
            if name is not None and name in MATURE and state == table.states_of(name).start + MATURE[name]:
                spec = f"{name}[age={MATURE[name]}]"        # the farm's ripe crop
            elif name is None or table.state_for(name) != state:
                raise ExportError(f"block state {state} ({name}) is not a block's default state")
            else:
                spec = name
        index[state] = len(palette)
        palette.append(spec)
    lookup = np.vectorize(index.__getitem__, otypes=[np.int64])
    options = world.options
    return {
        "format": FORMAT,
        "seed": world.seed,
        "options": attrs.asdict(options),
        "size": options.size,
        "height": HEIGHT,
        "palette": palette,
        "blocks": runs(lookup(states)),
        "outside": OUTSIDE,
        "spawn": list(world.spawn),
        "time": options.start_time,
        "difficulty": options.difficulty,
        "animals": [{"kind": a.kind, "x": a.x, "y": a.y, "z": a.z} for a in world.animals.values()],
        "start_inventory": [{"slot": slot, "name": item.item, "count": item.count}
                            for slot, item in enumerate(world.player.slots) if item is not None],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mcagent sim export",
                                     description="write the simulator's world for a seed as a file the test server loads")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--out", required=True, help="the JSON file to write")
    defaults = SimOptions()
    parser.add_argument("--start-bread", type=int, default=defaults.start_bread)
    parser.add_argument("--difficulty", choices=("easy", "normal", "hard"), default=defaults.difficulty)
    parser.add_argument("--start-time", type=int, default=defaults.start_time)
    parser.add_argument("--bed", action="store_true", help="a bed near spawn, as mcagent sim's bed option")
    args = parser.parse_args(argv)
    if not 0 <= args.start_bread <= 64:
        parser.error("--start-bread takes 0 to 64 (one stack in one slot)")
    options = SimOptions(start_bread=args.start_bread, difficulty=args.difficulty,
                         start_time=args.start_time, bed=args.bed)
    doc = document(ServerWorld(args.seed, options))
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(f"seed {args.seed}: {doc['size']}x{doc['height']}x{doc['size']} blocks in {len(doc['blocks'])} runs, "
          f"{len(doc['animals'])} animals, spawn {doc['spawn']} -> {args.out}")
    return 0
