"""The 15-action catalog and the legal-action filter.

Each ``ActionSpec`` names an action, the type of its argument, its timeout in
ticks and the precondition over a ``DecisionState``. ``legal_actions(state)``
returns every ``Choice`` (action + argument) whose precondition holds: the
providers may only pick from it, and the autopilot re-checks a provider's
choice against it (a model choice is never trusted as is). The success test of
each action lives with its executor (``engine.decision.executors``), which
knows what it set out to change.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import attrs

from engine.decision.goals import tree
from engine.decision.knowledge import (FARMED, FUEL, GAME, HOES, LADDER_RECIPES, LADDER_SMELTS, RECIPES, SMELTS,
                                      SURFACE_KINDS, count, loot_of, pickaxe_tier)
from engine.decision.state import DecisionState
from engine.world.food import FOODS
from engine.world.vanilla import REGEN_FOOD


@attrs.frozen(repr=False)
class ActionName:
    """An autopilot action's name, as the model and the logs spell it.

    The built-in actions are the class attributes below. An action added from outside
    (``register``) gets a name of its own here, an ``ActionSpec`` in ``CATALOG`` and an
    executor in ``executors.EXECUTORS``; names are compared by value.
    """

    value: str

    EXPLORE: ClassVar["ActionName"]
    GATHER_WOOD: ClassVar["ActionName"]
    MINE_BLOCK: ClassVar["ActionName"]
    COLLECT_DROPS: ClassVar["ActionName"]
    CRAFT: ClassVar["ActionName"]
    SMELT: ClassVar["ActionName"]
    PLACE_BLOCK: ClassVar["ActionName"]
    EAT: ClassVar["ActionName"]
    SLEEP: ClassVar["ActionName"]
    GO_TO: ClassVar["ActionName"]
    FOLLOW: ClassVar["ActionName"]
    FLEE: ClassVar["ActionName"]
    FIGHT: ClassVar["ActionName"]
    IDLE: ClassVar["ActionName"]
    FARM: ClassVar["ActionName"]

    def __repr__(self) -> str:
        return f"ActionName({self.value!r})"

    @staticmethod
    def named(value: str) -> "ActionName":
        """The action called ``value``; ValueError for a name no action has."""
        name = _NAMES.get(value)
        if name is None:
            raise ValueError(f"no autopilot action is called {value!r}")
        return name

    @staticmethod
    def register(value: str) -> "ActionName":
        """A new action's name (its spec and executor are entries of their own)."""
        if value in _NAMES:
            raise ValueError(f"an autopilot action is already called {value!r}")
        _NAMES[value] = ActionName(value)
        return _NAMES[value]

    @staticmethod
    def unregister(value: str) -> None:
        if value in BUILTIN_ACTIONS:
            raise ValueError(f"{value!r} is a built-in action")
        _NAMES.pop(value, None)

    @staticmethod
    def all() -> tuple["ActionName", ...]:
        return tuple(_NAMES.values())


_NAMES: dict[str, ActionName] = {}
ActionName.EXPLORE = _NAMES["explore"] = ActionName("explore")
ActionName.GATHER_WOOD = _NAMES["gather_wood"] = ActionName("gather_wood")
ActionName.MINE_BLOCK = _NAMES["mine_block"] = ActionName("mine_block")
ActionName.COLLECT_DROPS = _NAMES["collect_drops"] = ActionName("collect_drops")
ActionName.CRAFT = _NAMES["craft"] = ActionName("craft")
ActionName.SMELT = _NAMES["smelt"] = ActionName("smelt")
ActionName.PLACE_BLOCK = _NAMES["place_block"] = ActionName("place_block")
ActionName.EAT = _NAMES["eat"] = ActionName("eat")
ActionName.SLEEP = _NAMES["sleep"] = ActionName("sleep")
ActionName.GO_TO = _NAMES["go_to"] = ActionName("go_to")
ActionName.FOLLOW = _NAMES["follow"] = ActionName("follow")
ActionName.FLEE = _NAMES["flee"] = ActionName("flee")
ActionName.FIGHT = _NAMES["fight"] = ActionName("fight")
ActionName.IDLE = _NAMES["idle"] = ActionName("idle")
ActionName.FARM = _NAMES["farm"] = ActionName("farm")
BUILTIN_ACTIONS = frozenset(_NAMES)


