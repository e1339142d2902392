"""Executors: each catalog action as a small per-tick state machine on engine.motion.

How this works: an executor is made for one ``Choice`` and stepped once per
tick with an ``ExecContext``; it returns this tick's actions (at most one
``InjectMovement``) and sets ``status`` when it ends: ``"ok"`` when its
success test holds (the inventory gained the item, the block appeared, the
food bar rose), otherwise a short failure reason. Moving is always a
``Navigator`` (our A* and the vanilla-legal stepper); digging is
StartDigging, the vanilla dig time for the held tool, FinishDigging; items are
brought into the hand with a hotbar selection or a number-key window swap.
``target`` names the block an executor went for, so the stuck watchdog can
blacklist it. ``resync`` moves the navigator's body to where a reflex or the
server left the player.

    every executor:  running ──success test──► ok
                        │ ──no target / no path / refused / timeout──► failed(reason)
"""
from __future__ import annotations

import math
from collections.abc import Callable

import attrs
import numpy as np

from engine import actions as acts
from engine.actions import Action, InjectMovement, ReleaseHeldItem, SelectHotbar
from engine.decision.catalog import ActionName, Choice
from engine.decision.knowledge import BLOCKS, FUEL, FUEL_ORDER, RECIPES, SMELT_TICKS, SMELTS, \
    best_pickaxe, dig_ticks, first_held, members
from engine.decision.perception import EYE, BlockFinder, GoalReach
from engine.decision.state import inventory_counts
from engine.events import SlotItem
from engine.eating import Meal, Outcome, count_of
from engine.motion import physics as ph
from engine.motion.astar import PathStatus, SearchOptions
from engine.control import FOLLOW_RADIUS
from engine.motion.goals import Goal, GoalAway, GoalFollow, GoalNear, GoalXZ
from engine.motion.grid import Terrain
from engine.motion.navigator import Navigator, NavState
from engine.world.snapshot import EntityView, Vec3, WorldSnapshot

Pos = tuple[int, int, int]
PICKUP_WAIT = 16
PICKUP_SLACK = 0.3     # vanilla picks up within 1.3 blocks (the box grown by 1): 0.3 past the next cell
MAX_PLANS = 8          # searches one navigation may start before it counts as failed
TABLE_RANGE = 24.0     # a known crafting table or furnace this close is walked to, not rebuilt
JOB_RANGE = 48.0       # a furnace holding a job of ours this close is walked back to, not given up


@attrs.define
class ExecContext:
    snapshot: WorldSnapshot
    terrain: Terrain
    finder: BlockFinder
    tick: int
    now: float
    blacklist: set[Pos]
    search: SearchOptions
    smelting: dict[Pos, tuple[str, int, int]]           # furnace → (output, count, start tick): our jobs
    rng: np.random.Generator
    ignored: set[int] = attrs.field(factory=set)        # item entities found unreachable
    clock: Callable[[], float] | None = None            # bounds planning time (with search.time_budget)
    day: bool = True                                    # beds work only at night (the world model's clock)

    @property
    def position(self) -> Vec3:
        p = self.snapshot.player.position
        assert p is not None
        return p

    def counts(self) -> dict[str, int]:
        return inventory_counts(self.snapshot.player.inventory)

    def near_block(self, name: str, reach: float = 4.5) -> Pos | None:
        p = self.position
        eye = Vec3(p.x, p.y + EYE - 0.5, p.z)
        found = self.finder.nearest(name, eye, radius=reach, limit=1, exposed=False)
        return found[0][1] if found else None


def hold(ctx: ExecContext, item: str | None) -> list[Action] | None:
    """Actions that put ``item`` in the hand ([] if it is there; None if it is not in the inventory)."""
    player = ctx.snapshot.player
    held = player.held_item
    if item is None:
        return []

    def named(slot: SlotItem | None) -> bool:
        # A proxy's slots carry the namespace ("minecraft:cobblestone"); the simulator's do not.
        return slot is not None and slot.item.removeprefix("minecraft:") == item

    if named(held):
        return []
    inv = player.inventory
    for i in range(36, 45):
        if named(inv[i]):
            return [SelectHotbar(i - 36)]
    for i in range(9, 36):
        if named(inv[i]):
            return [acts.SwapToHotbar(i, player.held_slot)]
    return None


