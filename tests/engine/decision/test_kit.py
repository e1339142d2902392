"""The kit carried below ground looks down the whole recipe tree: an ingredient that itself needs
the deep drop (a repeater's redstone torch, a map's compass) is looked into, so what it needs from
the surface (stone, iron ingots: a furnace's work) is made before the descent, not below."""
from __future__ import annotations

from engine.decision.catalog import ActionName, Choice, legal_actions
from engine.decision.heuristic import _kit, heuristic
from engine.decision.state import DecisionState

DIG_REDSTONE = Choice(ActionName.MINE_BLOCK, ("redstone_ore",))


def state(goal: str, inv: dict[str, int], **kw: object) -> DecisionState:
    base: dict[str, object] = dict(generation=0, tick=0, position=(0, 64, 0), health=20.0, food=20, day=True,
                                   milestone=None, inventory=tuple(inv.items()), known=(), drops=0, hostiles=(),
                                   table_near=False, furnace_near=False, smelting=False, goal=(goal, 1))
    base.update(kw)
    return DecisionState(**base)  # type: ignore[arg-type]


def kit(s: DecisionState) -> Choice | None:
    assert s.goal is not None
    return _kit(s.goal[0], s.goal[1], dict(s.counts()), s)


def test_the_repeaters_stone_is_made_before_the_redstone_torches_redstone_is_dug() -> None:
    base = {"iron_pickaxe": 1, "stick": 4, "crafting_table": 1}
    assert kit(state("repeater", base)) == Choice(ActionName.MINE_BLOCK, ("stone",))
    ready = state("repeater", {**base, "stone": 3})
    assert kit(ready) is None
    assert heuristic(ready, legal_actions(ready)).choice == DIG_REDSTONE


def test_the_maps_compass_gets_its_iron_ingots_up_here() -> None:
    base = {"iron_pickaxe": 1, "crafting_table": 1, "paper": 8}
    assert kit(state("map", base)) == Choice(ActionName.MINE_BLOCK, ("iron_ore",))
    smelting = state("map", {**base, "raw_iron": 4, "oak_planks": 3}, furnace_near=True)
    assert kit(smelting) == Choice(ActionName.SMELT, ("iron_ingot",))
    ready = state("map", {**base, "iron_ingot": 4})
    assert kit(ready) is None
    assert heuristic(ready, legal_actions(ready)).choice == DIG_REDSTONE


def test_what_one_ingredient_counts_another_does_not() -> None:
    # Two redstone torches take a stick each: one stick carried is not enough for both.
    one = state("repeater", {"iron_pickaxe": 1, "stick": 1, "stone": 3, "crafting_table": 1, "oak_planks": 2})
    assert kit(one) == Choice(ActionName.CRAFT, ("stick",))
    two = state("repeater", {"iron_pickaxe": 1, "stick": 2, "stone": 3, "crafting_table": 1})
    assert kit(two) is None


def test_the_crafting_table_is_carried_for_a_table_recipe_down_the_tree() -> None:
    s = state("map", {"iron_pickaxe": 1, "paper": 8, "iron_ingot": 4, "oak_planks": 4})
    assert kit(s) == Choice(ActionName.CRAFT, ("crafting_table",))


def test_once_down_the_table_is_not_made_again() -> None:
    # Seed 1004's clock: the gold smelted below ground by a table and furnace placed there; the
    # redstone dig comes next, not a walk up for wood to make a second table.
    down = state("clock", {"iron_pickaxe": 1, "gold_ingot": 4, "oak_planks": 4}, table_near=True)
    assert kit(down) is None
    assert heuristic(down, legal_actions(down)).choice == Choice(ActionName.MINE_BLOCK, ("redstone_ore",))
    up = state("clock", {"iron_pickaxe": 1, "oak_planks": 8, "coal": 3}, table_near=True)   # 4 burn the gold
    assert kit(up) == Choice(ActionName.CRAFT, ("crafting_table",))


def test_the_fuel_for_a_deep_smelt_is_carried_down() -> None:
    # Five raw gold for a golden helmet smelt with four planks (1.5 items a plank): three are not enough.
    short = state("golden_helmet", {"iron_pickaxe": 1, "crafting_table": 1, "oak_planks": 3, "oak_log": 1})
    assert kit(short) == Choice(ActionName.CRAFT, ("oak_planks",))
    ready = state("golden_helmet", {"iron_pickaxe": 1, "crafting_table": 1, "oak_planks": 4})
    assert kit(ready) is None
    assert heuristic(ready, legal_actions(ready)).choice == Choice(ActionName.MINE_BLOCK, ("gold_ore",))
    # The ingots alone as the goal: the fuel, and a table to make the furnace below.
    ingots = state("gold_ingot", {"iron_pickaxe": 1, "oak_planks": 5})
    assert kit(ingots) == Choice(ActionName.CRAFT, ("crafting_table",))
