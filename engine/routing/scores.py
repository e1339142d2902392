"""Cosine scores that do not depend on the last bit of a float.

How this works: a cosine of two unit vectors computed in floating point can
land a bit under or over its true value, and where it lands depends on the
order of the additions (numpy's BLAS, ``bincount``, a Python loop). Two rules
keep that out of every routing decision:

* **Identical vectors score exactly 1.0, and only they do.** Whether two TF-IDF
  vectors are identical is decided on integers: the term counts divided by
  their greatest common divisor (``tf_signature``). The vectors are equal after
  normalization exactly when those signatures are equal and the query has no
  feature the index never saw. Every other cosine is capped just below 1.0,
  so a threshold of 1.0 means "this example, word for word".
* **A threshold is met within a tolerance** (``meets``): a score whose true
  value equals its limit meets it whatever the arithmetic did with the last
  bits. Thresholds are configured to two or three decimals, so a tolerance of
  1e-9 moves no decision a person could set on purpose.
"""
from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

SCORE_TOLERANCE = 1e-9
BELOW_ONE = math.nextafter(1.0, 0.0)  # the highest score two different vectors may have


def meets(value: float, limit: float) -> bool:
    """Whether a computed score (or margin, or coverage) reaches a configured limit."""
    return value >= limit - SCORE_TOLERANCE


def tf_signature(counts: Mapping[K, int]) -> frozenset[tuple[K, int]]:
    """Term counts reduced by their gcd: equal signatures give identical unit TF-IDF vectors."""
    divisor = math.gcd(*counts.values()) if counts else 1
    return frozenset((term, count // divisor) for term, count in counts.items())


def exact_cosine(value: float, identical: bool) -> float:
    """A cosine with the two rules above applied (for the pure-Python matchers)."""
    return 1.0 if identical else min(value, BELOW_ONE)
