"""The Twisted side of the model service: the proxy's model runner (``engine.llm.runner``).

How this works: every player's Session is given this service (through
``for_player``) as its one ``ModelRunner``; the assistant's unsure requests
and the autopilot's ``api`` decisions both come here as ``run(call,
deliver)``. ``run`` starts the engine's ``ModelClient.complete(call)`` as a
task on the asyncio loop the reactor runs on (the loop is handed in at start;
``Deferred.fromFuture(asyncio.ensure_future(...))``) and returns at once, so
forwarding, keep-alives and the 20 Hz tick carry on while the call is out.
When the call ends, however it ends (an answer, a failure, an exception,
cancelled at shutdown), the outcome is counted and logged and
``deliver(reply, now)`` is called once, on the reactor thread: the Session
frees the call's slot and answers the player at its next tick (or drops the
answer if the player left), the autopilot resolves its request.

The key is read here (environment variable named in the config, else the
config file) and handed to the client inside a ``Secret``; log lines name the
outcome and the time, never the key or what the player said.
"""
from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

import httpx
from twisted.internet.defer import Deferred, succeed
from twisted.logger import Logger
from twisted.python.failure import Failure

from engine.llm.calls import Completion, FailureKind, ModelCall, ModelFailure, ModelReply
from engine.llm.client import ClientSettings, ModelClient
from engine.llm.runner import Deliver
from engine.llm.limits import LimitSettings
from engine.llm.modes import ConversationMode, ModeThresholds
from engine.llm.secrets import Secret, check_key, redact, scrub
from engine.llm.service import LlmSettings

if TYPE_CHECKING:
    from prometheus_client import Counter, Histogram

    from proxy.config import LlmConfig

log = Logger(namespace="mcagent.model")



class Metrics(Protocol):
    """What the model service and routing feed of the proxy's metrics
    (``proxy.operations.metrics.Metrics``), so the agent never imports operations."""

    model_calls: "Counter"  # labelled by outcome
    model_seconds: "Histogram"
    routing_seconds: "Histogram"


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
                             config.limits.daily_tokens, config.limits.per_player_concurrent,
                             config.limits.time_zone),
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
        metrics: Metrics | None = None,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self.runtime = runtime
        self.client = client
        self.reactor = reactor
        self.clock = clock if clock is not None else reactor
        self.loop = loop
        self._start = start or self._start_on_asyncio
        self.metrics = metrics
        self.in_flight: set[Deferred[Any]] = set()

    def _start_on_asyncio(self, call: ModelCall) -> "Deferred[ModelReply]":
        if self.loop is None or self.client is None:
            return succeed(ModelFailure(FailureKind.NOT_RUNNING, "the proxy is not running on the asyncio reactor"))
        future = asyncio.ensure_future(self.client.complete(call), loop=self.loop)
        return Deferred.fromFuture(future)

    def for_player(self, player: str) -> "PlayerRunner":
        """The runner a player's Session is given: this service, with the player named in its log lines."""
        return PlayerRunner(self, player)

    def run(self, call: ModelCall, deliver: Deliver, player: str = "") -> None:
        started = time.perf_counter()
        try:
            d = self._start(call)
        except Exception as exc:  # never let a model problem reach the packet path
            d = succeed(ModelFailure(FailureKind.NOT_RUNNING, type(exc).__name__))
        self.in_flight.add(d)
        d.addErrback(self._as_failure)
        d.addCallback(self._ended, call, deliver, started, player)
        d.addErrback(lambda f: log.failure("delivering a model answer to {player} failed", f, player=player))
        d.addBoth(lambda _: self.in_flight.discard(d))

    def _as_failure(self, failure: Failure) -> ModelReply:
        key = self.client.settings.api_key.reveal() if self.client and self.client.settings.api_key else None
        if failure.check(asyncio.CancelledError):
            return ModelFailure(FailureKind.NOT_RUNNING, "cancelled")
        return ModelFailure(FailureKind.BAD_RESPONSE, scrub(failure.getErrorMessage(), key)[:200])

    def _ended(self, reply: ModelReply, call: ModelCall, deliver: Deliver, started: float, player: str) -> None:
        now = self.clock.seconds()
        elapsed = time.perf_counter() - started
        outcome = "answered" if isinstance(reply, Completion) else reply.kind.value
        metrics = self.metrics
        if metrics is not None:
            metrics.model_calls.labels(outcome).inc()
            metrics.model_seconds.observe(elapsed)
        detail = "" if isinstance(reply, Completion) else f" ({reply.detail})"
        log.info("model {purpose} call for {player}: {outcome}{detail} in {ms:.0f} ms",
                 purpose=call.purpose.value, player=player or call.scope, outcome=outcome, detail=detail,
                 ms=elapsed * 1000)
        deliver(reply, now)

    def close(self) -> None:
        for d in list(self.in_flight):
            d.cancel()


class PlayerRunner:
    """``ModelService`` as one player's ``ModelRunner``."""

    def __init__(self, service: ModelService, player: str) -> None:
        self.service = service
        self.player = player

    def run(self, call: ModelCall, deliver: Deliver) -> None:
        self.service.run(call, deliver, self.player)


def build(runtime: Any, client_settings: ClientSettings, reactor: Any, metrics: Metrics | None = None,
          transport: httpx.AsyncBaseTransport | None = None) -> ModelService:
    client = ModelClient(client_settings, transport=transport)
    client.prepare()  # at start, so the first call of the game does not stall the reactor
    return ModelService(runtime, client, reactor, metrics=metrics, loop=reactor_loop(reactor))


def reactor_loop(reactor: Any) -> asyncio.AbstractEventLoop | None:
    """The asyncio loop the reactor runs on (the one set as the thread's loop when it was installed), or
    None for another reactor: then calls fail at once as "not running", and the player gets a card."""
    from twisted.internet.asyncioreactor import AsyncioSelectorReactor

    if not isinstance(reactor, AsyncioSelectorReactor):
        return None
    return asyncio.get_event_loop()
