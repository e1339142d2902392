"""Eating: the one activity behind the starving and heal reflexes, ``!eat`` and the autopilot's eat.

How this works: ``best_food`` picks what to eat from the food table
(``engine.world.food``): the best food first, on the hotbar before the main
inventory, the held slot on a tie (the reflexes look at the hotbar only: a
window click is not a reflex). A ``Meal`` then eats it, stepped once per tick,
and never moves the player:

    SELECT ──slot or swap sent, use started──► EATING ──eat ticks + margin──► CONFIRM ──► DONE
    EATING / CONFIRM ──food rose or the stack shrank──► DONE "ate"       (when confirming)
    CONFIRM ──no change within CONFIRM_TICKS──► DONE "refused" (use released)

``confirm=False`` (the reflexes) ends right after the eating time without
looking; ``restore`` gives the hand back as it was when the meal ends or is
cancelled (the previous slot selected, or the food's stack swapped back).
"""
from __future__ import annotations

import enum
from collections.abc import Sequence

from engine.actions import Action, ItemAction, ReleaseHeldItem, SelectHotbar, SwapToHotbar, UseHeldItem
from engine.events import SlotItem
from engine.world.food import MARGIN_TICKS, RANK, food_named
from engine.world.snapshot import WorldSnapshot
from engine.world.vanilla import HOTBAR_FIRST_SLOT

HOTBAR = HOTBAR_FIRST_SLOT
CONFIRM_TICKS = 20        # how long to wait for the server's health update after eating


def best_food(inventory: Sequence[SlotItem | None], held_slot: int, hotbar_only: bool = False,
              cooked_only: bool = False) -> tuple[int, str] | None:
    """(window-0 slot, name) of the food to eat, or None when there is none we eat.
    ``cooked_only``: pass over raw food worth cooking (``Food.cooked``)."""
    best: tuple[tuple[int, int, int], int, str] | None = None
    for slot in range(HOTBAR if hotbar_only else 9, 45):
        item = inventory[slot] if slot < len(inventory) else None
        food = None if item is None or item.count <= 0 else food_named(item.item)
        if item is None or food is None or (cooked_only and food.cooked is not None):
            continue
        name = item.item.removeprefix("minecraft:")
        hotbar = slot >= HOTBAR
        key = (RANK[name], 0 if hotbar else 1, 0 if hotbar and slot - HOTBAR == held_slot else 1)
        if best is None or key < best[0]:
            best = (key, slot, name)
    return None if best is None else (best[1], best[2])


def count_of(inventory: Sequence[SlotItem | None], food: str) -> int:
    return sum(item.count for item in inventory if item is not None and item.item.removeprefix("minecraft:") == food)


class Stage(enum.Enum):
    SELECT = "select"
    EATING = "eating"
    CONFIRM = "confirm"
    DONE = "done"


class Outcome(enum.Enum):
    ATE = "ate"
    REFUSED = "refused"        # the server did not feed the player
    FINISHED = "finished"      # not confirmed: the eating time is over
    CANCELLED = "cancelled"


