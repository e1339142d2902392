"""Going underground for ore: ``MineOre``, "mine N of ore X", by stair and branch mining, safely.

How this works: the world model holds every block the server sent, buried ones too, so the
nearest known ore of the kind is the target; the player tunnels to it one cell at a time
(a step is to a horizontal neighbour, level, one down — a stair — or one up), digging the
cells the body needs, walking in, and digging the ore once it is beside the feet or the head
or above the head (never below the feet). With no ore known the player stairs down to the
version's ore level (``level``) and then branch-mines: a tunnel along one heading, turning
when it cannot go on.

    choose ──ore known──► step (dig cells, walk) ──ore beside──► ore (dig, pick up) ──► choose
      │   ──none, above the level──► stairs down ──► choose
      │   ──none, at the level──► branch ──► choose
      └── N mined ──► ok;  no safe step anywhere ──► failed("no safe way")

Safety (``unsafe``), checked for every block before it is dug and every cell before it is
stepped into: the block and its six neighbours must be known to the world model (a block
never seen may be lava), no neighbour may be lava or water (opening it would let it in),
and the floor of every cell stepped into must be a known solid block that is not a hazard
(no step drops into a cave or a lake), and no step digs the floor of a cell the body stood in
(the tunnel stays a stair it can walk back up, never a shaft). A target that cannot be reached by safe steps is
blacklisted and the next one chosen. Torches the player carries are set on the floor every
``TORCH_EVERY`` steps below ground, where monsters would spawn in the dark.

Anti-xray (Paper's engine-mode 2 sends fake ores): an ore that turns into stone as the
tunnel nears it (the server reveals the truth around each dig) or whose dig drops rock is
remembered as fake (``fakes``, and the shared blacklist), and the search goes on.
"""
from __future__ import annotations

import math

from engine import actions as acts
from engine.actions import Action
from engine.decision.catalog import Choice
from engine.decision.knowledge import BLOCKS, KINDS, PICKAXES, best_pickaxe
from engine.decision.executors.base import ExecContext, Executor, Pos, centre_move, hold, off_centre
from engine.decision.executors.gathering import _nearest_item, resting_cell
from engine.decision.executors.safety import edge_beyond, floor_unsafe, step_cells, unsafe
from engine.motion.cells import DAMAGE, EMPTY, FIRE, LAVA, SHAPE, UNKNOWN, WATER
from engine.motion.goals import GoalNear
from engine.motion.navigator import NavState
from engine.world.snapshot import Vec3

HEADINGS = ((1, 0), (0, 1), (-1, 0), (0, -1))
TORCH_EVERY = 8            # steps between torches below ground
SEARCH = 128.0             # blocks around the player an ore is looked for
BRANCH_TURN = 24           # a branch tunnel turns after this many steps
PICKUP_WAIT = 60
PICKUP_DELAY = 15          # ticks a drop is left to be picked up where the player stands
RECENT = 3                 # columns a stair down does not step back into
RECENT_PENALTY = 3.0
DIG_CONFIRM = 8            # ticks the server has to confirm a break
CENTRE_TICKS = 20          # ticks at most spent moving there
# Ores dug for below ground, by version family: the level a player branch-mines at (above
# the lava lakes). ``mine_block`` on one of these is a ``MineOre`` (stairs down, branch tunnels),
# not the surface ``Mine``.
DIAMOND_LEVEL = {"1.18": -54, "1.17": 11}
# Gold: 1.18's extra band at -64..-48; redstone: 1.18's lower band peaks at the bottom (-64), 1.17's
# lies between 0 and 15: both around the diamond level.
# Coal: the nearest known (an outcrop's, or one the tunnel passes); none known, branch-mining at
# y 32, under most surfaces (sea level 63) and above 1.18's deepslate, where its coal thins out.
COAL_LEVEL = {"1.18": 32, "1.17": 32}
UNDERGROUND_KINDS = {"diamond_ore": DIAMOND_LEVEL, "gold_ore": DIAMOND_LEVEL, "redstone_ore": DIAMOND_LEVEL,
                     "coal_ore": COAL_LEVEL}
ORE_TIMEOUT = 24_000       # ticks for a whole descent and search


def family(version: str | None) -> str:
    """``"1.18"`` (deepslate, the world below y 0) or ``"1.17"`` (before); the latest when unknown."""
    if not version:
        return "1.18"
    parts = [int(p) for p in version.split(".")[:2] if p.isdigit()]
    return "1.17" if len(parts) == 2 and tuple(parts) < (1, 18) else "1.18"


def ore_drops(kind: str) -> frozenset[str]:
    return frozenset(d for block in KINDS[kind] if block in BLOCKS for d in BLOCKS[block].drops)


