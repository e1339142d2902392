"""What the agent (and the simulator, playing the server) know of Minecraft's rules.

Recipes, smelting, fuel, and dig times follow vanilla 1.18: a block breaks after
``ceil(1 / (speed / hardness / (30 if harvestable else 100)))`` ticks, where
``speed`` is the held tool's speed on that block (1 by hand). Only what the
9-stage ladder needs is here, and the food a hunt brings (beef, raw or cooked).

Families. A real server's nearest tree may be birch or cherry, deep ore is
``deepslate_iron_ore``, and before 1.13 logs are ``log``/``log2`` and planks
``planks``. Where any member of a family will do, recipes name the family as a
tag (``#planks``, ``#stone_tool_materials``): ``FAMILIES`` lists its members,
first the canonical one (the oak, the cobblestone). A server that knows no tags
(the simulator) reads ``Recipe.ingredients``, the tags spelled as their
canonical member; the agent reads ``Recipe.needs`` and counts a tag as the sum
of its members (``count``). Planks come from the logs of their own species
(``planks_for``: ``birch_log`` → ``birch_planks``, ``log2`` → ``planks``).
"""
from __future__ import annotations

import functools
import math

import attrs

from engine.planning.book import book, table_for
from engine.planning.planner import Abilities, Planner
from engine.planning.sources import CROPS, SHEARED

# Overworld tree species, in the order the agent prefers them when it may pick
# (all are equal; the order only keeps choices deterministic).
BED_COLOURS = ("white", "orange", "magenta", "light_blue", "yellow", "lime", "pink", "gray", "light_gray", "cyan",
               "purple", "blue", "brown", "green", "red", "black")
SPECIES = ("oak", "spruce", "birch", "jungle", "acacia", "dark_oak", "mangrove", "cherry", "pale_oak")
LEGACY_LOGS = ("log", "log2")          # 1.8–1.12: the species is metadata; both make ``planks``


def _species_logs(species: str) -> tuple[str, ...]:
    return (f"{species}_log", f"{species}_wood", f"stripped_{species}_log", f"stripped_{species}_wood")


FAMILIES: dict[str, tuple[str, ...]] = {
    "#logs": tuple(name for s in SPECIES for name in _species_logs(s)) + LEGACY_LOGS,
    # Nether and bamboo planks craft tables and sticks too (vanilla's #planks), but do not burn.
    "#planks": tuple(f"{s}_planks" for s in SPECIES) + ("crimson_planks", "warped_planks", "bamboo_planks",
                                                        "planks"),
    "#stone_tool_materials": ("cobblestone", "cobbled_deepslate", "blackstone"),
    # Vanilla's #coals: a torch or a campfire takes either; the planner spends what is carried first.
    "#coals": ("coal", "charcoal"),
    # Smelt into iron ingots: raw iron (1.17+), or the ore itself (before 1.17, and ore mined with silk touch).
    "#iron_raw": ("raw_iron", "iron_ore", "deepslate_iron_ore"),
    **{f"#{s}_logs": _species_logs(s) for s in SPECIES},
    "#legacy_logs": LEGACY_LOGS,
}


def members(name: str) -> tuple[str, ...]:
    """The items a recipe slot named ``name`` accepts: a tag's members, else the item itself."""
    return FAMILIES.get(name, (name,))


def count(name: str, counts: dict[str, int]) -> int:
    """How many of ``name`` (an item or a tag) ``counts`` holds."""
    if name in FAMILIES:
        return sum(counts.get(m, 0) for m in FAMILIES[name])
    return counts.get(name, 0)


def spend(name: str, n: int, counts: dict[str, int]) -> None:
    """Take ``n`` of ``name`` from ``counts`` (members of a tag in family order), as far as it goes."""
    for m in members(name):
        have = counts.get(m, 0)
        if have > 0 and n > 0:
            take = min(have, n)
            counts[m] = have - take
            n -= take


