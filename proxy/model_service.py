"""The Twisted side of the model service: run the engine's model calls off the tick path.

How this works: ``Bridge.perform`` hands each ``AskModel`` action to
``ModelService.ask(bridge, action)``. ``ask`` starts the engine's
``ModelClient.complete(call)`` as a task on the asyncio loop the reactor runs
on (``Deferred.fromFuture(asyncio.ensure_future(...))``) and returns at once,
so forwarding, keep-alives and the 20 Hz tick carry on while the call is out.
When the call ends, however it ends:

1. ``runtime.model_finished(call, reply, now)``: the concurrency slot is
   freed and the tokens counted, whether or not anyone still waits;
2. if the same player is still in play with the same assistant,
   ``assistant.model_answered(call, reply, snapshot, now)`` re-checks the
   answer against the player's current state and the bridge performs what it
   returns; otherwise the reply is discarded (a late decision for a stale
   state never lands).

The key is read here (environment variable named in the config, else the
config file) and handed to the client inside a ``Secret``; log lines name the
outcome and the time, never the key or what the player said.
"""
from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import httpx
from twisted.internet.defer import Deferred, succeed
from twisted.logger import Logger
from twisted.python.failure import Failure

from engine.actions import AskModel
from engine.llm.calls import Completion, FailureKind, ModelCall, ModelFailure, ModelReply
from engine.llm.client import ClientSettings, ModelClient
from engine.llm.limits import LimitSettings
from engine.llm.modes import ConversationMode, ModeThresholds
from engine.llm.secrets import Secret, check_key, redact, scrub
from engine.llm.service import LlmService, LlmSettings

if TYPE_CHECKING:
    from proxy.bridge import Bridge
    from proxy.config import LlmConfig

log = Logger(namespace="mcagent.model")

ENV_BASE_URL = "MCAGENT_LLM_BASE_URL"
ENV_MODEL = "MCAGENT_LLM_MODEL"


def resolve(config: "LlmConfig", environ: Mapping[str, str] | None = None) -> tuple[LlmSettings, ClientSettings]:
    """The engine's settings and the client's (with the key) from the config and the environment."""
    env = os.environ if environ is None else environ
    base_url = env.get(ENV_BASE_URL) or config.base_url
    model = env.get(ENV_MODEL) or config.model
    key = env.get(config.api_key_env, "").strip()
    source = f"env {config.api_key_env}"
    if not key and config.api_key is not None:
        key, source = config.api_key.get_secret_value().strip(), "config"
    check_key(key, source if source != "config" else "the config's llm.api_key")
    secret = Secret(key) if key else None
    llm = LlmSettings(
        base_url=base_url, model=model, has_key=secret is not None, key_hint=redact(key) if key else "(none)",
        key_source=source if key else "", timeout=config.timeout_seconds,
        route_max_tokens=config.route_max_tokens, chat_max_tokens=config.chat_max_tokens,
        reply_chars=config.reply_characters, history_turns=config.history_turns,
        default_mode=ConversationMode(config.default_mode),
        free_chat=ModeThresholds(config.free_chat_threshold.score, config.free_chat_threshold.margin),
        limits=LimitSettings(config.limits.requests_per_minute, config.limits.max_concurrent,
                             config.limits.daily_tokens, config.limits.per_player_concurrent),
    )
    client = ClientSettings(base_url=base_url, model=model, api_key=secret, timeout=config.timeout_seconds,
                            backoff=config.retry_backoff_seconds)
    return llm, client


Starter = Callable[[ModelCall], "Deferred[ModelReply]"]


