from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.routing.lexical_index import LexicalIndex

ENTRIES = [
    ("pos", ["@position"]),
    ("pos", ["@self", "@position", "@self+@position"]),
    ("hp", ["@health"]),
    ("hp", ["@self", "@health", "@self+@health"]),
    ("inv", ["@self", "@inventory", "@self+@inventory"]),
]


def reference_cosine(entries: list[tuple[str, list[str]]], query: list[str]) -> list[float]:
    """TF-IDF cosine written out longhand, the textbook way."""
    n = len(entries)
    df: dict[str, int] = {}
    for _, feats in entries:
        for f in set(feats):
            df[f] = df.get(f, 0) + 1

    def idf(f: str) -> float:
        return math.log((1 + n) / (1 + df.get(f, 0))) + 1

    def vec(feats: list[str]) -> dict[str, float]:
        v: dict[str, float] = {}
        for f in feats:
            v[f] = v.get(f, 0.0) + idf(f)
        norm = math.sqrt(sum(x * x for x in v.values())) or 1.0
        return {k: x / norm for k, x in v.items()}

    q = vec(query)
    return [sum(q.get(k, 0.0) * x for k, x in vec(feats).items()) for _, feats in entries]


@pytest.mark.parametrize("backend", ["gather", "sparse", "matvec"])
def test_cosine_matches_the_textbook_tf_idf(backend: str) -> None:
    index = LexicalIndex(ENTRIES, backend)  # type: ignore[arg-type]
    for query in (["@position"], ["@self", "@health", "@self+@health"], ["@self", "w:dog"], ["w:unknown"]):
        got = index.scores(index.encode(query))
        want = reference_cosine(ENTRIES, query)
        assert np.allclose(got, want), (query, got, want)


def test_an_unknown_feature_lowers_the_score_instead_of_vanishing() -> None:
    index = LexicalIndex(ENTRIES)
    plain = index.ranked(["@position"])[0]
    noisy = index.ranked(["@position", "w:dog"])[0]
    assert plain.score == 1.0
    assert noisy.label == "pos" and noisy.score < 0.8


def test_ranked_gives_each_label_its_best_entry_once() -> None:
    index = LexicalIndex(ENTRIES)
    ranked = index.ranked(["@self", "@health", "@self+@health"])
    assert [r.label for r in ranked][0] == "hp"
    assert len({r.label for r in ranked}) == len(ranked) == 3
    assert index.entry_features[ranked[0].entry] == frozenset(["@self", "@health", "@self+@health"])
    best = index.best_entry(["@position"], "pos")
    assert best is not None and best.score == 1.0


features = st.lists(st.sampled_from(["a", "b", "c", "d", "e", "a+b", "b+c", "zz"]), min_size=0, max_size=6)


@settings(max_examples=60, deadline=None)
@given(entries=st.lists(st.tuples(st.sampled_from(["x", "y", "z"]), features.filter(bool)), min_size=1, max_size=12),
       query=features)
def test_backends_agree_and_batch_equals_single(entries: list[tuple[str, list[str]]], query: list[str]) -> None:
    indexes = [LexicalIndex(entries, b) for b in ("gather", "sparse", "matvec")]  # type: ignore[arg-type]
    per_label = [ix.label_scores(ix.encode(query)) for ix in indexes]
    for other in per_label[1:]:
        assert np.allclose(per_label[0], other)
    assert np.allclose(indexes[0].label_scores_many([query])[0], per_label[0])
    assert np.all(per_label[0] <= 1.0) and np.all(per_label[0] >= 0.0)


def _unit_self_dot(features: list[str], idf: dict[str, float]) -> float:
    """The float cosine of a TF-IDF vector with itself, computed the plain way."""
    weights = [idf[f] for f in features]  # each feature once
    norm = math.sqrt(sum(w * w for w in weights))
    return sum((w / norm) * (w / norm) for w in weights)


def test_identical_vectors_score_exactly_one_on_every_backend() -> None:
    # Seeded sentences of up to eight distinct words: for many of them the float cosine
    # of the vector with itself is not 1.0 (checked below in plain Python, which no
    # BLAS affects), so an index that left the arithmetic alone would fail here.
    rnd = random.Random(7)
    words = [f"w{i}" for i in range(40)]
    entries = [(f"l{i % 5}", rnd.sample(words, rnd.randint(1, 8))) for i in range(60)]
    n = len(entries)
    df = {w: sum(w in feats for _, feats in entries) for w in words}
    idf = {w: math.log((1 + n) / (1 + d)) + 1.0 for w, d in df.items()}
    assert sum(_unit_self_dot(feats, idf) != 1.0 for _, feats in entries) >= 10
    for backend in ("gather", "sparse", "matvec"):
        index = LexicalIndex(entries, backend)  # type: ignore[arg-type]
        for label, feats in entries:
            # Another order of the same words, and every count doubled: the same unit vector.
            for query in (feats, feats[::-1], sorted(feats) * 2):
                scores = index.scores(index.encode(query))
                assert scores.max() == 1.0, (backend, feats, query)
                ranked = index.ranked(query)[0]
                assert ranked.score == 1.0 and index.entry_features[ranked.entry] == frozenset(feats)
            assert index.label_scores_many([feats]).max() == 1.0


@settings(max_examples=60, deadline=None)
@given(entries=st.lists(st.tuples(st.sampled_from(["x", "y", "z"]), features.filter(bool)), min_size=1, max_size=12),
       query=features)
def test_a_score_of_one_means_the_same_vector(entries: list[tuple[str, list[str]]], query: list[str]) -> None:
    def reduced(feats: list[str]) -> frozenset[tuple[str, int]]:
        counts = Counter(feats)
        g = math.gcd(*counts.values()) if counts else 1
        return frozenset((f, c // g) for f, c in counts.items())

    # The index stores entries grouped by label, in the order labels first appear.
    first = {label: i for i, (label, _) in reversed(list(enumerate(entries)))}
    stored = [entries[i][1] for i in sorted(range(len(entries)), key=lambda i: first[entries[i][0]])]
    for backend in ("gather", "sparse", "matvec"):
        index = LexicalIndex(entries, backend)  # type: ignore[arg-type]
        scores = index.scores(index.encode(query)).tolist()
        for feats, score in zip(stored, scores, strict=True):
            identical = bool(query) and reduced(feats) == reduced(query)
            assert (score == 1.0) is identical, (backend, feats, query, score)