Args = tuple[str | int, ...]


@attrs.frozen
class Choice:
    action: ActionName
    args: Args = ()

    def label(self) -> str:
        return self.action.value + (f"({','.join(str(a) for a in self.args)})" if self.args else "")


@attrs.frozen
class ActionSpec:
    name: ActionName
    arg_types: tuple[type, ...]        # () no argument; (str,) a name; (int, int, int) a position
    timeout: int                       # ticks
    legal: Callable[[DecisionState], list[Args]]    # the argument tuples legal now ([] = illegal)


HUNTED = frozenset(GAME.values())
MINEABLE: dict[str, int] = {"stone": 1, "iron_ore": 2, "log": 0, "diamond_ore": 3, "gold_ore": 3,   # block kind → pickaxe tier needed
                             "redstone_ore": 3, "coal_ore": 1,
                             **{kind: 0 for kind in SURFACE_KINDS}}
# Mined by stair and branch mining (executors.underground): legal before any such block is seen.
DUG_FOR = frozenset({"diamond_ore", "gold_ore", "redstone_ore", "coal_ore"})
PLACEABLE = ("crafting_table", "furnace")
FLEE_RADIUS = 10.0
# Hurt below this with a hostile within HURT_SIGHT, and able to heal, the player does not go back to
# work: it flees (below ground, walled in where it stands to heal: ``executors.shelter``). A zombie
# at hard hits for 4.5; back at work at 3.7 health with one 12 blocks off, seed 780015 died of the
# next hit. A player who cannot heal (food under 18, nothing to eat) gains nothing by waiting: it
# works on, fleeing only what comes close (seed 780028 ran from zombie to zombie at 5.5 health).
HURT_FLOOR = 12.0
HURT_SIGHT = 16.0
FIGHT_RADIUS = 4.0
# Hunting: a game animal this close may be fought when the player needs food: less than LOW_STOCK
# food points in the inventory (one loaf is low) and either the food bar at HUNT_BELOW or less, or
# hurt with too little food to regenerate (vanilla heals only at 18 or more: a player at 17 with
# nothing to eat stays hurt until the next hit).
HUNT_RADIUS = 24.0
# Game this far is in the decision state. A hungry player hunts only within HUNT_RADIUS (the ladder
# waits meanwhile); the stocking hunt after the ladder goes after any of it: the herd is all the food
# the world offers, and game left standing 30 blocks off is food the idle player never gets.
GAME_SIGHT = 48.0
HUNT_BELOW = 14
MAX_HEALTH = 20.0
LOW_STOCK = 8
# The food an idle player is handed back with: after the iron pickaxe nobody hunts any more, and
# every hit (a step into lava costs ~8 health) is healed from food (vanilla: 6 exhaustion, 1.5
# food points, per health point: ~12 a lava step, about one cooked beef eaten at 17), so the
# autopilot stocks up on game it sees before it hands back: a dozen cooked beef, a dozen such hits
# (40 points, five hits, ran out within 5,000 idle ticks under the simulator's lava pushes).
HAND_BACK_STOCK = 96


def food_stock(counts: dict[str, int]) -> int:
    """Food points the inventory holds (nutrition x count, vanilla's numbers)."""
    return sum(food.nutrition * counts.get(name, 0) for name, food in FOODS.items())


def healing_hurt(health: float, food: int, counts: dict[str, int]) -> bool:
    """Hurt below HURT_FLOOR and able to heal: fed enough to regenerate, or carrying food."""
    return health < HURT_FLOOR and (food >= REGEN_FOOD or food_stock(counts) > 0)


def needs_food(s: DecisionState) -> bool:
    # Below HURT_FLOOR a full bar is not enough: the bar falls under REGEN_FOOD after two or three
    # health points healed, so a player this hurt with nothing to eat goes for food first.
    hungry = s.food <= HUNT_BELOW or (s.health < MAX_HEALTH and s.food < REGEN_FOOD) or s.health < HURT_FLOOR
    return hungry and food_stock(s.counts()) < LOW_STOCK


