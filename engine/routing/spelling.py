"""One-typo correction of unknown English words into vocabulary words.

How this works: every vocabulary word of at least ``MIN_LENGTH`` letters is
stored under itself and under each of its one-letter deletions. An unknown word
looks up itself and its own deletions; any word found is within one edit
(insert, delete, substitute) or one adjacent swap, which ``_within_one`` then
confirms. A correction is made only when exactly one word qualifies (a word
and its plural count once), so "helth" becomes "health" and a word close to
two vocabulary words stays unknown. Short words are left alone: "good" is one letter from "food".

Work is bounded before any key is built. A word longer than the longest
vocabulary word plus one cannot be one edit from any of them and costs a
length check; a word that may be costs ``len(word) + 1`` lookups of keys no
longer than ``max_length``. A ``SpellingBudget`` allows ``WORDS_PER_REQUEST``
distinct such words per request; later unknown words stay unknown (such a
request is far from any example anyway). Building all deletions of a word first, as this
module once did, made a 262,140-letter word cost 16.6 s and a 30,000-letter
one close to 1 GB.
"""
from __future__ import annotations

from collections.abc import Iterable

MIN_LENGTH = 5
WORDS_PER_REQUEST = 8


class SpellingBudget:
    """The spelling work one request may do; ``keys`` counts the lookups it made."""

    def __init__(self, words: int = WORDS_PER_REQUEST) -> None:
        self.words_left = words
        self.words = 0
        self.keys = 0
        # A typo repeated in one request is looked up once.
        self.answers: dict[str, str | None] = {}


def _deletions(word: str) -> Iterable[str]:
    return (word[:i] + word[i + 1:] for i in range(len(word)))


def _within_one(a: str, b: str) -> bool:
    if a == b:
        return True
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    short, long_ = (a, b) if la < lb else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1:]


def _singulars(words: list[str]) -> list[str]:
    """"torchs" is one edit from "torch" and from "torches": one word, not two."""
    if len(words) < 2:
        return words
    present = set(words)
    return [w for w in words if not ((w.endswith("s") and w[:-1] in present) or (w.endswith("es") and w[:-2] in present))]


class SpellingIndex:
    def __init__(self, words: Iterable[str]) -> None:
        self._known: set[str] = set()
        self._by_key: dict[str, set[str]] = {}
        for word in words:
            if len(word) < MIN_LENGTH or not word.isalpha():
                continue
            self._known.add(word)
            for key in (word, *_deletions(word)):
                self._by_key.setdefault(key, set()).add(word)
        # One insertion away from the longest word is the longest a typo can be.
        self.max_length = max((len(w) for w in self._known), default=0) + 1

    def correct(self, word: str, budget: SpellingBudget) -> str | None:
        # Length first: it is O(1), and every later step is O(len(word)).
        if not MIN_LENGTH <= len(word) <= self.max_length or budget.words_left <= 0:
            return None
        if not word.isalpha() or word in self._known:
            return None
        if word in budget.answers:
            return budget.answers[word]
        budget.words_left -= 1
        budget.words += 1
        budget.keys += len(word) + 1
        found: set[str] = set()
        for key in (word, *_deletions(word)):
            found.update(self._by_key.get(key, ()))
        close = _singulars([w for w in found if _within_one(word, w)])
        answer = close[0] if len(close) == 1 else None
        budget.answers[word] = answer
        return answer
