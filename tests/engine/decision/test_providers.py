import json
import os
import time

import httpx

from engine.decision.autopilot import Autopilot
from engine.decision.catalog import ActionName, Choice, legal_actions
from engine.decision.logs import EpisodeLog
from engine.decision.providers import ApiProvider, ReplayProvider
from engine.decision.state import DecisionState
from engine.llm.client import ClientSettings, ModelClient
from engine.llm.secrets import Secret
from engine.llm.testing import text_body
from engine.llm.runner import AsyncioRunner
from engine.llm.testing import SyncRunner
from engine.sim.episode import run_episode
from tests.llm_server import Reply, ScriptedModelServer

KEY = "sk-test-secret-key-123456"


def state() -> DecisionState:
    return DecisionState(0, 0, (0, 64, 0), 20.0, 20, True, "wood", (), (("log", 4.0),), 0, (), False, False,
                         False)


def test_replay_reproduces_a_recorded_episode_exactly(tmp_path: object) -> None:
    log = EpisodeLog()
    original = run_episode(2, 2500, log=log)
    folder = os.path.join(str(tmp_path), "seed2")
    log.write(folder, original.summary())
    replayed = run_episode(2, 2500, ReplayProvider.from_file(os.path.join(folder, "decision_log.jsonl")))
    assert replayed.decided == original.decided
    assert replayed.milestones == original.milestones
    events = json.load(open(os.path.join(folder, "episode_events.json")))
    assert any(e["kind"] == "milestone" for e in events["events"])


def _client(handler: httpx.MockTransport | None = None, base_url: str = "http://model.test/v1",
            timeout: float = 5.0) -> ModelClient:
    return ModelClient(ClientSettings(base_url=base_url, model="m", api_key=Secret(KEY), timeout=timeout),
                       transport=handler)


def _ask(provider: ApiProvider) -> tuple[object, str | None]:
    s = state()
    request = provider.ask(s, legal_actions(s), 0.0, 1)   # a SyncRunner delivers before ask returns
    assert request.done
    return request.decision, request.error


def test_api_provider_parses_a_typed_decision_and_reports_garbage() -> None:
    answers = [text_body(json.dumps({"choice": "gather_wood", "args": [], "confidence": 0.9, "urgency": 0.2})),
               text_body("I think you should chop a tree {not json"),
               text_body(json.dumps({"choice": "teleport", "confidence": 0.9}))]

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        assert "legal" in body["messages"][1]["content"]
        return httpx.Response(200, json=answers.pop(0))

    provider = ApiProvider(SyncRunner(_client(httpx.MockTransport(handler))))
    decision, error = _ask(provider)
    assert decision is not None and decision.choice == Choice(ActionName.GATHER_WOOD)   # type: ignore[attr-defined]
    decision, error = _ask(provider)
    assert decision is None and error is not None and "bad decision" in error
    decision, error = _ask(provider)
    assert decision is None and error is not None


def _scripted_episode(server: ScriptedModelServer, ticks: int, on_tick: object = None) -> tuple[object, EpisodeLog,
                                                                                                   list[float]]:
    runner = AsyncioRunner(_client(None, server.base_url, timeout=1.5), time.monotonic)
    provider = ApiProvider(runner, clock=time.monotonic)
    log = EpisodeLog(secrets=[KEY])
    start = time.monotonic()
    gaps: list[float] = []

    def pace(t: int) -> None:
        gaps.append(time.monotonic())
        delay = start + t * 0.05 - time.monotonic()
        if delay > 0:
            time.sleep(delay)

    try:
        result = run_episode(4, ticks, provider, log=log, models=runner, clock=time.monotonic, pace=pace,
                             measure=True, on_tick=on_tick)  # type: ignore[arg-type]
    finally:
        runner.close()
    return result, log, gaps


def test_api_provider_against_a_real_server_never_blocks_the_tick_and_falls_back() -> None:
    good = text_body(json.dumps({"choice": "idle", "args": [], "confidence": 0.9, "urgency": 0.3}))
    low = text_body(json.dumps({"choice": "idle", "args": [], "confidence": 0.3, "urgency": 0.3}))
    with ScriptedModelServer(Reply(body=good, delay=2.0), text_body("{{garbage"), low,
                             Reply(body=good, delay=5.0), default=good) as server:
        waiting: list[int] = []

        def on_tick(t: int, autopilot: Autopilot) -> None:
            pending = autopilot.pending
            if pending is not None and not pending.done:
                waiting.append(t)

        result, log, _ = _scripted_episode(server, 300, on_tick)
    # The tick never waits for the model: ticks go on (the hold packet, reflexes) while a request
    # hangs. (Counted in ticks, not timed: a busy machine makes every tick slower alike.)
    assert len(result.tick_costs) == 300
    assert len(waiting) >= 20
    assert result.fallbacks >= 3            # garbage, low confidence, timeout
    assert result.fallback_reasons.get("timeout", 0) + result.fallback_reasons.get("bad", 0) >= 1
    text = json.dumps(list(log.decisions))
    assert KEY not in text
    assert result.violations == 0


def test_a_late_decision_for_a_stale_state_is_discarded() -> None:
    good = text_body(json.dumps({"choice": "gather_wood", "args": [], "confidence": 0.9, "urgency": 0.3}))
    bumped: list[int] = []

    def on_tick(t: int, autopilot: object) -> None:
        # A reflex fires while the first (slow) request is out: its answer is about the old state.
        if t == 10:
            bumped.append(t)
            autopilot.reflex_active("hostile", t, time.monotonic())      # type: ignore[attr-defined]

    with ScriptedModelServer(Reply(body=good, delay=1.0), default=good) as server:
        result, log, _ = _scripted_episode(server, 60, on_tick)
    assert bumped
    assert result.stale >= 1
    assert any(r.get("note", "").startswith("stale") for r in log.decisions)


def test_the_autopilots_model_calls_count_against_the_proxys_model_limits() -> None:
    from engine.llm.limits import LimitSettings
    from engine.llm.service import LlmService, LlmSettings

    good = text_body(json.dumps({"choice": "gather_wood", "args": [], "confidence": 0.9, "urgency": 0.2}))
    good["usage"] = {"prompt_tokens": 90, "completion_tokens": 10, "total_tokens": 100}
    service = LlmService(LlmSettings(limits=LimitSettings(requests_per_minute=1, max_concurrent=4,
                                                          daily_tokens=10_000)))
    with ScriptedModelServer(default=good) as server:
        provider = ApiProvider(SyncRunner(_client(None, server.base_url)), service=service, player="Steve")
        decision, error = _ask(provider)
        assert decision is not None and error is None
        assert service.limits.in_flight == 0 and service.limits.tokens_today == 100
        decision, error = _ask(provider)                 # the second call in the same minute
        assert decision is None and error == "limit: rate"
        assert len(server.requests) == 1                 # it never left the proxy
