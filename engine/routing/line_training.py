"""Training the line model: ``mcagent routing train``.

How this works: every sentence the model learns from is a (language, label,
text) sample — each module's examples (labelled with the module when it may go
direct, ``NONE`` otherwise), the reject samples (``NONE``) and the annotated
tuning corpora (their ``expect``, ``NONE`` for null; repeats skipped). Each is
analyzed by the same vocabulary the router uses and turned into the same
features (``line_model.line_features``). Per language, a multinomial logistic
regression with an L2 penalty is fitted by L-BFGS from zero weights for a
fixed number of steps: the same inputs give the same model on any machine, up
to the last bits of the floats.

The model records a fingerprint of its inputs (the samples and the data files
the vocabulary is built from); ``--check`` and a test compare it with the
inputs of the checkout, so an example, a corpus or a vocabulary file changed
without training again is caught.

Only tuning corpora train it: a blind split that has been evaluated is never
tuned on, and one not yet evaluated is never read (``tests/data/routing/README.md``).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

from engine.routing.line_model import BUILTIN, NONE, LanguageModel, LineModel, LineModelError, line_features
from engine.routing.semantic_index import REJECT_PREFIX, IndexSpec

ROOT = Path(__file__).resolve().parents[2]
CORPORA = tuple(ROOT / "tests" / "data" / "routing" / f"{name}.jsonl"
                for name in ("dev", "tuning", "tuning4", "tuning5", "tuning6", "tuning9", "tuning10", "tuning11", "tuning12", "tuning15",
                             "tuning16", "tuning17", "tuning18", "tuning19", "tuning20", "tuning21", "tuning22",
                             "tuning23", "tuning24", "tuning25", "tuning26", "tuning27", "tuning28",
                             "tuning29", "tuning30", "tuning31", "tuning32", "tuning33",
                             "tuning34", "tuning35", "tuning36", "tuning37", "tuning38", "tuning39", "tuning40",
                             "tuning41", "tuning42", "tuning43", "tuning44", "tuning45"))
# The vocabulary's data: a changed word list changes the features.
DATA_DIRS = (ROOT / "engine" / "routing" / "data", ROOT / "engine" / "modules" / "data")
PENALTY = 3.0  # C: the inverse of the L2 penalty on the weights, per sample's loss
STEPS = 300
# Placeholders of the module examples, filled as a player would: the evaluator's online players and common items.
_FILL = {
    "{player}": ("Alex", "Steve", "Notch"),
    "{item}:en": ("diamond", "torch", "iron ingot", "oak log", "bread"),
    "{item}:zh": ("钻石", "火把", "铁锭", "橡木原木", "面包"),
}

Sample = tuple[str, str, str]  # language, label, text


def example_samples(specs: Iterable[IndexSpec], languages: Sequence[str]) -> list[Sample]:
    """The module examples and reject samples as samples (the specs the index is built from)."""
    out: list[Sample] = []
    for spec in specs:
        label = spec.label if spec.direct and not spec.label.startswith(REJECT_PREFIX) else NONE
        for lang in languages:
            for n, sentence in enumerate(spec.examples.get(lang, ())):
                text = sentence.replace("{player}", _FILL["{player}"][n % 3])
                items = _FILL[f"{{item}}:{lang}"]
                out.append((lang, label, text.replace("{item}", items[n % len(items)])))
    return out


def corpus_samples(paths: Iterable[Path], languages: Sequence[str]) -> list[Sample]:
    out: list[Sample] = []
    for path in paths:
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not raw.strip():
                continue
            try:
                line = json.loads(raw)
                text, lang, expect, tag = line["text"], line["lang"], line["expect"], line.get("tag", "")
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(f"{path}:{number}: not a corpus line ({exc})") from None
            if lang in languages and tag != "repeat":
                out.append((lang, expect or NONE, text))
    return out


def fingerprint(samples: Sequence[Sample], data_dirs: Iterable[Path] = DATA_DIRS) -> str:
    digest = hashlib.sha256(json.dumps([PENALTY, STEPS, sorted(samples)], ensure_ascii=False).encode())
    for folder in data_dirs:
        for path in sorted(folder.iterdir()):
            if path.is_file() and path.name != BUILTIN.name:
                digest.update(path.name.encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def fit(rows: Sequence[Sequence[int]], labels: Sequence[int], n_features: int, n_labels: int,
        penalty: float = PENALTY, steps: int = STEPS) -> tuple[np.ndarray, np.ndarray]:
    """Weights (features × labels) and biases minimizing the log loss plus ‖W‖²/(2·penalty)."""
    lengths = np.array([len(r) for r in rows])
    if (lengths == 0).any():
        raise ValueError("every sample needs at least one feature")
    indices = np.concatenate([np.asarray(r, dtype=np.int64) for r in rows])
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    owner = np.repeat(np.arange(len(rows)), lengths)
    target = np.asarray(labels)
    size = n_features * n_labels

    def loss_and_gradient(theta: np.ndarray) -> tuple[float, np.ndarray]:
        weights = theta[:size].reshape(n_features, n_labels)
        logits = np.add.reduceat(weights[indices], starts, axis=0) + theta[size:]
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        total = exp.sum(axis=1, keepdims=True)
        loss = float(np.log(total[:, 0]).sum() - logits[np.arange(len(rows)), target].sum())
        delta = exp / total
        delta[np.arange(len(rows)), target] -= 1.0
        grad_w = np.stack([np.bincount(indices, weights=delta[owner, k], minlength=n_features)
                           for k in range(n_labels)], axis=1) + weights / penalty
        loss += float((weights * weights).sum()) / (2.0 * penalty)
        return loss, np.concatenate((grad_w.ravel(), delta.sum(axis=0)))

    theta = _lbfgs(loss_and_gradient, np.zeros(size + n_labels), steps)
    return theta[:size].reshape(n_features, n_labels), theta[size:]


def _lbfgs(func: Callable[[np.ndarray], tuple[float, np.ndarray]], theta: np.ndarray, steps: int,
           memory: int = 10) -> np.ndarray:
    """Limited-memory BFGS with a backtracking (Armijo) line search; deterministic."""
    loss, grad = func(theta)
    history: list[tuple[np.ndarray, np.ndarray, float]] = []
    for _ in range(steps):
        if float(np.abs(grad).max()) < 1e-6:
            break
        direction = -grad
        alphas: list[float] = []
        for s, y, rho in reversed(history):
            alpha = rho * float(s @ direction)
            alphas.append(alpha)
            direction = direction - alpha * y
        if history:
            s, y, _ = history[-1]
            direction = direction * (float(s @ y) / float(y @ y))
        else:
            direction = direction / max(1.0, float(np.linalg.norm(grad)))
        for (s, y, rho), alpha in zip(history, reversed(alphas)):
            beta = rho * float(y @ direction)
            direction = direction + s * (alpha - beta)
        slope = float(grad @ direction)
        if slope >= 0:  # not a descent direction: start the memory again
            history.clear()
            direction, slope = -grad, -float(grad @ grad)
        step = 1.0
        for _ in range(30):
            candidate = theta + step * direction
            new_loss, new_grad = func(candidate)
            if new_loss <= loss + 1e-4 * step * slope:
                break
            step *= 0.5
        else:
            break
        s, y = candidate - theta, new_grad - grad
        sy = float(s @ y)
        if sy > 1e-10:
            history.append((s, y, 1.0 / sy))
            del history[:-memory]
        theta, loss, grad = candidate, new_loss, new_grad
    return theta


def train(samples: Sequence[Sample], featurize: Callable[[str, str], frozenset[str]], print_: str) -> LineModel:
    """A model per language of the samples; ``featurize(language, text)`` is the router's view of a line."""
    languages: dict[str, LanguageModel] = {}
    for lang in sorted({s[0] for s in samples}):
        mine = [(label, featurize(lang, text)) for language, label, text in samples if language == lang]
        mine = [(label, feats) for label, feats in mine if feats]
        names = sorted({f for _, feats in mine for f in feats})
        rows = {name: i for i, name in enumerate(names)}
        labels = tuple(sorted({label for label, _ in mine}))
        weights, bias = fit([sorted(rows[f] for f in feats) for _, feats in mine],
                            [labels.index(label) for label, _ in mine], len(names), len(labels))
        languages[lang] = LanguageModel(labels, rows, weights.astype(np.float32), bias.astype(np.float32))
    return LineModel(languages, print_)