def feet(ctx: ExecContext) -> Pos:
    p = ctx.position
    return (math.floor(p.x), math.floor(p.y + 1e-6), math.floor(p.z))


class MineOre(Executor):
    """Mine ``count`` blocks of an ore kind (``knowledge.KINDS``: coal_ore, iron_ore, gold_ore,
    diamond_ore), stair-mining down to ``level`` when none is known."""

    def __init__(self, choice: Choice, timeout: int, tick: int, kind: str, count: int, level: int) -> None:
        super().__init__(choice, timeout, tick)
        self.kind = kind
        self.count = count
        self.level = level
        self.drops = ore_drops(kind)
        self.phase = "choose"
        self.before: dict[str, int] | None = None
        self.mined = 0
        self.fakes: set[Pos] = set()            # ores that turned out to be rock
        self.refusals: dict[str, int] = {}      # why blocks were not dug or stepped on (for the log and tests)
        self.visited: set[Pos] = set()
        self.stood: set[Pos] = set()            # every cell the body stood in: their floors are the way back
        self.queue: list[Pos] = []              # blocks to dig before the next step
        self.next: Pos | None = None            # the cell the next step goes to
        self.digging: tuple[Pos, int] | None = None
        self.wait_until = 0
        self.heading = 0
        self.branch_steps = 0
        self.steps = 0
        self.torch_at = 0
        self.pending_torch: Pos | None = None     # a cell left behind to light
        self.target_budget = 0
        self.came_from: Pos | None = None
        self.behind: Pos | None = None
        self.recent: list[tuple[int, int]] = []  # columns of the last steps
        self._dug: set[Pos] = set()             # ores we dug (gone for that reason, not fake)
        self._mined_before = 0
        self._confirm = 0
        self._centring = 0                      # ticks spent moving to the middle of the cell

    # -- the state machine ---------------------------------------------------------------------------
    def run(self, ctx: ExecContext) -> list[Action]:
        counts = ctx.counts()
        if self.before is None:
            self.before = counts
            need = max((BLOCKS[b].tier for b in KINDS[self.kind] if b in BLOCKS), default=0)
            best = best_pickaxe(counts)
            if need and (best is None or PICKAXES[best][0] < need):
                self.status = f"needs a better pickaxe for {self.kind}"
                return []
        self.mined = sum(max(0, counts.get(d, 0) - self.before.get(d, 0)) for d in self.drops)
        if self.mined >= self.count:
            self.status = "ok"
            return []
        if self.digging is not None:
            return self._dig(ctx)
        if self.queue:
            return self._start_dig(ctx, self.queue[0])
        if self.next is not None:
            return self._walk(ctx)
        if self.pending_torch is not None:
            placed = self._torch(ctx, self.pending_torch)
            if placed:
                return placed
        if self.phase == "pickup":
            if ctx.tick < self.wait_until and self.mined == self._mined_before:
                return self._fetch(ctx)
            self.phase = "choose"
            self.navigator = None
            if self.mined == self._mined_before:
                self._refuse("drop not picked up")
        return self._choose(ctx)

    def _choose(self, ctx: ExecContext) -> list[Action]:
        at = feet(ctx)
        x, y, z = at
        if any(ctx.terrain.cell(x, yy, z) & (WATER | LAVA) for yy in (y, y + 1)):
            # In a pond (a push, a fall): every step would be refused for the water, and each
            # target blacklisted for it (seed 730000 under water lost every diamond that way).
            # The autopilot gets out first; the task is taken up again from dry ground.
            self.status = "in water or lava"
            return []
        if self._centring < CENTRE_TICKS and off_centre(ctx, at):
            # Over the edge of the cell the body stands on the neighbour's top as well, which a
            # stair down digs: the server then has the body standing on air (seed 900001, 1.18:
            # on_ground_lie). To the middle of the cell first, at walking speed.
            self._centring += 1
            return [centre_move(ctx, at)]
        self._centring = 0
        self.visited.add(at)
        target = self.target
        if target is not None and ctx.finder.kind_at(*target) != self.kind:
            if target not in self._dug:
                # It changed to rock without our dig: the server showed a fake ore (anti-xray).
                self.fakes.add(target)
                ctx.blacklist.add(target)
            target = self.target = None
        if target is None or self.target_budget <= 0:
            if target is not None:
                ctx.blacklist.add(target)
            target = self.target = self._nearest(ctx)
            self.visited = {at}
            if target is not None:
                self.target_budget = 3 * sum(abs(a - b) for a, b in zip(target, at)) + 24
        if target is not None:
            self.target_budget -= 1
            if self._beside(at, target):
                why = unsafe(ctx.terrain, *target)
                if why is None:
                    self._dug.add(target)
                    self._mined_before = self.mined
                    self.phase = "pickup"
                    self.wait_until = ctx.tick + PICKUP_WAIT
                    return self._start_dig(ctx, target)
                self._refuse(why)
                ctx.blacklist.add(target)
                self.target = None
                return []
            step = self._toward(ctx, at, target)
            if step is None:
                ctx.blacklist.add(target)
                self.target = None
                return []
            return self._begin_step(ctx, at, step)
        step = self._explore(ctx, at)
        if step is None:
            self.status = "no safe way"
            return []
        return self._begin_step(ctx, at, step)

    # -- choosing steps --------------------------------------------------------------------------------
    def _nearest(self, ctx: ExecContext) -> Pos | None:
        skip = ctx.blacklist | self.fakes
        found = ctx.finder.nearest(self.kind, ctx.position, radius=SEARCH, exposed=False, limit=1, skip=skip)
        return found[0][1] if found else None

    @staticmethod
    def _beside(at: Pos, ore: Pos) -> bool:
        """The ore can be dug from here: beside the feet or the head, or just above the head."""
        x, y, z = at
        ox, oy, oz = ore
        if (ox, oz) == (x, z):
            return oy == y + 2
        return abs(ox - x) + abs(oz - z) == 1 and oy in (y, y + 1)

    def _step_ok(self, ctx: ExecContext, at: Pos, to: Pos) -> bool:
        t = ctx.terrain
        why = floor_unsafe(t, *to) or edge_beyond(t, at, to)
        if why is None:
            for cell in step_cells(at, to):
                c = t.cell(*cell)
                if c & (WATER | LAVA | FIRE | DAMAGE):
                    why = "liquid in the way"
                elif c & SHAPE != EMPTY or c & UNKNOWN:
                    why = unsafe(t, *cell)
                    if why is None and (cell[0], cell[1] + 1, cell[2]) in self.stood:
                        # Digging the floor of a cell the body stood in opens a shaft under the
                        # way back (seed 910019: a level step back into the ore's column after
                        # each stair down dug a shaft 29 deep, no walk led out of it).
                        why = "floor of the way back"
                if why is not None:
                    break
        if why is not None:
            self._refuse(why)
            return False
        return True

    def _toward(self, ctx: ExecContext, at: Pos, target: Pos) -> Pos | None:
        x, y, z = at
        tx, ty, tz = target

        def cost(p: Pos) -> float:
            px, py, pz = p
            vertical = max(0, ty - (py + 1), py - ty)
            # Back into a column just left would open a shaft (a stair down digs the floor of
            # the step before): a staircase goes on, or turns, and a fall down it stays short.
            back = RECENT_PENALTY if (px, pz) in self.recent and py < y else 0.0
            return abs(px - tx) + abs(pz - tz) + vertical + (0.5 if (px, pz) == (tx, tz) else 0.0) + back

        def off_axis(p: Pos) -> int:
            # Among steps of equal cost, the one nearest the target's column: a stair down to an
            # ore far below then winds around its column instead of running off in a straight line
            # (the floors it stood on are never dug, so it cannot come back into a column it left).
            return (p[0] - tx) ** 2 + (p[2] - tz) ** 2

        options = [(x + dx, y + dy, z + dz) for dx, dz in HEADINGS for dy in (-1, 0, 1)]
        for step in sorted(options, key=lambda p: (cost(p), off_axis(p), p)):
            if step in self.visited:
                continue
            if self._step_ok(ctx, at, step):
                return step
        return None

    def _explore(self, ctx: ExecContext, at: Pos) -> Pos | None:
        """No ore known: stairs down to the level, then a branch tunnel along the heading."""
        x, y, z = at
        dy = -1 if y > self.level else 0
        if self.branch_steps >= BRANCH_TURN:
            self.heading = (self.heading + 1) % 4
            self.branch_steps = 0
        for turn in range(4):
            dx, dz = HEADINGS[(self.heading + turn) % 4]
            for ddy in ((dy, 0) if dy else (0,)):
                step = (x + dx, y + ddy, z + dz)
                if step not in self.visited and self._step_ok(ctx, at, step):
                    self.heading = (self.heading + turn) % 4
                    self.branch_steps += 1 if ddy == 0 else 0
                    return step
        return None

    def _begin_step(self, ctx: ExecContext, at: Pos, step: Pos) -> list[Action]:
        self.behind, self.came_from = self.came_from, at
        self.stood.add(at)
        self.recent = (self.recent + [(at[0], at[2])])[-RECENT:]
        self.queue = [c for c in step_cells(at, step) if ctx.terrain.cell(*c) & SHAPE != EMPTY]
        self.next = step
        self.steps += 1
        if self.queue:
            return self._start_dig(ctx, self.queue[0])
        return self._walk(ctx)

    # -- digging, walking, torches ------------------------------------------------------------------------
    def _start_dig(self, ctx: ExecContext, pos: Pos) -> list[Action]:
        t = ctx.terrain
        if t.cell(*pos) & SHAPE == EMPTY:
            if pos in self.queue:
                self.queue.remove(pos)
            return []
        why = unsafe(t, *pos)       # the world may have changed since the step was chosen
        if why is not None:
            self._refuse(why)
            self.queue, self.next = [], None
            if self.target is not None:
                ctx.blacklist.add(self.target)
                self.target = None
            return []
        name = t.table.name(t.store.get(*pos) or 0)
        rule = BLOCKS.get(name) if name is not None else None
        if rule is None or name is None:
            self._refuse("unbreakable")
            self.queue, self.next = [], None
            if self.target is not None:
                ctx.blacklist.add(self.target)
                self.target = None
            return []
        tool = best_pickaxe(ctx.counts()) if rule.tool == "pickaxe" else None
        ops = hold(ctx, tool) or []
        if ops:
            return ops
        ticks = ctx.dig_ticks(name) or 1
        self.digging = (pos, ctx.tick + ticks)
        self._dug.add(pos)
        return [acts.StartDigging(*pos), acts.SwingArm()]

    def _dig(self, ctx: ExecContext) -> list[Action]:
        assert self.digging is not None
        pos, until = self.digging
        if ctx.tick < until:
            return [acts.SwingArm()] if (until - ctx.tick) % 5 == 0 else []
        if ctx.tick == until:
            if self.phase == "pickup":
                self.wait_until = ctx.tick + PICKUP_WAIT
            self._confirm = ctx.tick + DIG_CONFIRM
            return [acts.FinishDigging(*pos)]
        if ctx.terrain.cell(*pos) & SHAPE == EMPTY:
            self.digging = None
            if pos in self.queue:
                self.queue.remove(pos)
            return []
        if ctx.tick >= self._confirm:
            self.digging = None
            self.status = "dig refused"
        return []

    def _walk(self, ctx: ExecContext) -> list[Action]:
        assert self.next is not None
        if self.navigator is None:
            self.go(ctx, GoalNear(*self.next, 0.0))
        out, state = self.move()
        if state is NavState.ARRIVED:
            self.navigator = None
            arrived, self.next = self.next, None
            self.visited.add(arrived)
            if self.steps - self.torch_at >= TORCH_EVERY:
                # Two cells back: the body may still overlap the cell it just left.
                self.pending_torch = self.behind
        elif state is NavState.FAILED:
            self.navigator = None
            self.next = None
            self._refuse("no path")
        return out

    def _torch(self, ctx: ExecContext, at: Pos) -> list[Action]:
        """A torch on the floor of the cell just left, when the player carries one and rock is
        overhead (in the open the sky lights the ground): [] when none is placed."""
        x, y, z = at
        t = ctx.terrain
        if floor_unsafe(t, x, y, z) is not None:
            self.pending_torch = None          # nothing to stand it on (a stair dug its floor)
            return []
        covered = any(t.cell(x, yy, z) & SHAPE != EMPTY for yy in range(y + 2, y + 24))
        ops = hold(ctx, "torch") if covered and t.cell(x, y, z) & SHAPE == EMPTY else None
        if ops:
            return ops               # in hand first, placed next tick
        self.pending_torch = None
        if ops is None:
            return []
        self.torch_at = self.steps
        return [acts.PlaceBlock(x, y, z, (x, y - 1, z), 1, "torch")]

    def _fetch(self, ctx: ExecContext) -> list[Action]:
        """The ore's drop not picked up where it fell: walk (no digging) onto the item nearest the ore."""
        if self.target is None or ctx.tick < self.wait_until - PICKUP_WAIT + PICKUP_DELAY:
            return []
        if self.navigator is None:
            item = _nearest_item(ctx.snapshot, Vec3(self.target[0] + 0.5, self.target[1], self.target[2] + 0.5),
                                 3.0, ctx.ignored)
            if item is None:
                return []
            self.go(ctx, GoalNear(*resting_cell(ctx.terrain, item.position), 0.0))
        out, state = self.move(found_only=True)
        return out

    def _refuse(self, why: str) -> None:
        self.refusals[why] = self.refusals.get(why, 0) + 1
