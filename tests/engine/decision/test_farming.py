"""Bread by farming: with no ripe wheat known, the seeds in hand are planted beside water (a hoe
made first), the crops growing are waited for, and a grown crop found is picked as before."""
from __future__ import annotations

from engine.decision.catalog import ActionName, Choice, legal_actions
from engine.decision.goals import tree
from engine.decision.heuristic import heuristic
from engine.decision.providers import MockProvider
from engine.sim.episode import run_episode
from engine.sim.records import SimOptions
from engine.sim.world import SimWorld
from tests.engine.decision.states import state

BREAD = dict(goal=("bread", 1), milestone="wheat")


def _choice(**kw: object) -> Choice:
    s = state(**{**BREAD, **kw})
    return heuristic(s, legal_actions(s)).choice


def test_seeds_and_a_hoe_in_hand_and_no_ripe_wheat_known_plant_them() -> None:
    kit = (("wheat_seeds", 3), ("wooden_hoe", 1))
    assert Choice(ActionName.FARM, ("wheat",)) in legal_actions(state(**BREAD, inventory=kit))
    assert _choice(inventory=kit) == Choice(ActionName.FARM, ("wheat",))
    # A ripe crop in sight is picked as before, seeds or not.
    assert _choice(inventory=kit, known=(("wheat", 9.0),)) == Choice(ActionName.MINE_BLOCK, ("wheat",))
    # No goal that needs wheat, no seeds or no hoe: no farming.
    assert not any(c.action is ActionName.FARM for c in legal_actions(state(inventory=kit)))
    assert not any(c.action is ActionName.FARM
                   for c in legal_actions(state(**BREAD, inventory=(("wooden_hoe", 1),))))


def test_seeds_without_a_hoe_make_the_hoe_first() -> None:
    assert {"wooden_hoe", "wheat_seeds"} <= tree("bread")
    assert _choice(inventory=(("wheat_seeds", 3),), known=(("log", 5.0),)) == Choice(ActionName.GATHER_WOOD)
    ready = (("wheat_seeds", 3), ("oak_planks", 2), ("stick", 2))
    assert _choice(inventory=ready, table_near=True) == Choice(ActionName.CRAFT, ("wooden_hoe",))


def test_crops_of_ours_growing_are_waited_for_and_nothing_known_is_looked_for() -> None:
    assert _choice(known=(("young_wheat", 4.0),)) == Choice(ActionName.IDLE)
    assert _choice() == Choice(ActionName.EXPLORE)


def test_the_autopilot_tills_and_plants_its_seeds_beside_the_pond() -> None:
    ended: list[SimWorld] = []
    options = SimOptions(farm=False, start_items=(("wheat_seeds", 4),))
    result = run_episode(1001, 1500, MockProvider(), options, stop_when_done=True, goal="6 bread",
                         on_end=ended.append)
    (world,) = ended
    assert world.count("wooden_hoe") == 1 and not result.deaths and result.violations == 0
    crops = [pos for pos in world.crops.next_tick if world.block(*pos) == "wheat"]
    assert len(crops) == 4 and world.count("wheat_seeds") == 0
    for x, y, z in crops:
        assert world.block(x, y - 1, z) == "farmland" and world.crops.moist(x, y - 1, z)
        # East-west rows with bare farmland north and south: no crop halves another's speed.
        assert world.crops.growth_speed((x, y, z), "wheat") >= 5.5
        assert all(world.block(x + dx, y, z + dz) != "wheat" for dx, dz in ((0, 1), (0, -1), (1, 1), (1, -1),
                                                                            (-1, 1), (-1, -1)))
    assert not {"till refused", "plant refused"} & set(world.rejected)
