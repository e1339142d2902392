"""Notification buttons: a typed reply to a visible notification, matched to one of its buttons.

How this works (the seed's "notification button vectors"):

* A proxy notification (an inbox arrival, which reflex and death notices
  also raise; an autopilot milestone) carries buttons, each a localization
  key, a label and a *trusted action* fixed when the notification was made:
  run one explicit command line, or dismiss. A click sends
  ``/agent notice <id> <key>``.
* While it is visible (bounded lifetime, only the latest one), a reply is
  matched against the texts of *its* buttons: each label, the words the
  button itself carries (``phrases``: a card option's command name and its
  module's label texts) and the per-key example phrasings of
  ``config/notification-buttons.json`` (zh, en). An ``@ai`` reply may be as
  long as any request; ordinary chat (no prefix) is read only when it is at
  most ``TYPED_REPLY_CHARS`` long, and goes to the server untouched unless
  it hits.
* Features are the reply's own words (English words, Chinese characters, and
  adjacent pairs of either), normalized only for case and width: no domain
  aliases, so "open" and "claim" stay different verbs.
* TF-IDF over the button templates, cosine per template; a hit needs
  similarity ≥ 0.9, coverage ≥ 0.9 (share of the reply's words found in the
  template) and a lead ≥ 0.15 over the best template of a *different*
  button. Negations and conditions, a template shared by two buttons, or
  anything short of the thresholds fall back to ordinary routing.
* The index of a button set and language is built once and reused; it holds
  only button templates, never what a player typed.
"""
from __future__ import annotations

import enum
import itertools
import json
import math
from collections import Counter, OrderedDict
from collections.abc import Mapping, Sequence
from pathlib import Path

import attrs
import pydantic

from engine.routing.filters import EN_FILTER_WORDS, ZH_FILTER_WORDS
from engine.routing.normalize import normalize_text
from engine.routing.scores import exact_cosine, meets, tf_signature
from engine.routing.terms import TermKind
from engine.routing.tokens import Script, tokenize

MIN_SCORE = 0.9
MIN_COVERAGE = 0.9
MIN_LEAD = 0.15
MAX_REPLY_CHARS = 240  # a button's text is a few words; longer replies are ordinary requests
# Ordinary chat (no @ai) is only taken for a button when it is this short: a button's text is a
# word or three, and a sentence said to other players while a notice happens to be visible is chat.
TYPED_REPLY_CHARS = 32
NOTICE_SECONDS = 60.0
INDEX_CACHE = 64
COMMAND = "notice"

_FALLBACK_KINDS = (TermKind.NEGATION, TermKind.CONDITION)


@attrs.frozen
class RunCommand:
    line: str  # an explicit command line, e.g. "!inbox"


@attrs.frozen
class Dismiss:
    pass


TrustedAction = RunCommand | Dismiss


@attrs.frozen
class NoticeButton:
    key: str
    label: str
    action: TrustedAction
    phrases: tuple[str, ...] = ()  # more texts that mean this button, fixed when it was made


@attrs.frozen
class Notification:
    notice_id: int
    lines: tuple[str, ...]
    buttons: tuple[NoticeButton, ...]
    language: str
    expires_at: float
    kind: str = ""

    def button_command(self, key: str) -> str:
        return f"/agent {COMMAND} {self.notice_id} {key}"

    def button(self, key: str) -> NoticeButton | None:
        for button in self.buttons:
            if button.key == key:
                return button
        return None


# -- phrasings file ---------------------------------------------------------------------


