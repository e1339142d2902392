"""Food: what each edible item gives and how long it takes to eat, best first.

The one food table: the reflexes, ``!eat``, the autopilot's planner and executor
and the simulator all read it. Values are vanilla's (``Foods.java``): nutrition
is food points, ``saturation`` the modifier (eating adds nutrition × modifier × 2
saturation, at most the food bar). Names are registry names as in
minecraft-data's foods.json, modern and 1.8–1.12 (``fish``, ``cooked_fish``,
``melon``). The order is the order of preference (food points, then
saturation; raw meat after cooked, it is worth cooking). Left out on purpose:
rotten flesh, spider eyes, poisonous potatoes and pufferfish (poison), chorus
fruit (teleports), suspicious stew, golden apples (too precious to eat for
someone).
"""
from __future__ import annotations

import attrs

EAT_TICKS = 32        # most food; dried kelp is quicker, honey slower
MARGIN_TICKS = 2      # the server may count the first tick a tick later than it was sent


@attrs.frozen
class Food:
    nutrition: int
    saturation: float
    ticks: int = EAT_TICKS
    cooked: str | None = None   # what a furnace makes of it, for raw food worth cooking


FOODS: dict[str, Food] = {
    "rabbit_stew": Food(10, 0.6), "cooked_beef": Food(8, 0.8), "cooked_porkchop": Food(8, 0.8),
    "golden_carrot": Food(6, 1.2), "pumpkin_pie": Food(8, 0.3), "cooked_mutton": Food(6, 0.8),
    "cooked_salmon": Food(6, 0.8), "cooked_chicken": Food(6, 0.6), "cooked_rabbit": Food(5, 0.6),
    "mushroom_stew": Food(6, 0.6), "beetroot_soup": Food(6, 0.6), "bread": Food(5, 0.6),
    "baked_potato": Food(5, 0.6), "cooked_cod": Food(5, 0.6), "cooked_fish": Food(5, 0.6),
    "honey_bottle": Food(6, 0.1, 40), "apple": Food(4, 0.3), "carrot": Food(3, 0.6),
    "beef": Food(3, 0.3, cooked="cooked_beef"), "porkchop": Food(3, 0.3, cooked="cooked_porkchop"),
    "rabbit": Food(3, 0.3, cooked="cooked_rabbit"), "mutton": Food(2, 0.3, cooked="cooked_mutton"),
    "chicken": Food(2, 0.3, cooked="cooked_chicken"), "cod": Food(2, 0.1, cooked="cooked_cod"),
    "fish": Food(2, 0.1, cooked="cooked_fish"), "salmon": Food(2, 0.1, cooked="cooked_salmon"),
    "melon_slice": Food(2, 0.3), "melon": Food(2, 0.3), "cookie": Food(2, 0.1), "sweet_berries": Food(2, 0.1),
    "glow_berries": Food(2, 0.1), "potato": Food(1, 0.3, cooked="baked_potato"), "beetroot": Food(1, 0.6),
    "tropical_fish": Food(1, 0.1), "dried_kelp": Food(1, 0.3, 16),
}
RANK: dict[str, int] = {name: rank for rank, name in enumerate(FOODS)}


def food_named(item: str) -> Food | None:
    """The food an item is (``minecraft:`` or not), or None when it is not one we eat."""
    return FOODS.get(item.removeprefix("minecraft:"))
