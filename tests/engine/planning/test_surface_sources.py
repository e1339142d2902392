"""The planner with the surface kinds and the goals' game: bread, beds, books, glass; names on 1.8-26.1."""
from __future__ import annotations

import pytest

from engine.decision.knowledge import ABILITIES, GOAL_KINDS, KINDS, PLANTS, SURFACE_KINDS, planner_for
from engine.planning.planner import OutOfReach, Plan
from engine.world.blocks import BlockTable

# Every name family the proxy speaks: before the flattening, just after, and the newest.
VERSIONS = ("1.8.8", "1.12.2", "1.13.2", "1.16.5", "1.18.2", "1.20.4", "26.1")


def _steps(version: str, goal: str) -> list[str]:
    plan = planner_for(version).plan(goal, 1, {}, frozenset())
    assert isinstance(plan, Plan), plan
    return [s.text() for s in plan.steps]


@pytest.mark.parametrize("version", ["1.18.2", "26.1"])
def test_the_flat_names_gather_sand_cane_wheat_gravel_and_hunt_sheep_and_cows_for_goals(version: str) -> None:
    assert _steps(version, "bread")[0] == "gather 3 wheat by hand"
    assert "shear sheep for 3 white_wool (1-3 a shearing)" in _steps(version, "white_bed")
    assert "hunt sheep for 1 mutton" in _steps(version, "cooked_mutton")
    assert "hunt cow for 1 leather" in _steps(version, "book")
    assert _steps(version, "book")[0] == "gather 3 sugar_cane by hand"
    assert "smelt 1 sand into glass" in _steps(version, "glass")
    assert "gather 1 flint (gravel) by hand" in _steps(version, "flint_and_steel")


@pytest.mark.parametrize("version,wool", [("1.12.2", "wool"), ("1.18.2", "white_wool"), ("26.1", "white_wool")])
def test_wool_is_shorn_with_shears_made_when_none_are_carried(version: str, wool: str) -> None:
    plan = planner_for(version).plan(wool, 3, {"shears": 1}, frozenset())
    assert isinstance(plan, Plan), plan
    assert [s.text() for s in plan.steps] == [f"shear sheep for 3 {wool} (1-3 a shearing)"]
    assert plan.steps[0].tool == "shears"
    without = planner_for(version).plan(wool, 3, {}, frozenset())
    assert isinstance(without, Plan)
    texts = [s.text() for s in without.steps]
    assert texts[-2:] == ["craft 1 shears", f"shear sheep for 3 {wool} (1-3 a shearing)"]
    assert "smelt 2 raw_iron into iron_ingot" in texts or "smelt 2 iron_ore into iron_ingot" in texts


def test_the_shears_are_in_a_wool_goals_tree_and_a_shorn_sheep_gives_mutton_only() -> None:
    from engine.decision.goals import tree
    from engine.decision.knowledge import loot_of
    assert {"shears", "iron_ingot"} <= tree("white_wool") and "shears" in tree("white_bed")
    assert "shears" not in tree("cooked_mutton")
    assert loot_of("sheep") == ("mutton", "white_wool", "wool")
    assert loot_of("sheared_sheep") == ("mutton",)
    assert loot_of("sheared_cow") == ("beef", "leather") and loot_of("zombie") == ()


@pytest.mark.parametrize("goal, why", [
    ("cake", "needs milk_bucket: milk_bucket is milked from a cow with a bucket, which the autopilot does not do"),
    ("egg", "egg is laid by a chicken every 5 to 10 minutes, which the autopilot does not do"),
    ("cookie", "needs cocoa_beans: needs a block: cocoa_beans comes from the block cocoa"),
])
def test_cake_and_cookie_have_their_recipes_and_say_what_they_lack(goal: str, why: str) -> None:
    p = planner_for("26.1")
    assert goal == "egg" or goal in p.book.recipes
    result = p.plan(goal, 1, {}, frozenset())
    assert isinstance(result, OutOfReach) and why in result.reason, result