def checkout_samples(corpora: Sequence[Path]) -> tuple[list[Sample], Callable[[str, str], frozenset[str]]]:
    """The samples of this checkout and the router's featurizer, from a runtime without a line model."""
    from engine.assistant import AssistantRuntime
    from engine.modules.declarations import ParseContext
    from engine.routing.config import default_config
    from engine.routing.evaluation import LOCALES, fixture_snapshot
    from engine.routing.normalize import ends_with_question_mark, normalize_text

    config = default_config().model_copy(update={"line_model": None})
    runtime = AssistantRuntime(config)
    languages = config.languages
    samples = example_samples(runtime.registry.index_specs(config.examples), languages) + corpus_samples(
        corpora, languages)
    names = {lang: ParseContext.player_names(fixture_snapshot(LOCALES[lang])) for lang in languages}

    def featurize(lang: str, text: str) -> frozenset[str]:
        normalized = normalize_text(text)
        analysis = runtime.vocabulary.analyze(normalized, names[lang], marked=ends_with_question_mark(text))
        return line_features(analysis, normalized)

    return samples, featurize


def main(argv: list[str]) -> int:
    """Arguments after ``mcagent routing train``."""
    parser = argparse.ArgumentParser(prog="mcagent routing train", description="Train the line model.")
    parser.add_argument("--corpus", type=Path, action="append",
                        help="a tuning corpus (JSONL; repeatable; default: dev, tuning, tuning4–6, tuning9–11)")
    parser.add_argument("--out", type=Path, default=BUILTIN, help=f"where to write it (default: {BUILTIN})")
    parser.add_argument("--check", action="store_true",
                        help="only say whether the shipped model was trained on this checkout's inputs")
    args = parser.parse_args(argv)
    corpora = tuple(args.corpus) if args.corpus else CORPORA
    try:
        samples, featurize = checkout_samples(corpora)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print_ = fingerprint(samples)
    if args.check:
        try:
            shipped = LineModel.load(BUILTIN).fingerprint
        except LineModelError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        if shipped != print_:
            print(f"the line model is stale: train it again with `mcagent routing train` ({BUILTIN})", file=sys.stderr)
            return 1
        print("the line model was trained on this checkout's examples, corpora and vocabulary")
        return 0
    model = train(samples, featurize, print_)
    model.save(args.out)
    counts = {lang: len(m.rows) for lang, m in model.languages.items()}
    print(f"trained on {len(samples)} samples ({', '.join(f'{k}: {v} features' for k, v in counts.items())}) "
          f"-> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
