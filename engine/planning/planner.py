"""The planner: how to get N of an item from what the player carries, or why it cannot be had.

How this works. ``Abilities`` say what the agent can do by itself: which blocks its
executors gather and which animals it hunts. ``Planner`` first finds, once per book and
abilities, the cheapest *way* to every item (a fixed point, as Bellman-Ford over the recipe
graph): gather a block that drops it (with the cheapest tool that harvests it), hunt an
animal, shear one (wool: the shears made once, the sheep left standing), smelt an input
(with fuel and a furnace), or craft a recipe (with a crafting table for the 3x3 grid). An
item no way reaches has no way. Every edge costs something, so the
cheapest ways never form a cycle (nine nuggets from an ingot from nine nuggets).

``plan(goal, n, counts, seen)`` then walks the ways from the goal down, taking what the
inventory holds first (a copy of it: what one branch uses another cannot), and lists the
steps leaves first: gather, hunt or shear, then craft and smelt, each with its count. Tools, the
crafting table and the furnace are needed once and not used up; a table or furnace in
``seen`` (near the player) need not be made. ``seen`` also makes a block source the world
model has seen cheaper than one it has not, and marks gather steps "seen". An item without
a way gets ``OutOfReach`` with the first reason down its cheapest-looking recipe: "needs
ancient_debris: the Nether is not supported".
"""
from __future__ import annotations

import math
from collections.abc import Iterable

import attrs

from engine.planning.book import CraftRecipe, RecipeBook
from engine.planning.sources import FROM_LIVING, NOT_CRAFTED, SHEARED, dimension

STATIONS = ("crafting_table", "furnace")
FUEL_PER_ITEM = 1.5          # items one plank smelts (vanilla: 300 ticks of a 200-tick job)
MAX_DEPTH = 24
SEARCH_COST = 8.0            # a scarce block's gather: about a furnace's worth of other work
# Tool materials, weakest first (vanilla's tiers: gold mines as wood does, copper as stone).
TIERS = {"wooden": 0, "golden": 0, "stone": 1, "copper": 1, "iron": 2, "diamond": 3, "netherite": 4}


@attrs.frozen
class Abilities:
    gather: frozenset[str]                 # blocks the executors dig up
    hunt: frozenset[str] = frozenset()     # animals the executors hunt
    hunted: frozenset[str] = frozenset()   # what a hunt brings back (a cow's beef, not its leather)
    shear: frozenset[str] = frozenset()    # animals the executors shear (sources.SHEARED's)
    fuel: str = "#planks"                  # what a smelt burns
    # Blocks to prefer when ways cost the same, first first (oak before birch: a barrel of oak
    # slabs, not of whichever species sorts first).
    prefer: tuple[str, ...] = ()
    # Blocks found only here and there (coal showing in an outcrop): a gather costs a search more,
    # so a way that does not depend on finding one (charcoal from logs) is chosen when there is one.
    scarce: frozenset[str] = frozenset()


@attrs.frozen
class Way:
    kind: str                        # "gather", "hunt", "shear", "smelt", "craft"
    cost: float
    source: str = ""                 # block, animal or smelting input
    tool: str | None = None          # gather: the tool to hold; shear: the shears
    recipe: CraftRecipe | None = None


@attrs.frozen
class Step:
    kind: str                 # "gather", "hunt", "shear", "smelt", "craft"
    item: str
    count: int                # items to get by this step
    source: str = ""          # gather: the block; hunt, shear: the animal; smelt: the input
    tool: str | None = None
    seen: bool = False        # gather: the world model has seen such a block

    def text(self) -> str:
        if self.kind == "gather":
            how = f" with {self.tool}" if self.tool else " by hand"
            where = "" if self.source == self.item else f" ({self.source})"
            return f"gather {self.count} {self.item}{where}{how}"
        if self.kind == "hunt":
            shears = f", {self.tool} on each first ({SHEARED[self.item][1]}-{SHEARED[self.item][2]} a shearing)" \
                if self.tool and self.item in SHEARED else ""
            return f"hunt {self.source} for {self.count} {self.item}{shears}"
        if self.kind == "shear":
            _, low, high = SHEARED[self.item]
            return f"shear {self.source} for {self.count} {self.item} ({low}-{high} a shearing)"
        if self.kind == "smelt":
            return f"smelt {self.count} {self.source} into {self.item}"
        return f"craft {self.count} {self.item}"