class Executor:
    name = "executor"

    def __init__(self, choice: Choice, timeout: int, tick: int) -> None:
        self.choice = choice
        self.deadline = tick + timeout
        self.status: str | None = None
        self.target: Pos | None = None
        self.navigator: Navigator | None = None
        self.last_move: InjectMovement | None = None
        self.moved_at: int | None = None          # the tick of last_move

    def step(self, ctx: ExecContext) -> list[Action]:
        if self.status is None and ctx.tick >= self.deadline:
            self.status = "timeout"
        if self.status is not None:
            return []
        nav = self.navigator
        if nav is not None and nav.state is NavState.MOVING and self.moved_at is not None \
                and ctx.tick > self.moved_at + 1:
            # Ticks without a packet of ours (a fight in reach, a follower standing): the
            # autopilot's hold packets moved the body meanwhile, so the stepper's body (mid-jump,
            # rising) is stale; resuming it would rise again from where it paused. (A walk that
            # arrived, a follower standing beside its player, has nothing to resume.)
            nav.teleport(ctx.position)
        out = self.run(ctx)
        for a in out:
            if isinstance(a, InjectMovement):
                self.last_move = a
                self.moved_at = ctx.tick
        return out

    def run(self, ctx: ExecContext) -> list[Action]:
        raise NotImplementedError

    @property
    def waiting(self) -> bool:
        """Standing still by choice (idle, a follower beside its player): not what "stuck" means."""
        return False

    def cancel(self, why: str) -> list[Action]:
        if self.status is None:
            self.status = why
        return []

    def resync(self, position: Vec3) -> None:
        if self.navigator is not None:
            self.navigator.teleport(position)

    # -- movement -------------------------------------------------------------------------------
    def go(self, ctx: ExecContext, goal: Goal, sprint: bool = False, urgent: bool = False) -> None:
        """Navigate to ``goal``; ``urgent`` (fleeing): plan in one go, not a slice a tick standing still."""
        search = attrs.evolve(ctx.search, slice_nodes=None) if urgent else ctx.search
        self.navigator = Navigator(ctx.terrain, ctx.position, goal, search, sprint=sprint, clock=ctx.clock)

    def move(self, found_only: bool = False) -> tuple[list[Action], NavState]:
        """One tick of the navigation. ``found_only``: a goal close by (a drop) that a whole
        search did not reach is out of reach; fail at once instead of walking to the nearest
        point and searching again (each search can take many ticks)."""
        nav = self.navigator
        if nav is None:
            return [], NavState.ARRIVED
        if nav.state is NavState.ARRIVED and not nav.stepper.body.on_ground \
                and ph.medium(nav.terrain, nav.stepper.body) in ("air", "ground"):
            # Arrived mid-fall (a goal reached from the air): let gravity finish before acting,
            # or the next packet would come many ticks later from the same point in the air.
            return [nav.tick()], NavState.MOVING
        if nav.state is not NavState.MOVING:
            return [], nav.state
        if nav.planner.plans > MAX_PLANS:
            # The motion layer re-plans a partial path each tick when the goal stays out of
            # reach; give up instead of paying a full search every tick.
            return [], NavState.FAILED
        m = nav.tick()
        path = nav.planner.path
        if found_only and path is not None and path.status is not PathStatus.FOUND:
            nav.state = NavState.FAILED
        return [m], nav.state


