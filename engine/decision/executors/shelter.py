"""``flee``: run from the nearest hostile or, hurt, wall in where the player stands and heal there.

How this works: a zombie is slower than a walking player in the open, but below ground a flight
runs into a tunnel's dead end or back past it, and a hurt player who goes back to work with one
about is hit again (seed 780015 at hard: healed only to 3.7, back to its ore with a zombie 12
blocks off, dead at the next hit). Hurt below ``catalog.HURT_FLOOR`` and able to heal (fed to 18,
or food carried: ``catalog.healing_hurt``), ``Flee`` first looks for a
shelter where it stands: every cell a melee mob could hit from (``hostile.reach_cells``: the eight
around the body at the feet and at the head, and the one over the head) must become a full block,
each open one filled with a block the player carries, placed against rock or a block placed before
it. Too open a spot (more than ``MAX_FILL`` blocks: the surface, a cave), a fluid or an unseen cell
there, or too few blocks carried, and it runs as it always did. (Digging in, three blocks down and
covered, was tried for the open surface and left out: the pit climb back out of the hole, with
the zombies waiting on its rim, killed more than the shelter saved: seeds 780001, 780007, 780012.)

    decide ──hurt, sealable──► centre ──► seal (one block a tick, each confirmed) ──► rest ──► reopen ──► ok
       │                                    └──a block refused twice──► failed("could not wall in")
       └──otherwise──► run (sprint to ``flee_to`` blocks from the nearest hostile) ──► ok / "no path"
                        └──the way passes a hostile or none, sealable──► centre ──► seal ──► ok

Resting, it eats what it carries (vanilla heals fast only with a full food bar) and waits until
health is back to ``REST_UNTIL`` with no hostile within ``CLEAR``, or full health for ``LINGER``
ticks (a zombie that stays by the wall is met at full health), or ``REST_MAX`` ticks, or, when it
cannot heal (hungry with nothing to eat), as soon as no hostile is in sight (``HURT_SIGHT``). Reopening digs the side blocks it placed at the
feet and the head, so the tunnel is as it was; a wall it placed stays in ``ExecContext.shelter``
when a reflex cuts the rest short, so the next shelter there reopens it. The flee reflex leaves a
walled-in player alone (``hostile.walled_in``). Below ``REST_UNTIL`` and not sheltering to heal, it
runs, but a run that finds no way or whose way passes a hostile (``passes_a_hostile``: a tunnel's one way out is
where the zombie came from) walls in there instead; the walls stay and the work goes on from
behind them (the autopilot does not flee a mob it is walled off from).
"""
from __future__ import annotations

import math

from engine import actions as acts
from engine.actions import Action
from engine.decision.catalog import HURT_SIGHT, Choice, healing_hurt
from engine.decision.executors.base import ExecContext, Pos, Walk, centre_move, flee_goal, hold, off_centre
from engine.decision.executors.making import FACES
from engine.decision.executors.safety import floor_unsafe
from engine.decision.knowledge import BLOCKS, best_pickaxe
from engine.eating import Meal, Outcome, count_of
from engine.motion.cells import EMPTY, FIRE, LAVA, SHAPE, UNKNOWN, WATER
from engine.motion.astar import Path
from engine.motion.goals import Goal
from engine.motion.grid import Terrain
from engine.reflex.hostile import AROUND, reach_cells, walled_in, walls
from engine.world.food import FOODS
from engine.world.vanilla import REGEN_FOOD

# Blocks worth walling in with, the cheapest first (what tunnelling and the surface give).
WALL_BLOCKS = ("dirt", "cobblestone", "cobbled_deepslate", "stone")
MAX_FILL = 10              # blocks placed at most: more, and the spot is too open to wall in quickly
REST_UNTIL = 16.0          # health at which a sheltered player goes on (three zombie hits at hard)
CLEAR = 5.0                # ... once no hostile is this close
LINGER = 400               # ticks at full health waited for a hostile by the wall to leave
REST_MAX = 2400            # ticks resting at most
SHELTER_TIMEOUT = 3600     # ticks for the whole shelter (the catalog's flee timeout is for a run)
CENTRE_TICKS = 20
PLACE_CONFIRM = 6          # ticks the server has to show a placed block
DIG_CONFIRM = 8
EAT_RETRY = 100            # ticks before a refused meal is tried again
PASSING = 3.0              # a run's step this near a hostile (and nearer than the player is) passes it
HURT_FLEE_TO = 20.0        # hurt, a run goes this far: out of HURT_SIGHT, so the next decision is not flee again

