"""Digging and picking up: ``Mine`` (gather_wood, mine_block) and ``Collect`` (collect_drops)."""
from __future__ import annotations

import math

from engine import actions as acts
from engine.actions import Action
from engine.decision.catalog import Choice
from engine.decision.knowledge import BLOCKS, PLANTS, best_pickaxe
from engine.decision.perception import GoalReach
from engine.motion.goals import GoalNear
from engine.motion.grid import Terrain
from engine.motion.navigator import NavState
from engine.world.snapshot import EntityView, Vec3, WorldSnapshot
from engine.decision.executors.base import ExecContext, Executor, Pos, hold
from engine.decision.executors.safety import sealed, unsafe

PICKUP_WAIT = 16
SAFE_CANDIDATES = 8    # nearest blocks of a kind looked at for one the safety rules allow
OPEN_CANDIDATES = 64   # looked at when the nearest are all seen through a buried cave (it has many walls)
PICKUP_SLACK = 0.3     # vanilla picks up within 1.3 blocks (the box grown by 1): 0.3 past the next cell


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
            exposed = self.kind not in PLANTS
            found = ctx.finder.nearest(self.kind, ctx.position, skip=ctx.blacklist, limit=SAFE_CANDIDATES,
                                       exposed=exposed)
            if self.kind != "log" and exposed and found and all(sealed(ctx.terrain, *f[1]) for f in found):
                # Seen only through a buried cave's air (the deep worlds send it): a walk never
                # reaches such a block, and the walk's partial paths never fail (seed 760004 under
                # lava walked 1,800 ticks at cave walls 8 below spawn and never dug one).
                wider = ctx.finder.nearest(self.kind, ctx.position, skip=ctx.blacklist, limit=OPEN_CANDIDATES)
                found = sorted(wider, key=lambda f: sealed(ctx.terrain, *f[1]))[:SAFE_CANDIDATES]
            if self.kind != "log":
                # Stone and ore beside water or lava, or beside blocks never seen, are left alone:
                # seed 700025 dug a pond's floor from its edge, swam over its own drops and died
                # under lava at 5 health. (Logs stand in the open: a pond beside a trunk is harmless.)
                for _, pos in found:
                    if unsafe(ctx.terrain, *pos) is not None:
                        ctx.blacklist.add(pos)
                found = [f for f in found if f[1] not in ctx.blacklist]
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
            ticks = ctx.dig_ticks(name)
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

    def step(self, ctx: ExecContext) -> list[Action]:
        out = super().step(ctx)
        if self.status == "timeout" and self.goal_item is not None:
            # Walked the whole time and never got it (lying under the water the player swims
            # on, seed 700025): not tried again, or three timeouts eat 900 ticks.
            ctx.ignored.add(self.goal_item)
        return out

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