class Walk(Executor):
    """explore, go_to, flee, step aside: walk toward a goal; ok on arrival or after ``enough`` blocks."""

    def __init__(self, choice: Choice, timeout: int, tick: int, goal_of: Callable[[ExecContext], Goal | None],
                 enough: float = math.inf, sprint: bool = False, urgent: bool = False) -> None:
        super().__init__(choice, timeout, tick)
        self.goal_of = goal_of
        self.enough = enough
        self.sprint = sprint
        self.urgent = urgent
        self.start: Vec3 | None = None

    def run(self, ctx: ExecContext) -> list[Action]:
        if self.navigator is None:
            goal = self.goal_of(ctx)
            if goal is None:
                self.status = "no target"
                return []
            self.start = ctx.position
            self.go(ctx, goal, self.sprint, self.urgent)
        out, state = self.move()
        assert self.start is not None
        far = ctx.position.distance_to(self.start) >= self.enough
        if state is NavState.ARRIVED or (far and self.navigator is not None and self.navigator.stepper.body.on_ground):
            self.status = "ok"
        elif state is NavState.FAILED:
            self.status = "no path"
        return out


class Mine(Executor):
    """gather_wood / mine_block(kind): walk within reach, hold the best tool, dig, pick up the drop.

    ``kind`` is a block kind of ``knowledge.KINDS`` (any log, stone or deepslate, either
    iron ore); what was dug decides the tool, the dig time and the drops to wait for."""

    def __init__(self, choice: Choice, timeout: int, tick: int, kind: str) -> None:
        super().__init__(choice, timeout, tick)
        self.kind = kind
        self.block: str | None = None        # the name of the block being dug
        self.phase = "choose"
        self.tries = 0
        self.dig_until = 0
        self.wait_until = 0
        self.before: dict[str, int] = {}
        self.drops: tuple[str, ...] = ()
        self.pickup: int | None = None       # the item entity walked to

    def run(self, ctx: ExecContext) -> list[Action]:
        if self.phase == "choose":
            self.before = ctx.counts()
            found = ctx.finder.nearest(self.kind, ctx.position, skip=ctx.blacklist, limit=1)
            if not found or self.tries >= 4:
                self.status = "no reachable " + self.kind
                return []
            self.tries += 1
            self.target = found[0][1]
            self.go(ctx, GoalReach(*self.target))
            self.phase = "walk"
        if self.phase == "walk":
            out, state = self.move()
            if state is NavState.FAILED:
                assert self.target is not None
                ctx.blacklist.add(self.target)
                self.phase = "choose"
            elif state is NavState.ARRIVED:
                self.phase = "tool"
            return out
        assert self.target is not None
        x, y, z = self.target
        if self.phase == "tool":
            name = ctx.terrain.table.name(ctx.terrain.store.get(x, y, z) or 0)
            rule = BLOCKS.get(name) if name is not None else None
            tool = best_pickaxe(ctx.counts()) if rule is not None and rule.tool == "pickaxe" else None
            ops = hold(ctx, tool) or []
            self.phase = "start"
            if ops:
                return ops
        if self.phase == "start":
            name = ctx.terrain.table.name(ctx.terrain.store.get(x, y, z) or 0)
            if name is None or ctx.finder.kind_at(x, y, z) != self.kind:
                self.phase = "choose"          # gone meanwhile
                return []
            held = ctx.snapshot.player.held_item
            ticks = dig_ticks(name, held.item.removeprefix("minecraft:") if held is not None else None)
            if ticks is None:
                self.status = "cannot dig"
                return []
            self.block = name
            self.drops = BLOCKS[name].drops
            self.dig_until = ctx.tick + ticks
            self.phase = "dig"
            return [acts.StartDigging(x, y, z), acts.SwingArm()]
        if self.phase == "dig":
            if ctx.tick < self.dig_until:
                return [acts.SwingArm()] if (self.dig_until - ctx.tick) % 5 == 0 else []
            self.phase = "broken"
            self.wait_until = ctx.tick + 4
            return [acts.FinishDigging(x, y, z)]
        if self.phase == "broken":
            now_state = ctx.terrain.store.get(x, y, z)
            if now_state is not None and ctx.terrain.table.name(now_state) == "air":
                self.phase = "pickup"
                self.wait_until = ctx.tick + 200
                self.navigator = None
            elif ctx.tick >= self.wait_until:
                self.status = "dig refused"
            return []
        # pickup: walk onto the nearest dropped item near the block until the inventory shows it
        if not self.drops:
            self.status = "ok"
            return []
        counts = ctx.counts()
        if any(counts.get(d, 0) > self.before.get(d, 0) for d in self.drops):
            self.status = "ok"
            return []
        if ctx.tick >= self.wait_until:
            self.status = "drop not picked up"
            return []
        if self.navigator is None:
            item = _nearest_item(ctx.snapshot, Vec3(x + 0.5, y, z + 0.5), 4.0, ctx.ignored)
            if item is None:
                return []
            self.pickup = item.entity_id
            # From the next cell a pickup reaches an item lying at its cell's centre (a block's
            # drop); one lying off centre (an animal's) may be too far: walk into its cell.
            at = item.position
            centred = abs(at.x % 1.0 - 0.5) <= PICKUP_SLACK and abs(at.z % 1.0 - 0.5) <= PICKUP_SLACK
            self.go(ctx, GoalNear(*resting_cell(ctx.terrain, at), 1.0 if centred else 0.0))
        out, state = self.move(found_only=True)
        if state is NavState.FAILED and self.pickup is not None:
            # Fell where no path leads (a pit, behind a wall): not worth waiting for.
            ctx.ignored.add(self.pickup)
            self.status = "drop unreachable"
        return out


