"""The line model: a second opinion on lines the thresholds refuse (issue 23).

The routing rules around it are tested with a model made to be sure of one module
(``sure_of``), so each test shows one check deciding, whatever the shipped model
learned; the shipped model itself is checked against this checkout's inputs.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.assistant import AssistantRuntime
from engine.modules.builtin import WRITE_MODULES
from engine.routing import line_model, line_training
from engine.routing.config import default_config
from engine.routing.evaluation import fixture_snapshot
from engine.routing.line_model import NONE, LineModel, LineModelError
from engine.routing.router import Route, ScopeState
from engine.routing.normalize import normalize_text
from engine.routing.stats import Reason
from tests.engine.routing.line_models import sure_of


@pytest.fixture(scope="module")
def runtime() -> AssistantRuntime:
    return AssistantRuntime(default_config())


def route(runtime: AssistantRuntime, model: LineModel | None, text: str, lang: str = "en") -> Route:
    assert runtime.index is not None
    runtime.index.line_model = model
    try:
        snapshot = fixture_snapshot("zh_cn" if lang == "zh" else "en_us")
        return runtime.router.route(text, lang, ScopeState("t"), snapshot, now=0.0)
    finally:
        runtime.index.line_model = line_model.builtin()


def test_a_line_the_thresholds_refuse_goes_where_a_sure_model_says(runtime: AssistantRuntime) -> None:
    text = "where in the world am i yeet"
    assert route(runtime, None, text).reason is Reason.LOW_SCORE
    learned = route(runtime, sure_of("agent:position", "en", ("w:yeet",)), text)
    assert learned.reason is Reason.LEARNED and learned.module_id == "agent:position"
    assert learned.match is not None and learned.match.learned == pytest.approx(0.99, abs=1e-4)


def test_an_unsure_model_an_unvouched_word_or_the_switch_off_keep_it_with_the_model(runtime: AssistantRuntime) -> None:
    text = "where in the world am i yeet"
    assert route(runtime, sure_of("agent:position", "en", ("w:yeet",), probability=0.8), text).module_id is None
    assert route(runtime, sure_of("agent:position", "en"), text).module_id is None  # nothing vouches for "yeet"
    assert route(runtime, sure_of("agent:position", "zh", ("w:yeet",)), text).module_id is None  # no en model
    off = AssistantRuntime(default_config().model_copy(update={"line_model": None}))
    assert off.index is not None and off.index.line_model is None
    snapshot = fixture_snapshot("en_us")
    assert off.router.route(text, "en", ScopeState("t"), snapshot, now=0.0).reason is Reason.LOW_SCORE


@pytest.mark.parametrize("module", WRITE_MODULES)
def test_a_write_module_never_comes_out_of_it(runtime: AssistantRuntime, module: str) -> None:
    assert route(runtime, sure_of(module, "en", ("w:yeet",)), "where in the world am i yeet").module_id is None


@pytest.mark.parametrize("text, lang, module, vouched", [
    ("where is my dog? where am i", "en", "agent:position", ("w:dog",)),  # two sentences
    ("how many diamonds do i have and whats the id for diamond block", "en", "agent:inventory", ()),  # two questions
    ("在线几个人 有没有下雨", "zh", "agent:players", ("c:下", "c:雨")),  # a second clause asks
    ("我在哪 谁在线", "zh", "agent:players", ()),  # "我在哪" asks where the player is
    ("在线人数上限多少", "zh", "agent:players", ()),  # 上限: a topic players never answers
    ("how many iron do i need for armor", "en", "agent:inventory", ()),  # advice
    ("我卡在哪一步了", "zh", "agent:progress", ("c:卡",)),  # the player's own step
    ("i love my health yeet", "en", "agent:status", ("w:love", "w:yeet")),  # asks nothing
    ("what is the autopilot", "en", "agent:progress", ()),  # what the thing is
    ("what's in my friend's inventory", "en", "agent:inventory", ()),  # "friend's" has no evidence
])
def test_a_sure_model_does_not_decide_these(
    runtime: AssistantRuntime, text: str, lang: str, module: str, vouched: tuple[str, ...]
) -> None:
    assert route(runtime, sure_of(module, lang, vouched), text, lang).module_id is None


def test_a_light_word_needs_no_evidence(runtime: AssistantRuntime) -> None:
    # "ugh" names nothing a module could be learned from; "yeet" is an unknown word like any other.
    assert route(runtime, sure_of("agent:position", "en"), "where in the world am i ugh").module_id == "agent:position"
    assert route(runtime, sure_of("agent:position", "en"), "where in the world am i yeet").module_id is None


def test_sentences_that_restate_one_request_may_be_learned(runtime: AssistantRuntime) -> None:
    # "my hearts r low?? how many i got": the vocabulary judged both sentences one request (the
    # same topic, nothing else named), so the model's module stands as for one sentence.
    status = sure_of("agent:status", "en")
    assert route(runtime, None, "my hearts r low?? how many i got").module_id is None
    assert route(runtime, status, "my hearts r low?? how many i got").module_id == "agent:status"
    assert route(runtime, status, "am i hungry? where is alex").module_id is None  # two requests
    assert route(runtime, status, "my hearts r low?? how many does alex have").module_id is None


def test_a_model_sure_it_is_the_models_turn_doubts_what_anchoring_let_through(runtime: AssistantRuntime) -> None:
    doubting = sure_of(NONE, "en")
    assert route(runtime, None, "how many hearts am i on").module_id == "agent:status"  # anchored
    assert route(runtime, doubting, "how many hearts am i on").reason is Reason.DOUBTED
    assert route(runtime, sure_of(NONE, "en", probability=0.8), "how many hearts am i on").module_id == "agent:status"
    # An example's near copy passes the thresholds: not doubted.
    assert route(runtime, doubting, "where am i").reason is Reason.DIRECT


def test_filters_come_before_it(runtime: AssistantRuntime) -> None:
    for text in ("don't tell me where i am yeet", "if it gets dark where am i yeet"):
        assert route(runtime, sure_of("agent:position", "en", ("w:yeet",)), text).reason.name.startswith("FILTERED")


def test_the_shipped_model_was_trained_on_this_checkout() -> None:
    assert line_training.main(["--check"]) == 0, "run `mcagent routing train` and commit engine/routing/data"


def test_the_shipped_model_learned_its_corpora_and_answers_some_lines_the_thresholds_refuse(
    runtime: AssistantRuntime,
) -> None:
    samples, featurize = line_training.checkout_samples(line_training.CORPORA)
    model = line_model.builtin()
    right = sum(1 for lang, label, text in samples
                if (p := model.predict(lang, featurize(lang, text))) is not None and p.label == label)
    assert right >= 0.95 * len(samples)
    corpora = line_training.corpus_samples(line_training.CORPORA, ("en",))
    learned = [r for _, label, text in corpora if label != NONE and (r := route(runtime, model, text)).module_id]
    assert any(r.reason is Reason.LEARNED for r in learned)


def test_training_is_deterministic_and_learns_a_small_problem() -> None:
    samples = [("en", "a", "red apple"), ("en", "a", "green apple"), ("en", "b", "red car"), ("en", "b", "fast car"),
               ("en", NONE, "hello there"), ("en", NONE, "good morning")]

    def words(lang: str, text: str) -> frozenset[str]:
        return frozenset("f:" + w for w in text.split())

    first = line_training.train(samples, words, "x")
    second = line_training.train(samples, words, "x")
    assert np.array_equal(first.languages["en"].weights, second.languages["en"].weights)
    labels = [p.label if (p := first.predict("en", words("en", t))) else None for t in ("apple", "car", "hello")]
    assert labels == ["a", "b", NONE]


def test_save_and_load_round_trip_and_a_bad_file_is_named(tmp_path: Path) -> None:
    model = sure_of("agent:status", "en", ("w:yeet",))
    path = tmp_path / "m.npz"
    model.save(path)
    loaded = LineModel.load(path)
    assert loaded.fingerprint == "test"
    assert loaded.predict("en", ["f:w:yeet"]) == model.predict("en", ["f:w:yeet"])
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a model")
    with pytest.raises(LineModelError, match="bad.npz"):
        LineModel.load(bad)


def test_a_model_that_does_not_load_leaves_the_thresholds_to_decide(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> LineModel:
        raise LineModelError("line-model.npz: not a line model")

    monkeypatch.setattr(line_model, "builtin", broken)
    runtime = AssistantRuntime(default_config())
    assert runtime.index is not None and runtime.index.line_model is None
    assert any("line model not loaded" in w for w in runtime.warnings)


@pytest.mark.parametrize("text, module", [("steve还剩多少血", "agent:status"), ("steve背包里有几个钻石", "agent:inventory"),
                                          ("alex是几级", "agent:status")])
def test_a_named_players_own_state_is_not_learned(runtime: AssistantRuntime, text: str, module: str) -> None:
    # Only the player's own client knows its health or inventory. The parser would refuse the
    # line too (so the route says nothing); the index's own verdict shows the model did not pick it.
    assert runtime.index is not None
    normalized = normalize_text(text)
    analysis = runtime.router.analyze(normalized, fixture_snapshot("zh_cn"))
    runtime.index.line_model = sure_of(module, "zh")
    try:
        verdict = runtime.index.decide(analysis, "zh", runtime.router.config, normalized)
    finally:
        runtime.index.line_model = line_model.builtin()
    assert verdict.reason is not Reason.LEARNED
