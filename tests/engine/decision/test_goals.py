"""Goals in the decision layer: parsing, the goal's ladder, the legal-action filter and the heuristic."""
from __future__ import annotations

from engine.decision.catalog import ActionName, Choice, legal_actions
from engine.decision.goals import DEFAULT_GOAL, Goal, goal_ladder, parse_goal, resolve, tree
from engine.decision.heuristic import heuristic
from engine.decision.ladder import NAMES
from engine.planning.planner import OutOfReach, Plan
from tests.engine.decision.states import state


def test_goals_parse_with_or_without_a_count() -> None:
    assert parse_goal("16 torch") == Goal("torch", 16) == parse_goal("torch 16")
    assert parse_goal("Iron Sword") == Goal("iron_sword") == parse_goal("minecraft:iron_sword")
    assert parse_goal("") == "name an item (e.g. torch, iron_sword)"
    assert parse_goal("1 2 torch") == "give one count"
    assert parse_goal("0 torch") == "the count must be 1 to 2304"


def test_the_default_goal_keeps_the_nine_milestones() -> None:
    assert goal_ladder(DEFAULT_GOAL, None).names == NAMES
    plan = resolve(Goal("torch", 16), {}, frozenset(), "1.18.2")
    assert isinstance(plan, Plan)
    ladder = goal_ladder(Goal("torch", 16), plan)
    assert ladder.names == ("oak_log", "oak_planks", "stick", "crafting_table", "wooden_pickaxe", "cobblestone",
                            "furnace", "charcoal", "torch")
    ladder.update({"torch": 15}, frozenset(), 5, 0.25)
    assert not ladder.done and "torch" not in ladder.first             # the count is the goal
    ladder.update({"torch": 16}, frozenset(), 6, 0.3)
    assert ladder.done and ladder.first["torch"].tick == 6
    assert ladder.progress_text() == "all 9 milestones reached (16 torch)"


def test_resolve_answers_at_once_for_what_is_out_of_reach() -> None:
    answer = resolve(Goal("netherite_sword"), {}, frozenset(), "1.21.4")
    assert isinstance(answer, OutOfReach) and "the Nether is not supported" in answer.reason
    assert isinstance(resolve(Goal("boat"), {}, frozenset(), "1.12.2"), Plan)        # legacy names
    assert isinstance(resolve(Goal("boat"), {}, frozenset(), "1.21.4"), OutOfReach)


def test_the_legal_filter_offers_the_goals_recipes_and_no_others() -> None:
    planks = (("oak_planks", 12),)
    ladder = legal_actions(state(inventory=planks, table_near=True))
    assert Choice(ActionName.CRAFT, ("chest",)) not in ladder              # the ladder's state: as before
    chest = legal_actions(state(inventory=planks, table_near=True, goal=("chest", 1)))
    assert Choice(ActionName.CRAFT, ("chest",)) in chest
    assert Choice(ActionName.CRAFT, ("oak_boat",)) not in chest
    assert tree("chest") >= {"chest", "oak_planks", "oak_log", "crafting_table"}


def test_charcoal_smelting_is_legal_only_for_a_goal_that_needs_it() -> None:
    s = dict(inventory=(("oak_log", 2), ("oak_planks", 4)), furnace_near=True)
    assert Choice(ActionName.SMELT, ("charcoal",)) not in legal_actions(state(**s))
    assert Choice(ActionName.SMELT, ("charcoal",)) in legal_actions(state(goal=("torch", 4), **s))


def test_the_heuristic_works_toward_the_goal_and_hunts_for_it() -> None:
    s = state(inventory=(("oak_planks", 8),), table_near=True, goal=("chest", 1), milestone="chest")
    assert heuristic(s, legal_actions(s)).choice == Choice(ActionName.CRAFT, ("chest",))
    s = state(goal=("cooked_beef", 1), milestone="beef", animals=((42, 20.0),))
    assert heuristic(s, legal_actions(s)).choice == Choice(ActionName.FIGHT, (42,))
    # Without the goal, a fed player does not hunt a cow 20 blocks off.
    s = state(animals=((42, 20.0),))
    assert heuristic(s, legal_actions(s)).choice != Choice(ActionName.FIGHT, (42,))


def test_a_goal_in_hand_is_not_followed_by_the_ladders_food_stocking() -> None:
    s = state(goal=("chest", 1), milestone=None, inventory=(("chest", 1),), animals=((42, 20.0),))
    decision = heuristic(s, legal_actions(s))
    assert decision.choice == Choice(ActionName.IDLE)


def test_the_state_json_names_a_goal_only_when_there_is_one() -> None:
    assert "goal" not in state().to_json()
    assert state(goal=("torch", 16)).to_json()["goal"] == {"item": "torch", "count": 16}
    assert state().digest() != state(goal=("torch", 16)).digest()


def test_a_goals_plain_raw_material_is_gathered_with_its_tool_first() -> None:
    from engine.decision.heuristic import plan

    # A lever takes cobblestone (the item, not the ladder's tag): mine stone, a pickaxe first.
    s = state(goal=("lever", 1), inventory=(("stick", 1),), known=(("stone", 4.0),))
    assert plan("lever", 1, dict(s.inventory), s) == Choice(ActionName.GATHER_WOOD)
    s = state(goal=("lever", 1), inventory=(("stick", 1), ("wooden_pickaxe", 1)), known=(("stone", 4.0),))
    assert plan("lever", 1, dict(s.inventory), s) == Choice(ActionName.MINE_BLOCK, ("stone",))
    assert plan("string", 1, {}, s) == Choice(ActionName.EXPLORE)      # nothing the executors can take
    assert plan("wheat", 1, {}, s) == Choice(ActionName.MINE_BLOCK, ("wheat",))    # a ripe crop is picked