def first_held(name: str, counts: dict[str, int]) -> str | None:
    """The first member of ``name`` the inventory holds (None if none)."""
    return next((m for m in members(name) if counts.get(m, 0) > 0), None)


def planks_for(log: str) -> str:
    """The planks a log (of any species, stripped or not, or a 1.8–1.12 ``log``/``log2``) crafts into."""
    if log in LEGACY_LOGS:
        return "planks"
    species = log.removeprefix("stripped_").removesuffix("_log").removesuffix("_wood")
    return species + "_planks"


@attrs.frozen
class Recipe:
    item: str
    count: int                                  # items made per craft
    needs: tuple[tuple[str, int], ...]          # per craft: an item or a tag (any member will do), and how many
    needs_table: bool                           # 3x3 grid (a crafting table within reach)
    # Grid rows from the top-left, "A" the first of ``needs``, "B" the second...; () when the
    # window plans know the layout (the ladder's own recipes) or it is shapeless.
    shape: tuple[str, ...] = ()

    @property
    def ingredients(self) -> tuple[tuple[str, int], ...]:
        """``needs`` with each tag spelled as its canonical member: what a tag-less server checks."""
        return tuple((members(name)[0], n) for name, n in self.needs)


def _planks_recipes() -> tuple[Recipe, ...]:
    out = [Recipe(f"{s}_planks", 4, ((f"#{s}_logs", 1),), False) for s in SPECIES]
    return tuple(out) + (Recipe("planks", 4, (("#legacy_logs", 1),), False),)


RECIPES: dict[str, Recipe] = {r.item: r for r in _planks_recipes() + (
    Recipe("stick", 4, (("#planks", 2),), False),
    Recipe("crafting_table", 1, (("#planks", 4),), False),
    Recipe("wooden_pickaxe", 1, (("#planks", 3), ("stick", 2)), True),
    Recipe("stone_pickaxe", 1, (("#stone_tool_materials", 3), ("stick", 2)), True),
    Recipe("furnace", 1, (("#stone_tool_materials", 8),), True),
    Recipe("iron_pickaxe", 1, (("iron_ingot", 3), ("stick", 2)), True),
    Recipe("diamond_pickaxe", 1, (("diamond", 3), ("stick", 2)), True),
)}

# output → input (an item or a tag). The ladder's iron and the hunt's beef; ``GOAL_SMELTS`` adds
# what a goal's plan smelts (below).
SMELTS: dict[str, str] = {"iron_ingot": "#iron_raw", "cooked_beef": "beef"}
# The canonical input per output: what a tag-less server (the simulator) checks.
SMELTING: dict[str, str] = {out: members(raw)[0] for out, raw in SMELTS.items()}
SMELT_TICKS = 200
# Items smelted per fuel item. Every overworld log and plank burns like oak; nether planks do not burn.
FUEL: dict[str, float] = {
    "coal": 8.0,
    **{m: 1.5 for m in FAMILIES["#logs"]},
    **{m: 1.5 for m in FAMILIES["#planks"] if m not in ("crimson_planks", "warped_planks")},
    "stick": 0.5,
}
FUEL_ORDER = ("coal", "#planks", "#logs", "stick")        # what the agent burns first
# Passive animals worth hunting, and what they drop (vanilla loot tables: 1-3 of it).
GAME: dict[str, str] = {"cow": "beef"}
GAME_HEALTH: dict[str, float] = {"cow": 10.0, "sheep": 8.0}
# What a goal's hunt may bring (vanilla's loot tables): the planner's hunted items, by animal. A
# hunt for food stays with GAME; these are hunted only for a goal that needs what they drop.
LOOT: dict[str, tuple[str, ...]] = {
    "cow": ("beef", "leather"),
    "sheep": ("mutton", "white_wool", "wool"),        # ``wool`` (metadata 0 white) before 1.13
}
# Animals a goal's plan shears (``Fight`` with shears carried shears a woolly one and leaves it standing).
SHEARABLE = frozenset({"sheep"})
SHEARED_PREFIX = "sheared_"     # the decision state's kind for a shorn animal (the server's metadata flag)


