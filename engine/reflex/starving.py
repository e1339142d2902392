"""Starving: food at or below a threshold with food on the hotbar → eat it, then give the slot back.

Trigger: food ≤ ``threshold`` and an edible item in a hotbar slot (not in
creative or spectator, where hunger does not matter).
Heal, its sibling: hurt (health below ``heal_below``, full health by default)
with the food bar below 18, and food on the hotbar (raw meat only when badly
hurt, ``RAW_HEAL_AT``: it is worth cooking first): eat, so health comes back
before the next hit (lava, a mob) finds the player still hurt from the last
one. Vanilla regenerates only at 18 or more; eating while it still does would
spend food that regeneration did not need yet.
Action: a ``Meal`` (``engine.eating``, the activity ``!eat`` and the autopilot
use too) of the best food on the hotbar, without confirming: SELECT sends the
slot change (if the food is not already held) and starts using the item, the
use is held for the food's eating time (``engine.world.food``) plus a margin for
the server's tick phase, then the previously held slot is selected again.
Release: the meal is done, or the player changed slot themselves (eating was cancelled).
"""
from __future__ import annotations

from typing import ClassVar

import attrs

from engine.actions import ItemAction
from engine.eating import HOTBAR, Meal, best_food
from engine.reflex.base import Activity, ReflexContext, ReflexOutput
from engine.reflex.inputs import ReflexInputs
from engine.reflex.notice import Notice
from engine.world.vanilla import REGEN_FOOD

# Raw meat heals a quarter of what it heals cooked (raw beef: 3 food and 1.8 saturation, ~3 health
# at 17; cooked: 8 and 12.8, ~10): the heal reflex leaves it for the furnace (the autopilot cooks
# what it hunts) unless the player is this hurt, two lava hits or three zombie hits from death.
RAW_HEAL_AT = 10.0


def food_slot(inputs: ReflexInputs, cooked_only: bool = False) -> tuple[int, str] | None:
    """The hotbar index and name of the best food on the hotbar (``cooked_only``: raw meat left out)."""
    found = best_food(inputs.inventory, inputs.held_slot, hotbar_only=True, cooked_only=cooked_only)
    return None if found is None else (found[0] - HOTBAR, found[1])


@attrs.frozen
class StarvingReflex:
    name: str = "starving"
    reads_velocity: ClassVar[bool] = False   # its trigger: see ReflexEngine._candidate
    cooldown: float = 2.0
    timeout: float = 5.0
    threshold: int = 6        # at 6 the player can no longer sprint

    def triggered(self, ctx: ReflexContext) -> bool:
        i = ctx.inputs
        if i.food is None or i.food > self.threshold or i.game_mode in (1, 3):
            return False
        return food_slot(i) is not None

    def begin(self, ctx: ReflexContext) -> Activity:
        found = food_slot(ctx.inputs)
        assert found is not None
        return _Eat(ctx.inputs.held_slot, found[0], found[1])


@attrs.frozen
class HealReflex:
    name: str = "heal"
    reads_velocity: ClassVar[bool] = False   # its trigger: see ReflexEngine._candidate
    cooldown: float = 2.0
    timeout: float = 5.0
    heal_below: float = 20.0

    def triggered(self, ctx: ReflexContext) -> bool:
        i = ctx.inputs
        if i.health is None or i.food is None or i.game_mode in (1, 3):
            return False
        if not 0 < i.health < self.heal_below or i.food >= REGEN_FOOD:
            return False
        return self._food(i) is not None

    @staticmethod
    def _food(i: ReflexInputs) -> tuple[int, str] | None:
        return food_slot(i, cooked_only=i.health is not None and i.health > RAW_HEAL_AT)

    def begin(self, ctx: ReflexContext) -> Activity:
        found = self._food(ctx.inputs)
        assert found is not None
        slot, food = found
        name = food.replace("_", " ")
        notice = Notice("heal", f"you were hurt and too hungry to heal, so you ate {name}",
                        f"你受了伤，又饿得无法回血，已为你吃下{name}")
        return _Eat(ctx.inputs.held_slot, slot, food, notice)


class _Eat:
    def __init__(self, previous: int, slot: int, food: str, notice: Notice | None = None) -> None:
        self.meal = Meal(HOTBAR + slot, food, previous, None, 0, confirm=False, restore=True)
        self.slot = slot
        self.previous = previous
        self.notice = notice or Notice("starving", f"you were starving, so you ate {self.meal.name}",
                                       f"你饿坏了，已为你吃下{self.meal.name}")

    def tick(self, ctx: ReflexContext) -> ReflexOutput:
        return ReflexOutput(items=tuple(self.meal.step()))

    def done(self, ctx: ReflexContext) -> bool:
        if self.meal.done:
            return True
        # The player picked another slot: the server stopped the eating; leave it be.
        # (The previous slot may still show if the model has not seen our change yet.)
        return self.meal.eating and ctx.inputs.held_slot not in (self.slot, self.previous)

    def abort(self) -> tuple[ItemAction, ...]:
        return tuple(self.meal.cancel())
