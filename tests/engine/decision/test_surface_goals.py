"""Goals on the surface: the finder sees ripe wheat only, a goal's hunt goes for the animal with the loot."""
from __future__ import annotations

import pytest

from engine.decision.catalog import ActionName, Choice, legal_actions
from engine.decision.heuristic import heuristic
from engine.decision.knowledge import MATURE
from engine.decision.perception import BlockFinder
from engine.motion.worlds import WorldBuilder
from engine.world.snapshot import Vec3
from tests.engine.decision.states import state


@pytest.mark.parametrize("version", ["1.12.2", "1.18.2", "26.1"])
def test_the_finder_tells_a_ripe_crop_from_a_young_one(version: str) -> None:
    world = WorldBuilder(version, x=(-16, 16), y=(0, 16), z=(-16, 16))
    world.fill(-16, 0, -16, 15, 0, 15, "farmland")
    young = world.state("wheat")
    world.fill_state(2, 1, 0, 2, 1, 0, young + 3)
    world.fill_state(6, 1, 0, 6, 1, 0, young + MATURE["wheat"])
    finder = BlockFinder(world.terrain())
    found = finder.nearest("wheat", Vec3(0.5, 1.0, 0.5), exposed=False)
    assert [pos for _, pos in found] == [(6, 1, 0)]
    # The young one is a crop growing (what a farm of ours waits on), not one to pick.
    assert finder.kind_at(2, 1, 0) == "young_wheat" and finder.kind_at(6, 1, 0) == "wheat"
    young_found = finder.nearest("young_wheat", Vec3(0.5, 1.0, 0.5), exposed=False)
    assert [pos for _, pos in young_found] == [(2, 1, 0)]


def test_a_goals_hunt_is_for_the_animal_whose_loot_it_needs() -> None:
    s = state(goal=("white_wool", 1), milestone="white_wool", animals=((7, 3.0),), inventory=(("shears", 1),),
              game=((7, "cow", 3.0), (9, "sheep", 12.0)))
    legal = legal_actions(s)
    assert Choice(ActionName.FIGHT, (9,)) in legal
    assert Choice(ActionName.FIGHT, (7,)) not in legal        # fed, and a cow has no wool
    assert heuristic(s, legal).choice == Choice(ActionName.FIGHT, (9,))
    book = state(goal=("leather", 1), milestone="leather", game=((7, "cow", 3.0), (9, "sheep", 1.0)))
    assert heuristic(book, legal_actions(book)).choice == Choice(ActionName.FIGHT, (7,))


def test_the_iron_pickaxe_state_has_no_game_and_reads_as_before() -> None:
    s = state()
    assert "game" not in s.to_json()
    goal = state(goal=("white_bed", 1), game=((9, "sheep", 12.04),))
    assert goal.to_json()["game"] == [["sheep", 12.0]]


def test_a_seen_surface_kind_is_mined_for_a_goal() -> None:
    s = state(goal=("sugar", 1), milestone="sugar_cane", known=(("sugar_cane", 6.0),))
    legal = legal_actions(s)
    assert heuristic(s, legal).choice == Choice(ActionName.MINE_BLOCK, ("sugar_cane",))
    unseen = state(goal=("sugar", 1), milestone="sugar_cane")
    assert heuristic(unseen, legal_actions(unseen)).choice == Choice(ActionName.EXPLORE)


def test_a_sheep_behind_a_herd_of_cows_stays_in_a_goals_state() -> None:
    from engine.decision.autopilot import GAME_PER_KIND, game_in_sight
    from engine.decision.catalog import GAME_SIGHT
    herd = [(i, "cow", 2.0 + i) for i in range(8)] + [(20, "sheep", 15.0), (21, "sheep", GAME_SIGHT + 1)]
    kept = game_in_sight(herd)
    assert [h[0] for h in kept] == list(range(GAME_PER_KIND)) + [20]


def test_wool_is_shorn_from_a_woolly_sheep_and_a_shorn_one_is_left_alone() -> None:
    game = ((5, "sheared_sheep", 2.0), (9, "sheep", 12.0))
    s = state(goal=("white_wool", 3), milestone="white_wool", inventory=(("shears", 1),), game=game)
    legal = legal_actions(s)
    assert Choice(ActionName.FIGHT, (5,)) not in legal        # shorn: nothing a wool goal wants
    assert heuristic(s, legal).choice == Choice(ActionName.FIGHT, (9,))
    shorn = state(goal=("white_wool", 3), milestone="white_wool", inventory=(("shears", 1),), game=game[:1])
    assert heuristic(shorn, legal_actions(shorn)).choice == Choice(ActionName.EXPLORE)
    # Mutton: a shorn sheep is still meat.
    meat = state(goal=("mutton", 1), milestone="mutton", game=game)
    assert heuristic(meat, legal_actions(meat)).choice == Choice(ActionName.FIGHT, (5,))


def test_without_shears_a_wool_goal_works_toward_the_shears_first() -> None:
    s = state(goal=("white_wool", 1), milestone="oak_log", known=(("log", 4.0),), game=((9, "sheep", 2.0),))
    assert heuristic(s, legal_actions(s)).choice == Choice(ActionName.GATHER_WOOD)
    ingots = state(goal=("white_wool", 1), milestone="shears", table_near=True,
                   inventory=(("iron_ingot", 2), ("stone_pickaxe", 1)), game=((9, "sheep", 2.0),))
    assert heuristic(ingots, legal_actions(ingots)).choice == Choice(ActionName.CRAFT, ("shears",))
