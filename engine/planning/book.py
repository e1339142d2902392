"""The recipe book: one version family's recipes, furnace recipes, block drops and mob drops.

How this works: ``data/recipes.json`` (``scripts/gen_recipes.py``, from minecraft-data) holds
two tables, ``flat`` (names after the 1.13 flattening) and ``legacy`` (1.8–1.12.2);
``book_for(protocol)`` loads the one that protocol speaks, once. Recipe slots may name a
family (``#planks``: any planks will do, ``tags``); ``count``/``members`` read families the
way ``engine.decision.knowledge`` does. Smelting, loot and dimensions come from
``engine.planning.sources``.
"""
from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

import attrs

from engine.planning.sources import CHANCE_DROPS, MOB_DROPS, SMELTING

FLATTENING = (1, 13)      # item names before 1.13 are the legacy table's


@attrs.frozen
class CraftRecipe:
    item: str
    count: int                                   # items per craft
    needs: tuple[tuple[str, int], ...]           # per craft: item or family, how many
    table: bool                                  # needs the 3x3 grid of a crafting table
    shape: tuple[str, ...] = ()                  # grid rows, "A" the first of ``needs``; () shapeless


@attrs.frozen
class BlockSource:
    block: str
    drops: tuple[str, ...]
    tools: tuple[str, ...]        # any of them harvests it; () the hand will do


class RecipeBook:
    def __init__(self, name: str, version: str, table: dict[str, Any], tags: dict[str, list[str]]) -> None:
        self.name = name
        self.version = version
        self.tags: dict[str, tuple[str, ...]] = {t: tuple(m) for t, m in tags.items()}
        self.items: frozenset[str] = frozenset(table["items"])
        self.recipes: dict[str, tuple[CraftRecipe, ...]] = {
            item: tuple(CraftRecipe(item, int(n), tuple((str(i), int(k)) for i, k in needs), bool(grid),
                                    tuple(shape.split("|")) if shape else ())
                        for n, grid, needs, shape in rs)
            for item, rs in table["recipes"].items()}
        self.blocks: dict[str, BlockSource] = {
            b: BlockSource(b, tuple(drops), tuple(tools)) for b, (drops, tools) in table["blocks"].items()}
        self.smelting: dict[str, tuple[str, ...]] = SMELTING[name]
        self.dropped_by: dict[str, tuple[BlockSource, ...]] = {}
        for source in self.blocks.values():
            for item in source.drops:
                self.dropped_by[item] = self.dropped_by.get(item, ()) + (source,)
        for item, blocks in CHANCE_DROPS.items():
            for b in blocks:
                if b in self.blocks or b in self.items:
                    self.dropped_by[item] = self.dropped_by.get(item, ()) + (BlockSource(b, (item,), ()),)
        self.mob_drops = {item: mobs for item, mobs in MOB_DROPS.items() if item in self.items}

    def members(self, name: str) -> tuple[str, ...]:
        return self.tags.get(name, (name,))

    def count(self, name: str, counts: dict[str, int]) -> int:
        return sum(counts.get(m, 0) for m in self.members(name))

    def known(self, name: str) -> bool:
        return name in self.tags or name in self.items or name in self.blocks


@functools.cache
def _document() -> dict[str, Any]:
    text = resources.files("engine.planning").joinpath("data/recipes.json").read_text(encoding="utf-8")
    document: dict[str, Any] = json.loads(text)
    return document


@functools.cache
def book(name: str) -> RecipeBook:
    """The ``flat`` or ``legacy`` book."""
    document = _document()
    if name not in document["tables"]:
        raise ValueError(f"engine/planning/data/recipes.json has no table {name!r}")
    table = document["tables"][name]
    return RecipeBook(name, table["version"], table, document["tags"])


def table_for(version: str | None) -> str:
    """``legacy`` for a Minecraft version before the flattening (1.8-1.12.2), else ``flat``."""
    if version is None:
        return "flat"
    parts = version.split(".")
    try:
        major, minor = int(parts[0]), int(parts[1]) if len(parts) > 1 else 0
    except ValueError:
        raise ValueError(f"not a Minecraft version: {version!r}") from None
    return "legacy" if (major, minor) < FLATTENING else "flat"
