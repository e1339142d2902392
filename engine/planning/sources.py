"""What minecraft-data does not say about where items come from, by hand from vanilla.

minecraft-data has crafting recipes and block drops (``data/recipes.json``) but no furnace
recipes, no mob loot and no dimensions. These tables fill that in for the planner, with
vanilla's names: ``FLAT`` after the 1.13 flattening, ``LEGACY`` for 1.8–1.12.2 (where
charcoal is ``coal`` with metadata 1, so smelting a log gives ``coal``).

* ``SMELTING``: output → inputs (any one, an item or a tag), vanilla's furnace recipes for
  what a player asks for (ingots, charcoal, stone, glass, cooked food, bricks...).
* ``MOB_DROPS``: item → the mobs whose loot has it (vanilla loot tables).
* ``SHEARED``: item → the animal shears take it from, and how many a shearing gives.
* ``CROPS``: items a planted seed grows into (wheat), and the seed.
* ``FROM_LIVING``: items a living animal gives (milk, eggs), which no way reaches: the reason.
* ``NETHER``/``END``: blocks and mobs found only in that dimension: an item that comes
  only from them is out of reach (the autopilot stays in the overworld).
* ``NOT_CRAFTED``: items made by other stations (the smithing table's netherite upgrade)
  the planner names in its answer, with what they are made from.
"""
from __future__ import annotations

_FOOD = {"cooked_beef": "beef", "cooked_porkchop": "porkchop", "cooked_chicken": "chicken",
         "cooked_mutton": "mutton", "cooked_rabbit": "rabbit", "cooked_cod": "cod", "cooked_salmon": "salmon",
         "baked_potato": "potato", "dried_kelp": "kelp"}

SMELTING: dict[str, dict[str, tuple[str, ...]]] = {
    "flat": {
        "iron_ingot": ("raw_iron", "iron_ore", "deepslate_iron_ore"),
        "gold_ingot": ("raw_gold", "gold_ore", "deepslate_gold_ore"),
        "copper_ingot": ("raw_copper", "copper_ore", "deepslate_copper_ore"),
        "charcoal": ("#logs",),
        "stone": ("cobblestone",),
        "smooth_stone": ("stone",),
        "deepslate": ("cobbled_deepslate",),
        "glass": ("sand", "red_sand"),
        "brick": ("clay_ball",),
        "terracotta": ("clay",),
        "green_dye": ("cactus",),
        "lime_dye": ("sea_pickle",),
        "sponge": ("wet_sponge",),
        "coal": ("coal_ore", "deepslate_coal_ore"),
        "diamond": ("diamond_ore", "deepslate_diamond_ore"),
        "emerald": ("emerald_ore", "deepslate_emerald_ore"),
        "lapis_lazuli": ("lapis_ore", "deepslate_lapis_ore"),
        "redstone": ("redstone_ore", "deepslate_redstone_ore"),
        "netherite_scrap": ("ancient_debris",),
        **{k: (v,) for k, v in _FOOD.items()},
    },
    "legacy": {
        "iron_ingot": ("iron_ore",),
        "gold_ingot": ("gold_ore",),
        "coal": ("#logs", "coal_ore"),          # charcoal is coal:1 before 1.13
        "stone": ("cobblestone",),
        "glass": ("sand",),
        "brick": ("clay_ball",),
        "hardened_clay": ("clay",),
        "diamond": ("diamond_ore",),
        "redstone": ("redstone_ore",),
        **{k: (v,) for k, v in _FOOD.items() if k not in ("cooked_cod", "cooked_salmon", "dried_kelp")},
        "cooked_fish": ("fish",),
    },
}