def unable_to_heal(s: DecisionState) -> bool:
    """Hurt below HURT_FLOOR with nothing to eat: regeneration from the bar alone stops after two
    or three health points, and the player stays one lava step or one zombie from death (seed
    920019 dug for diamonds at 4.5 health and food 17 with a cow 27 blocks off, beyond the hungry
    hunt's HUNT_RADIUS, and a lava push killed it; 920002 went below at 2.9 health and food 19)."""
    return s.health < HURT_FLOOR and food_stock(s.counts()) == 0


def stocking(s: DecisionState) -> bool:
    """The ladder is done and the food in hand is short of what the autopilot hands back with.
    Only after the iron pickaxe: a goal of its own is handed back as soon as it is in hand."""
    return s.milestone is None and s.goal is None and food_stock(s.counts()) < HAND_BACK_STOCK


def hunting_for_goal(s: DecisionState) -> bool:
    """The state's goal needs what a hunt brings (cooked beef, and beef itself)."""
    return s.goal is not None and bool(tree(s.goal[0]) & HUNTED)


def makeable(s: DecisionState) -> tuple[frozenset[str], frozenset[str]]:
    """What may be crafted and smelted: the ladder's recipes, and those of the state's goal."""
    if s.goal is None:
        return LADDER_RECIPES, LADDER_SMELTS
    items = tree(s.goal[0])
    return LADDER_RECIPES | (items & RECIPES.keys()), LADDER_SMELTS | (items & SMELTS.keys())


def _explore(s: DecisionState) -> list[Args]:
    return [()]


def _gather(s: DecisionState) -> list[Args]:
    return [()] if s.distance("log") is not None else []


def _mine(s: DecisionState) -> list[Args]:
    tier = pickaxe_tier(s.counts())
    return [(name,) for name, need in MINEABLE.items()
            if tier >= need and (name in DUG_FOR or s.distance(name) is not None)]


def _collect(s: DecisionState) -> list[Args]:
    return [()] if s.drops > 0 else []


def _craft(s: DecisionState) -> list[Args]:
    counts = s.counts()
    crafts, _ = makeable(s)
    return [(r.item,) for r in RECIPES.values() if r.item in crafts
            and (s.table_near or not r.needs_table) and all(count(i, counts) >= n for i, n in r.needs)]


def _smelt(s: DecisionState) -> list[Args]:
    counts = s.counts()
    _, smelts = makeable(s)
    if s.smelting:
        # Collect what is done (then load the next): the executor walks back to the job's
        # furnace, which need not be near any more (a reflex may have carried the player off).
        return [(out,) for out in SMELTS if out in smelts]
    if not s.furnace_near:
        return []
    fuel = sum(counts.get(f, 0) * v for f, v in FUEL.items())
    return [(out,) for out, raw in SMELTS.items() if out in smelts and count(raw, counts) > 0 and fuel >= 1.0]


def _place(s: DecisionState) -> list[Args]:
    counts = s.counts()
    return [(name,) for name in PLACEABLE if counts.get(name, 0) > 0]


def _eat(s: DecisionState) -> list[Args]:
    counts = s.counts()
    return [()] if s.food < 20 and any(counts.get(f, 0) > 0 for f in FOODS) else []


def _sleep(s: DecisionState) -> list[Args]:
    return [()] if not s.day and s.distance("bed") is not None else []


def _go_to(s: DecisionState) -> list[Args]:
    return [("x", "y", "z")]       # any position: the arguments come from the provider and are checked


def _follow(s: DecisionState) -> list[Args]:
    # Only players in sight, as !follow: a named one, or () for the nearest. The heuristic never
    # follows on its own; a model (or a replayed log) chooses it when the player asked for it.
    if not s.players:
        return []
    return [()] + [(name,) for name, _ in s.players]


def _flee(s: DecisionState) -> list[Args]:
    radius = HURT_SIGHT if healing_hurt(s.health, s.food, s.counts()) else FLEE_RADIUS
    return [()] if any(d <= radius for _, d in s.hostiles) else []


