"""The proxy's side of the autopilot: providers and logs on a thread.

How this works: the engine's ``PilotSeat`` never does I/O. The proxy gives each
player's Session ``PilotSettings`` built here: provider factories (``mock``
always, ``api`` when a model service runs, ``replay`` when a decision log is
configured), a monotonic clock that bounds path planning per tick, and a sink
for episode logs. The ``api`` provider asks through the model runner the
Session was given (``proxy.agent.model_service``, the one the assistant's calls use);
its answers are polled by the autopilot on a later tick, and a late one is
discarded there. The sink copies nothing itself: the seat hands over a frozen
``EpisodeRecord``, and ``write`` runs in the reactor's thread pool, so the tick
never waits on the disk. An episode's final record carries the ground under its
track, taken from the player's live world model on the tick (the store is only
read there); it is written beside the logs as ``terrain.json`` for the replay page.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from twisted.internet.interfaces import IReactorThreads
from twisted.logger import Logger

from engine.decision.logs import episode_folder
from engine.decision.providers import ApiProvider, MockProvider, Provider, ReplayProvider
from engine.llm.runner import ModelRunner
from engine.pilot import EpisodeRecord, PilotSettings
from engine.world import terrain_record

if TYPE_CHECKING:
    from proxy.config import ProxyConfig
    from proxy.agent.model_service import ModelService

log = Logger(namespace="mcagent.autopilot")


class AutopilotHost:
    def __init__(self, config: ProxyConfig, reactor: Any, clock: Any, model_service: ModelService | None) -> None:
        self.config = config
        self.reactor = reactor
        self.clock = clock
        self.model_service = model_service
        self.records_written = 0
        self.write_errors = 0

    # -- settings per player -----------------------------------------------------------
    def settings(self, player: str) -> PilotSettings:
        auto = self.config.autopilot
        providers: dict[str, Callable[[ModelRunner | None], Provider | str]] = {"mock": lambda _: MockProvider()}
        unavailable: dict[str, str] = {}
        service = self.model_service
        client = service.client if service is not None else None
        no_service = "no model service is configured on this proxy (llm.enabled and an API key)"
        if service is not None and client is not None and self.config.llm.enabled:
            llm = service.runtime.llm

            def api(runner: ModelRunner | None) -> Provider | str:
                if runner is None:
                    return no_service
                return ApiProvider(runner, scope=f"autopilot:{player}", clock=self.clock.seconds, service=llm,
                                   player=f"{player} (autopilot)")

            providers["api"] = api
        else:
            unavailable["api"] = no_service
        replay_log = auto.replay_log
        if replay_log:
            providers["replay"] = lambda _: self._replay(replay_log)
        else:
            unavailable["replay"] = "no decision log is configured (autopilot.replay_log)"
        secrets: tuple[str, ...] = ()
        key = client.settings.api_key if client is not None else None
        if key is not None:
            secrets = (key.reveal(),)
        return PilotSettings(
            allowed=self.config.features.autopilot, providers=providers,
            default_provider=auto.provider if auto.provider in providers else "mock",
            clock=time.perf_counter, time_budget=auto.planning_ms_per_tick / 1000.0, secrets=secrets,
            sink=self.keep if auto.log_dir else None, unavailable=unavailable)

    @staticmethod
    def _replay(path: str) -> Provider | str:
        try:
            return ReplayProvider.from_file(path)
        except (OSError, ValueError) as exc:
            # The player sees that it failed, never the server's paths or our exception names.
            log.warn("cannot read the replay decision log {path}: {error}", path=path, error=str(exc))
            return "the configured decision log cannot be read (the proxy's log says why)"

    # -- logs ------------------------------------------------------------------------------
    def keep(self, record: EpisodeRecord) -> None:
        """The seat's sink: write in the thread pool (the record is a frozen copy)."""
        if IReactorThreads.providedBy(self.reactor):
            self.reactor.callInThread(self.write, record)
        else:  # a reactor without threads (Twisted's test fakes): write now
            self.write(record)

    def folder(self, record: EpisodeRecord) -> str:
        started = datetime.fromtimestamp(record.started_at, timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        return episode_folder(self.config.autopilot.log_dir or ".", record.player, f"{started}-episode{record.episode}")

    def write(self, record: EpisodeRecord) -> None:
        try:
            folder = self.folder(record)
            record.log().write(folder, dict(record.summary, final=record.final))
            terrain_record.write(folder, record.terrain)
            self.records_written += 1
        except (OSError, ValueError) as exc:
            self.write_errors += 1
            log.warn("could not write the autopilot log for {player}: {error}", player=record.player, error=str(exc))