def loot_of(kind: str) -> tuple[str, ...]:
    """What killing (or shearing) an animal of a decision state's kind gives: a shorn sheep
    (``sheared_sheep``) its mutton only, as vanilla's loot table drops no wool from it."""
    base = kind.removeprefix(SHEARED_PREFIX)
    if base == kind:
        return LOOT.get(kind, ())
    return tuple(i for i in LOOT.get(base, ()) if SHEARED.get(i, ("",))[0] != base)

PICKAXES: dict[str, tuple[int, float]] = {   # tier, speed
    "wooden_pickaxe": (1, 2.0), "stone_pickaxe": (2, 4.0), "iron_pickaxe": (3, 6.0), "diamond_pickaxe": (4, 8.0),
}
ATTACK_DAMAGE: dict[str, float] = {"wooden_pickaxe": 2.0, "stone_pickaxe": 3.0, "iron_pickaxe": 4.0}


@attrs.frozen
class BlockRule:
    hardness: float
    tool: str | None        # "pickaxe", "axe" or None
    tier: int               # minimum pickaxe tier for a drop (0: hand)
    drop: str | None        # the drop in 1.18 (what the simulator gives)
    other_drops: tuple[str, ...] = ()      # what it drops in other versions (iron ore before 1.17: itself)

    @property
    def drops(self) -> tuple[str, ...]:
        return ((self.drop,) if self.drop is not None else ()) + self.other_drops


BLOCKS: dict[str, BlockRule] = {
    **{log: BlockRule(2.0, "axe", 0, log) for log in FAMILIES["#logs"]},
    **{p: BlockRule(2.0, "axe", 0, p) for p in FAMILIES["#planks"]},
    "stone": BlockRule(1.5, "pickaxe", 1, "cobblestone"),
    "deepslate": BlockRule(3.0, "pickaxe", 1, "cobbled_deepslate"),
    "cobblestone": BlockRule(2.0, "pickaxe", 1, "cobblestone"),
    "cobbled_deepslate": BlockRule(3.5, "pickaxe", 1, "cobbled_deepslate"),
    "iron_ore": BlockRule(3.0, "pickaxe", 2, "raw_iron", ("iron_ore",)),
    "deepslate_iron_ore": BlockRule(4.5, "pickaxe", 2, "raw_iron"),
    # Below the surface (the ore goals): vanilla 1.18's hardness, tier and drop.
    "coal_ore": BlockRule(3.0, "pickaxe", 1, "coal"),
    "deepslate_coal_ore": BlockRule(4.5, "pickaxe", 1, "coal"),
    "gold_ore": BlockRule(3.0, "pickaxe", 3, "raw_gold", ("gold_ore",)),
    "deepslate_gold_ore": BlockRule(4.5, "pickaxe", 3, "raw_gold"),
    "diamond_ore": BlockRule(3.0, "pickaxe", 3, "diamond"),
    "deepslate_diamond_ore": BlockRule(4.5, "pickaxe", 3, "diamond"),
    # Redstone ore drops 4-5 redstone (vanilla's loot table, ``engine.sim.surface.loot``); 1.8-1.12
    # call the ore lit by a touch ``lit_redstone_ore``.
    "redstone_ore": BlockRule(3.0, "pickaxe", 3, "redstone"),
    "deepslate_redstone_ore": BlockRule(4.5, "pickaxe", 3, "redstone"),
    "lit_redstone_ore": BlockRule(3.0, "pickaxe", 3, "redstone"),
    "tuff": BlockRule(1.5, "pickaxe", 1, "tuff"),
    "dirt": BlockRule(0.5, None, 0, "dirt"),
    # On the surface (the goals' farms and beaches): vanilla's hardness; gravel drops flint one
    # time in ten, mature wheat its wheat and seeds, sugar cane breaks with all the cane above it.
    "sand": BlockRule(0.5, None, 0, "sand"),
    "gravel": BlockRule(0.6, None, 0, "gravel", ("flint",)),
    "sugar_cane": BlockRule(0.0, None, 0, "sugar_cane"),
    "reeds": BlockRule(0.0, None, 0, "reeds"),
    "wheat": BlockRule(0.0, None, 0, "wheat", ("wheat_seeds",)),
    "grass_block": BlockRule(0.6, None, 0, "dirt"),
    "oak_leaves": BlockRule(0.2, None, 0, None),
    "crafting_table": BlockRule(2.5, "axe", 0, "crafting_table"),
    "furnace": BlockRule(3.5, "pickaxe", 1, "furnace"),
    "lit_furnace": BlockRule(3.5, "pickaxe", 1, "furnace"),
}