class Meal:
    def __init__(self, slot: int, food: str, held_slot: int, food_before: int | None, count_before: int, *,
                 confirm: bool = True, restore: bool = True) -> None:
        found = food_named(food)
        assert found is not None, f"{food} is not in the food table"
        self.slot = slot
        self.food = food
        self.previous = held_slot
        self.swapped = slot < HOTBAR
        self.hotbar = held_slot if self.swapped else slot - HOTBAR
        self.food_before = food_before
        self.count_before = count_before
        self.confirm = confirm
        self.restore = restore
        self.duration = found.ticks + MARGIN_TICKS
        self.stage = Stage.SELECT
        self.ticks = 0
        self.outcome: Outcome | None = None

    @classmethod
    def of(cls, snapshot: WorldSnapshot, *, hotbar_only: bool = False, confirm: bool = True,
           restore: bool = True) -> "Meal | None":
        player = snapshot.player
        found = best_food(player.inventory, player.held_slot, hotbar_only)
        if found is None:
            return None
        slot, food = found
        return cls(slot, food, player.held_slot, player.food, count_of(player.inventory, food),
                   confirm=confirm, restore=restore)

    @property
    def name(self) -> str:
        return self.food.replace("_", " ")

    def step(self, food: int | None = None, count: int | None = None) -> list[ItemAction]:
        """This tick's actions; ``food`` and ``count`` (of this food) are what the server says now."""
        if self.stage is Stage.SELECT:
            self.stage = Stage.EATING
            out: list[ItemAction] = []
            if self.swapped:
                out.append(SwapToHotbar(self.slot, self.hotbar))
            elif self.hotbar != self.previous:
                out.append(SelectHotbar(self.hotbar))
            out.append(UseHeldItem())
            return out
        if self.stage is Stage.DONE:
            return []
        self.ticks += 1
        if self.confirm and self._ate(food, count):
            return self._end(Outcome.ATE)
        if self.stage is Stage.EATING:
            if self.ticks >= self.duration:
                self.stage, self.ticks = Stage.CONFIRM, 0
            return []
        if not self.confirm:
            return self._end(Outcome.FINISHED)
        if self.ticks >= CONFIRM_TICKS:
            return [ReleaseHeldItem()] + self._end(Outcome.REFUSED)
        return []

    def _ate(self, food: int | None, count: int | None) -> bool:
        return (food is not None and self.food_before is not None and food > self.food_before) \
            or (count is not None and count < self.count_before)

    def _end(self, outcome: Outcome) -> list[ItemAction]:
        self.stage = Stage.DONE
        self.outcome = outcome
        if not self.restore:
            return []
        if self.swapped:
            return [SwapToHotbar(self.slot, self.hotbar)]      # the food's stack goes back where it was
        if self.hotbar != self.previous:
            return [SelectHotbar(self.previous)]
        return []

    def cancel(self) -> list[ItemAction]:
        """Stop now (a higher priority, the kill switch, ``!stop``): undo what was started."""
        if self.stage is Stage.DONE:
            return []
        if self.stage is Stage.SELECT:          # nothing was sent yet
            self.stage, self.outcome = Stage.DONE, Outcome.CANCELLED
            return []
        # Still using the item (or not yet confirmed to have stopped): let go of it.
        return [ReleaseHeldItem()] + self._end(Outcome.CANCELLED)

    @property
    def done(self) -> bool:
        return self.stage is Stage.DONE

    @property
    def eating(self) -> bool:
        return self.stage is Stage.EATING


class EatTask:
    """``!eat``: eat the best food the player carries, once, then give the hand back as it was."""

    name = "eat"

    def __init__(self, meal: Meal) -> None:
        self.meal = meal
        self.food = meal.food
        self.food_now: int | None = meal.food_before  # the food bar as last seen

    @staticmethod
    def plan(snapshot: WorldSnapshot) -> "EatTask | str":
        player = snapshot.player
        if player.game_mode in (1, 3):
            return "there is no hunger in creative or spectator mode"
        if player.food is not None and player.food >= 20:
            return "you are not hungry (food 20/20)"
        meal = Meal.of(snapshot)
        if meal is None:
            return "you carry no food I may eat"
        return EatTask(meal)

    def step(self, snapshot: WorldSnapshot, now: float) -> list[Action]:
        player = snapshot.player
        self.food_now = player.food
        return list(self.meal.step(player.food, count_of(player.inventory, self.food)))

    def cancel(self) -> list[Action]:
        return list(self.meal.cancel())

    def finished(self) -> str | None:
        meal = self.meal
        if meal.outcome is Outcome.ATE:
            food = self.food_now
            before = meal.food_before
            return f"ate {meal.name}" + (f" (food {before} → {food})" if food is not None and before is not None else "")
        if meal.outcome is Outcome.REFUSED:
            return f"the server did not let you eat the {meal.name}"
        if meal.outcome is Outcome.CANCELLED:
            return "eating cancelled"
        return None
