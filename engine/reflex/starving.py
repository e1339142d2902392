"""Starving: food at or below a threshold with food on the hotbar → eat it, then give the slot back.

Trigger: food ≤ ``threshold`` and an edible item in a hotbar slot (not in
creative or spectator, where hunger does not matter).
Heal, its sibling: hurt (health below ``heal_below``, full health by default)
with the food bar below 18, and food on the hotbar: eat, so health comes back
before the next hit (lava, a mob) finds the player still hurt from the last
one. Vanilla regenerates only at 18 or more; eating while it still does would
spend food that regeneration did not need yet.
Action, as a small state machine ticked once per game tick:

    SELECT ──(slot sent, use started)──► EATING ──(duration + margin ticks)──► RESTORE ──► DONE

SELECT sends the slot change (if the food is not already held) and starts
using the item. EATING holds the use for the item's duration (32 ticks for
most food, 16 for dried kelp, 40 for honey) plus a margin for the server's
tick phase. RESTORE selects the previously held slot again.
Release: DONE, or the player changed slot themselves (eating was cancelled).
"""
from __future__ import annotations

import enum

import attrs

from engine.reflex.base import Activity, ItemOp, ReflexContext, ReflexOutput, SelectSlot, StartUsingItem, StopUsingItem
from engine.reflex.inputs import ReflexInputs
from engine.reflex.notice import Notice

EAT_TICKS = 32
MARGIN_TICKS = 2       # the server may count the first tick a tick later than we send it
REGEN_FOOD = 18        # vanilla regenerates health only with this much food or more

# Food a reflex may eat, best first (food points, then saturation), with eating time in ticks.
# Names are the item registry names in minecraft-data foods.json (modern and 1.8-1.12);
# left out on purpose: rotten flesh, spider eye, poisonous potato, pufferfish (poison),
# chorus fruit (teleports), suspicious stew, golden apples (too precious to eat on reflex).
FOODS: dict[str, int] = {
    "rabbit_stew": EAT_TICKS, "cooked_beef": EAT_TICKS, "cooked_porkchop": EAT_TICKS,
    "golden_carrot": EAT_TICKS, "pumpkin_pie": EAT_TICKS, "cooked_mutton": EAT_TICKS,
    "cooked_salmon": EAT_TICKS, "cooked_chicken": EAT_TICKS, "cooked_rabbit": EAT_TICKS,
    "mushroom_stew": EAT_TICKS, "beetroot_soup": EAT_TICKS, "bread": EAT_TICKS, "baked_potato": EAT_TICKS,
    "cooked_cod": EAT_TICKS, "cooked_fish": EAT_TICKS, "honey_bottle": 40, "apple": EAT_TICKS,
    "carrot": EAT_TICKS, "beef": EAT_TICKS, "porkchop": EAT_TICKS, "rabbit": EAT_TICKS, "mutton": EAT_TICKS,
    "chicken": EAT_TICKS, "cod": EAT_TICKS, "fish": EAT_TICKS, "salmon": EAT_TICKS, "melon_slice": EAT_TICKS,
    "melon": EAT_TICKS, "cookie": EAT_TICKS, "sweet_berries": EAT_TICKS, "glow_berries": EAT_TICKS,
    "potato": EAT_TICKS, "beetroot": EAT_TICKS, "tropical_fish": EAT_TICKS, "dried_kelp": 16,
}
_RANK = {name: rank for rank, name in enumerate(FOODS)}


def food_slot(inputs: ReflexInputs) -> tuple[int, str] | None:
    """The hotbar index and name of the best food, preferring the held slot on a tie."""
    best: tuple[tuple[int, int], int, str] | None = None
    for index in range(9):
        item = inputs.hotbar(index)
        if item is None or item.count <= 0:
            continue
        name = item.item.removeprefix("minecraft:")
        if name not in FOODS:
            continue
        key = (_RANK[name], 0 if index == inputs.held_slot else 1)
        if best is None or key < best[0]:
            best = (key, index, name)
    return None if best is None else (best[1], best[2])


@attrs.frozen
class StarvingReflex:
    name: str = "starving"
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
    cooldown: float = 2.0
    timeout: float = 5.0
    heal_below: float = 20.0

    def triggered(self, ctx: ReflexContext) -> bool:
        i = ctx.inputs
        if i.health is None or i.food is None or i.game_mode in (1, 3):
            return False
        if not 0 < i.health < self.heal_below or i.food >= REGEN_FOOD:
            return False
        return food_slot(i) is not None

    def begin(self, ctx: ReflexContext) -> Activity:
        found = food_slot(ctx.inputs)
        assert found is not None
        slot, food = found
        name = food.replace("_", " ")
        notice = Notice("heal", f"you were hurt and too hungry to heal, so you ate {name}",
                        f"你受了伤，又饿得无法回血，已为你吃下{name}")
        return _Eat(ctx.inputs.held_slot, slot, food, notice)


class EatStage(enum.Enum):
    SELECT = "select"
    EATING = "eating"
    RESTORE = "restore"
    DONE = "done"


class _Eat:
    def __init__(self, previous: int, slot: int, food: str, notice: Notice | None = None) -> None:
        self.previous = previous
        self.slot = slot
        self.food = food
        self.duration = FOODS[food] + MARGIN_TICKS
        self.stage = EatStage.SELECT
        self.ticks = 0
        self.notice = notice or Notice("starving", f"you were starving, so you ate {food.replace('_', ' ')}",
                                       f"你饿坏了，已为你吃下{food.replace('_', ' ')}")

    def tick(self, ctx: ReflexContext) -> ReflexOutput:
        if self.stage is EatStage.SELECT:
            self.stage = EatStage.EATING
            ops: tuple[ItemOp, ...] = (StartUsingItem(),)
            if self.slot != self.previous:
                ops = (SelectSlot(self.slot), StartUsingItem())
            return ReflexOutput(items=ops)
        if self.stage is EatStage.EATING:
            self.ticks += 1
            if self.ticks >= self.duration:
                self.stage = EatStage.RESTORE
            return ReflexOutput()
        if self.stage is EatStage.RESTORE:
            self.stage = EatStage.DONE
            if self.slot != self.previous:
                return ReflexOutput(items=(SelectSlot(self.previous),))
        return ReflexOutput()

    def done(self, ctx: ReflexContext) -> bool:
        if self.stage is EatStage.DONE:
            return True
        # The player picked another slot: the server stopped the eating; leave it be.
        # (The previous slot may still show if the model has not seen our change yet.)
        return self.stage is EatStage.EATING and ctx.inputs.held_slot not in (self.slot, self.previous)

    def abort(self) -> tuple[ItemOp, ...]:
        if self.stage is EatStage.EATING:
            self.stage = EatStage.DONE
            restore: tuple[ItemOp, ...] = (SelectSlot(self.previous),) if self.slot != self.previous else ()
            return (StopUsingItem(),) + restore
        if self.stage is EatStage.RESTORE:
            self.stage = EatStage.DONE
            return (SelectSlot(self.previous),) if self.slot != self.previous else ()
        return ()
