from __future__ import annotations

import json
import math

from engine.routing.config import parse_config
from engine.routing.normalize import normalize_text
from engine.routing.scores import BELOW_ONE, SCORE_TOLERANCE, exact_cosine, meets, tf_signature
from engine.routing.semantic_index import IndexSpec, SemanticIndex
from engine.routing.stats import Reason
from engine.routing.vocabulary import Vocabulary


def test_a_limit_is_met_whichever_way_the_last_bit_fell() -> None:
    for limit in (1.0, 0.82, 0.15, 0.0):
        assert meets(limit, limit)
        assert meets(math.nextafter(limit, -1.0), limit)
        assert meets(math.nextafter(limit, 2.0), limit)
        assert not meets(limit - 1000 * SCORE_TOLERANCE, limit)
    assert meets(0.9999999999999999, 1.0)


def test_signatures_equal_exactly_for_proportional_counts() -> None:
    assert tf_signature({"a": 2, "b": 4}) == tf_signature({"b": 2, "a": 1})
    assert tf_signature({"a": 2, "b": 3}) != tf_signature({"a": 1, "b": 1})
    assert tf_signature({}) == frozenset()


def test_only_identical_vectors_reach_one() -> None:
    assert exact_cosine(0.9999999999999999, True) == 1.0
    assert exact_cosine(1.0000000000000002, True) == 1.0
    assert exact_cosine(1.0, False) == BELOW_ONE < 1.0
    assert exact_cosine(0.5, False) == 0.5


def test_a_threshold_one_bit_above_the_computed_score_still_routes_direct() -> None:
    vocabulary = Vocabulary.builtin([], [])
    index = SemanticIndex(vocabulary, [
        IndexSpec("agent:position", {"en": ["where am i", "my position"]}, True),
        IndexSpec("agent:status", {"en": ["my health"]}, True),
    ], ["en"])
    analysis = vocabulary.analyze(normalize_text("position position my"))  # a cosine well below 1
    match = index.match(analysis, "en")
    assert match is not None and match.module_id == "agent:position" and match.score < 0.5
    # Another BLAS could have summed the same cosine one bit higher: the config a
    # person wrote against that machine's figure must decide the same here.
    limits = {"score": math.nextafter(match.score, 2.0), "margin": math.nextafter(match.margin, 2.0)}
    config = parse_config(json.dumps({"defaultThreshold": limits}))
    assert index.decide(analysis, "en", config).reason is Reason.DIRECT
