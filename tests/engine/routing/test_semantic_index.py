from __future__ import annotations

import json

import pytest

from engine.assistant import AssistantRuntime
from engine.routing.config import default_config, parse_config
from engine.routing.normalize import normalize_text
from engine.routing.semantic_index import IndexSpec, SemanticIndex
from engine.routing.stats import Reason
from engine.routing.vocabulary import Vocabulary


@pytest.fixture(scope="module")
def small() -> SemanticIndex:
    vocabulary = Vocabulary.builtin(["Oak Planks"], ["橡木木板"])
    specs = [
        IndexSpec("agent:position", {"en": ["where am i", "my position"], "zh": ["我在哪"]}, True),
        IndexSpec("agent:status", {"en": ["my health", "how hungry am i"], "zh": ["我的血量", "在哪受的伤"]}, True),
        IndexSpec("agent:goto", {"en": ["take me to {number} {number} {number}"]}, False),
        IndexSpec("reject:places", {"en": ["where is my house"]}, False),
    ]
    return SemanticIndex(vocabulary, specs, ["en", "zh"])


def decide(index: SemanticIndex, text: str, lang: str = "en", config_json: str = "{}") -> tuple[Reason, str | None]:
    verdict = index.decide(index.vocabulary.analyze(normalize_text(text)), lang, parse_config(config_json))
    return verdict.reason, verdict.match.module_id if verdict.match else None


def test_confident_read_only_match_goes_direct(small: SemanticIndex) -> None:
    assert decide(small, "where am i") == (Reason.DIRECT, "agent:position")
    assert decide(small, "我在哪", "zh") == (Reason.DIRECT, "agent:position")
    assert decide(small, "my coords") == (Reason.DIRECT, "agent:position")  # "coords" is "position" in the vocabulary


def test_second_place_comes_from_a_different_module(small: SemanticIndex) -> None:
    match = small.match(small.vocabulary.analyze("my position"), "en")
    assert match is not None and match.module_id == "agent:position"
    assert match.second_id != "agent:position"


def test_reject_samples_and_topic_gaps(small: SemanticIndex) -> None:
    assert decide(small, "where is my house")[0] is Reason.REJECTED
    assert decide(small, "where am i dog")[0] in (Reason.LOW_SCORE, Reason.TOPIC_GAP, Reason.LOW_COVERAGE)


def test_hint_modules_never_go_direct(small: SemanticIndex) -> None:
    # Even a perfect match on a write module's example is only a candidate.
    reason, module = decide(small, "take me to 1 2 3")
    assert reason is Reason.FILTERED_WRITE and module == "agent:goto"


def test_thresholds_apply_per_module_and_per_language(small: SemanticIndex) -> None:
    strict = json.dumps({"lexicalThresholds": {"agent:position@zh": {"score": 1.0, "margin": 1.0}}})
    assert decide(small, "我在哪", "zh", strict)[0] is Reason.LOW_MARGIN
    assert decide(small, "where am i", "en", strict)[0] is Reason.DIRECT
    low = json.dumps({"defaultThreshold": {"score": 0.99, "margin": 0.15}})
    assert decide(small, "where am i now please", "en", low)[0] is Reason.DIRECT  # fillers change nothing


def test_low_score_and_low_coverage(shared_runtime: AssistantRuntime) -> None:
    index = shared_runtime.index
    assert index is not None
    config = default_config()

    def reason(text: str) -> Reason:
        return index.decide(shared_runtime.vocabulary.analyze(normalize_text(text)), "en", config).reason

    assert reason("where in the world am i yeet") in (Reason.LOW_SCORE, Reason.LOW_COVERAGE, Reason.TOPIC_GAP)
    assert reason("") is Reason.EMPTY
    assert reason("please") is Reason.EMPTY
    assert index.decide(shared_runtime.vocabulary.analyze("where am i"), "fr", config).reason is Reason.UNSUPPORTED_LANGUAGE


def test_candidates_skip_reject_samples(small: SemanticIndex) -> None:
    match = small.match(small.vocabulary.analyze("where is my house"), "en")
    assert match is not None and match.module_id == "reject:places"
    assert all(not c.label.startswith("reject:") for c in small.candidates(match))
