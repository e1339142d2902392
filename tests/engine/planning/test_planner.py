"""The planner over minecraft-data's recipes: steps, counts, tools, stations, reasons, version names."""
from __future__ import annotations

import json
from importlib import resources

import pytest

from engine.planning.book import book, table_for
from engine.planning.planner import Abilities, OutOfReach, Plan, Planner, Step

FLAT_LOGS = frozenset(book("flat").tags["#logs"])
SIM = Abilities(gather=FLAT_LOGS | {"stone", "deepslate", "iron_ore", "deepslate_iron_ore"},
                hunt=frozenset({"cow"}), hunted=frozenset({"beef"}))
LEGACY = Abilities(gather=frozenset({"log", "log2", "stone", "iron_ore"}), hunt=frozenset({"cow"}),
                   hunted=frozenset({"beef"}))


@pytest.fixture(scope="module")
def flat() -> Planner:
    return Planner(book("flat"), SIM)


def planned(planner: Planner, goal: str, n: int = 1, counts: dict[str, int] | None = None,
            seen: frozenset[str] = frozenset()) -> Plan:
    plan = planner.plan(goal, n, counts or {}, seen)
    assert isinstance(plan, Plan), plan
    return plan


def step(plan: Plan, kind: str, item: str) -> Step:
    return next(s for s in plan.steps if s.kind == kind and s.item == item)


def test_the_data_file_names_its_minecraft_data_version() -> None:
    text = resources.files("engine.planning").joinpath("data/recipes.json").read_text(encoding="utf-8")
    document = json.loads(text)
    assert document["source"].startswith("minecraft-data 3.119.0")
    assert {t["version"] for t in document["tables"].values()} == {"26.1", "1.12.2"}


def test_sixteen_torches_from_nothing_burn_logs_into_charcoal(flat: Planner) -> None:
    plan = planned(flat, "torch", 16)
    kinds = [s.kind for s in plan.steps]
    assert kinds[0] == "gather" and plan.steps[-1] == Step("craft", "torch", 16)
    assert step(plan, "smelt", "charcoal").count == 4 and step(plan, "smelt", "charcoal").source == "oak_log"
    assert step(plan, "craft", "stick").count == 8          # 4 for the torches, 2 for the pickaxe
    # The furnace before the smelt, a wooden pickaxe before the cobblestone it is built of.
    order = [(s.kind, s.item) for s in plan.steps]
    assert order.index(("craft", "furnace")) < order.index(("smelt", "charcoal"))
    assert order.index(("craft", "wooden_pickaxe")) < order.index(("gather", "cobblestone"))
    assert step(plan, "gather", "cobblestone").tool == "wooden_pickaxe"
    assert step(plan, "gather", "cobblestone").source == "stone"


def test_torches_take_the_coal_carried_before_any_log_is_burned(flat: Planner) -> None:
    # minecraft-data spells the torch twice (coal, charcoal); the book folds them into #coals.
    assert [r.needs for r in book("flat").recipes["torch"]] == [(("#coals", 1), ("stick", 1))]
    assert planned(flat, "torch", 16, {"coal": 4, "stick": 4}).steps == (Step("craft", "torch", 16),)
    short = planned(flat, "torch", 16, {"coal": 1, "stick": 4})    # the other three are charcoal
    assert step(short, "smelt", "charcoal").count == 3 and short.steps[-1] == Step("craft", "torch", 16)
    campfire = {n for r in book("flat").recipes["campfire"] for n, _ in r.needs}
    assert "#coals" in campfire and not {"coal", "charcoal"} & campfire


def test_counts_follow_recipe_yields_and_the_inventory(flat: Planner) -> None:
    plan = planned(flat, "stick", 5)          # 4 a craft: two crafts, four planks, one log
    assert plan.steps == (Step("gather", "oak_log", 1, "oak_log"), Step("craft", "oak_planks", 4),
                          Step("craft", "stick", 8))
    assert planned(flat, "stick", 5, {"stick": 5}).done
    carried = planned(flat, "stick", 5, {"birch_planks": 4})     # any planks will do
    assert carried.steps == (Step("craft", "stick", 8),)


def test_tools_come_before_the_blocks_they_harvest_and_are_made_once(flat: Planner) -> None:
    plan = planned(flat, "iron_pickaxe")
    order = [(s.kind, s.item) for s in plan.steps]
    assert order.index(("craft", "stone_pickaxe")) < order.index(("gather", "raw_iron"))
    assert step(plan, "gather", "raw_iron").tool == "stone_pickaxe"
    assert sum(1 for s in plan.steps if s.item == "crafting_table") == 1
    with_pick = planned(flat, "iron_pickaxe", 1, {"iron_pickaxe": 0, "stone_pickaxe": 1, "stick": 2})
    assert not any(s.item in ("stone_pickaxe", "wooden_pickaxe") for s in with_pick.steps)


