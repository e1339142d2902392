"""The diamond pickaxe as a goal: the planner digs diamond ore, the heuristic carries the kit
down first, ``mine_block diamond_ore`` is a ``MineOre`` at the version's level, and the
simulator turns the deep world on for it."""
from __future__ import annotations

from engine.decision.catalog import ActionName, Choice, legal_actions
from engine.decision.executors import Mine, make_executor
from engine.decision.executors.underground import DIAMOND_LEVEL, MineOre, family
from engine.decision.goals import Goal, resolve
from engine.decision.heuristic import heuristic
from engine.decision.state import DecisionState
from engine.planning.planner import Plan
from engine.sim.cli import underground_for

DIG = Choice(ActionName.MINE_BLOCK, ("diamond_ore",))


def state(**kw: object) -> DecisionState:
    base: dict[str, object] = dict(generation=0, tick=0, position=(0, 64, 0), health=20.0, food=20, day=True,
                                   milestone="diamond", inventory=(), known=(), drops=0, hostiles=(),
                                   table_near=False, furnace_near=False, smelting=False,
                                   goal=("diamond_pickaxe", 1))
    base.update(kw)
    return DecisionState(**base)  # type: ignore[arg-type]


def test_the_planner_reaches_the_diamond_pickaxe_by_digging_diamond_ore() -> None:
    plan = resolve(Goal("diamond_pickaxe"), {}, frozenset(), "1.20.4")
    assert isinstance(plan, Plan)
    dig = [s for s in plan.steps if s.item == "diamond"]
    assert [(s.kind, s.source, s.tool) for s in dig] == [("gather", "diamond_ore", "iron_pickaxe")]


def test_diamond_ore_is_legal_unseen_with_an_iron_pickaxe_only() -> None:
    assert DIG in legal_actions(state(inventory=(("iron_pickaxe", 1),)))
    assert DIG not in legal_actions(state(inventory=(("stone_pickaxe", 1),)))


def test_the_kit_is_made_on_the_surface_before_going_down() -> None:
    bare = state(inventory=(("iron_pickaxe", 1), ("oak_log", 3)))
    assert heuristic(bare, legal_actions(bare)).choice == Choice(ActionName.CRAFT, ("oak_planks",))
    sticks = state(inventory=(("iron_pickaxe", 1), ("stick", 2), ("oak_planks", 4)))
    assert heuristic(sticks, legal_actions(sticks)).choice == Choice(ActionName.CRAFT, ("crafting_table",))
    kit = state(inventory=(("iron_pickaxe", 1), ("stick", 2), ("crafting_table", 1)))
    assert heuristic(kit, legal_actions(kit)).choice == DIG
    found = state(inventory=(("iron_pickaxe", 1), ("stick", 2), ("crafting_table", 1), ("diamond", 3)))
    assert heuristic(found, legal_actions(found)).choice == Choice(ActionName.PLACE_BLOCK, ("crafting_table",))


def test_mine_block_diamond_ore_is_a_mine_ore_at_the_versions_level() -> None:
    deep = make_executor(DIG, 700, 1, "1.20.4")
    assert isinstance(deep, MineOre) and deep.level == DIAMOND_LEVEL["1.18"] and deep.kind == "diamond_ore"
    old = make_executor(DIG, 700, 1, "1.16.5")
    assert isinstance(old, MineOre) and old.level == DIAMOND_LEVEL["1.17"]
    assert family(None) == "1.18" and family("1.18") == "1.18" and family("1.8.9") == "1.17"
    assert type(make_executor(Choice(ActionName.MINE_BLOCK, ("iron_ore",)), 700, 1, "1.20.4")) is Mine


def test_the_simulator_turns_the_deep_world_on_for_diamonds_only() -> None:
    assert underground_for("diamond_pickaxe") == "1.18"
    assert underground_for(None) is None and underground_for("iron_pickaxe") is None
    assert underground_for("16 torch") is None and underground_for("netherite_pickaxe") is None
    assert underground_for("iron_pickaxe", "1.17") == "1.17" and underground_for("diamond_pickaxe", "off") is None
