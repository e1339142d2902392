"""The calibrated heuristic: the mock provider and the fallback for low-confidence model answers.

How this works: safety first (flee a close hostile, or fight it when fleeing is
suppressed; hurt, flee any hostile in sight: below ground that walls the player in to heal;
eat when hungry, sleep through the night when a bed is known), then
drops lying near (the meat of a
kill too), then food (hunt the nearest game
animal when hungry with little food left, cook raw beef when a furnace and
fuel are at hand), then the ladder. For the ladder, ``plan`` walks the recipe
tree of the iron pickaxe over a copy of the inventory (spending what it
counts as used) and returns the first step that cannot be satisfied yet: the
raw material to gather, the table or furnace to place, or the item to craft
or smelt. Only legal choices come out; when the plan's step is not legal
(no stone known yet), it explores. Confidence is calibrated by hand: a plan
step the legal filter confirms is 0.9, exploring for lack of a target 0.6.
"""
from __future__ import annotations

import math

import attrs

from engine.decision.catalog import DUG_FOR, ActionName, Choice, healing_hurt, needs_food, stocking
from engine.decision.knowledge import BLOCKS, FAMILIES, FARMED, FUEL, GATHERED_KINDS, HOES, KINDS, PICKAXES, RECIPES, \
    SHEARED_PREFIX, SMELTS, YOUNG, count, members, pickaxe_tier, planner, spend
from engine.decision.state import DecisionState
from engine.world.food import FOODS

# Raw materials (tags) and the action that gathers them; the least pickaxe that drops them.
RAW: dict[str, Choice] = {
    "#logs": Choice(ActionName.GATHER_WOOD),
    **{tag: Choice(ActionName.GATHER_WOOD) for tag in FAMILIES if tag.endswith("_logs")},
    "#stone_tool_materials": Choice(ActionName.MINE_BLOCK, ("stone",)),
    "#iron_raw": Choice(ActionName.MINE_BLOCK, ("iron_ore",)),
}
# What only stair and branch mining bring up (diamonds): the rest of the goal's recipe is made
# on the surface and carried down (``_kit``), so the goal is crafted where the ore was found.
DEEP_DROPS = frozenset(d for kind in DUG_FOR for b in KINDS[kind] if b in BLOCKS for d in BLOCKS[b].drops)
TOOL_FOR = {"#stone_tool_materials": "wooden_pickaxe", "#iron_raw": "stone_pickaxe"}
GOAL = "iron_pickaxe"
EAT_BELOW = 15
EAT_RAW_BELOW = 7      # raw beef is eaten at once only this hungry when it could be cooked instead
# Badly hurt: eat whatever is carried until the bar is full, for vanilla's fast regeneration (food 20
# with saturation: a point every half second, not every 4 s at 18-19, and none at 17), before the
# next hit (a step into lava costs ~8) finds the player this low.
HURT_EAT_AT = 10.0
COOK = Choice(ActionName.SMELT, ("cooked_beef",))
HIT_REACH = 3.0        # a cornered player fights a hostile this close (the fight's first hit lands at once)


@attrs.frozen
class Decision:
    choice: Choice
    confidence: float
    urgency: float
    source: str              # "mock", "api", "replay", "fallback"
    reason: str = ""


def plan(item: str, qty: int, inv: dict[str, int], s: DecisionState) -> Choice | None:
    """First step toward ``qty`` × ``item`` (an item or a tag; None if the inventory already covers
    it; spends from ``inv``)."""
    have = count(item, inv)
    if have >= qty:
        spend(item, qty, inv)
        return None
    missing = qty - have
    spend(item, have, inv)
    if item in RAW:
        tool = TOOL_FOR.get(item)
        if tool is not None and pickaxe_tier(s.counts()) < PICKAXES[tool][0]:
            step = plan(tool, 1, inv, s)
            if step is not None:
                return step
        return RAW[item]
    if item in SMELTS:
        if s.smelting:
            # A job of ours is in a furnace: fetch what it made before mining more of the raw
            # material (the job is lost for good once a push carries the player out of range).
            return Choice(ActionName.SMELT, (item,))
        raw = SMELTS[item]
        step = plan(raw, missing, inv, s)
        if step is not None:
            return step
        fuel_needed = math.ceil(missing / FUEL["oak_planks"])
        step = plan("#planks", fuel_needed, inv, s)
        if step is not None:
            return step
        if not s.furnace_near:
            return _ensure("furnace", inv, s)
        return Choice(ActionName.SMELT, (item,))
    if item in FAMILIES:
        member = _member_to_make(item, inv)
        if member not in RECIPES:
            return plan(member, missing, inv, s)   # a family got another way (#coals: charcoal is smelted)
        item = member
    if item not in RECIPES:
        return _raw(item, inv, s)
    recipe = RECIPES[item]
    crafts = math.ceil(missing / recipe.count)
    for ingredient, n in recipe.needs:
        step = plan(ingredient, n * crafts, inv, s)
        if step is not None:
            return step
    if recipe.needs_table and not s.table_near:
        return _ensure("crafting_table", inv, s)
    return Choice(ActionName.CRAFT, (item,))