@attrs.frozen
class Plan:
    goal: str
    count: int
    steps: tuple[Step, ...]          # in order; () the inventory already holds the goal

    @property
    def done(self) -> bool:
        return not self.steps


@attrs.frozen
class OutOfReach:
    goal: str
    reason: str


class Planner:
    def __init__(self, book: RecipeBook, abilities: Abilities) -> None:
        self.book = book
        self.abilities = abilities
        self.ways: dict[str, Way] = {}
        self._solve()

    # -- the cheapest way to every item ------------------------------------------------------------
    def _cost(self, name: str) -> float:
        """Cost of one of an item or family (the cheapest member); inf without a way."""
        return min((self.ways[m].cost for m in self.book.members(name) if m in self.ways), default=math.inf)

    def _tool_cost(self, tools: tuple[str, ...]) -> tuple[float, str | None]:
        """The weakest reachable tool that harvests a block, and its cost. The weakest, not the
        cheapest: once diamonds are reachable a diamond pickaxe may cost less than an iron one,
        and the tool for diamond ore must not be made of diamonds."""
        if not tools:
            return 0.0, None
        reachable = [(TIERS.get(t.partition("_")[0], 9), self._cost(t), t) for t in tools]
        reachable = [r for r in reachable if math.isfinite(r[1])]
        if not reachable:
            return math.inf, None
        _, cost, tool = min(reachable)
        return cost, tool

    def _candidates(self, item: str) -> Iterable[Way]:
        book, ab = self.book, self.abilities
        for source in book.dropped_by.get(item, ()):
            if source.block in ab.gather:
                tool_cost, tool = self._tool_cost(source.tools)
                rank = ab.prefer.index(source.block) if source.block in ab.prefer else len(ab.prefer)
                search = SEARCH_COST if source.block in ab.scarce else 0.0
                yield Way("gather", 1.0 + tool_cost / 10 + search + rank * 1e-4, source.block, tool)
        for mob in book.mob_drops.get(item, ()):
            if mob in ab.hunt and item in ab.hunted:
                yield Way("hunt", 4.0, mob)
        if item in SHEARED and SHEARED[item][0] in ab.shear:
            # The shears are a tool as a pickaxe is (made once, a tenth of their cost a use): a
            # shearing gives 1-3 wool and leaves the sheep to regrow it, where a kill gives one.
            tool_cost = self._cost("shears")
            yield Way("shear", 1.0 + tool_cost / 10, SHEARED[item][0], "shears")
        for raw in book.smelting.get(item, ()):
            fuel = self._cost(ab.fuel) / FUEL_PER_ITEM
            yield Way("smelt", 1.0 + self._cost(raw) + fuel + self._cost("furnace") / 10, raw)
        for recipe in book.recipes.get(item, ()):
            ingredients = sum(n * self._cost(i) for i, n in recipe.needs)
            table = self._cost("crafting_table") / 10 if recipe.table else 0.0
            yield Way("craft", (1.0 + ingredients) / recipe.count + table, recipe=recipe)

    def _solve(self) -> None:
        names = sorted(set(self.book.items) | set(self.book.blocks))
        for _ in range(64):
            changed = False
            for item in names:
                best = self.ways.get(item)
                for way in self._candidates(item):
                    if math.isfinite(way.cost) and (best is None or way.cost < best.cost - 1e-9):
                        best = way
                if best is not None and best is not self.ways.get(item):
                    self.ways[item] = best
                    changed = True
            if not changed:
                return

    # -- plans ---------------------------------------------------------------------------------------
    def reachable(self, name: str) -> bool:
        return math.isfinite(self._cost(name))

    def plan(self, goal: str, count: int, counts: dict[str, int],
             seen: frozenset[str] = frozenset()) -> Plan | OutOfReach:
        goal = goal.removeprefix("minecraft:")
        if not self.book.known(goal):
            return OutOfReach(goal, f"{goal} is not an item of Minecraft {self.book.version}'s names")
        if not self.reachable(goal):
            return OutOfReach(goal, self.why(goal))
        walk = _Walk(self, dict(counts), seen)
        walk.need(goal, count, 0)
        return Plan(goal, count, tuple(_merged(walk.steps)))

    def why(self, item: str, depth: int = 0, visiting: frozenset[str] = frozenset()) -> str:
        """Why no way reaches ``item``: where it comes from in the world if it comes from
        anywhere (leather from cows, not from rabbit hide), else the first blocked link down
        its recipes and furnace recipes (a storage block of the item itself is skipped: bread
        needs wheat, and wheat comes from wheat crops, not from a hay bale)."""
        book = self.book
        if depth > 6 or item in visiting:
            return f"{item} has no way to be made here"
        visiting = visiting | {item}
        if item in NOT_CRAFTED:
            base, ingot = NOT_CRAFTED[item]
            upgrade = ingot if not self.reachable(ingot) else base
            return f"needs {upgrade} (a smithing-table upgrade): " + self._why_link(upgrade, depth, visiting)
        if item in FROM_LIVING:
            return f"{item} is {FROM_LIVING[item]}, which the autopilot does not do"
        if any(book.mob_drops.get(m) or any(self._source(s.block, m) for s in book.dropped_by.get(m, ()))
               for m in book.members(item)):
            return self._why_raw(item)
        for member in book.members(item):
            for recipe in book.recipes.get(member, ()):
                blocked = next((i for i, _ in recipe.needs if not self.reachable(i)), None)
                if blocked is not None and blocked not in visiting and not self._stored(blocked, member):
                    return f"needs {blocked}: " + self._why_link(blocked, depth, visiting)
        for member in book.members(item):
            for raw in book.smelting.get(member, ()):
                if raw not in visiting and not self.reachable(raw):
                    return f"needs {raw}: " + self._why_link(raw, depth, visiting)
        return f"{item} has no recipe, furnace recipe or source the planner knows"

    def _source(self, block: str, item: str) -> bool:
        """``block`` is a source of ``item`` in the world: not made of it (a bookshelf drops books but is
        made of them) and not the crafted item itself placed (a sticky piston drops itself; wheat, whose
        only recipe unpacks a hay bale, is a crop that drops it)."""
        crafted = any(not any(self._stored(i, item) for i, _ in r.needs) for r in self.book.recipes.get(item, ()))
        return not self._stored(block, item) and not (block == item and crafted)

    def _stored(self, block: str, item: str) -> bool:
        """``block`` is made of ``item`` (a hay bale of wheat, a block of diamond): no source of it."""
        return any(i == item for r in self.book.recipes.get(block, ()) for i, _ in r.needs)

    def _why_link(self, item: str, depth: int, visiting: frozenset[str]) -> str:
        reason = self.why(item, depth + 1, visiting)
        return reason.removeprefix(f"needs {item}: ")

    def _why_raw(self, item: str) -> str:
        book = self.book
        mobs = tuple(m for name in book.members(item) for m in book.mob_drops.get(name, ()))
        blocks = tuple(s.block for m in book.members(item) for s in book.dropped_by.get(m, ()))
        places = [d for d in map(dimension, blocks + mobs) if d]
        if places and all(dimension(s) for s in blocks + mobs):
            return f"{item} is found only in {places[0]}: {places[0]} is not supported"
        found = [b for b in dict.fromkeys(blocks) if dimension(b) is None]
        hunted = [m for m in dict.fromkeys(mobs) if dimension(m) is None]
        parts = []
        if found:
            parts.append(f"the block {', '.join(found[:3])}, which the autopilot does not gather")
        if hunted:
            parts.append(f"{', '.join(hunted[:3])}, which it does not hunt")
        what = "a mob drop" if hunted and not found else "a block"
        return f"needs {what}: {item} comes from " + "; or from ".join(parts)


