from engine.decision.catalog import CATALOG, ActionName, Choice, check_choice, legal_actions
from engine.decision.heuristic import heuristic, plan
from engine.decision.ladder import NAMES, Ladder
from tests.engine.decision.states import state


def test_the_catalog_has_the_15_actions() -> None:
    assert len(CATALOG) == 15
    assert {a.value for a in CATALOG} == {
        "explore", "gather_wood", "mine_block", "collect_drops", "craft", "smelt", "place_block", "eat", "sleep",
        "go_to", "follow", "flee", "fight", "idle", "farm"}


def test_no_craft_without_ingredients_and_no_table_recipe_without_a_table() -> None:
    legal = legal_actions(state(inventory=(("oak_planks", 3), ("stick", 2))))
    assert Choice(ActionName.CRAFT, ("wooden_pickaxe",)) not in legal
    assert Choice(ActionName.CRAFT, ("stick",)) in legal
    legal = legal_actions(state(inventory=(("oak_planks", 3), ("stick", 2)), table_near=True))
    assert Choice(ActionName.CRAFT, ("wooden_pickaxe",)) in legal


def test_no_sleep_by_day_or_without_a_bed_and_no_mining_without_a_tool_or_a_known_block() -> None:
    assert not any(c.action == ActionName.SLEEP for c in legal_actions(state(day=False)))
    assert not any(c.action == ActionName.SLEEP for c in legal_actions(state(known=(("bed", 3.0),))))
    s = state(known=(("stone", 5.0),))
    assert Choice(ActionName.MINE_BLOCK, ("stone",)) not in legal_actions(s)
    s = state(known=(("stone", 5.0),), inventory=(("wooden_pickaxe", 1),))
    assert Choice(ActionName.MINE_BLOCK, ("stone",)) in legal_actions(s)
    assert Choice(ActionName.MINE_BLOCK, ("iron_ore",)) not in legal_actions(s)


def test_a_model_choice_is_rechecked_against_the_legal_actions() -> None:
    legal = legal_actions(state())
    assert check_choice(Choice(ActionName.CRAFT, ("iron_pickaxe",)), legal) is None
    assert check_choice(Choice(ActionName.GO_TO, (1, 64, 2)), legal) == Choice(ActionName.GO_TO, (1, 64, 2))
    assert check_choice(Choice(ActionName.GO_TO, ("a", 64, 2)), legal) is None


def test_the_heuristic_follows_the_recipe_tree() -> None:
    assert plan("iron_pickaxe", 1, {}, state()) == Choice(ActionName.GATHER_WOOD)
    s = state(inventory=(("oak_log", 4),))
    assert plan("iron_pickaxe", 1, dict(s.inventory), s) == Choice(ActionName.CRAFT, ("oak_planks",))
    s = state(inventory=(("wooden_pickaxe", 1),), known=(("stone", 4.0),))
    assert heuristic(s, legal_actions(s)).choice == Choice(ActionName.MINE_BLOCK, ("stone",))
    s = state(hostiles=((7, 5.0),))
    assert heuristic(s, legal_actions(s)).choice == Choice(ActionName.FLEE)


def test_the_ladder_has_nine_stages_and_resets_after_death() -> None:
    assert len(NAMES) == 9
    ladder = Ladder()
    ladder.update({"oak_log": 3}, frozenset(), 10, 0.5)
    ladder.update({"crafting_table": 1, "oak_planks": 2}, frozenset(), 20, 1.0)
    assert ladder.current == "wooden_pickaxe"
    ladder.reset({}, frozenset())
    assert ladder.current == "wood"
    assert ladder.first["crafting_table"].tick == 20


def test_every_autopilot_action_has_its_spec_and_one_executor() -> None:
    """Adding an autopilot action is its name, a ``CATALOG`` spec and an ``EXECUTORS`` entry:
    an action missing from either table fails here, not mid-game."""
    from engine.decision.executors import EXECUTORS

    assert set(CATALOG) == set(EXECUTORS) == set(ActionName.all())
