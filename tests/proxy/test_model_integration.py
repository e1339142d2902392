"""The real proxy process against a real local chat-completions server (loopback, scripted per test).

The Minecraft side is ``tests/proxy/model_rig.py``: a scripted server that
sends a keep-alive every 50 ms and times its answers through the proxy, and a
scripted client. No Node peers are needed, but each test starts the real proxy process,
so the module is marked e2e.

Timing: the assertions separate "waited for the model" (the scripted model takes 10 s)
from "did not", with bounds a busy machine cannot cross; how fast the relay is belongs
to ``bench/relay.py``, not here.
"""
from __future__ import annotations

import re
import time
import urllib.request
from collections.abc import Iterator

import pytest

from tests.e2e.proxy_process import ProxyProcess
from tests.llm_server import Reply, ScriptedModelServer, text_body, tool_body
from tests.proxy.model_rig import FakeUpstream, RawClient, summary

pytestmark = pytest.mark.e2e

KEY = "sk-itest-5f2b9c0d8e7a6b5c4d3e2f1a0b9c8d7e"


@pytest.fixture
def model() -> Iterator[ScriptedModelServer]:
    with ScriptedModelServer() as server:
        yield server


@pytest.fixture
def upstream() -> Iterator[FakeUpstream]:
    server = FakeUpstream(interval=0.05)
    yield server
    server.close()


def ticks(metrics_port: int) -> int:
    body = urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=5).read().decode()
    found = re.search(r"^mcagent_ticks(?:_total)? (\S+)$", body, re.MULTILINE)
    assert found, body[:500]
    return int(float(found.group(1)))


def test_a_slow_model_reply_does_not_delay_forwarding_keepalives_or_ticks(
    model: ScriptedModelServer, upstream: FakeUpstream, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEEPSEEK_API_KEY", KEY)
    model.push(Reply(body=tool_body("agent_position"), delay=10.0))
    proxy = ProxyProcess(upstream.port, ("--metrics", "127.0.0.1:0"),
                         llm={"base_url": model.base_url, "timeout_seconds": 30})
    try:
        metrics_port = proxy.port_of("metrics")
        client = RawClient(proxy.port)
        assert upstream.logged_in.wait(10) and client.in_play.wait(10)
        time.sleep(2.0)
        baseline_from = time.perf_counter() - 1.5
        asked = client.chat("@ai where in the world am i yeet")
        model.wait_requests(1, timeout=5)
        ticks_before = ticks(metrics_port)
        window_start = time.perf_counter()
        # Ordinary chat during the call still reaches the server at once.
        sent = client.chat("hello while the model thinks")
        deadline = time.monotonic() + 2
        while "hello while the model thinks" not in upstream.chats and time.monotonic() < deadline:
            time.sleep(0.005)
        forwarded_after = time.perf_counter() - sent
        assert "hello while the model thinks" in upstream.chats
        time.sleep(7.0)
        window_end = time.perf_counter()
        ticks_after = ticks(metrics_port)
        answered = client.wait_line("your position", timeout=10, since=asked)
    finally:
        proxy.close()
    assert answered[0] - asked >= 9.5  # the model really took its 10 s
    before = summary(upstream.round_trips(baseline_from, asked))
    during = summary(upstream.round_trips(window_start, window_end))
    print(f"keep-alive round trip before {before}, during the model call {during}; "
          f"chat forwarded in {forwarded_after * 1000:.1f} ms; ticks {ticks_after - ticks_before} in "
          f"{window_end - window_start:.1f} s")
    # Every keep-alive of the 7 s window was answered, none waited for the model (which
    # would have held it for seconds), the chat went on at once and the tick kept running.
    assert during["n"] >= 20 and upstream.unanswered(window_start, window_end - 0.5) == 0
    assert during["max_ms"] < 2000.0
    assert forwarded_after < 2.0
    assert ticks_after - ticks_before >= 20


def test_answers_retries_and_failures_through_a_real_server(
    model: ScriptedModelServer, upstream: FakeUpstream, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEEPSEEK_API_KEY", KEY)
    model.push(
        tool_body("agent_position"),
        Reply(503, {"error": {}}, headers={"Retry-After": "0"}), text_body("Llamas are great."),
        500, 500,
        tool_body("agent_goto", {"x": 1, "y": 2, "z": 3}),
    )
    proxy = ProxyProcess(upstream.port, llm={"base_url": model.base_url, "retry_backoff_seconds": 0})
    try:
        client = RawClient(proxy.port)
        assert client.in_play.wait(10)
        mark = client.chat("@ai where in the world am i yeet")
        client.wait_line("your position", since=mark)
        mark = client.chat("@ai tell me about llamas")
        client.wait_line("AI: Llamas are great.", since=mark)
        mark = client.chat("@ai whereabouts am i in this world")  # not the cached text: the model is asked
        client.wait_line("unavailable right now", since=mark)
        mark = client.chat("@ai please bring me over to 1 2 3")
        client.wait_line("The model suggests !goto 1 2 3", since=mark)
        line = client.wait_line("[!goto 1 2 3]", since=mark)  # the button line
    finally:
        proxy.close()
    assert len(model.requests) == 6
    assert all(h["authorization"] == f"Bearer {KEY}" for h in model.headers)
    assert all(p == "/chat/completions" for p in model.paths)
    first = model.requests[0]
    assert first["model"] == "deepseek-chat" and first["messages"][-1]["content"] == "where in the world am i yeet"
    assert any(t["function"]["name"] == "agent_goto" for t in first["tools"])
    assert upstream.chats == []  # nothing addressed to the assistant reached the server
    assert "clickEvent" in str(line[2]) and "/agent card" in str(line[2])


def test_secrets_never_appear_in_logs_console_or_chat(
    model: ScriptedModelServer, upstream: FakeUpstream, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session with a key set: answers, a failure, a refusal, a timeout, admin console output; no key anywhere."""
    monkeypatch.setenv("DEEPSEEK_API_KEY", KEY)
    model.push(tool_body("agent_position"), 500, 500, 401, Reply(body=text_body("late"), delay=3.0),
               text_body(f"I will not repeat {KEY[:6]}"))
    proxy = ProxyProcess(upstream.port, admins=["alice"], admin_secret="alice-secret",
                         llm={"base_url": model.base_url, "timeout_seconds": 1.5, "retry_backoff_seconds": 0})
    try:
        client = RawClient(proxy.port)
        assert client.in_play.wait(10)
        for n, expect in enumerate(("your position", "unavailable right now", "check its API key",
                                    "did not answer in time", "AI:")):
            mark = client.chat(f"@ai where in the world am i yeet {'really ' * n}")  # new text each time: no cache hit
            client.wait_line(expect, since=mark, timeout=10)
        for command in ("!admin login alice-secret", "!system dump", "!system routing", "!system log tail", "!system status", "!ai status"):
            mark = client.chat(command)
            time.sleep(0.5)
        proxy.wait_log("model route call for alice: timeout")
    finally:
        proxy.close()
    shown = [line for _, line, _ in client.lines]
    everything = "\n".join(proxy.lines + shown)
    assert "sk-…8d7e" in everything  # the redacted form is what the log and the console show
    assert any('"config"' in line or "api_key" in line for line in shown)  # the dump was shown
    for window in range(0, len(KEY) - 7):
        assert KEY[window:window + 8] not in everything.replace("sk-…8d7e", ""), KEY[window:window + 8]
    assert len(model.requests) >= 5
