"""The diamond pickaxe after the iron ladder: ``DiamondPickaxe``, a task made of the other executors.

How this works: each tick it looks at the inventory and runs the first step not yet done,
as a sub-executor it starts and steps: on the surface, the kit for the way down (two sticks
and a crafting table to carry: wood, planks, sticks, the table), then ``MineOre`` for three
diamonds (stairs down to the version's diamond level), then the table set down where the
player stands and the pickaxe crafted at it.

    kit (gather_wood / craft planks, stick, crafting_table) ──► mine 3 diamonds ──► place table ──► craft ──► ok

It ends (so the autopilot can decide: eat, hunt, flee) when food runs low with nothing to
eat at hand, when a step fails ``TRIES`` times in a row, or without an iron pickaxe. This is
the minimal goal extension of issue 24's "Going underground safely"; the general ``!get``
planner may call ``MineOre`` the same way.
"""
from __future__ import annotations

import math

from engine.actions import Action
from engine.decision.catalog import ActionName, Choice
from engine.decision.executors.base import ExecContext, Executor, Pos
from engine.decision.executors.gathering import Mine
from engine.decision.executors.living import Eat
from engine.decision.executors.making import Craft, Place, _place_spot
from engine.decision.executors.safety import floor_unsafe
from engine.decision.executors.underground import MineOre
from engine.decision.knowledge import count, first_held, pickaxe_tier, planks_for
from engine.motion.cells import EMPTY, FIRE, LAVA, SHAPE, UNKNOWN, WATER
from engine.world.food import FOODS
from engine.world.snapshot import Vec3

DIAMONDS = 3
TRIES = 3
HUNGRY = 14                 # food points under which a meal comes first
STEP_TIMEOUT = {"mine": 24_000, "wood": 1200, "craft": 400, "place": 200, "eat": 200}


def _beside(ctx: ExecContext) -> Pos | None:
    p = ctx.position
    fx, fy, fz = math.floor(p.x), math.floor(p.y + 1e-6), math.floor(p.z)
    t = ctx.terrain
    cells = []
    for dx, dz in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        x, z = fx + dx, fz + dz
        if t.cell(x, fy, z) & (SHAPE | UNKNOWN | WATER | LAVA | FIRE) == EMPTY and floor_unsafe(t, x, fy, z) is None:
            cells.append((abs(x + 0.5 - p.x) + abs(z + 0.5 - p.z), (x, fy, z)))
    return max(cells)[1] if cells else None


class DiamondPickaxe(Executor):
    def __init__(self, choice: Choice, timeout: int, tick: int, level: int) -> None:
        super().__init__(choice, timeout, tick)
        self.level = level
        self.sub: Executor | None = None
        self.sub_name = ""
        self.diamonds = 0                       # carried, as of the last tick
        self.failures: dict[str, int] = {}
        self.mines: list[MineOre] = []          # every MineOre it ran (their refusals and fakes, for the report)

    def run(self, ctx: ExecContext) -> list[Action]:
        sub = self.sub
        self.diamonds = ctx.counts().get("diamond", 0)
        if sub is not None and sub.status is None:
            out = sub.step(ctx)
            if sub.status is None:
                return out
            self._ended(sub)
            return out
        counts = ctx.counts()
        self.diamonds = counts.get("diamond", 0)
        if counts.get("diamond_pickaxe", 0):
            self.status = "ok"
            return []
        if pickaxe_tier(counts) < 3:
            self.status = "needs an iron pickaxe"
            return []
        step = self._next(ctx, counts)
        if step is None:
            return []
        self.sub_name, self.sub = step
        self.target = None
        out = self.sub.step(ctx)
        if self.sub.status is not None:
            self._ended(self.sub)          # a step may fail at once (no place for the table)
        return out

    def _next(self, ctx: ExecContext, counts: dict[str, int]) -> tuple[str, Executor] | None:
        tick = ctx.tick
        food = ctx.snapshot.player.food
        if food is not None and food < HUNGRY:
            if any(counts.get(f, 0) for f in FOODS):
                return "eat", Eat(Choice(ActionName.EAT), STEP_TIMEOUT["eat"], tick)
            self.status = "hungry"
            return None
        diamonds = counts.get("diamond", 0)
        planks = count("#planks", counts)
        sticks = counts.get("stick", 0)
        table = counts.get("crafting_table", 0)
        need_planks = (2 if sticks < 2 else 0) + (4 if not table else 0)
        if diamonds >= DIAMONDS and ctx.near_block("crafting_table") is not None:
            return "craft", Craft(Choice(ActionName.CRAFT, ("diamond_pickaxe",)), STEP_TIMEOUT["craft"], tick,
                                  "diamond_pickaxe")
        if need_planks and planks < need_planks:
            log = first_held("#logs", counts)
            if log is not None:
                p = planks_for(log)
                return "craft", Craft(Choice(ActionName.CRAFT, (p,)), STEP_TIMEOUT["craft"], tick, p)
            return "wood", Mine(Choice(ActionName.GATHER_WOOD), STEP_TIMEOUT["wood"], tick, "log")
        if sticks < 2:
            return "craft", Craft(Choice(ActionName.CRAFT, ("stick",)), STEP_TIMEOUT["craft"], tick, "stick")
        if not table and ctx.near_block("crafting_table") is None:
            return "craft", Craft(Choice(ActionName.CRAFT, ("crafting_table",)), STEP_TIMEOUT["craft"], tick,
                                  "crafting_table")
        if diamonds < DIAMONDS:
            self.mines.append(MineOre(Choice(ActionName.MINE_BLOCK, ("diamond_ore",)), STEP_TIMEOUT["mine"], tick,
                                      "diamond_ore", DIAMONDS - diamonds, self.level))
            return "mine", self.mines[-1]
        place = Place(Choice(ActionName.PLACE_BLOCK, ("crafting_table",)), STEP_TIMEOUT["place"], tick,
                      "crafting_table")
        # In a one-wide tunnel the usual spots (two blocks off, on a floor) may all be rock: then a
        # cell beside the player, the one its body is farthest from, so the table cannot overlap it.
        place.spot = _place_spot(ctx) or _beside(ctx)
        return "place", place

    def _ended(self, sub: Executor) -> None:
        key = f"{self.sub_name}: {sub.status}"
        if sub.status == "ok":
            self.failures.clear()
            return
        self.failures[key] = self.failures.get(key, 0) + 1
        if self.failures[key] >= TRIES:
            self.status = key
        self.target = sub.target

    def cancel(self, why: str) -> list[Action]:
        if self.sub is not None:
            self.sub.cancel(why)
        return super().cancel(why)

    def resync(self, position: Vec3) -> None:
        if self.sub is not None:
            self.sub.resync(position)
