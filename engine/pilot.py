"""The autopilot seat of one player's Session: on/off, which provider decides, and the episode logs.

How this works: the Session owns one ``PilotSeat``. ``!autopilot on`` makes an
``Autopilot`` (engine.decision) over the Session's terrain and starts an
episode; the Session then ticks it on every tick that neither the kill switch
nor a reflex owns (invariant 5). ``!autopilot off``, ``!stop`` and the kill
switch end the episode. The provider is chosen per player from the factories
the host offers (``mock`` always; ``api`` when a model service is configured;
``replay`` when a decision log is configured); switching it while running
drops any pending request (its state generation moves on).

Logs never touch the disk here: at the end of an episode, and every
``LOG_EVERY`` seconds while one runs, the seat copies the episode's bounded
logs into a frozen ``EpisodeRecord`` and hands it to the host's sink, which
writes it off the tick path. The final record also carries the ground under the
track (``engine.world.terrain_record``), computed here because the block store
may only be read on the tick's thread; the host writes it as ``terrain.json``.

    OFF ──on──► ON ──off / stop / kill switch / left──► OFF   (each ON is one episode)
"""
from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from engine.actions import Action
from engine.decision.autopilot import Autopilot, AutopilotConfig
from engine.decision.goals import DEFAULT_GOAL, Goal
from engine.decision.logs import EpisodeLog
from engine.decision.provider_names import PROVIDERS
from engine.decision.providers import MockProvider, Provider
from engine.llm.runner import ModelRunner
from engine.motion.astar import SearchOptions
from engine.world.terrain_record import terrain_record
from engine.motion.grid import Terrain

LOG_EVERY = 60.0          # seconds between log hand-offs while an episode runs


@attrs.frozen
class EpisodeRecord:
    """One episode's logs, copied on the tick so the host can write them from another thread."""

    player: str
    episode: int
    started_at: float
    final: bool
    decisions: tuple[dict[str, Any], ...]
    events: tuple[dict[str, Any], ...]
    summary: dict[str, Any]
    terrain: dict[str, Any] | None = None   # the final record's terrain.json (mcagent-terrain/1)

    def log(self) -> EpisodeLog:
        copy = EpisodeLog()
        copy.decisions.extend(self.decisions)
        copy.events.extend(self.events)
        return copy


def _mock(_runner: ModelRunner | None) -> Provider:
    return MockProvider()


@attrs.frozen
class PilotSettings:
    allowed: bool = True                          # the server owner's features.autopilot
    # Provider factories; each gets the session's model runner (the api provider asks through it).
    providers: Mapping[str, Callable[[ModelRunner | None], Provider | str]] = attrs.field(factory=lambda: {"mock": _mock})
    default_provider: str = "mock"
    # A monotonic clock that bounds planning time per tick (the proxy passes one); None keeps
    # runs deterministic, bounded by the node budget alone.
    clock: Callable[[], float] | None = None
    time_budget: float = 0.0015                   # seconds of path search per tick at most
    max_nodes: int = 2500
    secrets: tuple[str, ...] = ()
    sink: Callable[[EpisodeRecord], None] | None = None
    unavailable: Mapping[str, str] = attrs.field(factory=dict)   # provider → why the host cannot offer it
    # The simulator's exact autopilot configuration and log (deterministic seeds); the proxy leaves them unset.
    autopilot_config: AutopilotConfig | None = None
    log_factory: Callable[[], EpisodeLog] | None = None


