"""Routing work is linear in the input and bounded per request (issue 16, first item).

A 262,140-letter word once cost 16.6 s of CPU and a 30,000-character line
close to 1 GB, because the spelling corrector built every one-letter deletion
of an unknown word before any limit applied. These tests count work (lookups,
allocations, calls) instead of timing it, so a busy machine cannot fail them.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.actions import Action, ReplyToPlayer
from engine.assistant import AssistantRuntime
from engine.llm.notification_buttons import MAX_REPLY_CHARS, ButtonIndex, Miss
from engine.routing.normalize import normalize_text
from engine.routing.router import ScopeState
from engine.routing.spelling import WORDS_PER_REQUEST, SpellingBudget
from engine.routing.stats import Reason
from engine.routing.terms import Analysis
from engine.routing.tokens import Script, tokenize
from tests.engine.conftest import command, make_snapshot

ROOT = Path(__file__).resolve().parents[3]


def _text(actions: list[Action]) -> str:
    return "\n".join(line for a in actions if isinstance(a, ReplyToPlayer) for line in a.lines)


class _Recorder:
    """Wraps ``Vocabulary.analyze`` and keeps the length of every text it was given."""

    def __init__(self, runtime: AssistantRuntime) -> None:
        self.lengths: list[int] = []
        self._analyze = runtime.vocabulary.analyze

    def __call__(self, normalized: str, *args: Any, **kwargs: Any) -> Analysis:
        self.lengths.append(len(normalized))
        return self._analyze(normalized, *args, **kwargs)


def _unknown_word(n: int) -> str:
    """A distinct 7-letter word the vocabulary does not know ("zqaaaab", "zqaaaac", …)."""
    letters = ""
    for _ in range(5):
        n, digit = divmod(n, 26)
        letters = chr(ord("a") + digit) + letters
    return "zq" + letters


def test_a_word_longer_than_any_vocabulary_word_costs_no_spelling_lookup(shared_runtime: AssistantRuntime) -> None:
    spelling = shared_runtime.vocabulary.spelling
    budget = SpellingBudget()
    assert spelling.correct("ab" * 131_070, budget) is None
    assert spelling.correct("h" + "e" * (spelling.max_length), budget) is None
    assert budget.keys == 0 and budget.words == 0
    # A typo within reach costs one lookup per deletion plus the word itself.
    assert spelling.correct("helth", budget) == "health"
    assert budget.keys == len("helth") + 1


def test_spelling_work_per_request_is_capped_whatever_the_number_of_unknown_words(shared_runtime: AssistantRuntime) -> None:
    vocabulary = shared_runtime.vocabulary
    cap = WORDS_PER_REQUEST * (vocabulary.spelling.max_length + 1)
    for count in (1, 10, 100, 1000):
        # Distinct unknown words of a length the corrector would try.
        words = " ".join(_unknown_word(n) for n in range(count))
        budget = SpellingBudget()
        analysis = vocabulary.analyze(normalize_text(words), spelling=budget)
        assert len(analysis.terms) == count  # every word is still kept as an unknown term
        assert budget.words <= WORDS_PER_REQUEST
        assert budget.keys <= cap


def test_a_repeated_typo_is_looked_up_once_per_request(shared_runtime: AssistantRuntime) -> None:
    budget = SpellingBudget()
    analysis = shared_runtime.vocabulary.analyze(normalize_text("helth " * 50), spelling=budget)
    assert analysis.features == ("@health",)  # one meaning said 50 times is one term
    assert budget.words == 1


def test_a_long_word_allocates_about_its_own_size_not_its_square(shared_runtime: AssistantRuntime) -> None:
    # Called below the router's text limit on purpose: the vocabulary itself must be linear.
    word = "ab" * 2_500  # 5,000 letters: all deletions would be 25 MB
    tracemalloc.start()
    try:
        shared_runtime.vocabulary.analyze(word)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 40 * len(word)


def test_the_text_limit_applies_before_any_analysis(
    runtime_factory: Callable[..., AssistantRuntime], monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = runtime_factory()
    recorder = _Recorder(runtime)
    monkeypatch.setattr(runtime.vocabulary, "analyze", recorder)
    limit = runtime.config.max_characters
    route = runtime.router.route("abab" * 750, "en", ScopeState("long"), make_snapshot(), now=0.0)
    assert route.reason is Reason.TOO_LONG
    assert recorder.lengths == []
    runtime.router.route("where am i", "en", ScopeState("short"), make_snapshot(), now=0.0)
    assert recorder.lengths and max(recorder.lengths) <= limit


def test_a_long_request_through_the_assistant_is_never_analyzed(
    runtime_factory: Callable[..., AssistantRuntime], monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = runtime_factory()
    assistant = runtime.new_assistant()
    # A visible notification (a message kept for the inbox shows one with buttons): its button
    # matcher reads requests before routing does.
    assert assistant.notify("hello", now=0.0) and assistant.notices.visible(0.5) is not None
    recorder = _Recorder(runtime)
    monkeypatch.setattr(runtime.vocabulary, "analyze", recorder)
    matched: list[int] = []
    match = runtime.buttons.match
    monkeypatch.setattr(runtime.buttons, "match", lambda n, text, lang: matched.append(len(text)) or match(n, text, lang))
    reply = assistant.request("x" * 3_000, make_snapshot(), now=1.0)
    assert "too long" in _text(reply)
    assert recorder.lengths == [] and matched == []


@pytest.mark.parametrize("name", ["item", "inv", "players"])
def test_command_arguments_obey_the_text_limit_before_parsing(
    runtime_factory: Callable[..., AssistantRuntime], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    runtime = runtime_factory()
    assistant = runtime.new_assistant()
    recorder = _Recorder(runtime)
    monkeypatch.setattr(runtime.vocabulary, "analyze", recorder)
    searched: list[int] = []
    search = runtime.items.search
    monkeypatch.setattr(runtime.items, "search", lambda q: searched.append(len(q)) or search(q))
    reply = command(assistant, name, "ab" * 1_500, make_snapshot(), now=0.0)
    assert reply is not None and "too long" in _text(reply)
    assert recorder.lengths == [] and searched == []
    # Within the limit the command still works.
    ok = command(assistant, "item", "oak planks", make_snapshot(), now=0.0)
    assert ok is not None and "minecraft:oak_planks" in _text(ok)


def test_a_notification_button_match_reads_no_long_reply() -> None:
    index = ButtonIndex([("notice.open_inbox", "open the inbox"), ("notice.dismiss", "dismiss")])
    assert index.match("open the inbox " * (MAX_REPLY_CHARS // 10)) is Miss.TOO_LONG
    assert not isinstance(index.match("open the inbox"), Miss)


@pytest.mark.parametrize(
    "text, tokens",
    [
        ("3.5a", [("3.5", Script.NUMBER), ("a", Script.LATIN)]),
        ("12abc", [("12abc", Script.LATIN)]),
        ("1_000 __ _a", [("1", Script.NUMBER), ("_a", Script.LATIN)]),
        ("go to 10 -64 3.5", [("go", Script.LATIN), ("to", Script.LATIN), ("10", Script.NUMBER),
                              ("-64", Script.NUMBER), ("3.5", Script.NUMBER)]),
        ("don't", [("do", Script.LATIN), ("not", Script.LATIN)]),
        ("minecraft:oak_planks", [("minecraft:oak_planks", Script.LATIN)]),
    ],
)
def test_tokens_of_digit_and_underscore_runs(text: str, tokens: list[tuple[str, Script]]) -> None:
    assert [(t.text, t.script) for t in tokenize(text)] == tokens


def test_the_tokenizer_is_linear_on_runs_that_are_neither_word_nor_number() -> None:
    # A tokenizer that rescans a letterless run from each position needs ~10^12
    # steps for these inputs; a linear one a few milliseconds. A CPU-time
    # rlimit (not wall-clock, so machine load does not matter) turns the
    # quadratic case into a failure instead of a hang.
    code = textwrap.dedent("""
        import resource
        resource.setrlimit(resource.RLIMIT_CPU, (60, 60))
        from engine.routing.tokens import tokenize
        for text in ("_" * 2_000_000, "." + "1" * 2_000_000, "9_" * 1_000_000, "minecraft" * 200_000):
            tokenize(text)
    """)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
