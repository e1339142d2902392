"""Vanilla Minecraft's numbers that more than one part of the engine relies on.

Each is the game's own value (Java Edition, unchanged from 1.8 to 26.1 unless said), so
reflexes, decisions, motion and the simulator agree on them. Where it is defined in the
game is named beside it (Mojang's mapped names).
"""
from __future__ import annotations

# Entity.getEyeHeight for a standing player (Player.STANDING_DIMENSIONS: 1.8 tall, eyes at 1.62).
EYE_HEIGHT = 1.62
# FoodData.tick: health regenerates slowly only with at least this much food.
REGEN_FOOD = 18
# InventoryMenu: in window 0 the hotbar is slots 36..44 (crafting 0..4, armour 5..8, main 9..35).
HOTBAR_FIRST_SLOT = 36
