"""The proxy's model runner on Twisted's memory reactor: model calls off the packet path, answered at the next tick."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from twisted.internet.defer import Deferred
from twisted.internet.testing import MemoryReactorClock

from engine.assistant import AssistantRuntime
from engine.llm.calls import Completion, FailureKind, ModelCall, ModelFailure, ToolCall
from engine.llm.service import LlmService, LlmSettings
from engine.routing.config import default_config
from proxy.config import ConfigError, LlmConfig, ProxyConfig, load
from proxy.agent.model_service import ModelService, resolve
from proxy.testing import build_packet, frame
from proxy.testing import Rig

KEY = "sk-proxy-test-0123456789abcdef"


class Calls:
    """A starter that hands out Deferreds the test fires when it likes."""

    def __init__(self) -> None:
        self.started: list[tuple[ModelCall, Deferred[Any]]] = []

    def __call__(self, call: ModelCall) -> Deferred[Any]:
        d: Deferred[Any] = Deferred()
        self.started.append((call, d))
        return d


@pytest.fixture(scope="module")
def items() -> Any:
    return AssistantRuntime(default_config()).items


def model_rig(items: Any, service: bool = True, start: Any = None) -> tuple[Rig, AssistantRuntime, Calls]:
    runtime = AssistantRuntime(default_config(), items=items, llm=LlmService(LlmSettings(has_key=True)))
    reactor = MemoryReactorClock()
    calls = Calls()
    model_service = ModelService(runtime, None, reactor, start=start or calls) if service else None
    rig = Rig("1.18.2", assistant_factory=lambda bridge: runtime.new_assistant(), reactor=reactor,
              model_service=model_service)
    rig.login()
    return rig, runtime, calls


def say(rig: Rig, text: str) -> None:
    rig.client_send(build_packet(rig.codec, "play", "toServer", "chat", message=text))


def test_a_pending_model_call_never_holds_up_forwarding_or_ticks(items: Any) -> None:
    rig, runtime, calls = model_rig(items)
    say(rig, "@ai where in the world am i yeet")
    assert len(calls.started) == 1
    assert rig.upstream.received() == [] and rig.chat_texts(rig.client.received()) == []
    # While the model is out: server packets reach the client, client packets reach the server, ticks run.
    keep_alive = frame(build_packet(rig.codec, "play", "toClient", "keep_alive", keepAliveId=42), rig.upstream.threshold)
    rig.upstream.proto.dataReceived(keep_alive)
    assert rig.client.raw_received() == keep_alive
    answer = frame(build_packet(rig.codec, "play", "toServer", "keep_alive", keepAliveId=42), rig.client.threshold)
    rig.leg.dataReceived(answer)
    assert rig.upstream.raw_received() == answer
    say(rig, "hello everyone")
    assert len(rig.upstream.received()) == 1
    for _ in range(20):
        rig.server.tick()
    assert rig.server.ticks == 20
    # The answer arrives: the slot freed at once, shown to the player at the next tick.
    call, d = calls.started[0]
    d.callback(Completion(None, (ToolCall("agent_position", "{}"),), 30, 5))
    rig.server.tick()
    assert any("your position" in t for t in rig.chat_texts(rig.client.received()))
    assert runtime.llm is not None and runtime.llm.limits.in_flight == 0 and runtime.llm.limits.tokens_today == 35


def test_an_answer_after_the_player_left_is_discarded_but_counted(items: Any) -> None:
    rig, runtime, calls = model_rig(items)
    say(rig, "@ai where in the world am i yeet")
    session = rig.bridge.session
    rig.leg.connectionLost()
    call, d = calls.started[0]
    d.callback(Completion("too late", (), 10, 2))
    assert session is not None and session.left and session.tick(99.0) == []   # nobody is told
    assert runtime.llm is not None and runtime.llm.limits.in_flight == 0 and runtime.llm.limits.tokens_today == 12


def test_a_failed_call_gives_the_card(items: Any) -> None:
    rig, runtime, calls = model_rig(items)
    say(rig, "@ai where in the world am i yeet")
    calls.started[0][1].errback(RuntimeError("boom"))
    rig.server.tick()
    texts = rig.chat_texts(rig.client.received())
    assert any("unavailable right now" in t for t in texts) and any("[!pos]" in t for t in texts)


def test_a_starter_that_raises_still_answers_the_player(items: Any) -> None:
    def broken(call: ModelCall) -> Deferred[Any]:
        raise RuntimeError("no loop")

    rig, runtime, calls = model_rig(items, start=broken)
    say(rig, "@ai where in the world am i yeet")
    rig.server.tick()
    assert any("unavailable right now" in t for t in rig.chat_texts(rig.client.received()))
    assert runtime.llm is not None and runtime.llm.limits.in_flight == 0


def test_without_a_model_service_the_player_gets_the_card(items: Any) -> None:
    rig, runtime, calls = model_rig(items, service=False)
    say(rig, "@ai where in the world am i yeet")
    assert any("unavailable right now" in t for t in rig.chat_texts(rig.client.received()))


def test_the_default_starter_needs_the_asyncio_reactor(items: Any) -> None:
    runtime = AssistantRuntime(default_config(), items=items, llm=LlmService(LlmSettings(has_key=True)))
    service = ModelService(runtime, None, reactor=object())
    results: list[Any] = []
    service._start_on_asyncio(None).addCallback(results.append)  # type: ignore[arg-type]
    assert isinstance(results[0], ModelFailure) and results[0].kind is FailureKind.NOT_RUNNING


def test_card_buttons_are_clickable_agent_commands(items: Any) -> None:
    rig, runtime, calls = model_rig(items)
    say(rig, "@ai where in the world am i yeet")
    calls.started[0][1].callback(ModelFailure(FailureKind.TIMEOUT, "slow"))
    rig.server.tick()
    packets = rig.client.received()
    chat_id = rig.codec.table.packet_id("play", "toClient", rig.codec.chat_packet)
    components = [json.loads(rig.codec.decode("play", "toClient", rig.codec.chat_packet, p)["message"])
                  for p in packets if p[0] == chat_id]
    clicks = [part["clickEvent"]["value"] for c in components for part in c.get("extra", []) if "clickEvent" in part]
    assert clicks and clicks[0].startswith("/agent card ")
    rig.client_send(build_packet(rig.codec, "play", "toServer", "chat", message=clicks[0]))
    assert any("your position" in t for t in rig.chat_texts(rig.client.received()))
    assert rig.upstream.received() == []  # the click never reached the server
    assert len(calls.started) == 1


# -- configuration and the key ------------------------------------------------------------


def test_key_comes_from_the_named_env_var_first_and_is_only_shown_redacted() -> None:
    config = LlmConfig(api_key=KEY.replace("proxy", "file!"))
    llm, client = resolve(config, {"DEEPSEEK_API_KEY": KEY})
    assert llm.has_key and llm.key_source == "env DEEPSEEK_API_KEY" and llm.key_hint == "sk-…cdef"
    assert client.api_key is not None and client.api_key.reveal() == KEY
    assert KEY not in repr(client) and KEY not in repr(llm) and KEY not in f"{client.api_key}"
    llm, client = resolve(config, {})
    assert llm.key_source == "config" and client.api_key is not None
    llm, client = resolve(LlmConfig(api_key_env="MY_KEY"), {"DEEPSEEK_API_KEY": KEY})
    assert not llm.has_key and client.api_key is None


def test_base_url_and_model_overrides_from_the_environment() -> None:
    llm, client = resolve(LlmConfig(), {"MCAGENT_LLM_BASE_URL": "http://127.0.0.1:9/v1",
                                        "MCAGENT_LLM_MODEL": "qwen-plus"})
    assert client.endpoint == "http://127.0.0.1:9/v1/chat/completions" and client.model == "qwen-plus"
    assert llm.base_url == "http://127.0.0.1:9/v1" and llm.model == "qwen-plus"
    default, _ = resolve(LlmConfig(), {})
    assert default.base_url == "https://api.deepseek.com" and default.model == "deepseek-chat"


def test_config_errors_never_print_a_key(tmp_path: Path) -> None:
    path = tmp_path / "proxy.json"
    for llm in ({"apikey": KEY}, {"api_key": 12345, "model": ""}, {"api_key": KEY, "base_url": "ftp://x"}):
        path.write_text(json.dumps({"llm": llm}))
        with pytest.raises(ConfigError) as raised:
            load(path)
        assert KEY not in str(raised.value) and "12345" not in str(raised.value)


def test_the_console_dump_redacts_the_key() -> None:
    from proxy.operations.console import redact

    dumped = json.dumps(redact(ProxyConfig(llm=LlmConfig(api_key=KEY)).model_dump()), default=str)
    assert KEY not in dumped




def test_a_key_with_a_newline_is_refused_at_start_naming_where_it_came_from() -> None:
    from engine.llm.secrets import BadKey
    from proxy.config import LlmConfig
    from proxy.agent.model_service import resolve

    with pytest.raises(BadKey, match="env DEEPSEEK_API_KEY contains control characters"):
        resolve(LlmConfig(), {"DEEPSEEK_API_KEY": "sk-abcdef\n0123456789"})