def test_a_station_seen_near_need_not_be_made(flat: Planner) -> None:
    plan = planned(flat, "chest", seen=frozenset({"crafting_table"}))
    assert [s.item for s in plan.steps] == ["oak_log", "oak_planks", "chest"]
    assert step(plan, "gather", "oak_log").seen is False
    assert step(planned(flat, "chest", seen=frozenset({"oak_log"})), "gather", "oak_log").seen


def test_family_recipes_take_any_member_and_species_recipes_their_own(flat: Planner) -> None:
    chest = flat.ways["chest"].recipe
    fence = flat.ways["oak_fence"].recipe
    assert chest is not None and chest.needs == (("#planks", 8),) and chest.table
    assert fence is not None and ("oak_planks", 4) in fence.needs
    assert chest.shape == ("AAA", "A A", "AAA")


@pytest.mark.parametrize("goal, reason", [
    ("netherite_pickaxe", "the Nether is not supported"),
    ("blaze_powder", "the Nether is not supported"),
    ("chorus_fruit", "the End is not supported"),
    ("leather_chestplate", "needs a mob drop: leather comes from cow"),
    ("bread", "wheat comes from the block wheat, which the autopilot does not gather"),
    ("diamond_pickaxe", "diamond comes from the block diamond_ore"),
    ("flint_and_steel", "flint comes from the block gravel"),
    ("compass", "redstone comes from the block"),
    ("white_bed", "needs white_wool"),
    ("book", "needs paper: needs sugar_cane: needs a block: sugar_cane comes from the block sugar_cane"),
    ("dragon_head_of_doom", "is not an item of Minecraft 26.1's names"),
])
def test_out_of_reach_says_why(flat: Planner, goal: str, reason: str) -> None:
    answer = flat.plan(goal, 1, {}, frozenset())
    assert isinstance(answer, OutOfReach) and reason in answer.reason, answer


def test_more_abilities_reach_more(flat: Planner) -> None:
    miner = Planner(book("flat"), Abilities(gather=SIM.gather | {"diamond_ore", "gravel"}))
    plan = planned(miner, "diamond_pickaxe")
    assert step(plan, "gather", "diamond").tool == "iron_pickaxe"
    assert step(planned(miner, "flint_and_steel"), "gather", "flint").source == "gravel"
    assert isinstance(flat.plan("diamond_pickaxe", 1, {}, frozenset()), OutOfReach)


def test_a_hunt_brings_what_it_is_hunted_for(flat: Planner) -> None:
    plan = planned(flat, "cooked_beef", 2)
    assert plan.steps[0] == Step("hunt", "beef", 2, "cow")
    assert step(plan, "smelt", "cooked_beef").source == "beef"


def test_legacy_names_before_the_flattening() -> None:
    legacy = Planner(book("legacy"), LEGACY)
    boat = planned(legacy, "boat")
    assert [s.item for s in boat.steps] == ["log", "planks", "crafting_table", "boat"]
    torch = planned(legacy, "torch", 4)
    assert step(torch, "smelt", "coal").source == "log"        # charcoal is coal:1 before 1.13
    assert isinstance(legacy.plan("oak_boat", 1, {}, frozenset()), OutOfReach)
    assert "1.12.2" in legacy.plan("oak_boat", 1, {}, frozenset()).reason  # type: ignore[union-attr]


@pytest.mark.parametrize("version, table", [("1.8.9", "legacy"), ("1.12.2", "legacy"), ("1.13", "flat"),
                                            ("1.21.4", "flat"), ("26.1", "flat"), (None, "flat")])
def test_the_version_picks_the_book(version: str | None, table: str) -> None:
    assert table_for(version) == table


def test_a_bad_version_is_named() -> None:
    with pytest.raises(ValueError, match="not a Minecraft version: 'x.y'"):
        table_for("x.y")


def test_step_texts_read_as_instructions(flat: Planner) -> None:
    plan = planned(flat, "torch", 4)
    texts = [s.text() for s in plan.steps]
    assert "gather 3 cobblestone (stone) with wooden_pickaxe" not in texts     # 8 for the furnace
    assert "gather 8 cobblestone (stone) with wooden_pickaxe" in texts
    assert "smelt 1 oak_log into charcoal" in texts and texts[-1] == "craft 4 torch"
