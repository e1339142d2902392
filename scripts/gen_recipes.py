"""Generate engine/planning/data/recipes.json from minecraft-data: crafting recipes and block drops.

Usage: python scripts/gen_recipes.py [OUT]

Reads the pinned npm package (``.peers/node_modules/minecraft-data``, MIT licensed; the
output's ``source`` names its version) for two tables: ``flat``, the newest release the
package describes (names after the 1.13 flattening), and ``legacy``, 1.12.2 (one name per
item id, the metadata variants folded into it: birch planks are ``planks``). Smelting is
not in minecraft-data; engine/planning/sources.py holds vanilla's furnace table by hand.

Per table:

* ``items``: every item name;
* ``recipes``: item -> list of ``[count, table, needs, shape]``: ``needs`` is
  ``[[ingredient, n], ...]`` per craft, ``table`` 1 when it needs the 3x3 grid, ``shape``
  the grid rows with ``A`` for the first ingredient of ``needs``, ``B`` the second... (``""``
  for shapeless). minecraft-data spells a recipe that takes any planks as one recipe per
  species; those that differ only in members of one of engine/decision/knowledge.py's
  families (``#planks``, ``#logs``, ``#stone_tool_materials``, ``#coals``) are folded into one recipe
  naming the family, so a chest needs ``#planks`` while an oak fence keeps ``oak_planks``;
* ``blocks``: block -> ``[drops, tools]``: the items it drops and the tools that harvest it
  (empty: the hand will do). Blocks that drop nothing are left out.

``tags`` lists each family's members (the planner reads it, so engine/planning does not
import the decision layer).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine.decision.knowledge import FAMILIES  # noqa: E402
from minecraft_data import NPM_PACKAGE, NpmPackage  # noqa: E402

OUT = ROOT / "engine" / "planning" / "data" / "recipes.json"
FOLDED = ("#planks", "#logs", "#stone_tool_materials", "#coals")
TABLES = {"legacy": "1.12.2"}          # and "flat": the newest release in the package


def newest_release(npm: NpmPackage) -> str:
    known = npm.protocol_versions()
    paths = npm.paths()
    releases = [v for v, e in known.items() if e.get("releaseType") == "release" and v in paths
                and "recipes" in paths[v] and "blocks" in paths[v]]
    return max(releases, key=lambda v: known[v]["version"])


def _name(ids: dict[int, str], ref: Any) -> str | None:
    if ref is None:
        return None
    if isinstance(ref, dict):
        ref = ref["id"]
    return ids.get(int(ref))           # an id with no item (air in some tables): nothing


def _fold(name: str) -> str:
    return next((tag for tag in FOLDED if name in FAMILIES[tag]), name)


def _recipe(ids: dict[int, str], raw: dict[str, Any]) -> tuple[int, int, tuple[tuple[str, int], ...], str] | None:
    """(count, table, needs, shape) of one minecraft-data recipe (None if it names an unknown id)."""
    count = int(raw["result"].get("count", 1))
    if "inShape" in raw:
        rows = [[_name(ids, c) for c in row] for row in raw["inShape"]]
        order: list[str] = []
        for row in rows:
            for c in row:
                if c is not None and c not in order:
                    order.append(c)
        needs = tuple((n, sum(row.count(n) for row in rows)) for n in order)
        shape = "|".join("".join(" " if c is None else chr(65 + order.index(c)) for c in row) for row in rows)
        table = int(len(rows) > 2 or any(len(row) > 2 for row in rows))
        return count, table, needs, shape
    names = [_name(ids, c) for c in raw["ingredients"]]
    order = []
    for n in names:
        if n is not None and n not in order:
            order.append(n)
    return count, int(len(names) > 4), tuple((n, names.count(n)) for n in order), ""


def _folded(recipes: list[tuple[int, int, tuple[tuple[str, int], ...], str]]) -> list[list[Any]]:
    """One recipe per group that differs only in members of a family (named by the family).

    A family folded in one group is folded in every group of the item: minecraft-data spells
    a campfire as nine log recipes with coal but one (dark oak wood) with charcoal, where
    vanilla takes any log with either."""
    groups: dict[Any, list[Any]] = {}
    for count, table, needs, shape in recipes:
        key = (count, table, tuple((_fold(n), k) for n, k in needs), shape)
        groups.setdefault(key, [])
        if (needs, shape) not in groups[key]:
            groups[key].append((needs, shape))
    used = {n for (_, _, folded, _), members in groups.items() if len(members) > 1 for n, _ in folded
            if n.startswith("#")}
    out: list[list[Any]] = []
    for (count, table, folded, shape), members in groups.items():
        if len(members) > 1:
            needs = folded
        else:
            needs = tuple((f if f in used else n, k) for (n, k), (f, _) in zip(members[0][0], folded))
        recipe = [count, table, [list(n) for n in needs], shape]
        if recipe not in out:
            out.append(recipe)
    return out


def table(npm: NpmPackage, version: str) -> dict[str, Any]:
    items = npm.file(version, "items")
    ids = {int(i["id"]): str(i["name"]) for i in items}
    raw_recipes: dict[str, list[dict[str, Any]]] = npm.file(version, "recipes")
    by_item: dict[str, list[Any]] = {}
    for variants in raw_recipes.values():
        for raw in variants:
            made = _name(ids, raw["result"]["id"] if isinstance(raw["result"], dict) else raw["result"])
            recipe = _recipe(ids, raw)
            if made is not None and recipe is not None and all(n is not None for n, _ in recipe[2]):
                by_item.setdefault(made, []).append(recipe)
    recipes = {item: _folded(rs) for item, rs in sorted(by_item.items())}
    blocks: dict[str, list[list[str]]] = {}
    for block in npm.file(version, "blocks"):
        drops: list[str] = []
        for d in block.get("drops", []):
            ref = d.get("drop", d) if isinstance(d, dict) else d
            name = _name(ids, ref)
            if name is not None and name not in drops:
                drops.append(name)
        if drops:
            tools = sorted(n for t in (block.get("harvestTools") or {}) if (n := ids.get(int(t))) is not None)
            blocks[block["name"]] = [drops, tools]
    return {"version": version, "items": sorted(set(ids.values())), "recipes": recipes, "blocks": blocks}


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    npm = NpmPackage(NPM_PACKAGE)
    versions = {"flat": newest_release(npm), **TABLES}
    document = {
        "source": f"{npm.label} (data/pc via dataPaths.json); generated by scripts/gen_recipes.py",
        "tags": {tag: list(FAMILIES[tag]) for tag in FOLDED},
        "tables": {name: table(npm, v) for name, v in versions.items()},
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(document, separators=(",", ":"), sort_keys=False) + "\n", encoding="utf-8")
    print(f"{out}: {', '.join(f'{n} {v}' for n, v in versions.items())}, {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