Placement = tuple[Pos, Pos, int]        # (cell, the block clicked, its face)


def wall_plan(terrain: Terrain, at: Pos) -> list[Placement] | str:
    """The blocks to place, in order, to wall in a player standing at ``at``, each with the block
    it is clicked against (rock, or a block placed before it); or why there is no shelter here."""
    if floor_unsafe(terrain, *at) is not None:
        return "no floor"
    todo = [c for c in reach_cells(*at) if not walls(terrain, *c)]
    for c in todo:
        cell = terrain.cell(*c)
        if cell & UNKNOWN:
            return "unseen cell"
        if cell & (WATER | LAVA | FIRE) or cell & SHAPE != EMPTY:
            return "not placeable"
    if len(todo) > MAX_FILL:
        return "too open"
    placed: set[Pos] = set()
    order: list[Placement] = []
    while todo:
        for c in todo:
            found = _support(terrain, c, placed)
            if found is not None:
                order.append((c, *found))
                placed.add(c)
                todo.remove(c)
                break
        else:
            return "nothing to place against"
    return order


def _support(terrain: Terrain, c: Pos, placed: set[Pos]) -> tuple[Pos, int] | None:
    for (dx, dy, dz), face in FACES.items():
        against = (c[0] - dx, c[1] - dy, c[2] - dz)
        if against in placed or walls(terrain, *against):
            return against, face
    return None


def passes_a_hostile(ctx: ExecContext, path: Path) -> bool:
    """The path goes nearer a hostile than the player stands now, and within ``PASSING`` of it."""
    p = ctx.position
    for e in ctx.snapshot.entities:
        if not e.hostile:
            continue
        now = e.position.distance_to(p)
        if any(s.centre.distance_to(e.position) < min(now, PASSING) for s in path.steps[1:]):
            return True
    return False


def wall_block(counts: dict[str, int]) -> str | None:
    return next((b for b in WALL_BLOCKS if counts.get(b, 0) > 0), None)


def feet_of(ctx: ExecContext) -> Pos:
    p = ctx.position
    return (math.floor(p.x), math.floor(p.y + 1e-6), math.floor(p.z))