def _raw(item: str, inv: dict[str, int], s: DecisionState) -> Choice:
    """A raw material the ladder's tags do not name (a goal's cobblestone, beef): the planner's way
    to it, as the action that gathers it: dig its block (with the tool first), or hunt. Without
    one the executors can take (a goal checked by the planner has one), look around."""
    way = planner().ways.get(item) or planner("legacy").ways.get(item)
    if way is None or way.kind not in ("gather", "hunt", "shear"):
        return Choice(ActionName.EXPLORE)
    if way.kind == "shear" and way.tool is not None and s.counts().get(way.tool, 0) == 0:
        step = plan(way.tool, 1, inv, s)
        if step is not None:
            return step
    if way.kind in ("hunt", "shear"):
        # The animal whose loot it is (a sheep for wool), the nearest first; a state without a
        # goal's game (the ladder's) hunts the nearest food animal as before. Shearing goes to a
        # woolly one only (``fight`` with shears shears it); a kill takes a shorn one as well.
        prey = [eid for eid, kind, _ in s.game
                if kind == way.source or (way.kind == "hunt" and kind == SHEARED_PREFIX + way.source)] \
            if s.game else [eid for eid, _ in s.animals]
        return Choice(ActionName.FIGHT, (prey[0],)) if prey else Choice(ActionName.EXPLORE)
    if item in FARMED and s.distance(way.source) is None:
        step = _farm(item, inv, s)
        if step is not None:
            return step
    if way.tool is not None and way.tool in PICKAXES and pickaxe_tier(s.counts()) < PICKAXES[way.tool][0]:
        step = plan(way.tool, 1, inv, s)
        if step is not None:
            return step
    kind = next((k for k in GATHERED_KINDS if way.source in KINDS[k]), None)
    if kind is None:
        return Choice(ActionName.EXPLORE)
    return Choice(ActionName.GATHER_WOOD) if kind == "log" else Choice(ActionName.MINE_BLOCK, (kind,))


def _farm(item: str, inv: dict[str, int], s: DecisionState) -> Choice | None:
    """No ripe crop known: plant the seeds in hand (a hoe made first), or wait for a crop of ours
    growing; None (look around) with neither. A grown crop found later is picked as before."""
    counts = s.counts()
    if counts.get(FARMED[item], 0) > 0:
        if not any(counts.get(h, 0) for h in HOES):
            return plan(HOES[0], 1, inv, s)
        return Choice(ActionName.FARM, (item,))
    growing = next((kind for kind, crop in YOUNG.items() if crop == item), None)
    if growing is not None and s.distance(growing) is not None:
        return Choice(ActionName.IDLE)
    return None


KIT_DEPTH = 8         # recipe levels the kit looks down (vanilla's deepest everyday tree has 4)


# What digging below brings up, and what the furnace makes of it (raw gold's ingots); not coal, which
# the surface's outcrops show too (a torch's coal says nothing of where the player has been).
DUG_UP = (DEEP_DROPS | frozenset(out for out, raw in SMELTS.items() if any(m in DEEP_DROPS for m in members(raw)))) \
    - {"coal"}


def _dug_below(counts: dict[str, int]) -> bool:
    return any(counts.get(item, 0) > 0 for item in DUG_UP)


def _deep_dig(step: Choice | None) -> bool:
    return step is not None and step.action is ActionName.MINE_BLOCK and step.args[0] in DUG_FOR