class PhrasesFile(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    buttons: dict[str, dict[str, list[str]]] = pydantic.Field(default_factory=dict)

    @pydantic.field_validator("buttons")
    @classmethod
    def _languages(cls, value: dict[str, dict[str, list[str]]]) -> dict[str, dict[str, list[str]]]:
        for key, per_lang in value.items():
            for lang in per_lang:
                if lang not in ("en", "zh"):
                    raise ValueError(f"{key}: language {lang!r} must be en or zh")
        return value


Phrases = Mapping[str, Mapping[str, Sequence[str]]]


def load_phrases(path: Path | str) -> dict[str, dict[str, tuple[str, ...]]]:
    """Read ``notification-buttons.json``; a missing file means labels only. Errors name the file."""
    file = Path(path)
    if not file.exists():
        return {}
    try:
        parsed = PhrasesFile.model_validate(json.loads(file.read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{file}: {exc}") from None
    return {key: {lang: tuple(texts) for lang, texts in langs.items()} for key, langs in parsed.buttons.items()}


# -- features ---------------------------------------------------------------------------

_EN_FALLBACK = frozenset(w for kind in _FALLBACK_KINDS for w in EN_FILTER_WORDS[kind] if " " not in w)
_EN_FALLBACK_PHRASES = tuple(w for kind in _FALLBACK_KINDS for w in EN_FILTER_WORDS[kind] if " " in w)
_ZH_FALLBACK = tuple(w for kind in _FALLBACK_KINDS for w in ZH_FILTER_WORDS[kind])
_FILLER = frozenset({"please", "pls", "plz", "请"})  # politeness is not a choice: dropped from replies


def features(text: str) -> list[str]:
    """Unigrams and adjacent pairs of the reply's own words (English) and characters (Chinese)."""
    units: list[str] = []
    for token in tokenize(normalize_text(text)):
        if token.script in (Script.LATIN, Script.NUMBER):
            units.append(token.text)
        elif token.script is Script.HAN:
            units.extend(token.text)
    grams = list(units)
    grams += [f"{a}+{b}" for a, b in zip(units, units[1:])]
    return grams


def needs_fallback(text: str) -> bool:
    normalized = normalize_text(text)
    words = {t.text for t in tokenize(normalized) if t.script is Script.LATIN}
    if words & _EN_FALLBACK:
        return True
    spaced = f" {normalized} "
    if any(f" {phrase} " in spaced for phrase in _EN_FALLBACK_PHRASES):
        return True
    return any(word in normalized for word in _ZH_FALLBACK)


def _unigrams(grams: Sequence[str]) -> set[str]:
    return {g for g in grams if "+" not in g}


def _signature(grams: Sequence[str]) -> frozenset[tuple[str, int]]:
    return tf_signature(Counter(grams))


class Miss(enum.Enum):
    FILTERED = "filtered"      # negation or condition
    EMPTY = "empty"
    LOW_SCORE = "low_score"
    LOW_COVERAGE = "low_coverage"
    LOW_LEAD = "low_lead"
    DUPLICATE = "duplicate"    # the best template belongs to several buttons
    TOO_LONG = "too_long"      # longer than any button text: not read at all


@attrs.frozen
class Hit:
    key: str
    score: float
    coverage: float
    lead: float


@attrs.frozen
class _Template:
    keys: frozenset[str]  # more than one: a duplicate text shared by different buttons
    unigrams: frozenset[str]
    vector: dict[str, float]
    signature: frozenset[tuple[str, int]]  # equal signatures: identical vectors, a score of exactly 1.0


class ButtonIndex:
    """TF-IDF over one button set's templates in one language."""

    def __init__(self, templates: Sequence[tuple[str, str]]) -> None:
        by_text: dict[str, set[str]] = {}
        grams_of: dict[str, list[str]] = {}
        for key, text in templates:
            grams = features(text)
            if not grams:
                continue
            norm = " ".join(grams)
            by_text.setdefault(norm, set()).add(key)
            grams_of[norm] = grams
        n = len(grams_of)
        df: dict[str, int] = {}
        for grams in grams_of.values():
            for g in set(grams):
                df[g] = df.get(g, 0) + 1
        self._idf = {g: math.log((1 + n) / (1 + d)) + 1.0 for g, d in df.items()}
        self._unseen = math.log(1 + n) + 1.0
        self.templates = tuple(
            _Template(frozenset(by_text[norm]), frozenset(_unigrams(grams)), self._vector(grams), _signature(grams))
            for norm, grams in grams_of.items()
        )

    def _vector(self, grams: Sequence[str]) -> dict[str, float]:
        tf: dict[str, float] = {}
        for g in grams:
            tf[g] = tf.get(g, 0.0) + 1.0
        vec = {g: c * self._idf.get(g, self._unseen) for g, c in tf.items()}
        norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        return {g: v / norm for g, v in vec.items()}

    def match(self, text: str) -> Hit | Miss:
        if len(text) > MAX_REPLY_CHARS:
            return Miss.TOO_LONG
        if needs_fallback(text):
            return Miss.FILTERED
        grams = [g for g in features(text) if g not in _FILLER and not any(p in _FILLER for p in g.split("+"))]
        if not grams or not self.templates:
            return Miss.EMPTY
        query = self._vector(grams)
        signature = _signature(grams)
        scored = sorted(
            (
                (exact_cosine(sum(w * t.vector.get(g, 0.0) for g, w in query.items()), signature == t.signature), t)
                for t in self.templates
            ),
            key=lambda pair: pair[0], reverse=True,
        )
        best_score, best = scored[0]
        if len(best.keys) > 1:
            return Miss.DUPLICATE
        key = next(iter(best.keys))
        second = max((s for s, t in scored[1:] if key not in t.keys or len(t.keys) > 1), default=0.0)
        asked = _unigrams(grams)
        coverage = len(asked & best.unigrams) / len(asked) if asked else 0.0
        if not meets(best_score, MIN_SCORE):
            return Miss.LOW_SCORE
        if not meets(coverage, MIN_COVERAGE):
            return Miss.LOW_COVERAGE
        if not meets(best_score - second, MIN_LEAD):
            return Miss.LOW_LEAD
        return Hit(key, best_score, coverage, best_score - second)


class ButtonMatcher:
    """Builds and reuses one ``ButtonIndex`` per (button set, language)."""

    def __init__(self, phrases: Phrases | None = None) -> None:
        self.phrases: Phrases = phrases or {}
        self._indexes: OrderedDict[tuple[tuple[tuple[str, ...], ...], str], ButtonIndex] = OrderedDict()
        self.builds = 0

    def replace(self, phrases: Phrases) -> None:
        """New phrasings (``reload``): the indexes built from the old ones are dropped."""
        self.phrases = phrases
        self._indexes.clear()

    def index(self, buttons: Sequence[NoticeButton], language: str) -> ButtonIndex:
        signature = (tuple((b.key, b.label, *b.phrases) for b in buttons), language)
        found = self._indexes.get(signature)
        if found is not None:
            self._indexes.move_to_end(signature)
            return found
        templates: list[tuple[str, str]] = []
        for button in buttons:
            templates.append((button.key, button.label))
            templates.extend((button.key, text) for text in button.phrases)
            templates.extend((button.key, text) for text in self.phrases.get(button.key, {}).get(language, ()))
        built = ButtonIndex(templates)
        self.builds += 1
        self._indexes[signature] = built
        while len(self._indexes) > INDEX_CACHE:
            self._indexes.popitem(last=False)
        return built

    def match(self, notification: Notification, text: str, language: str) -> Hit | Miss:
        return self.index(notification.buttons, language).match(text)


class NoticeBoard:
    """One player's notifications: only the latest is visible, until it expires or is used."""

    def __init__(self, seconds: float = NOTICE_SECONDS) -> None:
        self.seconds = seconds
        self._ids = itertools.count(1)
        self._current: Notification | None = None

    def post(
        self, lines: tuple[str, ...], buttons: tuple[NoticeButton, ...], language: str, now: float, kind: str = ""
    ) -> Notification:
        notice = Notification(next(self._ids), lines, buttons, language, now + self.seconds, kind)
        self._current = notice
        return notice

    def visible(self, now: float) -> Notification | None:
        current = self._current
        if current is not None and now >= current.expires_at:
            self._current = current = None
        return current

    def take(self, notice_id: int, key: str, now: float) -> NoticeButton | None:
        """The button of the visible notification ``notice_id``; the notification is then closed."""
        current = self.visible(now)
        if current is None or current.notice_id != notice_id:
            return None
        button = current.button(key)
        if button is not None:
            self._current = None
        return button

    def clear(self) -> None:
        self._current = None
