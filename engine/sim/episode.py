"""One simulated episode: SimWorld ↔ the real engine Session, with its autopilot switched on by chat.

How this works: the player "types" ``!autopilot on`` once, exactly as through
the proxy. Per tick, the world's server tick produces events, which the
Session consumes as the proxy would feed them; ``Session.tick`` runs the
reflexes first (kill switch > reflex) and, on a tick no reflex drives, the
autopilot (watchdog, then decision). The reflexes start off, as for a human player in
the proxy: all of them run under the autopilot, and its hand-back turns them on. Every action goes to the world, which
answers with more events. ``models`` is the Session's model runner for the
api provider (calls on a worker thread's loop, replies handed over once per
tick, as the proxy's reactor hands them over between ticks).
"""
from __future__ import annotations

import time
from collections.abc import Callable

import attrs

from engine import events as ev
from engine.actions import Action
from engine.decision.autopilot import Autopilot, AutopilotConfig
from engine.pilot import PilotSettings
from engine.decision.logs import EpisodeLog
from engine.decision.providers import MockProvider, Provider
from engine.llm.runner import AsyncioRunner
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
    pushes: dict[str, int] = attrs.field(factory=dict)     # a hazard episode's pushes: "surface" / "below" → count

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
                models: AsyncioRunner | None = None,
                clock: Callable[[], float] | None = None, pace: Callable[[int], None] | None = None,
                measure: bool = False, stop_when_done: bool = False,
                on_tick: Callable[[int, Autopilot], None] | None = None,
                config: AutopilotConfig | None = None, goal: str | None = None,
                on_end: Callable[[SimWorld], None] | None = None) -> EpisodeResult:
    """``clock``: wall time for ``now`` (api runs against a real server); default the tick count × 50 ms.
    ``pace(t)``: called after each tick (e.g. sleep to real time). ``measure``: time each engine tick.
    ``goal``: what ``!autopilot on`` is told to get ("16 torch"); None: the iron pickaxe.
    ``on_end(world)``: the world as the episode leaves it (the log writer reads its terrain)."""
    started = time.perf_counter()
    world = SimWorld(seed, options)
    log = log if log is not None else EpisodeLog()
    chosen = provider or MockProvider()
    pilot = PilotSettings(providers={chosen.name: lambda _runner: chosen}, default_provider=chosen.name,
                          autopilot_config=config or AutopilotConfig(
                              seed=seed, version="1.17" if options.underground == "1.17" else None), log_factory=lambda: log)
    # Reflexes off at the start, a human player's default in the proxy: under the autopilot every
    # reflex runs anyway, and the hand-back turns them on for the idle player (``--after-done``
    # plays that path, not reflexes that were on all along).
    session = Session("sim", SessionConfig(version=VERSION, reflexes=False), pilot=pilot, models=models)
    t0 = clock() if clock is not None else 0.0
    for event in world.join_events():
        session.handle(event, t0)        # nothing to answer before the first tick
    session.handle(ev.ChatTyped("!autopilot on" + (f" {goal}" if goal else "")), t0)
    autopilot = session.pilot.autopilot
    assert autopilot is not None and autopilot.enabled, "the autopilot did not start"
    costs: list[float] = []
    early: list[Action] = []      # what the Session answered to events (reflexes react to packets)
    for t in range(1, ticks + 1):
        now = clock() if clock is not None else t * TICK
        for event in world.tick(t):
            early += session.handle(event, now)
        c0 = time.perf_counter() if measure else 0.0
        sent: list[Action] = early + session.tick(now)
        early = []
        if measure:
            costs.append(time.perf_counter() - c0)
        for event in world.apply(sent, t):
            early += session.handle(event, now)
        if models is not None:
            models.deliver_ready()      # replies that came in during this tick, for the next one
        if on_tick is not None:
            on_tick(t, autopilot)
        if pace is not None:
            pace(t)
        if stop_when_done and autopilot.ladder.done and not session.pilot.active:
            break                     # handed back: done, and fed and safe enough to idle
    if on_end is not None:
        on_end(world)
    ladder = autopilot.ladder
    milestones = {name: ladder.first[name].tick for name in ladder.names if name in ladder.first}
    deaths: dict[str, int] = {}
    for _, cause in world.deaths:
        deaths[cause] = deaths.get(cause, 0) + 1
    rules: dict[str, int] = {}
    for v in world.checker.violations:
        rules[v.rule.value] = rules.get(v.rule.value, 0) + 1
    stats = autopilot.stats
    pushes: dict[str, int] = {}
    for _, where in world.pushes:
        pushes[where] = pushes.get(where, 0) + 1
    result = EpisodeResult(
        seed=seed, ticks=t, milestones=milestones, deaths=deaths, watchdog=dict(autopilot.watchdog.counts),
        reflexes=dict(session.reflex_firings), violations=len(world.checker.violations), violation_rules=rules,
        decisions=stats.decisions, stale=stats.stale, fallbacks=stats.fallbacks,
        fallback_reasons=dict(stats.fallback_reasons), rejected=dict(world.rejected),
        decided=tuple(autopilot.decided), seconds=time.perf_counter() - started, tick_costs=tuple(costs),
        pushes=pushes)
    return result
