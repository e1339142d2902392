"""Generate engine/world/data/blocks.json from minecraft-data.

Usage: python scripts/gen_blocks.py [--minecraft-data-repo CLONE] [MINECRAFT_DATA_PC_DIR [OUT]]

MINECRAFT_DATA_PC_DIR defaults to the pinned peer install,
``.peers/node_modules/minecraft-data/minecraft-data/data/pc`` (MIT licensed). A row of
proxy/data/versions.json that names a ``commit`` is read from that commit of the
minecraft-data repository instead, from CLONE (a git clone holding it; default
``$MCAGENT_MINECRAFT_DATA_REPO``), rebased onto the package's ``base`` when the row names
one, and the output's ``sources`` says so (scripts/minecraft_data.py).

What is kept, per protocol version the proxy supports:

* the block layout: for each block, in state-id order, its name, how many state
  ids it spans and which of them is the default. For 1.8-1.12 a block spans the
  16 ids ``(block id << 4) | meta``, default meta 0; unused block ids become
  16 ids with the empty name so the layout stays contiguous.
* per state: a flags word (see FLAGS) and the top of its collision shape
  (``max y`` over the boxes in blockCollisionShapes.json; 0 when it has none).

Tables are pooled: a block's per-state properties form a run-length encoded
pattern shared by every block and version with the same one (all stairs share
one); blocks are pooled as (name, pattern, default); a version is a list of
ranges over the pooled blocks. 44 versions fit in well under 200 kB.

Which blocks count as lava, fire, climbable... is written here by name (the
package has no such tags); legacy (1.8-1.12) names are listed next to modern ones.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from minecraft_data import (NpmPackage, Source, accepted_rows, repo_option, repository_clone, repository_rows,  # noqa: E402
                            source_labels, sources)

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "engine" / "world" / "data" / "blocks.json"
DEFAULT_PC = ROOT / ".peers" / "node_modules" / "minecraft-data" / "minecraft-data" / "data" / "pc"

# Bit values are part of the data format; engine/world/blocks.py reads them from the file.
FLAGS = {
    "solid": 1,        # has a collision shape
    "liquid": 2,
    "water": 4,        # water, including waterlogged states and underwater plants
    "lava": 8,
    "fire": 16,
    "climbable": 32,
    "damaging": 64,    # hurts on contact: cactus, magma, berry bush, campfire...
    "avoid": 128,      # harmless but bad to enter: cobweb, portals, powder snow
    "air": 256,
    "unknown": 512,    # an id with no block in the layout
}

WATER = {"water", "flowing_water", "bubble_column", "kelp", "kelp_plant", "seagrass", "tall_seagrass"}
LAVA = {"lava", "flowing_lava"}
FIRE = {"fire", "soul_fire"}
CLIMBABLE = {
    "ladder", "vine", "scaffolding", "twisting_vines", "twisting_vines_plant",
    "weeping_vines", "weeping_vines_plant", "cave_vines", "cave_vines_plant",
}
DAMAGING = {
    "cactus", "magma", "magma_block", "sweet_berry_bush", "wither_rose", "campfire",
    "soul_campfire", "pointed_dripstone",
}
AVOID = {"web", "cobweb", "portal", "nether_portal", "end_portal", "end_gateway", "powder_snow"}
AIR = {"air", "cave_air", "void_air"}


def _name_flags(name: str) -> int:
    flags = 0
    if name in WATER:
        flags |= FLAGS["water"] | FLAGS["liquid"]
    if name in LAVA:
        flags |= FLAGS["lava"] | FLAGS["liquid"]
    if name in FIRE:
        flags |= FLAGS["fire"]
    if name in CLIMBABLE:
        flags |= FLAGS["climbable"]
    if name in DAMAGING:
        flags |= FLAGS["damaging"]
    if name in AVOID:
        flags |= FLAGS["avoid"]
    if name in AIR:
        flags |= FLAGS["air"]
    return flags


def _top(shapes: dict[str, list[list[float]]], shape_id: int) -> float:
    boxes = shapes[str(shape_id)]
    return round(max((box[4] for box in boxes), default=0.0), 6)


def _state_tops(block: dict[str, Any], collisions: dict[str, Any], count: int) -> list[float]:
    shapes = collisions["shapes"]
    entry = collisions["blocks"].get(block["name"])
    if entry is None:
        # A name the collision file lacks (its folder can lag the blocks folder): fall
        # back to the coarse bounding box, which only says "block" or "empty".
        top = 1.0 if block.get("boundingBox") == "block" else 0.0
        print(f"  no collision shape for {block['name']}: boundingBox {block.get('boundingBox')}", file=sys.stderr)
        return [top] * count
    if isinstance(entry, int):
        return [_top(shapes, entry)] * count
    if len(entry) != count:
        print(f"  {block['name']}: {len(entry)} shapes for {count} states; using the first", file=sys.stderr)
        return [_top(shapes, entry[0])] * count
    return [_top(shapes, shape_id) for shape_id in entry]


def _waterlogged_mask(block: dict[str, Any], count: int) -> list[bool]:
    """Which of a block's states have ``waterlogged=true``.

    minecraft-data orders states with the last property varying fastest, and
    lists bool values as (true, false).
    """
    props = block.get("states") or []
    mask = [False] * count
    stride = 1
    for prop in reversed(props):
        if prop["name"] == "waterlogged":
            for index in range(count):
                mask[index] = (index // stride) % prop["num_values"] == 0
        stride *= prop["num_values"]
    return mask


def _modern(blocks: list[dict[str, Any]], collisions: dict[str, Any]) -> tuple[list[tuple[str, int, int]], list[tuple[int, float]]]:
    layout: list[tuple[str, int, int]] = []
    states: list[tuple[int, float]] = []
    for block in sorted(blocks, key=lambda b: b["minStateId"]):
        if block["minStateId"] != len(states):
            raise SystemExit(f"state ids not contiguous at {block['name']}")
        count = block["maxStateId"] - block["minStateId"] + 1
        layout.append((block["name"], count, block["defaultState"] - block["minStateId"]))
        base = _name_flags(block["name"])
        wet = _waterlogged_mask(block, count)
        for top, waterlogged in zip(_state_tops(block, collisions, count), wet):
            flags = base | (FLAGS["solid"] if top > 0 else 0)
            if waterlogged:
                flags |= FLAGS["water"] | FLAGS["liquid"]
            states.append((flags, top))
    return layout, states


def _legacy(blocks: list[dict[str, Any]], collisions: dict[str, Any]) -> tuple[list[tuple[str, int, int]], list[tuple[int, float]]]:
    by_id = {block["id"]: block for block in blocks}
    layout: list[tuple[str, int, int]] = []
    states: list[tuple[int, float]] = []
    for block_id in range(max(by_id) + 1):
        block = by_id.get(block_id)
        if block is None:
            layout.append(("", 16, 0))
            states += [(FLAGS["unknown"] | FLAGS["solid"], 1.0)] * 16
            continue
        layout.append((block["name"], 16, 0))
        base = _name_flags(block["name"])
        for top in _state_tops(block, collisions, 16):
            states.append((base | (FLAGS["solid"] if top > 0 else 0), top))
    return layout, states


def _rle(states: list[tuple[int, float]], heights: dict[float, int]) -> tuple[tuple[int, int, int], ...]:
    runs: list[list[int]] = []
    for flags, top in states:
        code = [flags, heights.setdefault(top, len(heights))]
        if runs and runs[-1][:2] == code:
            runs[-1][2] += 1
        else:
            runs.append(code + [1])
    return tuple((a, b, c) for a, b, c in runs)


def _ranges(indices: list[int]) -> list[list[int]]:
    """[first, length] runs of consecutive integers."""
    out: list[list[int]] = []
    for index in indices:
        if out and out[-1][0] + out[-1][1] == index:
            out[-1][1] += 1
        else:
            out.append([index, 1])
    return out


def generate(npm: NpmPackage, chosen: dict[str, Source]) -> dict[str, Any]:
    """The document for the accepted rows ``chosen`` names (a row's source is where it is read)."""
    names: dict[str, int] = {"": 0}
    heights: dict[float, int] = {0.0: 0, 1.0: 1}
    # Pools shared by every version: per-block state patterns, then blocks as
    # (name, pattern, default offset). A version is a list of ranges of pooled
    # blocks; blocks pooled in first-seen order make unchanged stretches one range.
    patterns: dict[tuple[tuple[int, int, int], ...], int] = {}
    blocks_pool: dict[tuple[int, int, int], int] = {}
    layouts: list[list[list[int]]] = []
    versions: dict[str, dict[str, Any]] = {}
    for row in accepted_rows():
        version = row["name"]
        if version not in chosen:
            continue
        source = chosen[version]
        entry = source.paths()[row["data"]]
        blocks = source.file(row["data"], "blocks")
        collisions = source.file(row["data"], "blockCollisionShapes")
        legacy = "minStateId" not in blocks[0]
        print(f"{version}: blocks {entry['blocks']}, collisions {entry['blockCollisionShapes']}"
              + ("" if source is npm else f" ({source.label})"), file=sys.stderr)
        layout, states = (_legacy if legacy else _modern)(blocks, collisions)
        indices: list[int] = []
        first = 0
        for name, count, default in layout:
            pattern = _rle(states[first:first + count], heights)
            first += count
            key = (names.setdefault(name, len(names)), patterns.setdefault(pattern, len(patterns)), default)
            indices.append(blocks_pool.setdefault(key, len(blocks_pool)))
        ranges = _ranges(indices)
        if ranges not in layouts:
            layouts.append(ranges)
        versions[version] = {"layout": layouts.index(ranges), "legacy": legacy, "states": len(states)}
    labels = {name: label for name, label in source_labels().items() if name in versions}
    return {
        "generator": "scripts/gen_blocks.py",
        "source": f"minecraft-data {npm.version} (blocks.json, blockCollisionShapes.json)",
        # Rows read from the minecraft-data repository instead of the npm package, and the commit.
        "sources": labels,
        "flags": FLAGS,
        "heights": sorted(heights, key=lambda h: heights[h]),
        "names": sorted(names, key=lambda n: names[n]),
        "patterns": [[list(run) for run in p] for p in sorted(patterns, key=lambda p: patterns[p])],
        "blocks": [list(b) for b in sorted(blocks_pool, key=lambda b: blocks_pool[b])],
        "layouts": layouts,
        "versions": versions,
    }


def expand(document: dict[str, Any], version: str) -> dict[str, Any]:
    """One version's block table with the pools resolved: what two generations must agree on."""
    entry = document["versions"][version]
    blocks = []
    for first, length in document["layouts"][entry["layout"]]:
        for name, pattern, default in document["blocks"][first:first + length]:
            runs = [(flags, document["heights"][height], count) for flags, height, count in document["patterns"][pattern]]
            blocks.append((document["names"][name], runs, default))
    return {"legacy": entry["legacy"], "states": entry["states"], "blocks": blocks}


def render(document: dict[str, Any]) -> str:
    # Compact separators: the file is data, read by code, and is regenerated rather than edited.
    return json.dumps(document, separators=(",", ":")) + "\n"


def main(argv: list[str]) -> int:
    repo, args = repo_option(argv)
    pc = Path(args[0]) if args else DEFAULT_PC
    out = Path(args[1]) if len(args) > 1 else OUT
    npm = NpmPackage(pc.parents[2])
    chosen, unavailable = sources(npm, repository_clone(repo))
    if unavailable:
        commits = repository_rows()
        print(f"{', '.join(unavailable)} come from the minecraft-data repository "
              f"({', '.join(sorted({commits[v] for v in unavailable}))}): pass --minecraft-data-repo CLONE",
              file=sys.stderr)
        return 1
    document = generate(npm, chosen)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render(document), encoding="utf-8")
    print(f"wrote {len(document['versions'])} versions, {len(document['layouts'])} layouts, "
          f"{len(document['blocks'])} pooled blocks, {len(document['patterns'])} patterns, "
          f"{len(document['names'])} names, {out.stat().st_size} bytes to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
