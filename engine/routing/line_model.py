"""The line model: a second opinion on a line the thresholds refuse.

How this works: per language, a multinomial logistic regression over binary
features of the line — the vocabulary's features and their bigrams (what the
index matches on) and the character trigrams of the normalized text (which
carry a typo, an item name or a phrasing the vocabulary lacks) — gives each
direct module and ``NONE`` (the model's turn) a probability. It is trained
offline (``mcagent routing train``, ``line_training.py``) on the module
examples, the reject samples and the tuning corpora, and shipped as
``data/line-model.npz``; a feature it never saw weighs nothing.

It only speaks when ``SemanticIndex`` asks: after the thresholds, anchoring and
agreeing sentences have refused a line that passed every filter, and only for
a module that may go direct; the index adds its own checks (one question, asked,
naming nothing another module owns) before the module's parser has the last word.
"""
from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from pathlib import Path

import attrs
import numpy as np

from engine.routing.scores import meets
from engine.routing.terms import Analysis

NONE = "none"  # the label of lines that must stay with the model
GRAM = 3
BUILTIN = Path(__file__).parent / "data" / "line-model.npz"


class LineModelError(ValueError):
    pass


def line_features(analysis: Analysis, normalized: str) -> frozenset[str]:
    """What the model reads of one line; linear in its length (the router caps that first)."""
    out = {"f:" + f for f in analysis.features}
    out.update("b:" + b for b in analysis.bigrams())
    padded = f" {normalized} "
    out.update("g:" + padded[i:i + GRAM] for i in range(len(padded) - GRAM + 1) if not padded[i:i + GRAM].isspace())
    return frozenset(out)


@attrs.frozen
class Prediction:
    label: str
    probability: float


@attrs.frozen(eq=False)
class LanguageModel:
    labels: tuple[str, ...]
    rows: Mapping[str, int]  # feature → row of ``weights``
    weights: np.ndarray  # (features, labels), float32
    bias: np.ndarray  # (labels,)

    def predict(self, features: Iterable[str]) -> Prediction:
        rows = [r for f in features if (r := self.rows.get(f)) is not None]
        logits = self.bias + (self.weights[rows].sum(axis=0) if rows else 0.0)
        best = int(np.argmax(logits))
        # The best label's softmax probability, written so a large logit cannot overflow.
        shifted = np.exp(logits - logits[best])
        return Prediction(self.labels[best], float(1.0 / shifted.sum()))

    def vouches(self, feature: str, label: str) -> bool:
        """Whether training saw the feature and it leans to ``label`` at least as much as to ``NONE``."""
        row = self.rows.get(feature)
        if row is None or label not in self.labels:
            return False
        weights = self.weights[row]
        # Within a tolerance: a retrained model may differ in the last bits (as in ``scores.meets``).
        return NONE not in self.labels or bool(weights[self.labels.index(label)] >= weights[self.labels.index(NONE)] - 1e-6)


@attrs.frozen(eq=False)
class LineModel:
    languages: Mapping[str, LanguageModel]
    fingerprint: str  # of what it was trained on (``line_training.fingerprint``)

    def predict(self, language: str, features: Iterable[str]) -> Prediction | None:
        model = self.languages.get(language)
        return model.predict(features) if model is not None else None

    def vouches(self, language: str, features: Iterable[str], label: str) -> bool:
        """Whether every one of ``features`` (the line's unknown words) has evidence for ``label``."""
        model = self.languages.get(language)
        return model is not None and all(model.vouches("f:" + f, label) for f in features)

    def save(self, path: Path) -> None:
        arrays: dict[str, np.ndarray] = {"fingerprint": np.array(self.fingerprint),
                                         "languages": np.array(sorted(self.languages))}
        for lang, model in self.languages.items():
            names = sorted(model.rows, key=model.rows.__getitem__)
            arrays[f"{lang}.features"] = np.array(names)
            arrays[f"{lang}.labels"] = np.array(model.labels)
            arrays[f"{lang}.weights"] = model.weights.astype(np.float32)
            arrays[f"{lang}.bias"] = model.bias.astype(np.float32)
        with path.open("wb") as out:
            np.savez_compressed(out, **arrays)  # type: ignore[arg-type]

    @staticmethod
    def load(path: Path) -> "LineModel":
        try:
            with np.load(path, allow_pickle=False) as data:
                languages: dict[str, LanguageModel] = {}
                for lang in (str(x) for x in data["languages"]):
                    names = [str(x) for x in data[f"{lang}.features"]]
                    labels = tuple(str(x) for x in data[f"{lang}.labels"])
                    weights = np.asarray(data[f"{lang}.weights"], dtype=np.float32)
                    bias = np.asarray(data[f"{lang}.bias"], dtype=np.float32)
                    if weights.shape != (len(names), len(labels)) or bias.shape != (len(labels),) or not (
                        np.isfinite(weights).all() and np.isfinite(bias).all()
                    ):
                        raise LineModelError(f"{path}: {lang}: weights do not fit its features and labels")
                    languages[lang] = LanguageModel(labels, {n: i for i, n in enumerate(names)}, weights, bias)
                return LineModel(languages, str(data["fingerprint"]))
        except (OSError, KeyError, ValueError) as exc:
            if isinstance(exc, LineModelError):
                raise
            raise LineModelError(f"{path}: not a line model ({exc})") from None


@functools.cache
def builtin() -> LineModel:
    """The shipped model, loaded once per process (every runtime shares it: it is read-only)."""
    return LineModel.load(BUILTIN)


def sure(prediction: Prediction | None, least: float) -> bool:
    """Whether a prediction names a module with at least ``least`` probability."""
    return prediction is not None and prediction.label != NONE and meets(prediction.probability, least)