def _fight(s: DecisionState) -> list[Args]:
    out: list[Args] = [(eid,) for eid, d in s.hostiles if d <= FIGHT_RADIUS and s.health > 8]
    # A hunt: game animals never fight back, so health does not matter.
    if stocking(s) or hunting_for_goal(s):
        out += [(eid,) for eid, d in s.animals if d <= GAME_SIGHT]
    elif needs_food(s):
        # Unable to heal, the hunt goes as far as game is seen: food first, the ladder after.
        radius = GAME_SIGHT if unable_to_heal(s) else HUNT_RADIUS
        out += [(eid,) for eid, d in s.animals if d <= radius]
    if s.goal is not None:
        # A goal's own hunt (wool for a bed, leather for a book): the animals whose loot it needs
        # (a shorn sheep's is mutton only, so a goal of wool leaves it alone).
        wanted = tree(s.goal[0])
        out += [(eid,) for eid, kind, d in s.game
                if d <= GAME_SIGHT and wanted & set(loot_of(kind)) and (eid,) not in out]
    return out


def _idle(s: DecisionState) -> list[Args]:
    return [()]


def _farm(s: DecisionState) -> list[Args]:
    """Plant a crop the goal needs: its seeds and a hoe carried (the executor looks for moist ground)."""
    if s.goal is None:
        return []
    counts = s.counts()
    wanted = tree(s.goal[0])
    return [(crop,) for crop, seed in FARMED.items()
            if crop in wanted and counts.get(seed, 0) > 0 and any(counts.get(h, 0) for h in HOES)]


CATALOG: dict[ActionName, ActionSpec] = {spec.name: spec for spec in (
    ActionSpec(ActionName.EXPLORE, (), 500, _explore),
    ActionSpec(ActionName.GATHER_WOOD, (), 700, _gather),
    ActionSpec(ActionName.MINE_BLOCK, (str,), 700, _mine),
    ActionSpec(ActionName.COLLECT_DROPS, (), 300, _collect),
    ActionSpec(ActionName.CRAFT, (str,), 160, _craft),   # walks up to TABLE_RANGE (24 blocks, ~110 ticks) to a table first
    ActionSpec(ActionName.SMELT, (str,), 900, _smelt),
    ActionSpec(ActionName.PLACE_BLOCK, (str,), 200, _place),
    ActionSpec(ActionName.EAT, (), 80, _eat),
    ActionSpec(ActionName.SLEEP, (), 600, _sleep),       # walk to the bed, then up to WAKE_WAIT asleep
    ActionSpec(ActionName.GO_TO, (int, int, int), 800, _go_to),
    ActionSpec(ActionName.FOLLOW, (str,), 800, _follow),
    ActionSpec(ActionName.FLEE, (), 300, _flee),
    ActionSpec(ActionName.FIGHT, (int,), 400, _fight),     # a hunt walks up to 24 blocks first
    ActionSpec(ActionName.IDLE, (), 40, _idle),
    ActionSpec(ActionName.FARM, (str,), 900, _farm),       # till and plant every seed carried beside water
)}
assert len(CATALOG) == 15


def legal_actions(state: DecisionState, suppressed: frozenset[ActionName] = frozenset()) -> tuple[Choice, ...]:
    out: list[Choice] = []
    for name, spec in CATALOG.items():
        if name in suppressed:
            continue
        for args in spec.legal(state):
            out.append(Choice(name, args))
    return tuple(out)


def check_choice(choice: Choice, legal: tuple[Choice, ...]) -> Choice | None:
    """A provider's choice if it is legal now (go_to: any integer position), else None."""
    if choice.action == ActionName.FOLLOW and len(choice.args) == 1:
        # Player names are not case-sensitive (as !follow): "Alice" is the legal follow(alice).
        wanted = str(choice.args[0]).lower()
        return next((c for c in legal if c.action == ActionName.FOLLOW and c.args
                     and str(c.args[0]).lower() == wanted), None)
    if choice.action == ActionName.GO_TO:
        ok = any(c.action == ActionName.GO_TO for c in legal)
        if ok and len(choice.args) == 3 and all(isinstance(a, int) for a in choice.args):
            return choice
        return None
    return choice if choice in legal else None