MOB_DROPS: dict[str, tuple[str, ...]] = {
    "beef": ("cow", "mooshroom"), "leather": ("cow", "mooshroom", "horse", "llama"),
    "porkchop": ("pig",), "mutton": ("sheep",), "chicken": ("chicken",), "feather": ("chicken",),
    "rabbit": ("rabbit",), "rabbit_hide": ("rabbit",), "rabbit_foot": ("rabbit",),
    "white_wool": ("sheep",), "wool": ("sheep",),
    "string": ("spider", "cave_spider"), "spider_eye": ("spider", "cave_spider", "witch"),
    "bone": ("skeleton", "stray"), "arrow": ("skeleton", "stray"), "gunpowder": ("creeper", "ghast", "witch"),
    "rotten_flesh": ("zombie", "husk", "drowned"), "ender_pearl": ("enderman",), "slime_ball": ("slime",),
    "ink_sac": ("squid",), "glow_ink_sac": ("glow_squid",), "cod": ("cod",), "salmon": ("salmon",),
    "fish": ("cod",), "blaze_rod": ("blaze",), "ghast_tear": ("ghast",), "magma_cream": ("magma_cube",),
    "shulker_shell": ("shulker",), "phantom_membrane": ("phantom",), "nether_star": ("wither",),
    "dragon_breath": ("ender_dragon",), "dragon_egg": ("ender_dragon",), "trident": ("drowned",),
    "prismarine_shard": ("guardian",), "prismarine_crystals": ("guardian",), "turtle_scute": ("turtle",),
    "scute": ("turtle",), "armadillo_scute": ("armadillo",), "breeze_rod": ("breeze",),
}

NETHER = frozenset({
    "ancient_debris", "nether_quartz_ore", "quartz_ore", "nether_gold_ore", "netherrack", "soul_sand", "soul_soil",
    "glowstone", "magma_block", "magma", "basalt", "polished_basalt", "blackstone", "gilded_blackstone",
    "nether_wart", "crimson_stem", "warped_stem", "crimson_hyphae", "warped_hyphae", "crimson_fungus",
    "warped_fungus", "crimson_nylium", "warped_nylium", "nether_wart_block", "warped_wart_block", "shroomlight",
    "weeping_vines", "twisting_vines", "crimson_roots", "warped_roots", "nether_sprouts",
    "blaze", "ghast", "magma_cube", "wither", "wither_skeleton", "piglin", "hoglin", "strider",
})
END = frozenset({"end_stone", "chorus_plant", "chorus_flower", "purpur_block", "dragon_egg", "shulker",
                 "ender_dragon", "end_rod"})

# Shearing: item → (animal, fewest, most) a shearing drops, vanilla Sheep.shear (1.18.2 and 26.1:
# 1 + nextInt(3) wool). The shears come first, then the kill (a sheared sheep drops no wool):
# engine.decision.executors.living.Fight.
SHEARED: dict[str, tuple[str, int, int]] = {"white_wool": ("sheep", 1, 3), "wool": ("sheep", 1, 3)}

# Taken from a living animal rather than its loot, which the executors do not do: item → how. A
# chicken's loot is feathers and meat (vanilla's loot table); its eggs are laid, one every 6,000 to
# 12,000 ticks (Chicken.aiStep's eggTime). Milk is a bucket used on a cow (Cow.mobInteract).
FROM_LIVING: dict[str, str] = {
    "milk_bucket": "milked from a cow with a bucket",
    **{egg: "laid by a chicken every 5 to 10 minutes" for egg in ("egg", "brown_egg", "blue_egg")},
}

# Crops a player plants: the crop's item → (the seed planted, the block it grows as). Vanilla
# CropBlock: a seed on farmland (a hoe's tilling, water within 4 for moisture) grows through 8 ages
# on random ticks, about 7 x 4,096 ticks from seed to ripe at best (engine.sim.farming).
CROPS: dict[str, tuple[str, str]] = {"wheat": ("wheat_seeds", "wheat")}

# Drops by chance that minecraft-data's block list leaves out: item → blocks (any tool).
CHANCE_DROPS: dict[str, tuple[str, ...]] = {
    "flint": ("gravel",), "wheat": ("wheat",), "sugar_cane": ("sugar_cane",), "reeds": ("reeds",), "apple": ("oak_leaves", "dark_oak_leaves", "leaves", "leaves2"),
    "wheat_seeds": ("short_grass", "grass", "tall_grass", "tallgrass"),
}

# The smithing table's netherite upgrade: item → (the diamond item, the ingot it takes).
NOT_CRAFTED: dict[str, tuple[str, str]] = {
    f"netherite_{piece}": (f"diamond_{piece}", "netherite_ingot")
    for piece in ("pickaxe", "axe", "shovel", "hoe", "sword", "helmet", "chestplate", "leggings", "boots")
}


def dimension(source: str) -> str | None:
    """"the Nether" or "the End" for a block or mob found only there, else None."""
    if source in NETHER:
        return "the Nether"
    if source in END:
        return "the End"
    return None
