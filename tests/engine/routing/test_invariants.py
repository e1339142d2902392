"""Invariants 2 (writes never go direct) and 3 (the intent cache keeps no text), docs/architecture.md."""
from __future__ import annotations

import json
import pickle
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, ReplyToPlayer
from engine.assistant import AssistantRuntime
from engine.modules.builtin import WRITE_MODULES
from engine.modules.module import Access
from engine.routing.cache import make_key
from engine.routing.config import parse_config
from engine.routing.normalize import normalize_text
from engine.routing.router import ScopeState
from tests.engine.conftest import asked, keyed_llm, make_snapshot, model_chooses

CORPUS = Path(__file__).resolve().parents[2] / "data" / "routing"
PERMISSIVE = parse_config(json.dumps({"defaultThreshold": {"score": 0.0, "margin": 0.0}, "minCoverage": 0.5}))


def fill(sentence: str) -> str:
    return sentence.replace("{number}", "10").replace("{player}", "Alex").replace("{item}", "bread")


def write_requests(runtime: AssistantRuntime) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for module_id in WRITE_MODULES:
        entry = runtime.registry.get(module_id)
        assert entry is not None and entry.routing.profile is not None
        for lang, sentences in entry.routing.profile.examples.items():
            out += [(fill(s), lang) for s in sentences]
    for name in ("dev", "test"):
        for raw in (CORPUS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            line = json.loads(raw)
            if line.get("tag") == "write":
                out.append((line["text"], line["lang"]))
    return out


@pytest.mark.parametrize("config", [None, PERMISSIVE], ids=["default-thresholds", "permissive-thresholds"])
def test_writes_never_go_direct_from_similarity(runtime_factory: Callable[..., AssistantRuntime], config: object) -> None:
    runtime = runtime_factory(config)
    snapshot = make_snapshot()
    requests = write_requests(runtime)
    assert len(requests) > 80
    for n, (text, lang) in enumerate(requests):
        route = runtime.router.route(text, lang, ScopeState(f"w{n}"), snapshot, now=0.0)
        if route.module_id is not None:
            entry = runtime.registry.get(route.module_id)
            assert entry is not None and entry.access is Access.READ, (text, route)
            assert route.module_id not in WRITE_MODULES


def test_writes_never_go_direct_from_the_intent_cache(runtime_factory: Callable[..., AssistantRuntime]) -> None:
    runtime = runtime_factory()
    snapshot = make_snapshot()
    scope = ScopeState("victim")
    text = "go to 10 64 10"
    runtime.cache.open_scope("victim", 0, 0)
    key = make_key("victim", 0, 0, "en", normalize_text(text))
    # The only writer refuses a write module...
    assert runtime.router.remember(key, text, "agent:goto", None, snapshot, 0.0) is False
    # ...and even a forged entry naming one is re-validated on hit and never runs.
    assert runtime.cache.put(key, "agent:goto", now=0.0)
    route = runtime.router.route(text, "en", scope, snapshot, now=1.0)
    assert route.module_id is None


def test_writes_never_go_direct_through_the_assistant(runtime_factory: Callable[..., AssistantRuntime]) -> None:
    runtime = runtime_factory()
    assistant = runtime.new_assistant()
    for text in ("take me to 10 64 10", "带我去10 64 10", "turn on autopilot", "eat something", "follow Alex", "stop"):
        reply = assistant.request(text, make_snapshot(), now=0.0)
        assert all(isinstance(a, ReplyToPlayer) for a in reply)
        assert "Not available yet" not in _text(reply)  # the write module's execute never ran
        assert "暂不可用" not in _text(reply)


def test_intent_cache_keeps_no_text(runtime_factory: Callable[..., AssistantRuntime]) -> None:
    runtime = runtime_factory(llm=keyed_llm())
    assistant = runtime.new_assistant()
    snapshot = make_snapshot()
    choices = {"torches how many do i have": "!inv minecraft:torch", "my position what is yeet": "!pos",
               "position my what is yeet": "!pos"}
    for text, command in choices.items():
        model_chooses(assistant, asked(assistant.request(text, snapshot, now=0.0)), command, snapshot, now=1.0)
    texts = list(choices)
    assert len(runtime.cache) == 3
    dumped = pickle.dumps(runtime.cache)
    for text in texts:
        assert normalize_text(text).encode("utf-8") not in dumped
        assert text.encode("utf-8") not in dumped
    for key in runtime.cache._entries:
        assert key.scope == assistant.scope and len(key.digest) == 32


def test_intent_cache_keeps_no_text_and_players_never_share(runtime_factory: Callable[..., AssistantRuntime]) -> None:
    runtime = runtime_factory()
    a, b = runtime.new_assistant(), runtime.new_assistant()
    assert a.scope != b.scope
    runtime.cache.open_scope(a.scope, 0, 0)
    runtime.cache.open_scope(b.scope, 0, 0)
    text = normalize_text("torches how many do i have")
    runtime.cache.put(make_key(a.scope, 0, 0, "en", text), "agent:inventory", now=0.0)
    assert runtime.cache.get(make_key(b.scope, 0, 0, "en", text), now=0.0) is None


def _text(actions: list[Action]) -> str:
    return "\n".join(line for a in actions if isinstance(a, ReplyToPlayer) for line in a.lines)


_words = st.sampled_from([
    "where", "am", "i", "go", "to", "10", "64", "-3", "eat", "stop", "autopilot", "on", "my", "health", "not",
    "if", "then", "it", "id", "of", "oak", "planks", "alex", "follow", "me", "坐标", "我", "去", "吃", "别",
    "的", "在", "哪", "背包", "?", "!", "，", "minecraft:torch", "xyz", "please", "help", "inventory",
])


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(max_size=60), st.lists(_words, max_size=12).map(" ".join)))
def test_writes_never_go_direct_for_any_text(shared_runtime: AssistantRuntime, text: str) -> None:
    # Property: whatever the text, routing never raises and never picks a write module locally.
    for lang in ("en", "zh"):
        route = shared_runtime.router.route(text, lang, ScopeState("fuzz"), make_snapshot(), now=0.0)
        assert route.module_id is None or route.module_id not in WRITE_MODULES
