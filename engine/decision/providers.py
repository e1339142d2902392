"""Decision providers: ``mock`` (the heuristic), ``replay`` (a recorded log), ``api`` (a model service).

How this works: ``ask(state, legal, now)`` never blocks; it returns a
``DecisionRequest``. Mock and replay requests are resolved on the spot. An
api request hands a chat-completions call (the concise JSON state and the
legal actions) to the session's model runner (``engine.llm.runner``, the one
the assistant's calls use too); when the runner delivers the reply, the
typed decision ``{choice, args, confidence, urgency}`` is parsed and the
request resolved. The
autopilot polls ``done`` each tick, checks the request's state generation
(stale → discarded, logged) and falls back to the heuristic when the model's
confidence is below 0.65, its answer is not a legal choice, or it failed.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, Protocol

import attrs

from engine.decision.catalog import ActionName, Choice
from engine.decision.heuristic import Decision, heuristic
from engine.decision.state import DecisionState
from engine.llm.calls import CallPurpose, ChatMessage, Completion, ModelCall, ModelReply
from engine.llm.runner import ModelRunner
from engine.llm.service import LlmService
from engine.routing.model_hook import RoutingTicket

MIN_CONFIDENCE = 0.65


class DecisionRequest:
    def __init__(self, seq: int, generation: int, state: DecisionState, legal: tuple[Choice, ...], asked_at: float,
                 provider: str) -> None:
        self.seq = seq
        self.generation = generation
        self.state = state
        self.legal = legal
        self.asked_at = asked_at
        self.provider = provider
        self.decision: Decision | None = None
        self.error: str | None = None
        self.done = False
        self.answered_at: float | None = None

    def resolve(self, decision: Decision, now: float) -> None:
        if not self.done:
            self.decision, self.done, self.answered_at = decision, True, now

    def fail(self, error: str, now: float) -> None:
        if not self.done:
            self.error, self.done, self.answered_at = error, True, now


class Provider(Protocol):
    name: str

    def ask(self, state: DecisionState, legal: tuple[Choice, ...], now: float, seq: int) -> DecisionRequest:
        ...


class MockProvider:
    name = "mock"

    def ask(self, state: DecisionState, legal: tuple[Choice, ...], now: float, seq: int) -> DecisionRequest:
        request = DecisionRequest(seq, state.generation, state, legal, now, self.name)
        request.resolve(heuristic(state, legal, "mock"), now)
        return request


def decision_from_json(data: dict[str, Any], source: str) -> Decision:
    """The typed decision from a log record or a model's JSON; raises ValueError when malformed."""
    try:
        action = ActionName.named(str(data["choice"]))
        raw_args = data.get("args") or []
        if isinstance(raw_args, dict):
            raw_args = list(raw_args.values())
        args = tuple(a if isinstance(a, int) and not isinstance(a, bool) else str(a) for a in raw_args)
        if action == ActionName.GO_TO:
            args = tuple(int(float(a)) for a in args)
        confidence = float(data.get("confidence", 0.0))
        urgency = float(data.get("urgency", 0.0))
    except (KeyError, TypeError) as exc:
        raise ValueError(f"malformed decision: {exc}") from None
    if not (0.0 <= confidence <= 1.0):
        raise ValueError("confidence out of range")
    return Decision(Choice(action, args), confidence, urgency, source, str(data.get("reason", ""))[:80])


class ReplayProvider:
    """Decisions in the order a ``decision_log.jsonl`` recorded them."""

    name = "replay"

    def __init__(self, records: Iterable[dict[str, Any]]) -> None:
        self.records = [r for r in records if r.get("kind") == "decision" and r.get("applied")]
        self.index = 0
        self.mismatches = 0

    @staticmethod
    def from_file(path: str) -> "ReplayProvider":
        with open(path, encoding="utf-8") as f:
            return ReplayProvider(json.loads(line) for line in f if line.strip())

    def ask(self, state: DecisionState, legal: tuple[Choice, ...], now: float, seq: int) -> DecisionRequest:
        request = DecisionRequest(seq, state.generation, state, legal, now, self.name)
        if self.index >= len(self.records):
            request.fail("replay log exhausted", now)
            return request
        record = self.records[self.index]
        self.index += 1
        # Logs before the state itself was logged kept only its digest, under "state".
        digest = record.get("state_digest", record.get("state"))
        if digest != state.digest():
            self.mismatches += 1
        request.resolve(attrs.evolve(decision_from_json(record["decision"], "replay"), source="replay"), now)
        return request


SYSTEM_PROMPT = (
    "You choose the next action of a Minecraft survival agent working toward an iron pickaxe. "
    "Reply with one JSON object only: {\"choice\": <action name>, \"args\": [..], "
    "\"confidence\": 0..1, \"urgency\": 0..1}. The choice must be one of the legal actions given."
)


def state_message(state: DecisionState, legal: tuple[Choice, ...]) -> str:
    body = {"state": state.to_json(),
            "legal": [{"choice": c.action.value, "args": list(c.args)} for c in legal]}
    return json.dumps(body, separators=(",", ":"))


def parse_reply(content: str) -> dict[str, Any]:
    text = content.strip()
    if text.startswith("```"):
        text = text.strip("`").removeprefix("json").strip()
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        raise ValueError("no JSON object in the reply")
    data = json.loads(text[start:end + 1])
    if not isinstance(data, dict):
        raise ValueError("the reply is not an object")
    return data


class ApiProvider:
    """Ask an OpenAI-compatible model service (``engine.llm``), through the session's model runner, for each decision."""

    name = "api"

    def __init__(self, runner: ModelRunner, scope: str = "autopilot", clock: Callable[[], float] | None = None,
                 max_tokens: int = 120, service: LlmService | None = None, player: str | None = None) -> None:
        self.runner = runner
        self.scope = scope
        self.clock = clock
        self.max_tokens = max_tokens
        # The proxy's model service: its limits (calls in flight, daily tokens, and requests per
        # minute keyed by ``player``, which the proxy keeps apart from the player's own questions)
        # count the autopilot's calls like every other call.
        self.service = service
        self.player = player or scope

    def ask(self, state: DecisionState, legal: tuple[Choice, ...], now: float, seq: int) -> DecisionRequest:
        request = DecisionRequest(seq, state.generation, state, legal, now, self.name)
        call = ModelCall(RoutingTicket(seq, None, "en"), self.scope, CallPurpose.CHAT,
                         (ChatMessage("system", SYSTEM_PROMPT), ChatMessage("user", state_message(state, legal))),
                         max_tokens=self.max_tokens, temperature=0.0)
        service = self.service
        if service is not None:
            refusal = service.admit(self.player, self.clock() if self.clock is not None else now, scope=self.scope)
            if refusal is not None:
                request.fail(f"limit: {refusal.value}", now)
                return request

        def deliver(reply: ModelReply, at: float) -> None:
            if service is not None:
                service.finished(call, reply, at)
            if not isinstance(reply, Completion):
                request.fail(f"{reply.kind.value}: {reply.detail}"[:160], at)
                return
            try:
                if reply.content is None:
                    raise ValueError("empty reply")
                decision = decision_from_json(parse_reply(reply.content), "api")
            except (ValueError, json.JSONDecodeError) as exc:
                request.fail(f"bad decision: {exc}"[:160], at)
                return
            request.resolve(decision, at)

        self.runner.run(call, deliver)
        return request
