"""The Autopilot: Sense → Decide → Act for one player, one tick at a time.

How this works: the host (the Session, or the simulator's episode loop) calls
``tick(snapshot, tick, now, day)`` at 20 Hz when neither the kill switch nor a
reflex owns the tick, and ``reflex_active(...)`` on ticks a reflex drives.
Each tick, in order:

1. death: health ≤ 0 → the watchdog goes DEAD, the autopilot sends ``Respawn``;
   after the respawn the ladder resets to the first unmet milestone;
2. the ladder records milestones reached (a new one bumps the state generation);
3. the stuck watchdog: 45 s without movement or inventory change while it
   works (a task runs, or one ended and the next is chosen; idling and waiting
   on a model do not count) → cancel it, blacklist its target, step aside;
4. the running executor steps (one movement packet at most) and, when it ends,
   its outcome goes to the loop watchdog (3 failures in a row → suppressed 60 s);
5. with nothing running: a finished provider request is applied if its state
   generation is still current (else discarded and logged), re-checked against
   the legal actions (and, for the api provider, confidence ≥ 0.65) or replaced
   by the heuristic; with no request pending, a new one is asked. A hostile within
   3.5 blocks interrupts any running task but flee/fight first (the flee reflex may
   be cooling down), so the next decision can flee.

The provider is never waited for: an api request goes to the session's model
runner (``engine.llm.runner``) and is polled on later ticks; the tick goes on. Generations
bump on reflexes, milestones, deaths, respawns and inventory changes while a
request is pending, so a late answer about a world that moved on is dropped.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from engine.actions import Action, InjectMovement, Respawn
from engine.decision.catalog import CATALOG, GAME_SIGHT, HURT_SIGHT, ActionName, check_choice, healing_hurt, \
    legal_actions
from engine.decision.executors import BED_RANGE, JOB_RANGE, ExecContext, Executor, TABLE_RANGE, make_executor, \
    step_aside
from engine.decision.heuristic import Decision, heuristic
from engine.decision.goals import DEFAULT_GOAL, Goal, goal_ladder, resolve
from engine.decision.knowledge import GAME, GOAL_KINDS, KINDS, GATHERED_KINDS, LOOT, PLANTS, SHEARED_PREFIX
from engine.planning.planner import OutOfReach, Plan
from engine.decision.logs import EpisodeLog
from engine.decision.perception import BlockFinder, Query
from engine.decision.pit import ClimbOut, feet_cell, pillar_block, trapped
from engine.reflex.hostile import walled_in
from engine.decision.providers import MIN_CONFIDENCE, DecisionRequest, Provider
from engine.decision.state import DecisionState, inventory_counts
from engine.motion import physics as ph
from engine.motion.astar import SearchOptions
from engine.motion.grid import Terrain
from engine.watchdog.machine import Watchdog, WState
from engine.world.snapshot import Vec3, WorldSnapshot

SEARCH_RADIUS = 48.0
RESOURCES = ("log", "stone", "iron_ore")      # block kinds whose distance the decision state reports
GAME_PER_KIND = 3      # a goal's game in the decision state: the nearest few of each kind
PLAN_SLICE = 64
FOLLOW_SIGHT = 48.0          # other players this close are in the decision state (follow's targets)
THREAT_RADIUS = 3.5          # a hostile this close interrupts any task but fleeing or fighting


def game_in_sight(game: list[tuple[int, str, float]]) -> tuple[tuple[int, str, float], ...]:
    """A goal's game (nearest first) within GAME_SIGHT, the nearest GAME_PER_KIND of each kind: a
    sheep behind a herd of cows is still in the state."""
    kept: list[tuple[int, str, float]] = []
    for h in game:
        if h[2] <= GAME_SIGHT and sum(k == h[1] for _, k, _ in kept) < GAME_PER_KIND:
            kept.append(h)
    return tuple(kept)


@attrs.frozen
class AutopilotConfig:
    search: SearchOptions = SearchOptions(max_nodes=2500)
    request_timeout: float = 6.0          # seconds before a pending model request is given up (heuristic)
    seed: int = 0
    # Read only to bound planning time when ``search.time_budget`` is set (the proxy passes
    # a monotonic clock); None keeps runs deterministic, bounded by the node budget alone.
    clock: Callable[[], float] | None = None
    # Path search expansions per tick (``search.slice_nodes`` unless that is set): a longer
    # search goes on next tick while the body holds still, so no tick pays for a whole
    # 2,500-node search (a goal that turns out unreachable). The time budget, when there is
    # a clock, bounds each tick's slice too. None: every search runs to its end at once.
    plan_slice: int | None = PLAN_SLICE
    version: str | None = None            # the Minecraft version whose item names a goal's plan uses


@attrs.define
class AutopilotStats:
    decisions: int = 0
    stale: int = 0
    fallbacks: int = 0
    fallback_reasons: dict[str, int] = attrs.field(factory=dict)
    outcomes: dict[str, int] = attrs.field(factory=dict)
    deaths: int = 0
    respawns: int = 0

    def fallback(self, why: str) -> None:
        self.fallbacks += 1
        self.fallback_reasons[why] = self.fallback_reasons.get(why, 0) + 1


class Autopilot:
    def __init__(self, provider: Provider, terrain: Terrain, config: AutopilotConfig = AutopilotConfig(),
                 log: EpisodeLog | None = None, goal: Goal = DEFAULT_GOAL) -> None:
        self.provider = provider
        self.terrain = terrain
        self.config = config
        search = config.search
        if search.slice_nodes is None and config.plan_slice is not None:
            search = attrs.evolve(search, slice_nodes=config.plan_slice)
        self.search = search
        self.finder = BlockFinder(terrain)
        self.goal = goal
        # A goal's milestones are its plan from an empty inventory: what is carried at the start
        # counts as reached on the first tick, as the ladder's wood does for a player with logs.
        first = resolve(goal, {}, frozenset(), config.version) if goal != DEFAULT_GOAL else None
        self.ladder = goal_ladder(goal, first if isinstance(first, Plan) else None)
        self._counts: dict[str, int] = {}
        self.log = log if log is not None else EpisodeLog()
        # Every watchdog transition goes to episode_events.json as it happens (simulator and proxy).
        self.watchdog = Watchdog(listener=lambda tr: self.log.event({"kind": "watchdog", **tr.to_json()}))
        self.stats = AutopilotStats()
        self.rng = np.random.default_rng(config.seed)
        self.enabled = False
        self.executor: Executor | None = None
        self.recovering = False
        self.pending: DecisionRequest | None = None
        self.generation = 0
        self.seq = 0
        self.blacklist: set[tuple[int, int, int]] = set()
        self.smelting: dict[tuple[int, int, int], tuple[str, int, int]] = {}
        self.shelter: set[tuple[int, int, int]] = set()     # walls of a shelter still to reopen
        self.ignored: set[int] = set()
        self.decided: list[tuple[int, str]] = []          # (tick, choice label) of every applied decision
        self._dead = False
        self._last_sent: Vec3 | None = None
        self._pending_inventory: object = None
        self._fall_vy = 0.0
        self._known_memo: tuple[object, tuple[tuple[tuple[str, float], ...], bool, bool]] | None = None
        self._held: tuple[tuple[float, float, float, int], tuple[bool, bool]] | None = None
        self._threats_seen: frozenset[int] = frozenset()     # hostiles near when the running task began
        self._threats_sighted: frozenset[int] = frozenset()  # ... and within HURT_SIGHT
        self._pit_checked: tuple[tuple[int, int, int], int] | None = None   # (feet cell, store revision)

    # -- switching ---------------------------------------------------------------------------------
    def start(self, tick: int, now: float) -> None:
        self.enabled = True
        self.watchdog.enable(tick, now)
        extra = {"goal": self.goal.label} if self.goal != DEFAULT_GOAL else {}
        self._event("autopilot", tick, now, detail="on", provider=self.provider.name, **extra)

    def stop(self, why: str, tick: int, now: float) -> list[Action]:
        """The kill switch or ``!autopilot off``: stop at once; returns what undoes a half action."""
        out: list[Action] = []
        if self.executor is not None:
            out = self.executor.cancel("stopped")
            self._finished(self.executor, tick, now, counted=False)
        self.enabled = False
        self.pending = None
        self.generation += 1
        self.watchdog.kill(tick, now, why)
        self._event("autopilot", tick, now, detail=f"off: {why}")
        return out

    @property
    def idle(self) -> bool:
        """Idling by its own choice this tick (the heuristic idles only with nothing to do)."""
        return self.executor is not None and self.executor.choice.action == ActionName.IDLE

    @property
    def progress(self) -> str:
        text = self.ladder.progress_text()
        if self.goal == DEFAULT_GOAL or self.ladder.done:
            return text
        plan = self.plan()
        if isinstance(plan, OutOfReach):
            return f"{text}; out of reach now: {plan.reason}"
        steps = [s.text() for s in plan.steps]
        more = f" (+{len(steps) - 4} more)" if len(steps) > 4 else ""
        return f"goal {self.goal.label}, {text}; next: {'; '.join(steps[:4])}{more}"

    def plan(self) -> Plan | OutOfReach:
        """The goal's plan from what the player carries now and the blocks the world model knows near."""
        return resolve(self.goal, self._counts, self.seen_blocks(), self.config.version)

    def seen_blocks(self) -> frozenset[str]:
        """Block names the world model knows near the player (the kinds the executors gather, a
        crafting table or furnace within reach), from the last decision's search."""
        if self._known_memo is None:
            return frozenset()
        known, table, furnace = self._known_memo[1]
        names = {b for kind, _ in known if kind in GATHERED_KINDS for b in KINDS[kind]}
        names |= {"crafting_table"} if table else set()
        names |= {"furnace"} if furnace else set()
        return frozenset(names)

    # -- the tick ---------------------------------------------------------------------------------------
    def reflex_active(self, name: str, tick: int, now: float) -> list[Action]:
        """A reflex drives this tick: the running action is preempted, pending answers go stale."""
        if not self.enabled:
            return []
        out: list[Action] = []
        if self.watchdog.state in (WState.HEALTHY, WState.CLEARING_PATH):
            self.watchdog.reflex(True, tick, now, name)
            self.generation += 1
            if self.executor is not None:
                out = self.executor.cancel("preempted by reflex " + name)
                self._finished(self.executor, tick, now, counted=False)
        self._last_sent = None
        self._fall_vy = 0.0             # a reflex lets go with the body at rest
        return out

    def tick(self, snapshot: WorldSnapshot, tick: int, now: float, day: bool = True) -> list[Action]:
        if not self.enabled:
            return []
        player = snapshot.player
        pos = player.position
        if pos is None:
            return []
        if self.watchdog.state is WState.REFLEX_ACTIVE:
            self.watchdog.reflex(False, tick, now)
        counts = inventory_counts(player.inventory)
        self._counts = counts
        if player.health is not None and player.health <= 0:
            return self._death(tick, now)
        if self._dead:
            self._dead = False
            self.stats.respawns += 1
            self.watchdog.respawned(tick, now)
            self.ladder.reset(counts, frozenset())
            self.blacklist.clear()
            self.smelting.clear()
            self.shelter.clear()
            self.generation += 1
            self._event("respawned", tick, now, milestone=self.ladder.current)
        for reached in self.ladder.update(counts, frozenset(), tick, now):
            self.generation += 1
            self._event("milestone", tick, now, name=reached.name, index=reached.index + 1)
        if self.executor is not None and self._last_sent is not None and pos.distance_to(self._last_sent) > 1e-6:
            self.executor.resync(pos)
        self._last_sent = None
        ctx = ExecContext(snapshot, self.terrain, self.finder, tick, now, self.blacklist, self.search,
                          self.smelting, self.rng, self.ignored, self.config.clock, day, self.shelter)
        out: list[Action] = []
        # Working toward something: a task runs, or one ended and the next is chosen this tick
        # (the same task failing again and again without the body moving is what "stuck" is).
        # Idling by choice (or beside a followed player), or waiting on a model's answer, is not.
        running = not self.executor.waiting if self.executor is not None else self.pending is None
        inventory_key = tuple(sorted(counts.items()))
        if self.watchdog.observe(tick, now, pos, inventory_key, running) and self.executor is not None:
            target = self.executor.target
            if target is not None:
                self.blacklist.add(target)
            out += self.executor.cancel("stuck")
            self._finished(self.executor, tick, now)
            self.watchdog.recovering(tick, now, f"blacklisted {target}" if target else "step aside")
            self.executor = step_aside(tick)
            self.recovering = True
        if self.executor is not None and self._threatened(snapshot, pos, counts):
            # A hostile closing in while the flee reflex cools down: drop the task and decide
            # again now (the heuristic flees), rather than finish digging with a zombie at hand.
            out += self.executor.cancel("interrupted: hostile near")
            self._finished(self.executor, tick, now, counted=False)
            self.generation += 1
        if self.executor is None and not self._airborne(pos):
            # Decide only with the body at rest: a task started in mid-air would start its
            # walk from a standing body there (a new one every tick: a body hanging in the air).
            self.executor = self._climb_out(pos, counts, tick, now)
            if self.executor is None:
                self._decide(snapshot, counts, tick, now, day)
            if self.executor is not None:
                self._threats_seen = self._threat_ids(snapshot, pos)
                self._threats_sighted = self._threat_ids(snapshot, pos, HURT_SIGHT)
        if self.executor is not None:
            out += self.executor.step(ctx)
            if self.executor.status is not None:
                self._finished(self.executor, tick, now)
        if not any(isinstance(a, InjectMovement) for a in out):
            out.append(self._hold(snapshot, pos))
        for action in out:
            if isinstance(action, InjectMovement):
                self._last_sent = Vec3(action.x, action.y, action.z)
                # The body's vertical speed as the server saw it move: a hold packet next tick
                # (a task ended or stopped in the air) goes on with the arc from there, neither
                # hovering at the top of a jump nor rising from a stale speed.
                self._fall_vy = 0.0 if action.on_ground else (action.y - pos.y - ph.GRAVITY) * ph.DRAG
        return out

    def _hold(self, snapshot: WorldSnapshot, pos: Vec3) -> InjectMovement:
        """A packet for a tick no executor moves: in place on the ground, or falling by gravity.

        Sending one every tick (as vanilla clients send their idle packets) keeps the
        server's view of the body continuous, so a jump after a pause starts from a
        ground packet one tick earlier and a pause never leaves the body hanging in the air."""
        player = snapshot.player
        t = self.terrain
        key = (pos.x, pos.y, pos.z, t.store.revision)
        if self._held is not None and self._held[0] == key:
            held, supported = self._held[1]           # standing still: same answer as last tick
        else:
            supported = ph.supported(t, pos.x, pos.y, pos.z)
            held = supported or ph.medium(t, ph.Body(pos.x, pos.y, pos.z)) in ("water", "lava", "ladder")
            self._held = (key, (held, supported))
        if held:
            self._fall_vy = 0.0
            return InjectMovement(pos.x, pos.y, pos.z, player.yaw, player.pitch, supported)
        body = ph.advance(t, ph.Body(pos.x, pos.y, pos.z, self._fall_vy, False), ph.Controls()).body
        self._fall_vy = body.vy if not body.on_ground else 0.0
        return InjectMovement(body.x, body.y, body.z, player.yaw, player.pitch, body.on_ground)

    def _threatened(self, snapshot: WorldSnapshot, pos: Vec3, counts: dict[str, int]) -> bool:
        """A hostile came within THREAT_RADIUS (HURT_SIGHT for a player hurt and able to heal,
        ``catalog.healing_hurt``: the decision walls in or runs rather than work on) since the running task was chosen. One
        that was already there when it was chosen does not interrupt it again: the decision saw it
        (and could not flee: suppressed, no path), and choosing the same task again every tick
        would leave the body restarting its walk each tick."""
        executor = self.executor
        if executor is None or executor.choice.action in (ActionName.FLEE, ActionName.FIGHT) or self.recovering \
                or self._walled_in(pos):
            return False
        player = snapshot.player
        hurt = healing_hurt(player.health if player.health is not None else 20.0,
                            player.food if player.food is not None else 20, counts)
        if hurt and executor.choice.action is not ActionName.EAT:
            # A meal is the healing itself, and a zombie 16 blocks off needs far longer than one
            # takes: only one within THREAT_RADIUS cuts it short (seed 780031 at hard, 8.5 health:
            # nine meals cut short by a zombie at 16, each followed by a flight, until cornered).
            return bool(self._threat_ids(snapshot, pos, HURT_SIGHT) - self._threats_sighted)
        return bool(self._threat_ids(snapshot, pos) - self._threats_seen)

    def _walled_in(self, pos: Vec3) -> bool:
        return walled_in(self.terrain, *feet_cell(pos))

    @staticmethod
    def _threat_ids(snapshot: WorldSnapshot, pos: Vec3, radius: float = THREAT_RADIUS) -> frozenset[int]:
        return frozenset(e.entity_id for e in snapshot.entities
                         if e.hostile and e.position.distance_to(pos) <= radius)

    def _climb_out(self, pos: Vec3, counts: dict[str, int], tick: int, now: float) -> Executor | None:
        """Standing in a pit no walk leads out of (see ``engine.decision.pit``): pillar up before
        anything else, since every task would fail with "no path". Asked once per place and
        block store revision, so a pit that cannot be climbed is not tried again every tick."""
        key = (feet_cell(pos), self.terrain.store.revision)
        if key == self._pit_checked:
            return None
        self._pit_checked = key
        if not trapped(self.terrain, pos):
            return None
        item = pillar_block(counts)
        self._event("trapped", tick, now, at=list(key[0]), block=item)
        if item is None:
            return None
        return ClimbOut(tick, item)

    def _airborne(self, pos: Vec3) -> bool:
        """The body is in the air: neither supported nor in a fluid or on a ladder, over known cells
        (with nothing known under it yet, just after a join or a respawn, it is taken as standing)."""
        t = self.terrain
        return not ph.supported(t, pos.x, pos.y, pos.z) and not ph.support_unknown(t, pos.x, pos.y, pos.z) \
            and ph.medium(t, ph.Body(pos.x, pos.y, pos.z)) == "air"

    def _death(self, tick: int, now: float) -> list[Action]:
        if not self._dead:
            self._dead = True
            self.stats.deaths += 1
            if self.executor is not None:
                self.executor.cancel("died")
                self._finished(self.executor, tick, now, counted=False)
            self.pending = None
            self.generation += 1
            self.watchdog.died(tick, now)
            self._event("death", tick, now, milestone=self.ladder.current)
        if self.watchdog.state is WState.DEAD:
            self.watchdog.respawn_clicked(tick, now)
            return [Respawn()]
        return []

    def _finished(self, executor: Executor, tick: int, now: float, counted: bool = True) -> None:
        status = executor.status or "cancelled"
        ok = status == "ok"
        label = executor.choice.label()
        self.stats.outcomes[status] = self.stats.outcomes.get(status, 0) + 1
        self.log.decision({"kind": "outcome", "tick": tick, "choice": label, "outcome": status})
        if self.recovering:
            self.recovering = False
            self.watchdog.recovery_ended(tick, now)
        elif counted and self.watchdog.outcome(label, ok, tick, now):
            self._event("suppressed", tick, now, choice=label)
        self.executor = None

    # -- deciding -------------------------------------------------------------------------------------------
    def state(self, snapshot: WorldSnapshot, counts: dict[str, int], tick: int, day: bool) -> DecisionState:
        player = snapshot.player
        pos = player.position
        assert pos is not None
        known, table, furnace = self._blocks_known(pos)
        self._forget_lost_jobs(pos)
        hostiles = sorted(((e.entity_id, e.position.distance_to(pos)) for e in snapshot.entities if e.hostile),
                          key=lambda h: h[1])
        if self._walled_in(pos):
            # Out of every melee mob's reach (the flee reflex's rule too): nothing to flee or fight, and
            # the work goes on from behind the wall (a tunnel dug on leaves the mob on the other side).
            hostiles = []
        animals = sorted(((e.entity_id, e.position.distance_to(pos)) for e in snapshot.entities
                          if e.kind.removeprefix("minecraft:") in GAME and not e.hostile), key=lambda h: h[1])
        drops = sum(1 for e in snapshot.entities
                    if e.kind == "item" and e.entity_id not in self.ignored and e.position.distance_to(pos) <= 16.0)
        game: list[tuple[int, str, float]] = []
        if self.goal != DEFAULT_GOAL:
            # A shorn sheep is ``sheared_sheep`` (its loot is mutton only: ``loot_of``), so a goal
            # that shears for wool does not walk back to it.
            game = sorted(((e.entity_id, SHEARED_PREFIX * e.sheared + e.kind.removeprefix("minecraft:"),
                            e.position.distance_to(pos))
                           for e in snapshot.entities if e.kind.removeprefix("minecraft:") in LOOT and not e.hostile),
                          key=lambda h: h[2])
        return DecisionState(
            generation=self.generation, tick=tick,
            position=(math.floor(pos.x), math.floor(pos.y), math.floor(pos.z)),
            health=float(player.health if player.health is not None else 20.0),
            food=int(player.food if player.food is not None else 20), day=day,
            milestone=self.ladder.current, inventory=tuple(sorted(counts.items())), known=tuple(known),
            drops=drops, hostiles=tuple(h for h in hostiles if h[1] <= 16.0)[:4],
            table_near=table, furnace_near=furnace, smelting=bool(self.smelting),
            animals=tuple(h for h in animals if h[1] <= GAME_SIGHT)[:4],
            players=tuple((n, d) for n, d in snapshot.nearby_players() if d <= FOLLOW_SIGHT)[:4],
            goal=(self.goal.item, self.goal.count) if self.goal != DEFAULT_GOAL else None,
            game=game_in_sight(game))

    def _forget_lost_jobs(self, pos: Vec3) -> None:
        """Drop furnace jobs the player cannot go back to: the furnace is gone, or farther than
        JOB_RANGE (a reflex or the server moved the player away). A job kept is one the Smelt
        executor walks back to; a job forgotten lets the plan go on (another furnace) instead
        of waiting on a furnace it will never see again."""
        for at in list(self.smelting):
            x, y, z = at
            state = self.terrain.store.get(x, y, z)
            gone = state is not None and self.terrain.table.name(state) != "furnace"
            if gone or math.dist((x + 0.5, y + 0.5, z + 0.5), (pos.x, pos.y, pos.z)) > JOB_RANGE:
                del self.smelting[at]

    def _blocks_known(self, pos: Vec3) -> tuple[tuple[tuple[str, float], ...], bool, bool]:
        """Nearest log, stone and iron ore (distances), and whether a table and a furnace are near.

        One walk over the sections, remembered until the store, the position or the
        blacklist changes: an idle player deciding again costs nothing."""
        # A goal of its own looks for the surface kinds too (sand, cane, wheat...): the iron
        # pickaxe's states and legal lists stay what they were.
        kinds = RESOURCES if self.goal == DEFAULT_GOAL else RESOURCES + GOAL_KINDS
        key = (self.terrain.store.revision, pos.x, pos.y, pos.z, frozenset(self.blacklist), kinds)
        if self._known_memo is not None and self._known_memo[0] == key:
            return self._known_memo[1]
        queries = tuple(Query(kind, SEARCH_RADIUS, exposed=kind not in PLANTS, skip=self.blacklist) for kind in kinds) + (
            Query("crafting_table", TABLE_RANGE, exposed=False, skip=self.blacklist),
            Query("furnace", TABLE_RANGE, exposed=False),
            Query("bed", BED_RANGE, exposed=False, skip=self.blacklist))
        *resources, table, furnace, bed = self.finder.search(queries, pos)
        known = tuple((kind, hits[0][0]) for kind, hits in zip(kinds + ("bed",), resources + [bed]) if hits)
        answer = (known, bool(table), bool(furnace))
        self._known_memo = (key, answer)
        return answer

    def _decide(self, snapshot: WorldSnapshot, counts: dict[str, int], tick: int, now: float, day: bool) -> None:
        pending = self.pending
        if pending is not None:
            inventory_key = tuple(sorted(counts.items()))
            if inventory_key != self._pending_inventory:
                self.generation += 1
                self._pending_inventory = inventory_key
            if pending.done:
                self.pending = None
                if pending.generation != self.generation:
                    self.stats.stale += 1
                    self._record(pending, None, tick, now, applied=False, note="stale: state generation changed")
                else:
                    self._apply(pending, tick, now)
                    return
            elif now - pending.asked_at > self.config.request_timeout:
                self.pending = None
                self._record(pending, None, tick, now, applied=False, note="timed out")
                self._fallback(pending, "timeout", tick, now)
                return
            else:
                return
        state = self.state(snapshot, counts, tick, day)
        suppressed = self.watchdog.suppressed_now(now)
        legal = tuple(c for c in legal_actions(state) if c.label() not in suppressed)
        self.seq += 1
        request = self.provider.ask(state, legal, now, self.seq)
        if request.done:
            self._apply(request, tick, now)
            return
        self.pending = request
        self._pending_inventory = state.inventory

    def _apply(self, request: DecisionRequest, tick: int, now: float) -> None:
        decision = request.decision
        if decision is None:
            self._fallback(request, request.error or "no decision", tick, now)
            return
        choice = check_choice(decision.choice, request.legal)
        if choice is None:
            self._fallback(request, "illegal choice " + decision.choice.label(), tick, now)
            return
        if request.provider == "api" and decision.confidence < MIN_CONFIDENCE:
            self._fallback(request, "low confidence", tick, now)
            return
        self._start(request, decision, tick, now)

    def _fallback(self, request: DecisionRequest, why: str, tick: int, now: float) -> None:
        self.stats.fallback(why.split(":")[0].split(" ")[0] if why else "unknown")
        decision = heuristic(request.state, request.legal, "fallback")
        self._start(request, attrs.evolve(decision, reason=why[:60]), tick, now)

    def _start(self, request: DecisionRequest, decision: Decision, tick: int, now: float) -> None:
        self.stats.decisions += 1
        spec = CATALOG[decision.choice.action]
        self.executor = make_executor(decision.choice, spec.timeout, tick, self.config.version)
        self.decided.append((tick, decision.choice.label()))
        self._record(request, decision, tick, now, applied=True)

    def _record(self, request: DecisionRequest, decision: Decision | None, tick: int, now: float,
                applied: bool, note: str = "") -> None:
        latency = (request.answered_at - request.asked_at) if request.answered_at is not None else None
        record: dict[str, Any] = {
            "kind": "decision", "seq": request.seq, "tick": tick, "generation": request.generation,
            # What the provider saw (the model's prompt carries this JSON and the legal list), so a
            # line reads without the code; the digest is what a replay checks its own state against.
            "state": request.state.to_json(), "state_digest": request.state.digest(),
            "legal": [c.label() for c in request.legal],
            "provider": request.provider, "applied": applied,
            "latency": round(latency, 4) if latency is not None else None,
        }
        if decision is not None:
            record["decision"] = {"choice": decision.choice.action.value, "args": list(decision.choice.args),
                                  "confidence": decision.confidence, "urgency": decision.urgency,
                                  "source": decision.source, "reason": decision.reason}
        if note:
            record["note"] = note
            if request.error:
                record["error"] = request.error
        self.log.decision(record)

    def _event(self, kind: str, tick: int, now: float, **fields: Any) -> None:
        self.log.event({"kind": kind, "tick": tick, "t": round(now, 3), **fields})