class Flee(Walk):
    def __init__(self, choice: Choice, timeout: int, tick: int) -> None:
        super().__init__(choice, timeout, tick, self._flee_goal, sprint=True, urgent=True)
        self.phase: str | None = None
        self.at: Pos = (0, 0, 0)
        self.plan: list[Placement] = []
        self.placing: tuple[Pos, int] | None = None     # (cell, tick placed)
        self.tries: dict[Pos, int] = {}
        self.ticks = 0
        self.meal: Meal | None = None
        self.eat_after = 0
        self.rest_from = 0
        self.full_since: int | None = None
        self.digging: tuple[Pos, int] | None = None     # (cell, tick the dig ends)
        self.refused: set[Pos] = set()                  # digs the server refused
        self.confirm = 0
        self.hurt = False
        self.why_not = ""                               # why no shelter (for the tests and the log)
        self.wary = False                               # not sheltering to heal: runs, but not past a mob
        self.looked = False                             # the run's first plan was looked at

    @property
    def waiting(self) -> bool:
        return self.phase == "rest"

    def _flee_goal(self, ctx: ExecContext) -> Goal | None:
        return flee_goal(ctx, HURT_FLEE_TO) if self.hurt else flee_goal(ctx)

    def run(self, ctx: ExecContext) -> list[Action]:
        if self.phase is None:
            self.phase = self._decide(ctx)
        if self.phase == "run":
            return self._run(ctx)
        if self.phase == "centre":
            if off_centre(ctx, self.at) and self.ticks < CENTRE_TICKS:
                self.ticks += 1
                return [centre_move(ctx, self.at)]
            self.phase = "seal"
        if self.phase == "seal":
            return self._seal(ctx)
        if self.phase == "rest":
            return self._rest(ctx)
        return self._reopen(ctx)

    def _decide(self, ctx: ExecContext) -> str:
        player = ctx.snapshot.player
        health = player.health if player.health is not None else 20.0
        self.hurt = healing_hurt(health, player.food if player.food is not None else 20, ctx.counts())
        # Not walling in to heal, it runs, unless the run leads past the mob or nowhere: then, short
        # of the health two more hits at hard leave safe, it walls in after all and the work goes on
        # from behind the wall (``_run``). At full health a hit is cheaper than walls that stay (seed
        # 780043 at 20 health walled itself into a surface pit its walks then never left).
        self.wary = not self.hurt and health < REST_UNTIL
        if not self.hurt:
            return "run"
        return self._shelter(ctx)

    def _shelter(self, ctx: ExecContext) -> str:
        """"rest" (walled in already), "centre" (a wall plan and the blocks for it) or "run"."""
        self.at = feet_of(ctx)
        if walled_in(ctx.terrain, *self.at):
            self.rest_from = ctx.tick
            self.deadline = max(self.deadline, ctx.tick + SHELTER_TIMEOUT)
            return "rest"
        plan = wall_plan(ctx.terrain, self.at)
        if isinstance(plan, str):
            self.why_not = plan
            return "run"
        self.plan = plan
        counts = ctx.counts()
        if sum(counts.get(b, 0) for b in WALL_BLOCKS) < len(plan):
            self.why_not = "too few blocks"
            return "run"
        self.deadline = max(self.deadline, ctx.tick + SHELTER_TIMEOUT)
        return "centre"

    def _run(self, ctx: ExecContext) -> list[Action]:
        """The run; its first plan is looked at: a run that finds no way, or whose way passes nearer
        a hostile than the player stands and within ``PASSING`` of it (a tunnel's only way out is
        where the zombie came from: seed 910006 at hard, 11.7 health and nothing to eat, ran up its
        stair into a zombie on the rim and two more; seed 780031 at 14.5 health, hit twice), walls
        in instead."""
        out = super().run(ctx)
        if not self.wary or self.looked:
            return out
        path = self.navigator.path if self.navigator is not None else None
        if self.status != "no path" and path is None:
            return out                      # not planned yet
        self.looked = True
        if self.status == "no path" or (path is not None and passes_a_hostile(ctx, path)):
            phase = self._shelter(ctx)
            if phase != "run":
                self.status, self.navigator, self.phase = None, None, phase
                return []
        return out

    # -- walling in ---------------------------------------------------------------------------------
    def _seal(self, ctx: ExecContext) -> list[Action]:
        t = ctx.terrain
        if self.placing is not None:
            cell, when = self.placing
            if walls(t, *cell):
                ctx.shelter.add(cell)
                self.placing = None
            elif ctx.tick - when < PLACE_CONFIRM:
                return []
            else:
                self.placing = None
                self.tries[cell] = self.tries.get(cell, 0) + 1
                if self.tries[cell] >= 2:
                    self.status = "could not wall in"
                    return []
        for cell, against, face in self.plan:
            if walls(t, *cell):
                continue
            item = wall_block(ctx.counts())
            if item is None:
                self.status = "out of blocks"
                return []
            ops = hold(ctx, item)
            if ops:
                return ops
            self.placing = (cell, ctx.tick)
            return [acts.PlaceBlock(*cell, against, face, item)]
        if self.wary:
            # Not hurt, or unable to heal, resting gains nothing: walled in, the player is out of reach and the
            # work goes on from here (the autopilot does not flee a mob it is walled off from); the
            # walls stay, so a tunnel dug on from here leaves the mob on the other side.
            self.status = "ok"
            return []
        self.phase = "rest"
        self.rest_from = ctx.tick
        return []

    # -- healing ------------------------------------------------------------------------------------
    def _rest(self, ctx: ExecContext) -> list[Action]:
        player = ctx.snapshot.player
        health = player.health if player.health is not None else 20.0
        food = player.food if player.food is not None else 20
        if self.meal is not None:
            out: list[Action] = list(self.meal.step(food, count_of(player.inventory, self.meal.food)))
            if self.meal.done:
                if self.meal.outcome is Outcome.ATE:
                    out.append(acts.ReleaseHeldItem())
                else:
                    self.eat_after = ctx.tick + EAT_RETRY
                self.meal = None
            return out
        if not walled_in(ctx.terrain, *self.at):
            # A wall went (a block broken from outside): seal again from where the body is.
            plan = wall_plan(ctx.terrain, self.at)
            if isinstance(plan, str):
                self.status = "shelter broken"
                return []
            self.plan, self.tries, self.phase = plan, {}, "seal"
            return []
        has_food = any(count_of(player.inventory, f) for f in FOODS)
        if food < 20 and has_food and health < 20 and ctx.tick >= self.eat_after:
            self.meal = Meal.of(ctx.snapshot, restore=False)
            if self.meal is not None:
                return list(self.meal.step(food, count_of(player.inventory, self.meal.food)))
        if health >= 20 and self.full_since is None:
            self.full_since = ctx.tick
        p = ctx.position
        near = min((e.position.distance_to(p) for e in ctx.snapshot.entities if e.hostile), default=math.inf)
        healed = health >= REST_UNTIL and near > CLEAR
        lingered = self.full_since is not None and ctx.tick - self.full_since >= LINGER
        # Hungry with nothing to eat: resting heals nothing, but leaving at low health is safe only
        # with no hostile in sight (seed 780052: out at 1.7 health, two zombies outside).
        starving = food < REGEN_FOOD and not has_food and health < REST_UNTIL and near > HURT_SIGHT
        if healed or lingered or starving or ctx.tick - self.rest_from >= REST_MAX:
            self.phase = "reopen"
        return []

    # -- going on -----------------------------------------------------------------------------------
    def _reopen(self, ctx: ExecContext) -> list[Action]:
        t = ctx.terrain
        if self.digging is not None:
            cell = self.digging[0]
            out = self._dig(ctx)
            if self.digging is None:
                ctx.shelter.discard(cell)
            return out
        x, y, z = self.at
        doors = [(x + dx, y + dy, z + dz) for dy in (0, 1) for dx, dz in AROUND[:4]] + [(x, y + 2, z)]
        for cell in doors:
            if cell in ctx.shelter and walls(t, *cell) and cell not in self.refused:
                return self._start_dig(ctx, cell)
        # What stays (diagonals) is rock to every task from here on.
        for cell in reach_cells(x, y, z):
            ctx.shelter.discard(cell)
        self.status = "ok"
        return []

    # -- digging --------------------------------------------------------------------------------------
    def _start_dig(self, ctx: ExecContext, cell: Pos) -> list[Action]:
        t = ctx.terrain
        name = t.table.name(t.store.get(*cell) or 0)
        rule = BLOCKS.get(name) if name is not None else None
        if rule is None or name is None:
            ctx.shelter.discard(cell)
            return []
        ops = hold(ctx, best_pickaxe(ctx.counts()) if rule.tool == "pickaxe" else None) or []
        if ops:
            return ops
        ticks = ctx.dig_ticks(name) or 1
        self.digging = (cell, ctx.tick + ticks)
        return [acts.StartDigging(*cell), acts.SwingArm()]

    def _dig(self, ctx: ExecContext) -> list[Action]:
        assert self.digging is not None
        cell, until = self.digging
        if ctx.tick < until:
            return [acts.SwingArm()] if (until - ctx.tick) % 5 == 0 else []
        if ctx.tick == until:
            self.confirm = ctx.tick + DIG_CONFIRM
            return [acts.FinishDigging(*cell)]
        if walls(ctx.terrain, *cell):
            if ctx.tick < self.confirm:
                return []
            self.refused.add(cell)                 # the server kept the block
        self.digging = None
        return []

    def cancel(self, why: str) -> list[Action]:
        was = self.status
        super().cancel(why)
        return list(self.meal.cancel()) if was is None and self.meal is not None else []