def _kit(goal: str, wanted: int, inv: dict[str, int], s: DecisionState, depth: int = 0) -> Choice | None:
    """Before going below ground for the goal's deep ingredient: the first step toward carrying
    everything else its recipe tree needs and, when a recipe of it needs one, a crafting table (no
    wood, and no furnace, down there). An ingredient that itself needs the deep drop (a repeater's
    redstone torch, a map's compass) is looked into in turn rather than answered with the dig, so
    the stone and the iron ingots are made up here. Spends from ``inv`` what it counts as had, so
    two ingredients do not count the same items; each recipe is visited once per need, so the
    work is linear in the tree, and depth-bounded."""
    if goal in SMELTS:
        return _smelt_kit(goal, wanted, inv, s)
    recipe = RECIPES.get(goal)
    if recipe is None or depth > KIT_DEPTH:
        return None
    have = min(count(goal, inv), wanted)
    spend(goal, have, inv)
    crafts = math.ceil((wanted - have) / recipe.count)
    if crafts <= 0:
        return None
    for ingredient, n in recipe.needs:
        if ingredient in DEEP_DROPS:
            spend(ingredient, n * crafts, inv)
            continue
        step = _plan_spending(ingredient, n * crafts, inv, s)
        if step is None:
            continue
        if _deep_dig(step):
            step = _kit(ingredient, n * crafts, inv, s, depth + 1)
        if step is not None:
            return step
    # Once something dug below is carried (the clock's gold, smelted where it was found), the player
    # has been down: a table left by the furnace it made there serves, and wood is up out of reach
    # (seed 1004's clock walked in circles for wood). Before the descent the table is carried down.
    if recipe.needs_table and inv.get("crafting_table", 0) == 0 and s.counts().get("crafting_table", 0) == 0 \
            and not _dug_below(s.counts()):
        return plan("crafting_table", 1, dict(inv), s)
    return None


def _plan_spending(item: str, n: int, inv: dict[str, int], s: DecisionState) -> Choice | None:
    """The first step toward ``n`` ``item``, or None when ``inv`` already has all of it: then what
    that takes is spent from ``inv``, so the kit's next ingredient does not count it again."""
    trial = dict(inv)
    step = plan(item, n, trial, s)
    if step is None:
        inv.clear()
        inv.update(trial)
    return step


def _smelt_kit(item: str, wanted: int, inv: dict[str, int], s: DecisionState) -> Choice | None:
    """A smelted ingredient whose raw is dug below (gold ingots): the fuel carried down, and a table
    to make the furnace of the cobblestone the descent brings up (seed 1004's golden helmet smelted
    five raw gold with three planks and walked about below for wood)."""
    have = min(count(item, inv), wanted)
    spend(item, have, inv)
    if wanted - have <= 0:
        return None
    step = _plan_spending("#planks", math.ceil((wanted - have) / FUEL["oak_planks"]), inv, s)
    if step is not None:
        return step
    carried = s.counts()
    if not (carried.get("furnace", 0) or carried.get("crafting_table", 0) or inv.get("crafting_table", 0)
            or _dug_below(carried)):
        return plan("crafting_table", 1, dict(inv), s)
    return None


def _member_to_make(tag: str, inv: dict[str, int]) -> str:
    """The member of a tag to craft: one whose ingredients the inventory holds (the planks of the
    logs at hand), else the canonical one (oak planks: gathering any log will do)."""
    made = [m for m in members(tag) if m in RECIPES]
    for m in made:
        if all(count(i, inv) >= n for i, n in RECIPES[m].needs):
            return m
    if made:
        return made[0]
    # No member is crafted (#coals): the one the planner gets most cheaply (charcoal: coal is scarce).
    ways = planner().ways
    return min(members(tag), key=lambda m: ways[m].cost if m in ways else math.inf)


def _ensure(block: str, inv: dict[str, int], s: DecisionState) -> Choice:
    if s.counts().get(block, 0) > 0:
        return Choice(ActionName.PLACE_BLOCK, (block,))
    step = plan(block, 1, inv, s)
    return step if step is not None else Choice(ActionName.PLACE_BLOCK, (block,))


