"""One-typo correction of unknown English words into vocabulary words.

How this works: every vocabulary word of at least ``MIN_LENGTH`` letters is
stored under itself and under each of its one-letter deletions. An unknown word
looks up itself and its own deletions; any word found is within one edit
(insert, delete, substitute) or one adjacent swap, which ``_within_one`` then
confirms. A correction is made only when exactly one word qualifies, so
"helth" becomes "health" and a word close to two vocabulary words stays
unknown. Short words are left alone: "good" is one letter from "food".
"""
from __future__ import annotations

from collections.abc import Iterable

MIN_LENGTH = 5


def _deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))}


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


class SpellingIndex:
    def __init__(self, words: Iterable[str]) -> None:
        self._known: set[str] = set()
        self._by_key: dict[str, set[str]] = {}
        for word in words:
            if len(word) < MIN_LENGTH or not word.isalpha():
                continue
            self._known.add(word)
            for key in _deletions(word) | {word}:
                self._by_key.setdefault(key, set()).add(word)

    def correct(self, word: str) -> str | None:
        if len(word) < MIN_LENGTH or not word.isalpha() or word in self._known:
            return None
        found: set[str] = set()
        for key in _deletions(word) | {word}:
            found.update(self._by_key.get(key, ()))
        close = [w for w in found if _within_one(word, w)]
        return close[0] if len(close) == 1 else None