# Blocks the agent looks for, by kind: what ``BlockFinder`` searches and the decision state reports.
KINDS: dict[str, tuple[str, ...]] = {
    "log": FAMILIES["#logs"],
    "stone": ("stone", "deepslate"),
    "iron_ore": ("iron_ore", "deepslate_iron_ore"),
    "coal_ore": ("coal_ore", "deepslate_coal_ore"),
    "gold_ore": ("gold_ore", "deepslate_gold_ore"),
    "diamond_ore": ("diamond_ore", "deepslate_diamond_ore"),
    "redstone_ore": ("redstone_ore", "deepslate_redstone_ore", "lit_redstone_ore"),
    "sand": ("sand",),
    "gravel": ("gravel",),
    "sugar_cane": ("sugar_cane", "reeds"),      # ``reeds`` before 1.13
    "wheat": ("wheat",),                        # grown only (MATURE): a young crop drops a seed
    "crafting_table": ("crafting_table",),
    "furnace": ("furnace", "lit_furnace"),
    # Any colour of bed (1.13+), or 1.8-1.12's one ``bed`` (the colour is block entity data there).
    "bed": tuple(f"{c}_bed" for c in BED_COLOURS) + ("bed",),
}
# 1.8–1.12 blocks that share one name across metadata variants: the variants that are the block
# meant. ``stone`` meta 1–6 are granite, diorite and andesite, which drop themselves, not cobblestone.
LEGACY_VARIANTS: dict[str, tuple[int, ...]] = {"stone": (0,)}
# Crops the finder sees only fully grown: the state offset of the ripe age (wheat's age 7: the
# eighth state, after 1.13 as the age property's last value, before as metadata 7).
MATURE: dict[str, int] = {"wheat": 7}
# Surface kinds a goal's plan may gather (the decision state reports them only for such a goal).
SURFACE_KINDS = ("sand", "gravel", "sugar_cane", "wheat")
# Crops still growing (any age but the ripe one): what a farm planted for a goal is waiting on. The
# decision state reports them for a goal as it does the surface kinds; nothing digs them.
YOUNG: dict[str, str] = {"young_wheat": "wheat"}
KINDS.update({kind: (crop,) for kind, crop in YOUNG.items()})
# Plants: no collision, standing on the ground. Looked for without the finder's ``exposed`` rule
# (a face open and a ledge level with the block's top, against digging pits): picking a plant
# opens no pit.
PLANTS = frozenset({"sugar_cane", "wheat"} | set(YOUNG))
# Farming (executors.farming.Farm, and the simulator's): the hoes that till, what they till (vanilla
# HoeItem.TILLABLES from 1.13, ``grass_path`` before 1.17; 1.8-1.12's grass block is ``grass``, a
# name 1.13-1.20.2 give the plant, so it is left out), and what a crop's item is grown from.
HOES = tuple(f"{m}_hoe" for m in ("wooden", "stone", "iron", "golden", "diamond", "netherite"))
TILLABLE = frozenset({"grass_block", "dirt", "dirt_path", "grass_path"})
FARMED: dict[str, str] = {item: seed for item, (seed, _) in CROPS.items()}      # wheat → wheat_seeds
GOAL_KINDS = SURFACE_KINDS + tuple(YOUNG)     # what a goal's decision state reports besides the ladder's