def heuristic(state: DecisionState, legal: tuple[Choice, ...], source: str = "mock") -> Decision:
    def pick(choice: Choice, confidence: float, urgency: float, reason: str) -> Decision | None:
        return Decision(choice, confidence, urgency, source, reason) if choice in legal else None

    close = [eid for eid, d in state.hostiles if d <= 8.0]
    if close:
        d = pick(Choice(ActionName.FLEE), 0.95, 0.9, "hostile close")
        if d is not None:
            return d
        # Cornered: fleeing failed again and again (a tunnel's dead end, a pit) and is suppressed.
        # A zombie in reach is fought rather than left to hit a player who stands still; the
        # legal filter offers the fight only with health to spare. In the open, fleeing is cheaper:
        # the simulated zombie is not knocked back, so a fight costs about three of its hits.
        # Only one within a hit's reach: one farther off in a cornered spot is often out of reach
        # (on a pit's rim), and walking at it would fail as the flights did.
        for eid, dist in sorted(state.hostiles, key=lambda h: h[1]):
            if dist > HIT_REACH:
                break
            d = pick(Choice(ActionName.FIGHT, (eid,)), 0.85, 0.9, "cornered: fighting the hostile")
            if d is not None:
                return d
    if state.hostiles and healing_hurt(state.health, state.food, state.counts()):
        # Hurt, with a hostile about (the state lists those within HURT_SIGHT): never back to work
        # toward it while healing. Flee walls in below ground and heals there, or runs out of sight.
        d = pick(Choice(ActionName.FLEE), 0.9, 0.8, "hurt, a hostile about: shelter")
        if d is not None:
            return d
    inv = state.counts()
    cook = COOK in legal and not state.smelting
    if state.food < EAT_BELOW and any(inv.get(f, 0) for f in FOODS):
        # Raw beef feeds 3 where cooked feeds 8: with a furnace and fuel at hand it goes in the
        # furnace first, unless the player is very hungry or has nothing else.
        only_raw = not any(inv.get(f, 0) for f, food in FOODS.items() if food.cooked is None)
        if not (only_raw and cook and state.food >= EAT_RAW_BELOW):
            d = pick(Choice(ActionName.EAT), 0.9, 0.7, "hungry")
            if d is not None:
                return d
    if state.health <= HURT_EAT_AT and state.food < 20 and any(inv.get(f, 0) for f in FOODS):
        d = pick(Choice(ActionName.EAT), 0.9, 0.7, "badly hurt: eating to heal fast")
        if d is not None:
            return d
    if not state.day:
        # A bed known at night: sleep the night away (the zombies come by night), then go on.
        d = pick(Choice(ActionName.SLEEP), 0.85, 0.5, "night, a bed near")
        if d is not None:
            return d
    if state.drops > 0:
        d = pick(Choice(ActionName.COLLECT_DROPS), 0.85, 0.4, "items on the ground")
        if d is not None:
            return d
    if state.milestone is None and state.goal is None and state.smelting:
        # Done, and a job of ours is still in a furnace (meat put in to cook, then a push or a
        # reflex carried the player off): fetch it, or the hand-back leaves that food behind.
        d = pick(COOK, 0.8, 0.3, "done: fetching what our furnace made")
        if d is not None:
            return d
    if state.milestone is None and state.goal is None and inv.get("beef", 0) > 0:
        # Done, with raw meat in the pack: cook it before hunting on (hungry or stocking) and before
        # handing back (cooked beef heals ~10 health eaten at 17, raw ~3: a pack of raw meat carried
        # through the hunt is eaten raw by every heal), with a furnace built and fuel gathered if
        # none is at hand. The ladder is over: nothing is more urgent than the food.
        cooked = inv.get("cooked_beef", 0) + inv["beef"]
        step = plan("cooked_beef", cooked, dict(inv), state)
        if step is not None:
            d = pick(step, 0.8, 0.3, "done: cooking the meat to hand back with")
            if d is not None:
                return d
    if needs_food(state) and state.animals:
        d = pick(Choice(ActionName.FIGHT, (state.animals[0][0],)), 0.85, 0.6, "hungry: hunting")
        if d is not None:
            return d
    if stocking(state) and state.animals:
        d = pick(Choice(ActionName.FIGHT, (state.animals[0][0],)), 0.8, 0.3, "done: food to hand back with")
        if d is not None:
            return d
    if cook and inv.get("beef", 0) > 0:
        d = pick(COOK, 0.85, 0.4, "cooking raw beef")
        if d is not None:
            return d
    goal, wanted = state.goal or (GOAL, 1)
    short = count(goal, inv) < wanted
    if short:
        step = plan(goal, wanted, dict(inv), state)
        if _deep_dig(step):
            step = _kit(goal, wanted, dict(inv), state) or step
        if step is not None:
            d = pick(step, 0.9, 0.3, "ladder: " + (state.milestone or "done"))
            if d is not None:
                return d
            if step.action in (ActionName.MINE_BLOCK, ActionName.GATHER_WOOD, ActionName.FIGHT):
                d = pick(Choice(ActionName.EXPLORE), 0.6, 0.2, "looking for " + step.label())
                if d is not None:
                    return d
    explore = pick(Choice(ActionName.EXPLORE), 0.5, 0.1, "nothing better")
    if explore is not None and short:
        return explore
    return Decision(Choice(ActionName.IDLE), 0.7, 0.0, source, "idle")
