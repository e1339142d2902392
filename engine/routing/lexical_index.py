"""TF-IDF encoding, precomputed example vectors and cosine retrieval, generic in the label.

How this works: at build time every entry (a label and the features of one
example sentence: unigrams and bigrams) becomes a TF-IDF vector,
``tf × (ln((1 + N) / (1 + df)) + 1)``, normalized to unit length. Entries are
stored grouped by label so "best entry of each label" is one ``maximum.reduceat``.
A query is encoded with the same IDF; features the index never saw still count
in the query's norm with the IDF of an unseen feature, so unfamiliar words
lower the cosine instead of vanishing.

Scores follow ``engine/routing/scores.py``: a query whose vector is identical
to an entry's (same term counts up to a common factor, no unseen feature)
scores exactly 1.0 with it, found by a dictionary lookup on integers; every
other cosine is capped just below 1.0. So no backend or BLAS can make an
exact match miss a threshold of 1.0, or a different sentence reach it.

Three encodings of the example matrix give the same numbers; ``bench/routing.py``
measures them and ``DEFAULT_BACKEND`` is the fastest for our sizes:

* ``gather``: compact dense matrix, one row per known feature; a query gathers
  its few rows and sums them.
* ``sparse``: per-feature posting lists; a query concatenates its postings and
  accumulates with ``bincount``.
* ``matvec``: full dense matrix times a dense query vector.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from typing import Generic, Literal, NamedTuple, TypeVar

import attrs
import numpy as np
import numpy.typing as npt

from engine.routing.scores import BELOW_ONE, tf_signature

T = TypeVar("T", bound=Hashable)
Backend = Literal["gather", "sparse", "matvec"]
# Measured with bench/routing.py (610 corpus requests, full decision, best round):
# gather p50 84 us / p99 136 us, sparse 94 / 149, matvec 100 / 154. gather costs
# 1.3 MB of float64 for the built-in examples against 46 KB for sparse; for a
# proxy that is a fair price for the fastest path.
DEFAULT_BACKEND: Backend = "gather"
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]


@attrs.frozen
class Query:
    """A query vector restricted to features the index knows, already divided by the full norm."""

    ids: IntArray
    weights: FloatArray
    empty: bool
    identical: IntArray  # entries whose vector equals this query's: they score exactly 1.0


class LabelScore(NamedTuple, Generic[T]):
    # NamedTuple: several are built per request.
    label: T
    score: float
    entry: int  # index of the best entry of this label, -1 when not located


class LexicalIndex(Generic[T]):
    def __init__(self, entries: Iterable[tuple[T, Sequence[str]]], backend: Backend = DEFAULT_BACKEND) -> None:
        rows = list(entries)
        self.backend: Backend = backend
        labels: list[T] = []
        label_pos: dict[T, int] = {}
        for label, _ in rows:
            if label not in label_pos:
                label_pos[label] = len(labels)
                labels.append(label)
        # Group entries by label (stable), so each label owns one contiguous segment.
        order = sorted(range(len(rows)), key=lambda i: label_pos[rows[i][0]])
        rows = [rows[i] for i in order]
        self.labels: tuple[T, ...] = tuple(labels)
        self.entry_labels: tuple[T, ...] = tuple(label for label, _ in rows)
        self.entry_features: tuple[frozenset[str], ...] = tuple(frozenset(f) for _, f in rows)
        counts = [0] * len(labels)
        for label, _ in rows:
            counts[label_pos[label]] += 1
        starts = np.zeros(len(labels), dtype=np.intp)
        if labels:
            starts[1:] = np.cumsum(counts)[:-1]
        self._starts: IntArray = starts
        self._ends: IntArray = starts + np.asarray(counts, dtype=np.intp)
        self._no_entries: IntArray = np.zeros(0, dtype=np.intp)

        n = len(rows)
        df: dict[str, int] = {}
        for feature_set in self.entry_features:
            for f in feature_set:
                df[f] = df.get(f, 0) + 1
        self.feature_ids: dict[str, int] = {f: i for i, f in enumerate(sorted(df))}
        self._idf: FloatArray = np.array(
            [math.log((1 + n) / (1 + df[f])) + 1.0 for f in sorted(df)], dtype=np.float64
        )
        self.unseen_idf = math.log(1 + n) + 1.0
        # Plain floats for the per-request Python loops: indexing a numpy array per feature is slow.
        self._lookup: dict[str, tuple[int, float]] = {f: (i, float(self._idf[i])) for f, i in self.feature_ids.items()}
        width = len(self.feature_ids)
        dense = np.zeros((width, n), dtype=np.float64)
        for col, (_, features) in enumerate(rows):
            for f in features:
                dense[self.feature_ids[f], col] += 1.0
        dense *= self._idf[:, None]
        norms = np.linalg.norm(dense, axis=0)
        norms[norms == 0] = 1.0
        dense /= norms
        # Keep only what the chosen backend reads, so memory_bytes measures it honestly.
        empty = np.zeros((0, 0))
        self._by_feature: FloatArray = np.ascontiguousarray(dense) if backend == "gather" else empty
        self._by_entry: FloatArray = np.ascontiguousarray(dense.T) if backend == "matvec" else empty
        self._post_entries: list[IntArray] = []
        self._post_values: list[FloatArray] = []
        if backend == "sparse":
            for fid in range(width):
                cols = np.flatnonzero(dense[fid]).astype(np.intp)
                self._post_entries.append(cols)
                self._post_values.append(dense[fid, cols])
        self.entry_count = n
        identical: dict[frozenset[tuple[int, int]], list[int]] = {}
        for col, (_, features) in enumerate(rows):
            if features:
                by_id = Counter(self.feature_ids[f] for f in features)
                identical.setdefault(tf_signature(by_id), []).append(col)
        self._identical: dict[frozenset[tuple[int, int]], IntArray] = {
            key: np.asarray(cols, dtype=np.intp) for key, cols in identical.items()
        }

    def idf(self, feature: str) -> float:
        known = self._lookup.get(feature)
        return self.unseen_idf if known is None else known[1]

    def encode(self, features: Sequence[str]) -> Query:
        tf = Counter(features)  # C-accelerated counting
        ids: list[int] = []
        weights: list[float] = []
        known_counts: dict[int, int] = {}
        norm_sq = 0.0
        lookup = self._lookup
        unseen = self.unseen_idf
        all_known = True
        for f, count in tf.items():
            known = lookup.get(f)
            if known is None:
                w = count * unseen
                all_known = False
            else:
                w = count * known[1]
                ids.append(known[0])
                weights.append(w)
                known_counts[known[0]] = count
            norm_sq += w * w
        if norm_sq == 0.0:
            return Query(np.zeros(0, dtype=np.intp), np.zeros(0), True, self._no_entries)
        norm = math.sqrt(norm_sq)
        identical = self._no_entries
        if all_known:
            identical = self._identical.get(tf_signature(known_counts), self._no_entries)
        return Query(np.asarray(ids, dtype=np.intp), np.asarray(weights) / norm, False, identical)

    @staticmethod
    def _exact(scores: FloatArray, query: Query) -> FloatArray:
        np.minimum(scores, BELOW_ONE, out=scores)
        scores[query.identical] = 1.0
        return scores

    def scores(self, query: Query) -> FloatArray:
        """Cosine of the query with every entry."""
        if query.empty or len(query.ids) == 0 or self.entry_count == 0:
            return np.zeros(self.entry_count)
        if self.backend == "gather":
            raw = np.asarray(query.weights @ self._by_feature[query.ids], dtype=np.float64)
        elif self.backend == "sparse":
            cols = np.concatenate([self._post_entries[i] for i in query.ids])
            vals = np.concatenate([self._post_values[i] * w for i, w in zip(query.ids, query.weights)])
            raw = np.bincount(cols, weights=vals, minlength=self.entry_count).astype(np.float64)
        else:
            dense_q = np.zeros(len(self.feature_ids))
            dense_q[query.ids] = query.weights
            raw = np.asarray(self._by_entry @ dense_q, dtype=np.float64)
        return self._exact(raw, query)

    def label_scores(self, query: Query) -> FloatArray:
        """Best cosine of each label, in ``self.labels`` order."""
        if self.entry_count == 0:
            return np.zeros(0)
        return np.asarray(np.maximum.reduceat(self.scores(query), self._starts), dtype=np.float64)

    def label_scores_many(self, queries: Sequence[Sequence[str]]) -> FloatArray:
        """Best cosine of each label for many queries at once: one matrix product (batch workloads)."""
        width = len(self.feature_ids)
        if self.entry_count == 0 or not queries:
            return np.zeros((len(queries), len(self.labels)))
        dense_q = np.zeros((len(queries), width))
        encoded = [self.encode(features) for features in queries]
        for row, query in enumerate(encoded):
            if not query.empty:
                dense_q[row, query.ids] = query.weights
        if self.backend == "gather":
            entry_scores = dense_q @ self._by_feature
        elif self.backend == "matvec":
            entry_scores = dense_q @ self._by_entry.T
        else:
            entry_scores = np.vstack([self.scores(query) for query in encoded])
        for row, query in enumerate(encoded):
            self._exact(entry_scores[row], query)
        return np.asarray(np.maximum.reduceat(entry_scores, self._starts, axis=1), dtype=np.float64)

    def ranked(self, features: Sequence[str], limit: int | None = None) -> list[LabelScore[T]]:
        """Labels by their best entry, best first.

        Only the first label's best entry is located (the argmax over all
        entries is necessarily in the winning label); the others carry
        ``entry = -1``. ``best_entry`` finds one label's best entry on demand.
        """
        if self.entry_count == 0:
            return []
        entry_scores = self.scores(self.encode(features))
        per_label = np.maximum.reduceat(entry_scores, self._starts)
        order = np.argsort(-per_label, kind="stable")
        if limit is not None:
            order = order[:limit]
        top_entry = int(np.argmax(entry_scores))
        scores = per_label[order].tolist()
        out = [LabelScore(self.labels[li], score, -1) for li, score in zip(order.tolist(), scores)]
        if out:
            # On a tie the argmax may sit in another label's segment; fall back to that segment's argmax.
            first = int(order[0])
            start, end = int(self._starts[first]), int(self._ends[first])
            if not start <= top_entry < end:
                top_entry = start + int(np.argmax(entry_scores[start:end]))
            out[0] = out[0]._replace(entry=top_entry)
        return out

    def best_entry(self, features: Sequence[str], label: T) -> LabelScore[T] | None:
        """One label's best entry and its score, or None if the label has no entries."""
        if label not in self.labels:
            return None
        li = self.labels.index(label)
        start, end = int(self._starts[li]), int(self._ends[li])
        if start == end:
            return None
        entry_scores = self.scores(self.encode(features))[start:end]
        best = int(np.argmax(entry_scores))
        return LabelScore(label, float(entry_scores[best]), start + best)

    def memory_bytes(self) -> int:
        """Bytes held by the example vectors of the active backend."""
        if self.backend == "gather":
            return int(self._by_feature.nbytes)
        if self.backend == "matvec":
            return int(self._by_entry.nbytes)
        return int(sum(a.nbytes for a in self._post_entries) + sum(a.nbytes for a in self._post_values))