FALL_LIMIT = 24        # cells a drop is followed down before its known position is taken as it is


def resting_cell(terrain: Terrain, at: Vec3) -> Pos:
    """Where a dropped item comes to rest: items fall, and a server need not send their motion
    (flying-squid never does on 1.8), so a drop seen in mid-air is looked for on the ground below."""
    x, y, z = math.floor(at.x), math.floor(at.y + 0.5 - 1e-6), math.floor(at.z)
    for _ in range(FALL_LIMIT):
        if not terrain.is_passable(x, y - 1, z) or terrain.is_water(x, y, z) or not terrain.is_known(x, y - 1, z):
            return (x, y, z)
        y -= 1
    return (math.floor(at.x), math.floor(at.y + 0.5 - 1e-6), math.floor(at.z))


def _nearest_item(snapshot: WorldSnapshot, at: Vec3, radius: float, ignored: set[int] | None = None
                  ) -> EntityView | None:
    best: EntityView | None = None
    for e in snapshot.entities:
        if e.kind == "item" and e.position.distance_to(at) <= radius and not (ignored and e.entity_id in ignored):
            if best is None or e.position.distance_to(at) < best.position.distance_to(at):
                best = e
    return best


class Collect(Executor):
    def __init__(self, choice: Choice, timeout: int, tick: int) -> None:
        super().__init__(choice, timeout, tick)
        self.before = 0
        self.goal_item: int | None = None

    def run(self, ctx: ExecContext) -> list[Action]:
        total = sum(ctx.counts().values())
        if self.goal_item is None:
            item = _nearest_item(ctx.snapshot, ctx.position, 16.0, ctx.ignored)
            if item is None:
                self.status = "no drops"
                return []
            self.goal_item = item.entity_id
            self.before = total
            # From the next cell a pickup reaches an item lying at its cell's centre (a block's
            # drop); one lying off centre (an animal's) may be too far: walk into its cell.
            at = item.position
            centred = abs(at.x % 1.0 - 0.5) <= PICKUP_SLACK and abs(at.z % 1.0 - 0.5) <= PICKUP_SLACK
            self.go(ctx, GoalNear(*resting_cell(ctx.terrain, at), 1.0 if centred else 0.0))
        if total > self.before:
            self.status = "ok"
            return []
        if not any(e.entity_id == self.goal_item for e in ctx.snapshot.entities):
            self.status = "ok" if total > self.before else "drop gone"
            return []
        out, state = self.move(found_only=True)
        if state is NavState.FAILED:
            self.status = "no path"
            ctx.ignored.add(self.goal_item)
        return out


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
                                             exposed=False)
                    if not far:
                        self.status = "no crafting table"
                        return []
                    self.go(ctx, GoalReach(*far[0][1], reach=3.5))
                out, state = self.move()
                if state is NavState.FAILED:
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
        self.waited = 0

    def run(self, ctx: ExecContext) -> list[Action]:
        if self.spot is None:
            self.spot = _place_spot(ctx)
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
            return ops + [acts.PlaceBlock(x, y, z, (x, y - 1, z), 1, self.item)]
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


