"""One food table, one eating activity: the reflexes, !eat and the autopilot eat the same food the same way."""
from __future__ import annotations

import attrs
import numpy as np

from engine.actions import ReleaseHeldItem, SelectHotbar, SwapToHotbar, UseHeldItem
from engine.decision.catalog import ActionName, Choice, legal_actions
from engine.decision.executors import ExecContext, make_executor
from engine.decision.heuristic import heuristic
from engine.decision.perception import BlockFinder
from engine.eating import Meal, Outcome, best_food
from engine.events import SlotItem

from engine.motion.astar import SearchOptions
from engine.reflex.engine import ReflexEngine
from engine.reflex.inputs import ReflexInputs
from engine.world.food import FOODS, MARGIN_TICKS
from engine.world.snapshot import PlayerState, Vec3, WorldSnapshot
from tests.engine.decision.test_families import state
from tests.engine.motion import terrains


def snapshot(slots: dict[int, tuple[str, int]], food: int = 10, held: int = 0) -> WorldSnapshot:
    inventory: list[SlotItem | None] = [None] * 46
    for slot, (name, count) in slots.items():
        inventory[slot] = SlotItem("minecraft:" + name, count)
    player = PlayerState(Vec3(0.5, 1.0, 0.5), 0.0, 0.0, True, 12.0, food, 0.0, 0, 0.0, 0, "minecraft:overworld", held,
                         tuple(inventory))
    return WorldSnapshot("bot", None, player, (), ())


def test_the_autopilot_carrying_cooked_porkchop_eats_it_as_the_reflex_would() -> None:
    carrying = snapshot({40: ("cooked_porkchop", 2)}, food=4)
    # The reflex eats it ...
    inputs = ReflexInputs.from_snapshot(carrying)
    assert inputs is not None
    decision = ReflexEngine().decide(inputs, terrains.flat().terrain(), 0.0, autopilot=True)
    assert decision.reflex == "starving" and decision.items == (SelectHotbar(4), UseHeldItem())
    # ... and so does the autopilot: the legal filter offers it, the heuristic takes it, the executor eats it.
    s = state(food=4, inventory=(("cooked_porkchop", 2),))
    assert Choice(ActionName.EAT) in legal_actions(s)
    assert heuristic(s, legal_actions(s)).choice == Choice(ActionName.EAT)
    terrain = terrains.flat().terrain()
    ctx = ExecContext(carrying, terrain, BlockFinder(terrain), 1, 0.05, set(), SearchOptions(), {},
                      np.random.default_rng(0))
    eat = make_executor(Choice(ActionName.EAT), 200, 1)
    assert eat.step(ctx) == [SelectHotbar(4), UseHeldItem()]
    assert eat.status is None  # not "no food"
    ctx.snapshot = attrs.evolve(carrying, player=attrs.evolve(carrying.player, food=12, held_slot=4))
    ctx.tick = 33
    assert eat.step(ctx) == [ReleaseHeldItem()] and eat.status == "ok"


def test_the_best_food_comes_first_then_the_hotbar_then_the_held_slot() -> None:
    inv = snapshot({38: ("bread", 3), 12: ("cooked_beef", 1), 40: ("bread", 1), 41: ("rotten_flesh", 5)}, held=4)
    assert best_food(inv.player.inventory, 4) == (12, "cooked_beef")
    assert best_food(inv.player.inventory, 4, hotbar_only=True) == (40, "bread")   # the held one on a tie
    assert best_food(snapshot({41: ("spider_eye", 1)}).player.inventory, 0) is None


def test_a_meal_takes_each_foods_own_time() -> None:
    kelp = Meal(36, "dried_kelp", 0, 10, 1, confirm=False)
    out = [kelp.step() for _ in range(1 + FOODS["dried_kelp"].ticks + MARGIN_TICKS + 1)]
    assert out[0] == [UseHeldItem()] and kelp.done and kelp.outcome is Outcome.FINISHED
    honey = Meal(36, "honey_bottle", 0, 10, 1, confirm=False)
    for _ in range(1 + 16 + MARGIN_TICKS + 1):
        honey.step()
    assert not honey.done


def test_a_meal_from_the_inventory_swaps_in_and_back_and_is_confirmed_by_the_stack() -> None:
    meal = Meal(12, "apple", 2, None, 3)
    assert meal.step(None, 3) == [SwapToHotbar(12, 2), UseHeldItem()]
    assert meal.step(None, 3) == []
    assert meal.step(None, 2) == [SwapToHotbar(12, 2)] and meal.outcome is Outcome.ATE
    refused = Meal(12, "apple", 2, 10, 3)
    out = [a for _ in range(80) for a in refused.step(10, 3)]
    assert refused.outcome is Outcome.REFUSED and out[-2:] == [ReleaseHeldItem(), SwapToHotbar(12, 2)]