class ModelService:
    def __init__(
        self,
        runtime: Any,
        client: ModelClient | None,
        reactor: Any,
        clock: Any = None,
        start: Starter | None = None,
        metrics: Callable[[], Any] = lambda: None,
    ) -> None:
        self.runtime = runtime
        self.client = client
        self.reactor = reactor
        self.clock = clock if clock is not None else reactor
        self._start = start or self._start_on_asyncio
        self._metrics = metrics
        self.in_flight: set[Deferred[Any]] = set()
        self.delivered = 0
        self.discarded = 0

    def _start_on_asyncio(self, call: ModelCall) -> "Deferred[ModelReply]":
        loop = getattr(self.reactor, "_asyncioEventloop", None)
        if loop is None or self.client is None:
            return succeed(ModelFailure(FailureKind.NOT_RUNNING, "the proxy is not running on the asyncio reactor"))
        future = asyncio.ensure_future(self.client.complete(call), loop=loop)
        return Deferred.fromFuture(future)

    def ask(self, bridge: "Bridge", action: AskModel) -> None:
        session = bridge.session
        assistant = session.assistant if session is not None else None
        call = action.call
        started = time.perf_counter()
        try:
            d = self._start(call)
        except Exception as exc:  # never let a model problem reach the packet path
            d = succeed(ModelFailure(FailureKind.NOT_RUNNING, type(exc).__name__))
        self.in_flight.add(d)
        d.addErrback(self._as_failure)
        d.addCallback(self._deliver, bridge, assistant, call, started)
        d.addErrback(lambda f: log.failure("delivering a model answer to {player} failed", f,
                                           player=bridge.player_name))
        d.addBoth(lambda _: self.in_flight.discard(d))

    def _as_failure(self, failure: Failure) -> ModelReply:
        key = self.client.settings.api_key.reveal() if self.client and self.client.settings.api_key else None
        if failure.check(asyncio.CancelledError):
            return ModelFailure(FailureKind.NOT_RUNNING, "cancelled")
        return ModelFailure(FailureKind.BAD_RESPONSE, scrub(failure.getErrorMessage(), key)[:200])

    def _deliver(self, reply: ModelReply, bridge: "Bridge", assistant: Any, call: ModelCall, started: float) -> None:
        from proxy.bridge import PLAY

        now = self.clock.seconds()
        elapsed = time.perf_counter() - started
        self.runtime.model_finished(call, reply, now)
        outcome = "answered" if isinstance(reply, Completion) else reply.kind.value
        metrics = self._metrics()
        if metrics is not None:
            metrics.model_calls.labels(outcome).inc()
            metrics.model_seconds.observe(elapsed)
        detail = "" if isinstance(reply, Completion) else f" ({reply.detail})"
        log.info("model {purpose} call for {player}: {outcome}{detail} in {ms:.0f} ms",
                 purpose=call.purpose.value, player=bridge.player_name, outcome=outcome, detail=detail,
                 ms=elapsed * 1000)
        session = bridge.session
        if bridge.state != PLAY or session is None or assistant is None or session.assistant is not assistant:
            self.discarded += 1
            log.info("model answer for {player} discarded: the player left", player=bridge.player_name)
            return
        actions = assistant.model_answered(call, reply, session.snapshot(), now)
        if not actions:
            self.discarded += 1
            return
        self.delivered += 1
        bridge.perform(actions)

    def close(self) -> None:
        for d in list(self.in_flight):
            d.cancel()


def build(runtime: Any, client_settings: ClientSettings, reactor: Any, server: Any = None,
          transport: httpx.AsyncBaseTransport | None = None) -> ModelService:
    client = ModelClient(client_settings, transport=transport)
    client.prepare()  # at start, so the first call of the game does not stall the reactor
    metrics = (lambda: getattr(server, "metrics", None)) if server is not None else (lambda: None)
    return ModelService(runtime, client, reactor, clock=getattr(server, "clock", None), metrics=metrics)


def unavailable(bridge: "Bridge", action: AskModel) -> None:
    """No model service in this process (tests, embedding): the player gets what a failed call gives."""
    session = bridge.session
    if session is None or session.assistant is None:
        return
    reply = ModelFailure(FailureKind.NOT_RUNNING, "no model service in this process")
    runtime = getattr(session.assistant, "runtime", None)
    now = bridge.server.clock.seconds()
    if runtime is not None:
        runtime.model_finished(action.call, reply, now)
    bridge.perform(session.assistant.model_answered(action.call, reply, session.snapshot(), now))