@pytest.mark.parametrize("version", ["1.8.9", "1.12.2"])
def test_the_legacy_names_are_reeds_wool_and_bed(version: str) -> None:
    assert "shear sheep for 3 wool (1-3 a shearing)" in _steps(version, "bed")
    assert _steps(version, "paper")[0] == "gather 3 reeds by hand"
    assert _steps(version, "bread")[0] == "gather 3 wheat by hand"
    assert planner_for(version).plan("white_bed", 1, {}, frozenset()) == OutOfReach(
        "white_bed", "white_bed is not an item of Minecraft 1.12.2's names")


@pytest.mark.parametrize("version", VERSIONS)
def test_every_surface_kind_names_a_block_of_every_version(version: str) -> None:
    table = BlockTable.for_version(version)
    names = table.names()
    for kind in SURFACE_KINDS:
        assert any(b in names for b in KINDS[kind]), (version, kind)
    assert PLANTS <= set(GOAL_KINDS)        # the surface's plants and the young crops a farm waits on
    # The ripe age is a state of its own: the eighth of wheat's (age 0-7, or metadata 0-15).
    assert len(table.states_of("wheat")) >= 8


@pytest.mark.parametrize("goal, why", [
    ("golden_apple", "apple comes from the block oak_leaves"),
    # A crafted block that drops itself is no source: the reason goes down its recipe.
    ("sticky_piston", "needs slime_ball: needs a mob drop: slime_ball comes from slime"),
    ("bow", "string comes from the block cobweb"),
    ("netherite_pickaxe", "the Nether is not supported"),
])
def test_what_the_surface_does_not_give_keeps_its_reason(goal: str, why: str) -> None:
    result = planner_for("1.18.2").plan(goal, 1, {}, frozenset())
    assert isinstance(result, OutOfReach) and why in result.reason


def test_a_hunt_brings_only_what_the_loot_tables_give() -> None:
    assert {"beef", "leather", "mutton", "white_wool", "wool"} <= ABILITIES.hunted
    assert ABILITIES.hunt == frozenset({"cow", "sheep"})
    assert "rabbit_hide" not in ABILITIES.hunted


@pytest.mark.parametrize("version, raw", [("1.12.2", "gold_ore"), ("26.1", "raw_gold")])
def test_gold_is_dug_below_ground_with_an_iron_pickaxe(version: str, raw: str) -> None:
    from engine.sim.cli import underground_for
    steps = _steps(version, "gold_ingot")
    assert f"gather 1 {raw}{'' if raw == 'gold_ore' else ' (gold_ore)'} with iron_pickaxe" in steps
    assert steps[-1] == f"smelt 1 {raw} into gold_ingot"
    assert underground_for("golden_pickaxe") == "1.18"


@pytest.mark.parametrize("version, ore", [("1.12.2", "redstone_ore"), ("26.1", "redstone_ore")])
@pytest.mark.parametrize("goal", ["compass", "clock"])
def test_redstone_is_dug_below_ground_with_an_iron_pickaxe(version: str, ore: str, goal: str) -> None:
    from engine.sim.cli import underground_for
    steps = _steps(version, goal)
    assert f"gather 1 redstone ({ore}) with iron_pickaxe" in steps
    assert steps.index("craft 1 iron_pickaxe") < steps.index(f"gather 1 redstone ({ore}) with iron_pickaxe")
    assert steps[-1] == f"craft 1 {goal}"
    assert underground_for(goal) == "1.18"


@pytest.mark.parametrize("version", ["1.18.2", "26.1"])
def test_coal_is_dug_for_a_goal_only_coal_makes_and_torches_stay_on_charcoal(version: str) -> None:
    from engine.sim.cli import underground_for
    assert "gather 1 coal (coal_ore) with wooden_pickaxe" in _steps(version, "coal")
    assert "smelt 1 oak_log into charcoal" in _steps(version, "torch")
    assert not any("coal_ore" in step for step in _steps(version, "campfire"))
    assert underground_for("coal") == "1.18" and underground_for("16 torch") is None