class Smelt(Executor):
    """Walk to the furnace, put the raw input and fuel in, wait beside it, take the output."""

    def __init__(self, choice: Choice, timeout: int, tick: int, output: str) -> None:
        super().__init__(choice, timeout, tick)
        self.output = output
        self.furnace: Pos | None = None
        self.phase = "walk"
        self.before = 0
        self.other = False      # the furnace was busy with another output of ours: collect it, then load

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
            if job is not None and have - self.before >= job[1]:
                ctx.smelting.pop(self.furnace, None)
            return []
        if job is None:
            if self.other:        # the other job is out (cooked beef before the iron): now ours goes in
                self.other = False
                self.phase = "load"
                return []
            self.status = "no job"
            return []
        ready = min(job[1], (ctx.tick - job[2]) // SMELT_TICKS)
        if ready >= job[1] or (ready > 0 and (ctx.tick - job[2]) % SMELT_TICKS == 1):
            if ready >= job[1]:
                ctx.smelting.pop(self.furnace, None)
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


class Eat(Executor):
    """A meal (``engine.eating``, as ``!eat`` and the reflexes eat): the best food carried,
    ok when the food bar rose or the stack shrank; the hand is not given back (the next
    action takes what it needs)."""

    def __init__(self, choice: Choice, timeout: int, tick: int) -> None:
        super().__init__(choice, timeout, tick)
        self.meal: Meal | None = None

    def run(self, ctx: ExecContext) -> list[Action]:
        player = ctx.snapshot.player
        if self.meal is None:
            self.meal = Meal.of(ctx.snapshot, restore=False)
            if self.meal is None:
                self.status = "no food"
                return []
        out: list[Action] = list(self.meal.step(player.food, count_of(player.inventory, self.meal.food)))
        if self.meal.outcome is Outcome.ATE:
            self.status = "ok"
            out.append(ReleaseHeldItem())
        elif self.meal.outcome is Outcome.REFUSED:
            self.status = "not eaten"
        return out

    def cancel(self, why: str) -> list[Action]:
        was = self.status
        super().cancel(why)
        return list(self.meal.cancel()) if was is None and self.meal is not None else []


class Fight(Executor):
    def __init__(self, choice: Choice, timeout: int, tick: int, entity_id: int) -> None:
        super().__init__(choice, timeout, tick)
        self.entity_id = entity_id
        self.next_hit = 0
        self.armed = False

    def run(self, ctx: ExecContext) -> list[Action]:
        mob = next((e for e in ctx.snapshot.entities if e.entity_id == self.entity_id), None)
        if mob is None:
            self.status = "ok"
            return []
        if not self.armed:
            self.armed = True
            ops = hold(ctx, best_pickaxe(ctx.counts()))
            if ops:
                return ops
        if mob.position.distance_to(ctx.position) <= 3.0:
            if ctx.tick >= self.next_hit:
                self.next_hit = ctx.tick + 12
                return [acts.AttackEntity(self.entity_id)]
            return []
        p = mob.position
        if self.navigator is None or ctx.tick % 20 == 0:
            self.go(ctx, GoalNear(math.floor(p.x), math.floor(p.y + 0.5 - 1e-6), math.floor(p.z), 2.0), urgent=True)
        out, _ = self.move()
        return out


class Follow(Executor):
    """follow(name) / follow(): keep within FOLLOW_RADIUS of another player, as ``!follow`` does.

    Walks (a moving goal, re-planned as the player moves on) when farther than FOLLOW_RADIUS + 1,
    stands when close. Only a player in sight is followed; the nearest one is picked once, at the
    start, and followed by name from then on. Following until the time is up is success; losing
    sight of the player ends it ("out of sight")."""

    def __init__(self, choice: Choice, timeout: int, tick: int, name: str | None) -> None:
        super().__init__(choice, timeout, tick)
        self.player: str | None = name
        self.where: Vec3 | None = None
        self.close = False

    @property
    def waiting(self) -> bool:
        return self.close

    def _target(self, snapshot: WorldSnapshot) -> EntityView | None:
        me = snapshot.player.position
        players = [e for e in snapshot.entities if e.kind == "player" and e.name]
        if self.player is None:
            if not players or me is None:
                return None
            nearest = min(players, key=lambda e: e.position.distance_to(me))
            self.player = nearest.name
        wanted = (self.player or "").lower()
        return next((e for e in players if (e.name or "").lower() == wanted), None)

    def step(self, ctx: ExecContext) -> list[Action]:
        if self.status is None and ctx.tick >= self.deadline:
            self.status = "ok" if self._target(ctx.snapshot) is not None else "out of sight"
            return []
        return super().step(ctx)

    def run(self, ctx: ExecContext) -> list[Action]:
        target = self._target(ctx.snapshot)
        if target is None:
            self.status = "out of sight"
            return []
        self.where = target.position
        far = target.position.distance_to(ctx.position) > FOLLOW_RADIUS + 1.0
        nav = self.navigator
        if nav is None or nav.state is not NavState.MOVING or (nav.planner.plans > MAX_PLANS and far):
            if not far:
                self.close = True
                return []                        # close: stand (the autopilot sends the hold packet)
            self.close = False
            self.go(ctx, GoalFollow(lambda: self.where, FOLLOW_RADIUS))
        out, state = self.move()
        if state is NavState.FAILED:
            self.status = "no path"
        return out


BED_REACH = 2.5        # vanilla lets a player into a bed within 3 blocks across and 2 up or down
BED_RANGE = 48.0       # a bed this far is walked to
WAKE_WAIT = 200        # ticks from lying down to the morning at most (vanilla skips the night after 100)


class Sleep(Executor):
    """sleep: walk to the nearest bed, use it (use_item_on the bed), and sleep until the morning.

    The server answers a use of the bed with a sleeping pose, or refuses it ("you can only sleep at
    night", "monsters nearby", "too far away"). Either way the sign that counts is the clock: once
    everyone sleeps the server skips to the morning and sends the time, so the sleep is ok when the
    day comes back; still night WAKE_WAIT ticks after lying down, the bed was refused or others
    stay awake ("not asleep"). A bed used by day is refused at once ("only at night")."""

    def __init__(self, choice: Choice, timeout: int, tick: int) -> None:
        super().__init__(choice, timeout, tick)
        self.bed: Pos | None = None
        self.used_at: int | None = None

    def run(self, ctx: ExecContext) -> list[Action]:
        if self.used_at is not None:
            if ctx.day:
                self.status = "ok"                  # the night was slept through
            elif ctx.tick - self.used_at > WAKE_WAIT:
                self.status = "not asleep"
            return []
        if ctx.day:
            self.status = "only at night"
            return []
        if self.bed is None:
            found = ctx.finder.nearest("bed", ctx.position, radius=BED_RANGE, limit=1, exposed=False)
            if not found:
                self.status = "no bed"
                return []
            self.bed = self.target = found[0][1]
            self.go(ctx, GoalReach(*self.bed, reach=BED_REACH))
        out, state = self.move()
        if state is NavState.FAILED:
            self.status = "no path to the bed"
        elif state is NavState.ARRIVED:
            x, y, z = self.bed
            if ctx.finder.kind_at(x, y, z) != "bed":
                self.status = "bed gone"
                return out
            self.used_at = ctx.tick
            return out + [acts.UseBlock(x, y, z, 1)]
        return out


class Wait(Executor):
    """idle: stand still until the time is up."""

    def step(self, ctx: ExecContext) -> list[Action]:
        if self.status is None and ctx.tick >= self.deadline:
            self.status = "ok"
        return []

    @property
    def waiting(self) -> bool:
        return True

    def run(self, ctx: ExecContext) -> list[Action]:
        return []


def explore_goal(ctx: ExecContext) -> Goal | None:
    # Head for a random column 24 blocks away, inside the area the store has loaded
    # (none yet just after a respawn or a dimension change: nothing to explore toward).
    keys = list(ctx.terrain.store.keys())
    if not keys:
        return None
    xs = [k[0] for k in keys]
    zs = [k[2] for k in keys]
    lo_x, hi_x = min(xs) * 16 + 4, (max(xs) + 1) * 16 - 5
    lo_z, hi_z = min(zs) * 16 + 4, (max(zs) + 1) * 16 - 5
    angle = float(ctx.rng.uniform(0, 2 * math.pi))
    p = ctx.position
    x = int(min(max(p.x + 24 * math.cos(angle), lo_x), hi_x))
    z = int(min(max(p.z + 24 * math.sin(angle), lo_z), hi_z))
    return GoalXZ(x, z)


def flee_goal(ctx: ExecContext) -> Goal | None:
    p = ctx.position
    mobs = [e for e in ctx.snapshot.entities if e.hostile]
    if not mobs:
        return None
    m = min(mobs, key=lambda e: e.position.distance_to(p))
    return GoalAway(m.position.x, m.position.z, 16.0)


def aside_goal(ctx: ExecContext) -> Goal:
    p = ctx.position
    angle = float(ctx.rng.uniform(0, 2 * math.pi))
    return GoalNear(math.floor(p.x + 3 * math.cos(angle)), math.floor(p.y + 0.5), math.floor(p.z + 3 * math.sin(angle)), 1.5)


def _go_to(choice: Choice, timeout: int, tick: int) -> Executor:
    x, y, z = (int(v) for v in choice.args)
    return Walk(choice, timeout, tick, lambda ctx: GoalNear(x, y, z, 1.5))


ExecutorFactory = Callable[[Choice, int, int], Executor]   # (choice, timeout, tick) -> executor

# One entry per autopilot action (``catalog.CATALOG``; a test checks both name the same actions).
EXECUTORS: dict[ActionName, ExecutorFactory] = {
    ActionName.GATHER_WOOD: lambda c, timeout, tick: Mine(c, timeout, tick, "log"),
    ActionName.MINE_BLOCK: lambda c, timeout, tick: Mine(c, timeout, tick, str(c.args[0])),
    ActionName.COLLECT_DROPS: lambda c, timeout, tick: Collect(c, timeout, tick),
    ActionName.CRAFT: lambda c, timeout, tick: Craft(c, timeout, tick, str(c.args[0])),
    ActionName.SMELT: lambda c, timeout, tick: Smelt(c, timeout, tick, str(c.args[0])),
    ActionName.PLACE_BLOCK: lambda c, timeout, tick: Place(c, timeout, tick, str(c.args[0])),
    ActionName.EAT: lambda c, timeout, tick: Eat(c, timeout, tick),
    ActionName.FLEE: lambda c, timeout, tick: Walk(c, timeout, tick, flee_goal, sprint=True, urgent=True),
    ActionName.FIGHT: lambda c, timeout, tick: Fight(c, timeout, tick, int(c.args[0])),
    ActionName.EXPLORE: lambda c, timeout, tick: Walk(c, timeout, tick, explore_goal, enough=16.0),
    ActionName.GO_TO: _go_to,
    ActionName.SLEEP: lambda c, timeout, tick: Sleep(c, timeout, tick),
    ActionName.FOLLOW: lambda c, timeout, tick: Follow(c, timeout, tick, str(c.args[0]) if c.args else None),
    ActionName.IDLE: lambda c, timeout, tick: Wait(c, timeout, tick),
}


def make_executor(choice: Choice, timeout: int, tick: int) -> Executor:
    factory = EXECUTORS.get(choice.action)
    if factory is None:
        raise ValueError(f"no executor for {choice.label()}")
    return factory(choice, timeout, tick)


def step_aside(tick: int) -> Executor:
    return Walk(Choice(ActionName.GO_TO, ()), 100, tick, aside_goal)
