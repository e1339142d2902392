"""One simulated episode: SimWorld ↔ the real engine Session (reflexes) ↔ the Autopilot.

How this works: per tick, the world's server tick produces events, which the
Session consumes exactly as the proxy would feed it; ``Session.tick`` runs the
reflexes first (kill switch > reflex); on a tick no reflex drives, the
autopilot ticks (watchdog, then decision) and its movement is written back
into the Session's world model, as the Session does for its own drivers.
Every action goes to the world, which answers with more events. The
``jobs`` hook receives api requests to run off the tick path.
"""
from __future__ import annotations

import time
from collections.abc import Callable

import attrs

from engine import events as ev
from engine.actions import InjectMovement, SelectHotbar
from engine.decision.acts import AgentAction
from engine.decision.autopilot import Autopilot, AutopilotConfig
from engine.decision.ladder import NAMES
from engine.decision.logs import EpisodeLog
from engine.decision.providers import DecisionRequest, MockProvider, Provider
from engine.session import Session, SessionConfig
from engine.sim.world import VERSION, SimOptions, SimWorld

TICK = 0.05


@attrs.frozen
class EpisodeResult:
    seed: int
    ticks: int
    milestones: dict[str, int]            # milestone → first tick reached
    deaths: dict[str, int]                # cause → count
    watchdog: dict[str, int]              # watchdog event → count
    reflexes: dict[str, int]              # reflex → times it fired
    violations: int
    violation_rules: dict[str, int]
    decisions: int
    stale: int
    fallbacks: int
    fallback_reasons: dict[str, int]
    rejected: dict[str, int]
    decided: tuple[tuple[int, str], ...]
    seconds: float
    tick_costs: tuple[float, ...] = ()    # seconds per engine tick (Session + Autopilot), when measured

    @property
    def iron_pickaxe(self) -> int | None:
        return self.milestones.get("iron_pickaxe")

    def summary(self) -> dict[str, object]:
        return {"seed": self.seed, "ticks": self.ticks, "milestones": self.milestones, "deaths": self.deaths,
                "watchdog": self.watchdog, "reflexes": self.reflexes, "violations": self.violations,
                "decisions": self.decisions, "stale": self.stale, "fallbacks": self.fallbacks,
                "fallback_reasons": self.fallback_reasons, "rejected": self.rejected,
                "seconds": round(self.seconds, 3)}


def run_episode(seed: int, ticks: int = 10_000, provider: Provider | None = None,
                options: SimOptions = SimOptions(), log: EpisodeLog | None = None,
                jobs: Callable[[DecisionRequest], None] | None = None,
                clock: Callable[[], float] | None = None, pace: Callable[[int], None] | None = None,
                measure: bool = False, stop_when_done: bool = False,
                on_tick: Callable[[int, Autopilot], None] | None = None,
                config: AutopilotConfig | None = None) -> EpisodeResult:
    """``clock``: wall time for ``now`` (api runs against a real server); default the tick count × 50 ms.
    ``pace(t)``: called after each tick (e.g. sleep to real time). ``measure``: time each engine tick."""
    started = time.perf_counter()
    world = SimWorld(seed, options)
    session = Session("sim", SessionConfig(version=VERSION, reflexes=True))
    log = log if log is not None else EpisodeLog()
    t0 = clock() if clock is not None else 0.0
    for event in world.join_events():
        session.handle(event, t0)        # nothing to answer before the first tick
    terrain = session.control.terrain
    assert terrain is not None
    autopilot = Autopilot(provider or MockProvider(), terrain, config or AutopilotConfig(seed=seed), log)
    autopilot.start(0, t0)
    reflexes: dict[str, int] = {}
    costs: list[float] = []
    early: list[AgentAction] = []      # what the Session answered to events (reflexes react to packets)
    for t in range(1, ticks + 1):
        now = clock() if clock is not None else t * TICK
        for event in world.tick(t):
            early += session.handle(event, now)
        c0 = time.perf_counter() if measure else 0.0
        sent: list[AgentAction] = early + list(session.tick(now))
        early = []
        reflex = session.control.reflexes.active
        if session.control.reflex_driving or any(isinstance(a, InjectMovement) for a in sent):
            name = reflex.name if reflex is not None else "reflex"
            if autopilot.watchdog.state.value != "reflex_active":
                reflexes[name] = reflexes.get(name, 0) + 1
            sent += autopilot.reflex_active(name, t, now)
        else:
            own = autopilot.tick(session.snapshot(), t, now, day=not world.night)
            for action in own:
                if isinstance(action, InjectMovement):
                    session.world.apply(ev.PositionSet(action.x, action.y, action.z, action.yaw, action.pitch,
                                                       from_server=False, on_ground=action.on_ground))
                elif isinstance(action, SelectHotbar):
                    session.world.apply(ev.HeldSlotChanged(action.slot))
            sent += own
        if measure:
            costs.append(time.perf_counter() - c0)
        for event in world.apply(sent, t):
            early += session.handle(event, now)
        if jobs is not None:
            for request in autopilot.take_jobs():
                jobs(request)
        if on_tick is not None:
            on_tick(t, autopilot)
        if pace is not None:
            pace(t)
        if stop_when_done and autopilot.ladder.done:
            break
    milestones = {name: autopilot.ladder.first[name].tick for name in NAMES if name in autopilot.ladder.first}
    deaths: dict[str, int] = {}
    for _, cause in world.deaths:
        deaths[cause] = deaths.get(cause, 0) + 1
    rules: dict[str, int] = {}
    for v in world.checker.violations:
        rules[v.rule.value] = rules.get(v.rule.value, 0) + 1
    stats = autopilot.stats
    result = EpisodeResult(
        seed=seed, ticks=t, milestones=milestones, deaths=deaths, watchdog=dict(autopilot.watchdog.counts),
        reflexes=reflexes, violations=len(world.checker.violations), violation_rules=rules,
        decisions=stats.decisions, stale=stats.stale, fallbacks=stats.fallbacks,
        fallback_reasons=dict(stats.fallback_reasons), rejected=dict(world.rejected),
        decided=tuple(autopilot.decided), seconds=time.perf_counter() - started, tick_costs=tuple(costs))
    for tr in autopilot.watchdog.transitions:
        log.event({"kind": "watchdog", **tr.to_json()})
    return result
