"""What the agent (and the simulator, playing the server) know of Minecraft's rules.

Recipes, smelting, fuel, and dig times follow vanilla 1.18: a block breaks after
``ceil(1 / (speed / hardness / (30 if harvestable else 100)))`` ticks, where
``speed`` is the held tool's speed on that block (1 by hand). Only what the
9-stage ladder needs is here.
"""
from __future__ import annotations

import math

import attrs


@attrs.frozen
class Recipe:
    item: str
    count: int                                  # items made per craft
    ingredients: tuple[tuple[str, int], ...]    # per craft
    needs_table: bool                           # 3x3 grid (a crafting table within reach)


RECIPES: dict[str, Recipe] = {r.item: r for r in (
    Recipe("oak_planks", 4, (("oak_log", 1),), False),
    Recipe("stick", 4, (("oak_planks", 2),), False),
    Recipe("crafting_table", 1, (("oak_planks", 4),), False),
    Recipe("wooden_pickaxe", 1, (("oak_planks", 3), ("stick", 2)), True),
    Recipe("stone_pickaxe", 1, (("cobblestone", 3), ("stick", 2)), True),
    Recipe("furnace", 1, (("cobblestone", 8),), True),
    Recipe("iron_pickaxe", 1, (("iron_ingot", 3), ("stick", 2)), True),
)}

SMELTING: dict[str, str] = {"iron_ingot": "raw_iron"}      # output → input
SMELT_TICKS = 200
FUEL: dict[str, float] = {"coal": 8.0, "oak_log": 1.5, "oak_planks": 1.5, "stick": 0.5}   # items smelted per fuel item
FOOD_POINTS: dict[str, int] = {"bread": 5, "apple": 4, "cooked_beef": 8}
EAT_TICKS = 32

PICKAXES: dict[str, tuple[int, float]] = {   # tier, speed
    "wooden_pickaxe": (1, 2.0), "stone_pickaxe": (2, 4.0), "iron_pickaxe": (3, 6.0),
}
ATTACK_DAMAGE: dict[str, float] = {"wooden_pickaxe": 2.0, "stone_pickaxe": 3.0, "iron_pickaxe": 4.0}


@attrs.frozen
class BlockRule:
    hardness: float
    tool: str | None        # "pickaxe", "axe" or None
    tier: int               # minimum pickaxe tier for a drop (0: hand)
    drop: str | None


BLOCKS: dict[str, BlockRule] = {
    "oak_log": BlockRule(2.0, "axe", 0, "oak_log"),
    "oak_planks": BlockRule(2.0, "axe", 0, "oak_planks"),
    "stone": BlockRule(1.5, "pickaxe", 1, "cobblestone"),
    "cobblestone": BlockRule(2.0, "pickaxe", 1, "cobblestone"),
    "iron_ore": BlockRule(3.0, "pickaxe", 2, "raw_iron"),
    "dirt": BlockRule(0.5, None, 0, "dirt"),
    "grass_block": BlockRule(0.6, None, 0, "dirt"),
    "oak_leaves": BlockRule(0.2, None, 0, None),
    "crafting_table": BlockRule(2.5, "axe", 0, "crafting_table"),
    "furnace": BlockRule(3.5, "pickaxe", 1, "furnace"),
}


def harvestable(block: str, held: str | None) -> bool:
    rule = BLOCKS.get(block)
    if rule is None:
        return False
    if rule.tier == 0:
        return True
    return held in PICKAXES and PICKAXES[held][0] >= rule.tier


def dig_ticks(block: str, held: str | None) -> int | None:
    """Ticks to break ``block`` holding ``held``; None if it cannot be broken (bedrock, unknown)."""
    rule = BLOCKS.get(block)
    if rule is None:
        return None
    speed = 1.0
    if rule.tool == "pickaxe" and held in PICKAXES:
        speed = PICKAXES[held][1]
    per_tick = speed / rule.hardness / (30.0 if harvestable(block, held) else 100.0)
    return max(1, math.ceil(1.0 / per_tick))


def best_pickaxe(counts: dict[str, int]) -> str | None:
    best = None
    for name, (tier, _) in PICKAXES.items():
        if counts.get(name, 0) > 0 and (best is None or tier > PICKAXES[best][0]):
            best = name
    return best


def pickaxe_tier(counts: dict[str, int]) -> int:
    best = best_pickaxe(counts)
    return PICKAXES[best][0] if best is not None else 0
