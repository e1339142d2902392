"""Making things: ``Craft``, ``Place`` (a crafting table or furnace beside the player) and ``Smelt``."""
from __future__ import annotations

import math

from engine import actions as acts
from engine.actions import Action
from engine.decision.catalog import Choice
from engine.decision.knowledge import FUEL, FUEL_ORDER, RECIPES, SMELT_TICKS, SMELTS, first_held, members
from engine.decision.perception import GoalReach
from engine.motion.navigator import NavState
from engine.decision.executors.base import TABLE_RANGE, ExecContext, Executor, Pos, hold
from engine.decision.executors.safety import floor_unsafe
from engine.motion.cells import EMPTY, FIRE, LAVA, SHAPE, UNKNOWN, WATER

class Craft(Executor):
    def __init__(self, choice: Choice, timeout: int, tick: int, item: str) -> None:
        super().__init__(choice, timeout, tick)
        self.item = item
        self.before: int | None = None

    def run(self, ctx: ExecContext) -> list[Action]:
        have = ctx.counts().get(self.item, 0)
        if self.before is None:
            recipe = RECIPES[self.item]
            table = ctx.near_block("crafting_table") if recipe.needs_table else None
            if recipe.needs_table and table is None:
                if self.navigator is None:
                    far = ctx.finder.nearest("crafting_table", ctx.position, radius=TABLE_RANGE, limit=1,
                                             exposed=False, skip=ctx.blacklist)
                    if not far:
                        self.status = "no crafting table"
                        return []
                    self.target = far[0][1]
                    self.go(ctx, GoalReach(*far[0][1], reach=3.5))
                out, state = self.move()
                if state is NavState.FAILED:
                    # Left behind (on the surface, over a tunnel the walk cannot climb): not "near"
                    # any more, so the table carried is set down instead (seed 760005 under water
                    # idled 43,000 ticks beside its three diamonds).
                    assert self.target is not None
                    ctx.blacklist.add(self.target)
                    self.status = "no path to the crafting table"
                elif state is NavState.ARRIVED and ctx.near_block("crafting_table") is None:
                    self.status = "crafting table out of reach"
                return out
            self.before = have
            return [acts.CraftItem(self.item, 1, table)]
        if have > self.before:
            self.status = "ok"
        return []


class Place(Executor):
    def __init__(self, choice: Choice, timeout: int, tick: int, item: str) -> None:
        super().__init__(choice, timeout, tick)
        self.item = item
        self.spot: Pos | None = None
        self.against: tuple[Pos, int] | None = None     # the block clicked and its face; None: the floor, top
        self.waited = 0

    def run(self, ctx: ExecContext) -> list[Action]:
        if self.spot is None:
            self.spot = _place_spot(ctx)
            beside = _beside(ctx) if self.spot is None else None
            if beside is not None:
                self.spot, self.against = beside[0], beside[1:]
            if self.spot is None:
                self.status = "no place to put it"
                return []
            ops = hold(ctx, self.item)
            if ops is None:
                self.status = f"no {self.item}"
                return []
            if ops:
                return ops
        x, y, z = self.spot
        state = ctx.terrain.store.get(x, y, z)
        if state is not None and ctx.terrain.table.name(state) == self.item:
            self.status = "ok"
            return []
        self.waited += 1
        if self.waited == 1:
            ops = hold(ctx, self.item) or []
            against, face = self.against or ((x, y - 1, z), 1)
            return ops + [acts.PlaceBlock(x, y, z, against, face, self.item)]
        if self.waited > 5:
            self.status = "place refused"
        return []


def _place_spot(ctx: ExecContext) -> Pos | None:
    p = ctx.position
    fx, fy, fz = math.floor(p.x), math.floor(p.y + 0.5 - 1e-6), math.floor(p.z)
    cell = ctx.terrain.cell
    from engine.motion import grid as g
    for dx, dz in ((2, 0), (0, 2), (-2, 0), (0, -2), (2, 1), (1, 2), (-2, 1), (1, -2), (2, 2), (-2, -2)):
        for dy in (0, 1, -1):
            x, y, z = fx + dx, fy + dy, fz + dz
            here, below = cell(x, y, z), cell(x, y - 1, z)
            if (here & g.SHAPE) == g.EMPTY and not here & (g.UNKNOWN | g.WATER | g.LAVA | g.FIRE) \
                    and (below & g.SHAPE) == g.FLOOR and not below & (g.UNKNOWN | g.LAVA):
                return (x, y, z)
    return None


FACES = {(0, -1, 0): 0, (0, 1, 0): 1, (0, 0, -1): 2, (0, 0, 1): 3, (-1, 0, 0): 4, (1, 0, 0): 5}


def _beside(ctx: ExecContext) -> tuple[Pos, Pos, int] | None:
    """In a one-wide tunnel the usual spots (two blocks off, on a floor) may all be rock: then an
    open cell beside the player (level, a step up or down), the one its body is farthest from, so
    the block cannot overlap it, clicked on its floor or, over a stair shaft, on a side of rock
    beside it: (spot, the block clicked, its face)."""
    p = ctx.position
    fx, fy, fz = math.floor(p.x), math.floor(p.y + 1e-6), math.floor(p.z)
    t = ctx.terrain
    cells: list[tuple[float, Pos, Pos, int]] = []
    for dx, dz in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        x, z = fx + dx, fz + dz
        for dy in (0, 1, -1):
            y = fy + dy
            if t.cell(x, y, z) & (SHAPE | UNKNOWN | WATER | LAVA | FIRE) != EMPTY:
                continue
            far = abs(x + 0.5 - p.x) + abs(z + 0.5 - p.z) - abs(dy) * 0.01
            if floor_unsafe(t, x, y, z) is None:
                cells.append((far + 1.0, (x, y, z), (x, y - 1, z), 1))
                continue
            for (nx, ny, nz), face in FACES.items():
                against = (x - nx, y - ny, z - nz)
                c = t.cell(*against)
                if (against[0], against[2]) != (fx, fz) and c & SHAPE != EMPTY \
                        and not c & (UNKNOWN | WATER | LAVA | FIRE):
                    cells.append((far, (x, y, z), against, face))
                    break
    if not cells:
        return None
    _, spot, against, face = max(cells)
    return spot, against, face


