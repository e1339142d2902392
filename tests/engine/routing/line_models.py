"""Line models made for tests: sure of one module whatever the line."""
from __future__ import annotations

import numpy as np

from engine.routing.line_model import NONE, LanguageModel, LineModel


def sure_of(label: str, language: str, vouched: tuple[str, ...] = (), probability: float = 0.99) -> LineModel:
    """A model that gives ``label`` ``probability`` on any line, and vouches for ``vouched`` words."""
    bias = np.array([np.log(probability / (1 - probability)), 0.0], dtype=np.float32)
    rows = {"f:" + word: i for i, word in enumerate(vouched)}
    weights = np.tile(np.array([[0.5, 0.0]], dtype=np.float32), (len(vouched), 1))
    # Each vouched word adds to the label's logit; the bias is lowered to keep ``probability``.
    bias[0] -= 0.5 * len(vouched)
    other = "agent:help" if label == NONE else NONE
    return LineModel({language: LanguageModel((label, other), rows, weights, bias)}, "test")