class _Walk:
    """One expansion of the ways from a goal down, over a copy of the inventory."""

    def __init__(self, planner: Planner, inventory: dict[str, int], seen: frozenset[str]) -> None:
        self.p = planner
        self.inv = inventory
        self.seen = seen
        self.held: set[str] = set()          # tools and stations already made sure of
        self.steps: list[Step] = []

    def need(self, name: str, qty: int, depth: int) -> None:
        book = self.p.book
        if depth > MAX_DEPTH:
            raise RuntimeError(f"the ways to {name} nest deeper than {MAX_DEPTH}")
        have = book.count(name, self.inv)
        self._spend(name, min(have, qty))
        missing = qty - min(have, qty)
        if missing <= 0:
            return
        item = self._member(name)
        way = self.p.ways[item]
        if way.kind == "gather":
            source = book.blocks.get(way.source)
            harvesters = source.tools if source is not None else ()
            if way.tool is not None and not any(self.inv.get(t, 0) > 0 for t in harvesters):
                self.keep(way.tool, depth)       # any tool that harvests it will do (a better one too)
            self.steps.append(Step("gather", item, missing, way.source, way.tool, way.source in self.seen))
        elif way.kind == "hunt":
            shears = "shears" if item in SHEARED and self.inv.get("shears", 0) > 0 else None
            self.steps.append(Step("hunt", item, missing, way.source, shears))
        elif way.kind == "shear":
            self.keep("shears", depth)
            self.steps.append(Step("shear", item, missing, way.source, "shears"))
        elif way.kind == "smelt":
            self.need(way.source, missing, depth + 1)
            self.need(self.p.abilities.fuel, math.ceil(missing / FUEL_PER_ITEM), depth + 1)
            self.keep("furnace", depth)
            self.steps.append(Step("smelt", item, missing, self._member(way.source)))
        else:
            recipe = way.recipe
            assert recipe is not None
            crafts = math.ceil(missing / recipe.count)
            for ingredient, n in recipe.needs:
                self.need(ingredient, n * crafts, depth + 1)
            if recipe.table:
                self.keep("crafting_table", depth)
            made = crafts * recipe.count
            self.inv[item] = self.inv.get(item, 0) + made - missing
            self.steps.append(Step("craft", item, made))

    def keep(self, tool: str, depth: int) -> None:
        """A tool or station needed, not used up: carried, near (stations), or made once."""
        if tool in self.held or self.inv.get(tool, 0) > 0 or (tool in STATIONS and tool in self.seen):
            return
        self.held.add(tool)
        self.need(tool, 1, depth + 1)
        self.inv[tool] = self.inv.get(tool, 0) + 1        # made, kept: not spent by a later need

    def _member(self, name: str) -> str:
        """The member of a family to get: the cheapest (an item is its own)."""
        members = [m for m in self.p.book.members(name) if m in self.p.ways]
        return min(members, key=lambda m: self.p.ways[m].cost)

    def _spend(self, name: str, n: int) -> None:
        for m in self.p.book.members(name):
            take = min(self.inv.get(m, 0), n)
            if take > 0:
                self.inv[m] -= take
                n -= take


def _merged(steps: list[Step]) -> list[Step]:
    """Steps of the same kind and item, merged into the first of them (their counts added)."""
    out: list[Step] = []
    index: dict[tuple[str, str, str], int] = {}
    for step in steps:
        key = (step.kind, step.item, step.source)
        if key in index:
            i = index[key]
            out[i] = attrs.evolve(out[i], count=out[i].count + step.count)
        else:
            index[key] = len(out)
            out.append(step)
    return out