COLLECT_RETRY = 20     # ticks between tries to take a finished job's output
COLLECT_TRIES = 3      # tries before a finished job's output is taken as gone


class Smelt(Executor):
    """Walk to the furnace, put the raw input and fuel in, wait beside it, take the output."""

    def __init__(self, choice: Choice, timeout: int, tick: int, output: str) -> None:
        super().__init__(choice, timeout, tick)
        self.output = output
        self.furnace: Pos | None = None
        self.phase = "walk"
        self.before = 0
        self.other = False      # the furnace was busy with another output of ours: collect it, then load
        self.last_collect = -COLLECT_RETRY    # no collect tried yet
        self.tries = 0

    def run(self, ctx: ExecContext) -> list[Action]:
        if self.furnace is None:
            self.before = ctx.counts().get(self.output, 0)
            self.furnace = _furnace_for(ctx, self.output)
            if self.furnace is None:
                self.status = "no furnace"
                return []
            self.go(ctx, GoalReach(*self.furnace, reach=3.5))
        if self.phase == "walk":
            out, state = self.move()
            if state is NavState.FAILED:
                self.status = "no path"
                # A furnace of ours the player cannot reach (left on the surface, the player now
                # deep below) would be chosen again by every smelt: its job is forgotten, as one
                # out of range is, so the plan can build a furnace where the player is.
                ctx.smelting.pop(self.furnace, None)
            elif state is NavState.ARRIVED:
                self.phase = "load"
            return out
        have = ctx.counts().get(self.output, 0)
        job = ctx.smelting.get(self.furnace)
        if self.phase == "load":
            if job is None:
                counts = ctx.counts()
                raw = first_held(SMELTS[self.output], counts)
                n = min(counts.get(raw, 0), 3) if raw is not None else 0
                fuel = next((f for tag in FUEL_ORDER for f in members(tag) if f in FUEL and counts.get(f, 0) > 0),
                            None)
                if raw is None or n == 0 or fuel is None:
                    self.status = "nothing to smelt"
                    return []
                fuel_count = min(counts[fuel], math.ceil(n / FUEL[fuel]))
                n = min(n, int(fuel_count * FUEL[fuel]))
                if n == 0:
                    self.status = "not enough fuel"
                    return []
                ctx.smelting[self.furnace] = (self.output, n, ctx.tick)
                self.phase = "wait"
                return [acts.SmeltStart(self.furnace, raw, n, fuel, fuel_count)]
            self.other = job[0] != self.output
            self.phase = "wait"
        if have > self.before:
            self.status = "ok"
            if job is not None:
                got = have - self.before
                if got >= job[1]:
                    ctx.smelting.pop(self.furnace, None)
                else:       # the rest is still cooking: the job goes on with what is left
                    ctx.smelting[self.furnace] = (job[0], job[1] - got, job[2] + got * SMELT_TICKS)
            return []
        if job is None:
            if self.other:        # the other job is out (cooked beef before the iron): now ours goes in
                self.other = False
                self.phase = "load"
                return []
            self.status = "no job"
            return []
        due = (ctx.tick - job[2]) // SMELT_TICKS
        if due >= job[1]:
            # All should be out. A real furnace finishes a little after the job's clock says
            # (loading it took clicks and ticks), so a collect that finds nothing is tried again
            # a second later; after COLLECT_TRIES the output is taken as gone (eaten, or taken
            # by someone else) and the job dropped.
            if self.tries >= COLLECT_TRIES and ctx.tick - self.last_collect >= COLLECT_RETRY:
                ctx.smelting.pop(self.furnace, None)
                self.status = "nothing to collect"
                return []
            if ctx.tick - self.last_collect >= COLLECT_RETRY:
                self.tries += 1
                self.last_collect = ctx.tick
                return [acts.SmeltCollect(self.furnace)]
            return []
        if due > 0 and (ctx.tick - job[2]) % SMELT_TICKS == 1:      # one more is out: take it
            self.last_collect = ctx.tick
            return [acts.SmeltCollect(self.furnace)]
        return []


def _furnace_for(ctx: ExecContext, output: str) -> Pos | None:
    """The furnace to smelt ``output`` at: one holding a job of ours (that output first, then any,
    nearest first; the autopilot keeps only those within JOB_RANGE), else the nearest furnace
    within TABLE_RANGE. A reflex may have carried the player away from a running job: its
    furnace is walked back to rather than the job left behind for good."""
    p = ctx.position
    jobs = sorted(ctx.smelting.items(), key=lambda kv: (kv[1][0] != output, math.dist(
        (kv[0][0] + 0.5, kv[0][1] + 0.5, kv[0][2] + 0.5), (p.x, p.y, p.z))))
    if jobs:
        return jobs[0][0]
    near = ctx.finder.nearest("furnace", p, radius=TABLE_RANGE, limit=1, exposed=False)
    return near[0][1] if near else None
