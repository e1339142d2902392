"""Model-service figures: how often the model is called, and what an in-flight call costs the relay.

Usage: python bench/model.py [--corpus tests/data/routing/test.jsonl] [--seconds 10] [--skip-latency]

1. Model calls per 100 assistant requests on the shipped routing corpus, with
   a scripted model (httpx.MockTransport) that answers what the corpus line
   expects: the expected read-only module with the arguments of the player's
   own words, or plain text for lines that expect no module.
   * cold: every line asked once by a player with an empty cache;
   * warm, repeat: the same player asks the same line again after the model
     answered (the intent cache is then the only thing that changed);
   * warm, stream: one player asks the whole corpus twice in a row with the
     default cache limits (32 entries per player, 300 s);
   * extended mode, cold: the stricter free-chat threshold;
   plus the cards shown instead when there is no key (same count as cold).
2. Added proxy latency while a model request is in flight: the real
   ``mcagent run`` between a scripted Minecraft server and client (sockets,
   keep-alive every 50 ms, answered at once by the client) and a scripted
   chat-completions server that takes ``--seconds`` to answer. Keep-alive round
   trips (server → proxy → client → proxy → server) with no call in flight are
   compared with those during the call, in the same run; ratio 1.0 means the
   call adds nothing.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.actions import AskModel  # noqa: E402
from engine.assistant import AssistantRuntime  # noqa: E402
from engine.llm.client import ClientSettings, ModelClient  # noqa: E402
from engine.llm.limits import LimitSettings  # noqa: E402
from engine.llm.modes import ConversationMode  # noqa: E402
from engine.llm.secrets import Secret  # noqa: E402
from engine.llm.service import LlmService, LlmSettings  # noqa: E402
from engine.llm.testing import ModelDriver, text_body, tool_body  # noqa: E402
from engine.llm.tools import tool_params, wire_name  # noqa: E402
from engine.routing.config import default_config  # noqa: E402
from engine.routing.evaluation import CorpusLine, fixture_snapshot, read_corpus  # noqa: E402
from engine.routing.normalize import normalize_text  # noqa: E402

LOCALES = {"en": "en_us", "zh": "zh_cn"}
UNLIMITED = LimitSettings(requests_per_minute=10**6, max_concurrent=10**6, daily_tokens=10**12)


class Oracle:
    """Answers a routing call with what the corpus line expects."""

    def __init__(self, runtime: AssistantRuntime, lines: list[CorpusLine]) -> None:
        self.runtime = runtime
        self.expect = {(line.text, line.lang): line.expect for line in lines}
        self.calls = 0

    def args(self, module_id: str, text: str, lang: str) -> dict[str, Any] | None:
        entry = self.runtime.registry.get(module_id)
        command = entry.first_command() if entry is not None else None
        if entry is None or command is None:
            return None
        params = tool_params(command.arguments)
        if not params:
            return {}
        profile = entry.routing.profile
        snapshot = fixture_snapshot(LOCALES.get(lang, "en_us"))
        ctx = self.runtime.router.parse_context(normalize_text(text), snapshot, lang)
        value = profile.parser(text, ctx) if profile is not None and profile.parser is not None else None
        if value is None:
            return None
        rest = command.line(value)[len(command.name) + 2:].strip()
        if not rest:
            return {}
        if len(params) == 1:
            return {params[0].name: rest}
        return None

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.calls += 1
        body = json.loads(request.content)
        text = body["messages"][-1]["content"]
        lang = "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"
        module = self.expect.get((text, lang)) or self.expect.get((text, "en")) or self.expect.get((text, "zh"))
        if module is not None and "tools" in body:
            args = self.args(module, text, lang)
            if args is not None:
                return httpx.Response(200, json=tool_body(wire_name(module), args))
        return httpx.Response(200, json=text_body("I can't help with that here."))


def build(lines: list[CorpusLine], key: bool = True, mode: ConversationMode = ConversationMode.STANDARD) -> tuple[AssistantRuntime, ModelDriver, Oracle]:
    llm = LlmService(LlmSettings(has_key=key, limits=UNLIMITED, default_mode=mode))
    runtime = AssistantRuntime(default_config(), llm=llm)
    oracle = Oracle(runtime, lines)
    client = ModelClient(ClientSettings(api_key=Secret("sk-bench-0000000000000000") if key else None),
                         transport=httpx.MockTransport(oracle))
    return runtime, ModelDriver(runtime, client), oracle


def ask(runtime: AssistantRuntime, driver: ModelDriver, assistant: Any, line: CorpusLine, now: float) -> int:
    """Ask one line; the number of model calls it caused."""
    snapshot = fixture_snapshot(LOCALES.get(line.lang, "en_us"))
    actions = assistant.request(line.text, snapshot, now)
    calls = sum(1 for a in actions if isinstance(a, AskModel))
    driver.perform(assistant, actions, snapshot, now)
    return calls


def per_100(calls: int, requests: int) -> float:
    return 100.0 * calls / requests if requests else 0.0


def model_calls(corpus: Path) -> dict[str, Any]:
    lines = read_corpus(corpus)
    n = len(lines)
    out: dict[str, Any] = {"corpus": str(corpus.relative_to(ROOT)), "requests": n}

    runtime, driver, oracle = build(lines)
    cold = repeat = cold_in_domain = 0
    for i, line in enumerate(lines):
        assistant = runtime.new_assistant()
        calls = ask(runtime, driver, assistant, line, 1000.0 + i)
        cold += calls
        cold_in_domain += calls if line.expect is not None else 0
        repeat += ask(runtime, driver, assistant, line, 1000.5 + i)
    out["cold"] = per_100(cold, n)
    out["warm_repeat"] = per_100(repeat, n)
    out["calls_cold"] = cold
    out["calls_warm_repeat"] = repeat
    seen: set[tuple[str, str]] = set()
    repeats = 0
    for line in lines:
        key = (normalize_text(line.text), line.lang)
        repeats += key in seen
        seen.add(key)
    out["repeats_in_corpus"] = repeats
    out["cold_calls_in_domain"] = cold_in_domain
    out["cold_calls_no_module"] = cold - cold_in_domain
    out["in_domain_lines"] = sum(1 for line in lines if line.expect is not None)
    out["cache_writes"] = sum(v for r, v in runtime.stats.counters.items() if r.value == "CACHE_WRITE")
    driver.close()

    runtime, driver, oracle = build(lines)
    player = runtime.new_assistant()
    first = sum(ask(runtime, driver, player, line, 2000.0 + i * 0.1) for i, line in enumerate(lines))
    second = sum(ask(runtime, driver, player, line, 2100.0 + i * 0.1) for i, line in enumerate(lines))
    out["stream_first"] = per_100(first, n)
    out["stream_second"] = per_100(second, n)
    driver.close()

    runtime, driver, oracle = build(lines, mode=ConversationMode.EXTENDED)
    extended = sum(ask(runtime, driver, runtime.new_assistant(), line, 3000.0 + i) for i, line in enumerate(lines))
    out["extended_cold"] = per_100(extended, n)
    driver.close()

    runtime, driver, oracle = build(lines, key=False)
    cards = 0
    for i, line in enumerate(lines):
        snapshot = fixture_snapshot(LOCALES.get(line.lang, "en_us"))
        replies = runtime.new_assistant().request(line.text, snapshot, 4000.0 + i)
        cards += sum(1 for r in replies if any(b.command.startswith("/agent card ") for b in getattr(r, "buttons", ())))
    out["no_key_cards"] = per_100(cards, n)
    out["no_key_calls"] = per_100(oracle.calls, n)
    driver.close()
    return out


def latency(seconds: float) -> dict[str, Any]:
    from tests.e2e.proxy_process import ProxyProcess
    from tests.llm_server import Reply, ScriptedModelServer
    from tests.proxy.model_rig import FakeUpstream, RawClient, summary

    os.environ["DEEPSEEK_API_KEY"] = "sk-bench-latency-000000000000"
    with ScriptedModelServer() as model:
        model.push(Reply(body=tool_body("agent_position"), delay=seconds))
        upstream = FakeUpstream(interval=0.05)
        proxy = ProxyProcess(upstream.port, llm={"base_url": model.base_url, "timeout_seconds": seconds + 20})
        try:
            client = RawClient(proxy.port)
            if not (upstream.logged_in.wait(10) and client.in_play.wait(10)):
                raise RuntimeError("login through the proxy failed")
            time.sleep(1.0)
            idle_from = time.perf_counter()
            time.sleep(seconds)
            asked = client.chat("@ai where in the world am i yeet")
            model.wait_requests(1, timeout=5)
            during_from = time.perf_counter()
            line = client.wait_line("position", timeout=seconds + 10, since=asked)
            during_to = line[0]
            idle = summary(upstream.round_trips(idle_from, asked))
            during = summary(upstream.round_trips(during_from, during_to - 0.1))
        finally:
            proxy.close()
            upstream.close()
    return {"model_seconds": seconds, "idle": idle, "during": during,
            "p50_ratio": during["p50_ms"] / idle["p50_ms"], "p99_ratio": during["p99_ms"] / idle["p99_ms"],
            "answer_after_s": during_to - asked}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(ROOT / "tests" / "data" / "routing" / "test.jsonl"))
    parser.add_argument("--seconds", type=float, default=10.0, help="how long the scripted model takes to answer")
    parser.add_argument("--skip-latency", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results: dict[str, Any] = {"calls": model_calls(Path(args.corpus).resolve())}
    if not args.skip_latency:
        results["latency"] = latency(args.seconds)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    c = results["calls"]
    print(f"model calls per 100 assistant requests ({c['corpus']}, {c['requests']} requests)")
    print(f"  cold (fresh player, empty cache)          {c['cold']:6.1f}   "
          f"({c['cold_calls_in_domain']} calls on the {c['in_domain_lines']} lines expecting a module, "
          f"{c['cold_calls_no_module']} on lines expecting none)")
    print(f"  warm, same player repeats the request     {c['warm_repeat']:6.1f}   "
          f"({c['cache_writes']} model choices cached)")
    saved = c["calls_cold"] - c["calls_warm_repeat"]
    print(f"  calls saved warm vs cold: {saved} ({c['calls_cold']} -> {c['calls_warm_repeat']}); "
          f"lines the corpus itself repeats: {c['repeats_in_corpus']}; "
          f"{'at least' if saved >= c['repeats_in_corpus'] else 'FEWER than'} the repeats")
    print(f"  warm, one player, corpus twice: 1st pass  {c['stream_first']:6.1f}")
    print(f"                                  2nd pass  {c['stream_second']:6.1f}   (32 entries per player)")
    print(f"  extended mode, cold                       {c['extended_cold']:6.1f}")
    print(f"  no key: cards shown {c['no_key_cards']:.1f}, calls {c['no_key_calls']:.1f}")
    if "latency" in results:
        lat = results["latency"]
        idle, during = lat["idle"], lat["during"]
        print(f"keep-alive round trip through the proxy (server -> client -> server), model answering in "
              f"{lat['model_seconds']:g} s")
        print(f"  no call in flight   p50 {idle['p50_ms']:6.2f} ms  p99 {idle['p99_ms']:6.2f} ms  max "
              f"{idle['max_ms']:6.2f} ms  (n={idle['n']})")
        print(f"  call in flight      p50 {during['p50_ms']:6.2f} ms  p99 {during['p99_ms']:6.2f} ms  max "
              f"{during['max_ms']:6.2f} ms  (n={during['n']})")
        print(f"  ratio in flight / idle: p50 {lat['p50_ratio']:.2f}, p99 {lat['p99_ratio']:.2f}; "
              f"answer shown after {lat['answer_after_s']:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
