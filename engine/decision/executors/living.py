"""Keeping the body going: ``Eat``, ``Fight``, ``Follow``, ``Sleep`` and ``Wait`` (idle)."""
from __future__ import annotations

import math

from engine import actions as acts
from engine.actions import Action, ReleaseHeldItem
from engine.decision.catalog import Choice
from engine.decision.knowledge import best_pickaxe
from engine.decision.perception import GoalReach
from engine.eating import Meal, Outcome, count_of
from engine.control import FOLLOW_RADIUS
from engine.motion.goals import GoalFollow, GoalNear
from engine.motion.navigator import NavState
from engine.world.snapshot import EntityView, Vec3, WorldSnapshot
from engine.decision.executors.base import MAX_PLANS, ExecContext, Executor, Pos, hold

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


SHEAR_WAIT = 20        # ticks after the shears' click for the server's shorn flag


class Fight(Executor):
    """Walk up to a mob or game animal and hit it until it is gone; a woolly sheep, with shears
    carried, is sheared instead and left standing. The shearing drops 1-3 wool (vanilla
    ``Sheep.shear``) where a kill drops one, and the sheep grows it back: the fight ends ok when
    the server flags the sheep shorn (its metadata), and a shorn sheep is fought to the kill
    (its mutton)."""

    def __init__(self, choice: Choice, timeout: int, tick: int, entity_id: int) -> None:
        super().__init__(choice, timeout, tick)
        self.entity_id = entity_id
        self.next_hit = 0
        self.armed = False
        self.shorn = False  # the shears were used on it (or there was nothing to shear)
        self.shearing: int | None = None    # the tick of the shears' click

    def run(self, ctx: ExecContext) -> list[Action]:
        mob = next((e for e in ctx.snapshot.entities if e.entity_id == self.entity_id), None)
        if mob is None:
            self.status = "ok"
            return []
        if self.shearing is not None:
            if mob.sheared:
                self.status = "ok"
            elif ctx.tick - self.shearing > SHEAR_WAIT:
                self.status = "not sheared"
            return []
        close = mob.position.distance_to(ctx.position) <= 3.0
        if not self.shorn:
            if mob.kind.removeprefix("minecraft:") != "sheep" or mob.sheared or not ctx.counts().get("shears"):
                self.shorn = True
            elif close:
                ops = hold(ctx, "shears")
                if ops:
                    return ops
                self.shearing = ctx.tick
                return [acts.InteractEntity(self.entity_id)]
        if self.shorn and not self.armed:
            self.armed = True
            ops = hold(ctx, best_pickaxe(ctx.counts()))
            if ops:
                return ops
        if close:
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
