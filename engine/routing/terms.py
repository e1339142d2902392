"""What the vocabulary makes of a request: terms, each with a feature and a kind.

A term is one unit of meaning: a domain word or phrase normalized to a shared
feature (``coords`` and ``坐标`` both become ``@position``), an unknown English
word (``w:village``) or Chinese character (``c:狗``), a slot (``@item``,
``@player``, ``#num``), or a filter word (negation, condition, …).
"""
from __future__ import annotations

import enum
from typing import NamedTuple

import attrs

from engine.routing.mood import Mood


class TermKind(enum.Enum):
    # Members are singletons, so identity hashing is correct and avoids Enum's
    # Python-level __hash__ on the per-request path (sets of kinds, dict keys).
    __hash__ = object.__hash__

    TOPIC = "topic"          # what the request is about; must be covered by the example
    FUNCTION = "function"    # question words, pronouns, auxiliaries
    WRITE = "write"          # an action that would change something
    UNKNOWN = "unknown"      # not in the vocabulary; kept so unfamiliar content is not discarded
    SLOT = "slot"            # item name, player name or number
    NEGATION = "negation"
    CONDITION = "condition"
    REFERENCE = "reference"
    COMPOUND = "compound"


# Kinds an example must contain for each occurrence in the input (topic check).
MUST_COVER = frozenset({TermKind.TOPIC, TermKind.UNKNOWN, TermKind.SLOT})
# The features of the question words (what, where, who, how, how much; 什么, 哪, 谁, 怎么, 多少).
QUESTION_WORDS = frozenset({"@what", "@where", "@who", "@how", "@howmuch"})


class Term(NamedTuple):
    # A NamedTuple rather than an attrs class: a request makes ~10 of these
    # and construction cost shows in the per-request latency.
    surface: str
    feature: str
    kind: TermKind


@attrs.frozen
class Analysis:
    terms: tuple[Term, ...]
    breaks: int = 0  # sentence punctuation between words: "where am i? eat" is two requests
    # Where each sentence after the first starts, kept only when the sentences restate one
    # request ("am i hungry? whats my food bar at"): each may then be matched on its own.
    sentences: tuple[int, ...] = ()
    # Read from the text (``engine/routing/mood.py``): the terms drop quotes, 了 and 我.
    mood: Mood = Mood.ASKS  # a request, or a quote, a how-to question, a statement
    speaker: bool = False  # "我在哪", "how am i doing": the player is named, as filler or inside a phrase
    marked: bool = False  # the line ended with a question mark ("i am hungry?"), which normalizing strips
    # It asks to be shown something: "check my inventory for …", "hunger bar status pls"
    # (the read verb and the please are filler, so the terms no longer say it).
    requested: bool = False
    features: tuple[str, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        # Computed once: scoring, coverage and the topic check all read it.
        object.__setattr__(self, "features", tuple(t.feature for t in self.terms))

    def bigrams(self) -> tuple[str, ...]:
        feats = self.features
        return tuple(f"{a}+{b}" for a, b in zip(feats, feats[1:]))

    def must_cover(self) -> frozenset[str]:
        return frozenset(t.feature for t in self.terms if t.kind in MUST_COVER)

    def has(self, kind: TermKind) -> bool:
        return any(t.kind is kind for t in self.terms)

    def parts(self) -> tuple["Analysis", ...]:
        """Each sentence of a restated request as a request of its own (empty for one sentence)."""
        bounds = [0, *self.sentences, len(self.terms)]
        return tuple(Analysis(self.terms[a:b], speaker=self.speaker) for a, b in zip(bounds, bounds[1:]) if a < b)