class PilotSeat:
    def __init__(self, player: str, settings: PilotSettings | None = None, models: ModelRunner | None = None) -> None:
        self.player = player
        self.settings = settings or PilotSettings()
        self.models = models
        self.provider_name = self.settings.default_provider
        self.autopilot: Autopilot | None = None
        self.episodes = 0
        self._started_at = 0.0
        self._last_handoff = 0.0
        self._past_decisions: dict[str, int] = {}     # by action, from episodes before the current one
        self._told_milestones = 0
        self._told_deaths = 0

    @property
    def active(self) -> bool:
        return self.autopilot is not None and self.autopilot.enabled

    @property
    def progress(self) -> str | None:
        """The ladder's progress while an episode runs (or the last one's), None before any."""
        if self.autopilot is None:
            return None
        state = "on" if self.active else "off"
        return f"autopilot {state} ({self.provider_name}), {self.autopilot.progress}"

    def _provider(self, name: str) -> Provider | str:
        factory = self.settings.providers.get(name)
        if factory is None:
            return self.settings.unavailable.get(name, f"the {name} provider is not configured on this proxy")
        return factory(self.models)

    def start(self, terrain: Terrain, tick: int, now: float, goal: Goal = DEFAULT_GOAL,
              version: str | None = None) -> str | None:
        """Start an episode toward ``goal`` (checked by the caller); the reason when it cannot start."""
        if not self.settings.allowed:
            return "the server owner has switched the autopilot off on this proxy"
        if self.active:
            return None
        provider = self._provider(self.provider_name)
        if isinstance(provider, str):
            return provider
        s = self.settings
        config = s.autopilot_config
        if config is None:
            search = SearchOptions(max_nodes=s.max_nodes, time_budget=s.time_budget if s.clock is not None else 0.0)
            seed = zlib.crc32(f"{self.player}:{self.episodes}".encode())
            config = AutopilotConfig(search=search, seed=seed, clock=s.clock)
        config = attrs.evolve(config, version=version) if version is not None else config
        self.episodes += 1
        self._past_decisions = self.decision_counts()
        log = s.log_factory() if s.log_factory is not None else EpisodeLog(s.secrets)
        self.autopilot = Autopilot(provider, terrain, config, log, goal)
        self._told_milestones = self._told_deaths = 0
        self.autopilot.start(tick, now)
        self._started_at = self._last_handoff = now
        return None

    def stop(self, why: str, tick: int, now: float) -> list[Action]:
        autopilot = self.autopilot
        if autopilot is None or not autopilot.enabled:
            return []
        undo = autopilot.stop(why, tick, now)
        self._handoff(now, final=True)
        return undo

    def choose(self, name: str) -> str:
        """``!autopilot provider <name>``: the answer for the player."""
        if name not in PROVIDERS:
            return f"Unknown provider {name}; choose one of {', '.join(PROVIDERS)}."
        provider = self._provider(name)
        if isinstance(provider, str):
            return f"Cannot use the {name} provider: {provider}."
        self.provider_name = name
        autopilot = self.autopilot
        if autopilot is not None and autopilot.enabled:
            autopilot.provider = provider
            autopilot.pending = None
            autopilot.generation += 1          # an answer still on its way is for the old provider
            return f"The autopilot now decides with the {name} provider."
        return f"The autopilot will decide with the {name} provider."

    def after_tick(self, now: float) -> None:
        """Hand the logs over now and then."""
        autopilot = self.autopilot
        if autopilot is None:
            return
        if autopilot.enabled and now - self._last_handoff >= LOG_EVERY:
            self._handoff(now, final=False)

    def notices(self) -> list[tuple[str, bool]]:
        """What the player should hear since the last call: (text, keep it in the inbox too).
        Milestones are said once in chat; deaths are kept, as reflex notices are."""
        autopilot = self.autopilot
        if autopilot is None:
            return []
        out: list[tuple[str, bool]] = []
        reached = sorted(autopilot.ladder.first.values(), key=lambda m: (m.tick, m.index))
        total = len(autopilot.ladder.names)
        for m in reached[self._told_milestones:]:
            out.append((f"Autopilot: milestone {m.index + 1}/{total} reached ({m.name.replace('_', ' ')}).", False))
        self._told_milestones = len(reached)
        if autopilot.stats.deaths > self._told_deaths:
            out.append((f"Autopilot: you died ({autopilot.stats.deaths} so far); respawning and starting again "
                        f"from {autopilot.ladder.current or 'the first milestone'}.", True))
            self._told_deaths = autopilot.stats.deaths
        return out

    @property
    def finished(self) -> bool:
        """The ladder is done and the autopilot has nothing left to do for the body (it chose to
        idle: not hungry, not hurt without food to heal, no threat): it hands the player back fed,
        not at whatever health the last milestone found it."""
        autopilot = self.autopilot
        return self.active and autopilot is not None and autopilot.ladder.done and autopilot.idle

    def decision_counts(self) -> dict[str, int]:
        """Decisions applied, by action, over every episode of this player (for the metrics)."""
        counts = dict(self._past_decisions)
        if self.autopilot is not None:
            for _, label in self.autopilot.decided:
                action = label.partition("(")[0]
                counts[action] = counts.get(action, 0) + 1
        return counts

    def _handoff(self, now: float, final: bool) -> None:
        self._last_handoff = now
        sink, autopilot = self.settings.sink, self.autopilot
        if sink is None or autopilot is None:
            return
        stats = autopilot.stats
        ladder = autopilot.ladder
        summary: dict[str, Any] = {
            "player": self.player, "episode": self.episodes, "provider": self.provider_name,
            "seconds": round(now - self._started_at, 3), "progress": autopilot.progress,
            "milestones": {name: {"tick": m.tick, "t": round(m.now, 3)} for name, m in ladder.first.items()},
            "decisions": stats.decisions, "stale": stats.stale, "fallbacks": stats.fallbacks,
            "fallback_reasons": dict(stats.fallback_reasons), "outcomes": dict(stats.outcomes),
            "deaths": stats.deaths, "respawns": stats.respawns, "watchdog": dict(autopilot.watchdog.counts),
            "dropped_decisions": autopilot.log.dropped_decisions, "dropped_events": autopilot.log.dropped_events,
        }
        log = autopilot.log
        decisions = tuple(log.decisions)
        ground = autopilot.terrain
        terrain = terrain_record(ground.store, ground.table, decisions) if final else None
        sink(EpisodeRecord(self.player, self.episodes, self._started_at, final, decisions,
                           tuple(log.events), summary, terrain))