# What the executors can do by themselves, for the planner (engine.planning): the block kinds
# ``mine_block``/``gather_wood`` dig (catalog.MINEABLE) and the animals a hunt kills, for what.
GATHERED_KINDS = ("log", "stone", "iron_ore", "diamond_ore", "gold_ore", "redstone_ore", "coal_ore") + SURFACE_KINDS
ABILITIES = Abilities(gather=frozenset(b for kind in GATHERED_KINDS for b in KINDS[kind]),
                      hunt=frozenset(LOOT), hunted=frozenset(i for items in LOOT.values() for i in items), fuel="#planks",
                      shear=SHEARABLE,
                      prefer=tuple(b for kind in GATHERED_KINDS for b in KINDS[kind]),
                      # Coal shows in some outcrops only, and is dug for (MineOre) otherwise: charcoal
                      # stays the torch's way, coal is gathered for a goal only coal makes.
                      scarce=frozenset(KINDS["coal_ore"]))
LADDER_RECIPES = frozenset(RECIPES)
LADDER_SMELTS = frozenset(SMELTS)


@functools.cache
def planner(table: str = "flat") -> Planner:
    """The planner over a recipe book (``flat`` or ``legacy``) and what the executors can do."""
    return Planner(book(table), ABILITIES)


def planner_for(version: str | None) -> Planner:
    """The planner of a Minecraft version's names (1.8-1.12.2: the legacy book; None: the newest)."""
    return planner(table_for(version))


def _goal_recipes() -> None:
    """The recipes and furnace recipes the planner's ways choose, added to RECIPES and SMELTS for
    the executors and the simulator (the ladder's own entries stay as written above). The flat
    book first, then legacy names the flat book does not have (``boat``, ``wooden_door``)."""
    for table in ("flat", "legacy"):
        inputs = {raw for raw in SMELTS.values()}
        for item, way in sorted(planner(table).ways.items()):
            if way.kind == "craft" and item not in RECIPES and way.recipe is not None:
                r = way.recipe
                RECIPES[item] = Recipe(item, r.count, r.needs, r.table, r.shape)
            elif way.kind == "smelt" and item not in SMELTS and way.source not in inputs:
                SMELTS[item] = way.source     # one output per input: a furnace is told only its input
                inputs.add(way.source)


_goal_recipes()
SMELTING.update({out: members(raw)[0] for out, raw in SMELTS.items()})


def harvestable(block: str, held: str | None) -> bool:
    rule = BLOCKS.get(block)
    if rule is None:
        return False
    if rule.tier == 0:
        return True
    return held in PICKAXES and PICKAXES[held][0] >= rule.tier


def dig_ticks(block: str, held: str | None) -> int | None:
    """Ticks to break ``block`` holding ``held``; None if it cannot be broken (bedrock, unknown)."""
    rule = BLOCKS.get(block)
    if rule is None:
        return None
    if rule.hardness == 0.0:
        return 1                 # broken at the first hit (cane, crops); one tick to finish the dig
    speed = 1.0
    if rule.tool == "pickaxe" and held in PICKAXES:
        speed = PICKAXES[held][1]
    per_tick = speed / rule.hardness / (30.0 if harvestable(block, held) else 100.0)
    return max(1, math.ceil(1.0 / per_tick))


def best_pickaxe(counts: dict[str, int]) -> str | None:
    best = None
    for name, (tier, _) in PICKAXES.items():
        if counts.get(name, 0) > 0 and (best is None or tier > PICKAXES[best][0]):
            best = name
    return best


def pickaxe_tier(counts: dict[str, int]) -> int:
    best = best_pickaxe(counts)
    return PICKAXES[best][0] if best is not None else 0
