"""``LlmService``: what the assistant needs to know about the model service.

Holds no key and does no I/O: whether a key is configured (and its
redacted form for diagnostics), the limits, the prompt settings, and the
counters. The assistant asks ``admit`` before returning an ``AskModel``
action; the proxy calls ``finished`` exactly once for every admitted call
when it ends, however it ends.
"""
from __future__ import annotations

from collections.abc import Sequence

import attrs

from engine.llm import prompt
from engine.llm.calls import ChatMessage, Completion, FailureKind, ModelCall, ModelFailure, ModelReply, ToolSpec
from engine.llm.client import DEFAULT_BASE_URL, DEFAULT_MODEL
from engine.llm.limits import Limit, LimitSettings, ModelLimits
from engine.llm.modes import ConversationMode, ModeThresholds
from engine.llm.tools import tool_specs
from engine.routing.model_hook import CatalogEntry, ModelRoutingRequest, RoutingTicket


@attrs.frozen
class LlmSettings:
    base_url: str = DEFAULT_BASE_URL
    model: str = DEFAULT_MODEL
    has_key: bool = False
    key_hint: str = "(none)"  # the redacted key, e.g. sk-…abcd
    key_source: str = ""      # where it came from: "env DEEPSEEK_API_KEY" or "config"
    timeout: float = 20.0
    route_max_tokens: int = 300
    chat_max_tokens: int = 400
    reply_chars: int = 600
    history_turns: int = 6
    default_mode: ConversationMode = ConversationMode.STANDARD
    free_chat: ModeThresholds = ModeThresholds()
    limits: LimitSettings = LimitSettings()


class LlmService:
    def __init__(self, settings: LlmSettings | None = None) -> None:
        self.settings = settings or LlmSettings()
        self.limits = ModelLimits(self.settings.limits)
        self.counters: dict[str, int] = {}
        self._tools_for: tuple[tuple[CatalogEntry, ...], tuple[ToolSpec, ...]] | None = None
        # Whose slots a call holds, by the call's scope (a scope belongs to one player).
        self._owners: dict[str, str] = {}

    @property
    def has_key(self) -> bool:
        return self.settings.has_key

    def count(self, outcome: str) -> None:
        self.counters[outcome] = self.counters.get(outcome, 0) + 1

    def admit(self, player: str, now: float, scope: str | None = None) -> Limit | None:
        """Reserve a call for ``player``; ``scope`` (the calls' scope) lets ``finished`` find the player."""
        refusal = self.limits.admit(player, now)
        self.count(f"refused_{refusal.value}" if refusal is not None else "sent")
        if refusal is None:
            if len(self._owners) > 4096:  # forget scopes whose player has nothing in flight
                self._owners = {k: p for k, p in self._owners.items() if self.limits.in_flight_for(p)}
            self._owners[scope if scope is not None else player] = player
        return refusal

    def finished(self, call: ModelCall, reply: ModelReply, now: float) -> None:
        tokens = reply.total_tokens if isinstance(reply, Completion) else 0
        self.limits.finish(self._owners.get(call.scope, call.scope), tokens, now)
        self.count("answered" if isinstance(reply, Completion) else f"failed_{reply.kind.value}")

    def tools(self, catalog: tuple[CatalogEntry, ...]) -> tuple[ToolSpec, ...]:
        # The catalog is the same tuple for every request of a start: build the specs once.
        cached = self._tools_for
        if cached is None or cached[0] != catalog:
            cached = (catalog, tool_specs(catalog))
            self._tools_for = cached
        return cached[1]

    def routing_call(
        self, request: ModelRoutingRequest, scope: str, language: str, mode: ConversationMode,
        history: Sequence[ChatMessage] = (),
    ) -> ModelCall:
        return prompt.routing_call(request, self.tools(request.catalog), scope, language, mode, history,
                                   self.settings.route_max_tokens)

    def chat_call(
        self, ticket: RoutingTicket, text: str, scope: str, language: str, mode: ConversationMode,
        history: Sequence[ChatMessage] = (),
    ) -> ModelCall:
        return prompt.chat_call(ticket, text, scope, language, mode, history, self.settings.chat_max_tokens)

    def status_lines(self, now: float) -> list[str]:
        s = self.settings
        key = f"key {s.key_hint} from {s.key_source}" if s.has_key else "no API key (requests get a card instead)"
        counters = ", ".join(f"{k}={v}" for k, v in sorted(self.counters.items())) or "none yet"
        return [
            f"model service: {s.model} at {s.base_url}, {key}, timeout {s.timeout:g}s",
            self.limits.status(now),
            f"model calls: {counters}",
        ]


def failure_message_key(reply: ModelFailure) -> str:
    return {
        FailureKind.TIMEOUT: "why.timeout",
        FailureKind.REFUSED: "why.refused",
        FailureKind.RATE_LIMITED: "why.unavailable",
        FailureKind.SERVER_ERROR: "why.unavailable",
        FailureKind.UNREACHABLE: "why.unavailable",
        FailureKind.BAD_RESPONSE: "why.unavailable",
        FailureKind.NOT_RUNNING: "why.unavailable",
    }[reply.kind]
