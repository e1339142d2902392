"""Typo correction of unknown English words into words the vocabulary knows.

How this works (symmetric deletion): every vocabulary word of at least
``MIN_LENGTH`` letters is stored under itself and each of its one-letter
deletions; a word of at least ``LONG_LENGTH`` letters also under each of its
two-letter deletions. An unknown word looks up itself and its own deletions
(two-letter ones only when it could be two edits from a long word); any word
found shares a deletion with it, and ``distance`` (restricted Damerau-
Levenshtein: insert, delete, substitute, swap of neighbours) confirms how far.
A short word may be one edit away, a long one two ("proggress" → progress,
"invetory" → inventory, "hepl" → help). The closest words win; a correction is
made only when exactly one word is closest (a word and its plural count once,
so do words of one meaning: "hungr" is hunger or hungry, both food; a dropped
or swapped letter beats another edit), so a word close to two vocabulary words
of different meanings stays unknown ("halp": help or halt).

Common English words are never corrected: a player who types "good", "mood",
"wealth" or "heath" means them, not "food" or "health". The guard list is
``data/english_words.txt.gz`` (see ``scripts/gen_spelling_guard.py``) with the game's own words,
``data/game_words.txt.gz`` ("mineshaft", "piglin": ``scripts/gen_game_words.py``). Words
shorter than ``MIN_LENGTH`` letters are left alone: at three letters nearly
every word is one edit from another.

Work is bounded before any key is built. A word longer than the longest
vocabulary word plus two cannot be within reach and costs a length check; one
that may be costs at most ``1 + n + n(n-1)/2`` lookups of keys no longer than
``max_length``. A ``SpellingBudget`` allows ``WORDS_PER_REQUEST`` distinct such
words per request; later unknown words stay unknown (such a request is far from
any example anyway). Building every deletion of a word before any limit applied,
as this module once did, made a 262,140-letter word cost 16.6 s.
"""
from __future__ import annotations

import gzip
from collections.abc import Collection, Iterable, Iterator, Mapping
from importlib import resources

MIN_LENGTH = 4
LONG_LENGTH = 7  # two edits allowed into a vocabulary word this long
WORDS_PER_REQUEST = 8


class SpellingBudget:
    """The spelling work one request may do; ``keys`` counts the lookups it made."""

    def __init__(self, words: int = WORDS_PER_REQUEST) -> None:
        self.words_left = words
        self.words = 0
        self.keys = 0
        # A typo repeated in one request is looked up once.
        self.answers: dict[str, str | None] = {}


def load_guard_words() -> frozenset[str]:
    """English words and the game's own ("mineshaft", "opped": ``scripts/gen_game_words.py``)."""
    words: set[str] = set()
    for name in ("english_words.txt.gz", "game_words.txt.gz"):
        data = resources.files("engine.routing").joinpath("data", name).read_bytes()
        words.update(gzip.decompress(data).decode("ascii").split())
    return frozenset(words)


def _deletions(word: str) -> Iterator[str]:
    return (word[:i] + word[i + 1:] for i in range(len(word)))


def _keys(word: str, depth: int) -> set[str]:
    keys = {word}
    first = set(_deletions(word))
    keys |= first
    if depth > 1:
        for key in first:
            keys.update(_deletions(key))
    return keys


def distance(a: str, b: str, limit: int) -> int:
    """Restricted Damerau-Levenshtein distance, or ``limit + 1`` once it is known to exceed ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], previous2[j - 2] + 1)
        if min(row) > limit:
            return limit + 1
        previous2, previous = previous, row
    return min(previous[-1], limit + 1)


def _allowed(word: str) -> int:
    return 2 if len(word) >= LONG_LENGTH else 1


def _singulars(words: list[str]) -> list[str]:
    """"torchs" is one edit from "torch" and from "torches": one word, not two."""
    if len(words) < 2:
        return words
    present = set(words)
    return [w for w in words if not ((w.endswith("s") and w[:-1] in present) or (w.endswith("es") and w[:-2] in present))]


class SpellingIndex:
    def __init__(self, words: Iterable[str], guard: Collection[str] = (), meaning: Mapping[str, str] = {}) -> None:
        """``meaning``: word → what it means; closest words of one meaning ("hunger", "hungry") are one answer."""
        self._meaning = meaning
        self._known: set[str] = set()
        self._by_key: dict[str, set[str]] = {}
        for word in words:
            if len(word) < MIN_LENGTH or not word.isalpha() or not word.isascii():
                continue
            self._known.add(word)
            for key in _keys(word, _allowed(word)):
                self._by_key.setdefault(key, set()).add(word)
        self._guard = frozenset(guard)
        # Two insertions beyond the longest word is the longest a typo can be.
        self.max_length = max((len(w) for w in self._known), default=0) + 2

    def correct(self, word: str, budget: SpellingBudget) -> str | None:
        # Length first: it is O(1), and every later step is O(len(word)²) at most.
        if not MIN_LENGTH <= len(word) <= self.max_length or budget.words_left <= 0:
            return None
        if not word.isalpha() or not word.isascii() or word in self._known or word in self._guard:
            return None
        if word in budget.answers:
            return budget.answers[word]
        budget.words_left -= 1
        budget.words += 1
        # A typo of a long word is at least LONG_LENGTH - 2 letters; shorter words cannot be two edits away.
        keys = _keys(word, 2 if len(word) >= LONG_LENGTH - 1 else 1)
        budget.keys += len(keys)
        found: set[str] = set()
        for key in keys:
            found.update(self._by_key.get(key, ()))
        best = 3
        close: list[str] = []
        for candidate in found:
            d = distance(word, candidate, _allowed(candidate))
            if d > _allowed(candidate):
                continue
            if d < best:
                best, close = d, [candidate]
            elif d == best:
                close.append(candidate)
        close = _singulars(close)
        if len(close) > 1:
            # Dropped and swapped letters are the commonest typos: "blok" is block
            # rather than book, "hepl" help rather than hell.
            # When neither is such a typo, the words stay candidates: "corrds" is cords or coords,
            # one meaning either way.
            close = [c for c in close if len(c) > len(word) or sorted(c) == sorted(word)] or close
        if len(close) > 1:
            # The first letter is the one least often wrong: "itme" is item rather than time.
            close = [c for c in close if c[0] == word[0]] or close
        if len(close) > 1 and len({self._meaning.get(c, c) for c in close}) == 1:
            close = [min(close)]
        answer = close[0] if len(close) == 1 else None
        budget.answers[word] = answer
        return answer
