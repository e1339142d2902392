"""Routing benchmark: our lexical router against scikit-learn's TfidfVectorizer, in one run.

Usage: python bench/routing.py [--repeat N]   (needs the bench extra: scikit-learn)

Workload: every text of tests/data/routing/{dev,test}.jsonl, in its language.
Measured side by side on the same example sentences (the registry's, per language):

* build: our SemanticIndex (vocabulary analysis + TF-IDF of every example) for
  each LexicalIndex backend, against TfidfVectorizer.fit_transform;
* memory: bytes held by the example vectors (and tracemalloc peak of the build);
* single request: p50/p99 latency and decisions/s of
  - ours, full decision: ``Router.route`` (normalize, analyze, score, filters,
    thresholds, argument parse) with the default backend and the others,
  - ours, index only: ``LexicalIndex.ranked`` on pre-analyzed features,
  - sklearn with our analyzer (same features; isolates the TF-IDF + cosine engine),
  - sklearn with its own analyzer (word n-grams for en, character n-grams for zh);
  each sklearn variant does transform + cosine + best example per module;
* batch: decisions/s for all texts at once (our label_scores_many vs transform
  of the whole list and one sparse product).

Ratios > 1 mean ours is faster / smaller.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.assistant import AssistantRuntime  # noqa: E402
from engine.routing.config import default_config  # noqa: E402
from engine.routing.evaluation import LOCALES, fixture_snapshot  # noqa: E402
from engine.routing.language import detect_language  # noqa: E402
from engine.routing.lexical_index import Backend  # noqa: E402
from engine.routing.normalize import normalize_text  # noqa: E402
from engine.routing.router import ScopeState  # noqa: E402
from engine.routing.semantic_index import SemanticIndex, features_of  # noqa: E402

try:
    from sklearn.feature_extraction.text import TfidfVectorizer
except ImportError:  # pragma: no cover - the bench extra is missing
    print("scikit-learn is not installed: pip install -e .[bench]", file=sys.stderr)
    raise SystemExit(2)

BACKENDS: tuple[Backend, ...] = ("gather", "sparse", "matvec")


def corpus() -> list[tuple[str, str]]:
    rows = []
    for name in ("dev", "test"):
        for raw in (ROOT / "tests" / "data" / "routing" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            if raw.strip():
                line = json.loads(raw)
                rows.append((line["text"], line["lang"]))
    return rows


def percentiles(samples_ns: list[int]) -> tuple[float, float, float]:
    """(p50, p99, mean) in microseconds."""
    ordered = sorted(samples_ns)
    p50 = ordered[len(ordered) // 2] / 1000.0
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] / 1000.0
    mean = statistics.fmean(ordered) / 1000.0
    return p50, p99, mean


def time_once(fn: Callable[[Any], object], items: Sequence[Any]) -> list[int]:
    samples: list[int] = []
    clock = time.perf_counter_ns
    for item in items:
        start = clock()
        fn(item)
        samples.append(clock() - start)
    return samples


def interleaved(variants: dict[str, tuple[Callable[[Any], object], Sequence[Any]]], rounds: int) -> dict[str, list[tuple[float, float, float]]]:
    """Time every variant once per round, variants interleaved, so machine noise hits all of them alike."""
    for fn, items in variants.values():
        for item in items[:50]:
            fn(item)  # warm-up
    out: dict[str, list[tuple[float, float, float]]] = {name: [] for name in variants}
    for _ in range(rounds):
        for name, (fn, items) in variants.items():
            out[name].append(percentiles(time_once(fn, items)))
    return out


def time_total(fn: Callable[[], object], repeat: int) -> float:
    """Median seconds per call over ``repeat`` calls."""
    fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


class SklearnRouter:
    """TfidfVectorizer over the same examples; best example per module by cosine."""

    def __init__(self, texts: list[str], labels: list[str], analyzer: Any, **kwargs: Any) -> None:
        self.vectorizer = TfidfVectorizer(analyzer=analyzer, **kwargs)
        self.matrix = self.vectorizer.fit_transform(texts)  # rows are L2-normalized
        names = sorted(set(labels))
        self.names = names
        label_ids = np.array([names.index(label) for label in labels])
        order = np.argsort(label_ids, kind="stable")
        self.matrix = self.matrix[order]
        sorted_ids = label_ids[order]
        self.starts = np.flatnonzero(np.r_[True, sorted_ids[1:] != sorted_ids[:-1]])
        self.matrix_t = self.matrix.T.tocsr()

    def best(self, text: str) -> str:
        scores = (self.vectorizer.transform([text]) @ self.matrix_t).toarray()[0]
        per_module = np.maximum.reduceat(scores, self.starts)
        return self.names[int(np.argmax(per_module))]

    def best_many(self, texts: list[str]) -> np.ndarray:
        scores = (self.vectorizer.transform(texts) @ self.matrix_t).toarray()
        return np.maximum.reduceat(scores, self.starts, axis=1).argmax(axis=1)

    def nbytes(self) -> int:
        m = self.matrix
        return int(m.data.nbytes + m.indices.nbytes + m.indptr.nbytes)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9, help="interleaved timing rounds")
    args = parser.parse_args(argv)
    repeat = args.repeat

    config = default_config()
    runtime = AssistantRuntime(config)
    vocabulary = runtime.vocabulary
    specs = runtime.registry.index_specs(config.examples)
    rows = corpus()
    print(f"workload: {len(rows)} requests (dev + test corpora), {repeat} rounds for single-request timings")

    # ---- build time and memory ------------------------------------------------
    print("\n== build (all languages) ==")
    ours_build: dict[str, float] = {}
    ours_bytes: dict[str, int] = {}
    for backend in BACKENDS:
        tracemalloc.start()
        start = time.perf_counter()
        index = SemanticIndex(vocabulary, specs, config.languages, backend)
        ours_build[backend] = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        ours_bytes[backend] = sum(ix.memory_bytes() for ix in index.indexes.values())
        print(f"ours[{backend:6}]  build {ours_build[backend] * 1000:7.1f} ms   vectors {ours_bytes[backend] / 1024:7.1f} KiB"
              f"   tracemalloc peak {peak / 1024:8.1f} KiB")

    examples: dict[str, tuple[list[str], list[str]]] = {}
    for lang in config.languages:
        texts, labels = [], []
        for spec in specs:
            for sentence in spec.examples.get(lang, ()):
                texts.append(sentence)
                labels.append(spec.label)
        examples[lang] = (texts, labels)

    def our_analyzer(text: str) -> list[str]:
        return list(features_of(vocabulary.analyze(normalize_text(text))))

    sk_ours: dict[str, SklearnRouter] = {}
    sk_own: dict[str, SklearnRouter] = {}
    start = time.perf_counter()
    for lang, (texts, labels) in examples.items():
        sk_ours[lang] = SklearnRouter(texts, labels, our_analyzer, lowercase=False)
    sk_ours_build = time.perf_counter() - start
    tracemalloc.start()
    start = time.perf_counter()
    for lang, (texts, labels) in examples.items():
        if lang == "zh":
            sk_own[lang] = SklearnRouter(texts, labels, "char_wb", ngram_range=(1, 2))
        else:
            sk_own[lang] = SklearnRouter(texts, labels, "word", ngram_range=(1, 2))
    sk_own_build = time.perf_counter() - start
    _, sk_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    sk_bytes = sum(r.nbytes() for r in sk_own.values())
    sk_ours_bytes = sum(r.nbytes() for r in sk_ours.values())
    print(f"sklearn(our analyzer)  build {sk_ours_build * 1000:7.1f} ms   vectors {sk_ours_bytes / 1024:7.1f} KiB (CSR)")
    print(f"sklearn(own analyzer)  build {sk_own_build * 1000:7.1f} ms   vectors {sk_bytes / 1024:7.1f} KiB (CSR)"
          f"   tracemalloc peak {sk_peak / 1024:8.1f} KiB")

    # ---- single-request latency --------------------------------------------------
    print("\n== single request ==")
    requests = []
    for n, (text, lang) in enumerate(rows):
        snapshot = fixture_snapshot(LOCALES[lang])
        requests.append((text, detect_language(text, snapshot.locale), snapshot, ScopeState(f"bench-{n}")))

    variants: dict[str, tuple[Callable[[Any], object], Sequence[Any]]] = {}
    for backend in BACKENDS:
        router = AssistantRuntime(config, items=runtime.items, backend=backend).router
        variants[f"ours full decision [{backend}]"] = (
            lambda r, router=router: router.route(r[0], r[1], r[3], r[2], 0.0), requests)
    index_by_lang = runtime.index.indexes if runtime.index is not None else {}
    analyzed = [(features_of(vocabulary.analyze(normalize_text(t))), detect_language(t, LOCALES[lang]))
                for t, lang in rows]
    analyzed = [(f, lang) for f, lang in analyzed if lang in index_by_lang]
    own_rows = [(t, lang) for t, lang in rows if lang in sk_own]
    variants["ours index only (ranked)"] = (lambda r: index_by_lang[r[1]].ranked(r[0], 6), analyzed)
    variants["sklearn, our analyzer"] = (lambda r: sk_ours[r[1]].best(r[0]), own_rows)
    variants["sklearn, own analyzer"] = (lambda r: sk_own[r[1]].best(r[0]), own_rows)
    rounds = interleaved(variants, repeat)

    results: dict[str, tuple[float, float, float]] = {}
    print(f"(median over {repeat} interleaved rounds; in brackets the best round)")
    for name, per_round in rounds.items():
        p50 = statistics.median(r[0] for r in per_round)
        p99 = statistics.median(r[1] for r in per_round)
        mean = statistics.median(r[2] for r in per_round)
        best = min(per_round, key=lambda r: r[1])
        results[name] = (p50, p99, mean)
        print(f"{name:34} p50 {p50:7.1f} us   p99 {p99:7.1f} us   {1e6 / mean:9.0f} decisions/s"
              f"   [best p50 {best[0]:.1f}, p99 {best[1]:.1f}]")

    # ---- batch throughput ----------------------------------------------------------
    print("\n== batch (all requests at once, per language) ==")
    by_lang: dict[str, list[str]] = {}
    for text, lang in own_rows:
        by_lang.setdefault(lang, []).append(text)
    total = sum(len(v) for v in by_lang.values())

    def ours_batch() -> None:
        for lang, texts in by_lang.items():
            feats = [features_of(vocabulary.analyze(normalize_text(t))) for t in texts]
            index_by_lang[lang].label_scores_many(feats).argmax(axis=1)

    def sk_batch(routers: dict[str, SklearnRouter]) -> Callable[[], None]:
        def run() -> None:
            for lang, texts in by_lang.items():
                routers[lang].best_many(texts)
        return run

    batch: dict[str, float] = {}
    for name, fn in (("ours (analyze + one product)", ours_batch),
                     ("sklearn, our analyzer", sk_batch(sk_ours)),
                     ("sklearn, own analyzer", sk_batch(sk_own))):
        seconds = time_total(fn, max(5, repeat))
        batch[name] = total / seconds
        print(f"{name:34} {batch[name]:9.0f} decisions/s   ({seconds * 1000:.1f} ms per {total} requests)")

    # ---- ratios -----------------------------------------------------------------------
    ours = results["ours full decision [gather]"]
    print("\n== ratios (sklearn / ours; > 1 means ours is faster or smaller) ==")
    for name in ("sklearn, our analyzer", "sklearn, own analyzer"):
        sk = results[name]
        print(f"{name:22} vs ours full decision: p50 x{sk[0] / ours[0]:.2f}, p99 x{sk[1] / ours[1]:.2f}, "
              f"throughput x{(1 / ours[2]) / (1 / sk[2]):.2f}")
    idx = results["ours index only (ranked)"]
    sk = results["sklearn, our analyzer"]
    print(f"engine only (same features): p50 x{sk[0] / idx[0]:.2f}, p99 x{sk[1] / idx[1]:.2f}")
    print(f"batch: ours {batch['ours (analyze + one product)']:.0f}/s vs sklearn(own) {batch['sklearn, own analyzer']:.0f}/s "
          f"= x{batch['ours (analyze + one product)'] / batch['sklearn, own analyzer']:.2f}")
    print(f"build: sklearn(own) {sk_own_build * 1000:.1f} ms vs ours[gather] {ours_build['gather'] * 1000:.1f} ms "
          f"= x{sk_own_build / ours_build['gather']:.2f}")
    print(f"vectors: sklearn(own) {sk_bytes} B vs ours[gather] {ours_bytes['gather']} B, ours[sparse] {ours_bytes['sparse']} B")
    fastest = min(BACKENDS, key=lambda b: results[f"ours full decision [{b}]"][1])
    p99 = results["ours full decision [gather]"][1]
    print(f"\nfastest backend by p99: {fastest} (default: gather); goal p99 < 200 us with the default: "
          f"{'met' if p99 < 200 else 'NOT met'} ({p99:.1f} us)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
