"""Chat spellings of vocabulary words: "wat", "u", "wh0", "c00rds", "whereeee".

``CHAT_SPELLINGS`` are the spellings players type for a word (each also a phrase of the
same feature); ``unleet`` reads digits typed for letters, ``unstretched`` a letter held
down. Each returns the vocabulary word only when exactly one is meant.
"""
from __future__ import annotations

import re
from collections.abc import Collection

# Spellings players type for a word; each is also a phrase of the same feature on its own.
CHAT_SPELLINGS: dict[str, tuple[str, ...]] = {
    "what": ("wat", "wut", "wht"), "you": ("u", "ya", "yu"), "your": ("ur",), "are": ("r",), "where": ("wher", "whre"),
    "how": ("hw",), "my": ("mah",), "have": ("hav", "hve"),
}

# Chat spelling with digits for letters ("wh0", "c00rds", "h3lp"); 1 may be i or l.
_LEET = str.maketrans("03457", "oeast")
_DIGITS = frozenset("013457")


def unleet(word: str, known: Collection[str]) -> str | None:
    """The vocabulary word a word spelled with digits for letters stands for, if exactly that."""
    if not _DIGITS.intersection(word) or not any(c.isalpha() for c in word) or "_" in word:
        return None
    plain = word.translate(_LEET)
    if "1" not in plain:
        return plain if plain in known else None
    found = {p for p in (plain.replace("1", "i"), plain.replace("1", "l")) if p in known}
    return found.pop() if len(found) == 1 else None


_STRETCHED = re.compile(r"(.)\1\1+")


def unstretched(word: str, known: Collection[str]) -> str | None:
    """"whereeee", "iiii", "coooords", "hppp": a letter held down is the word the lexicon knows."""
    if not _STRETCHED.search(word):
        return None
    for keep in (r"\1\1", r"\1"):
        plain = _STRETCHED.sub(keep, word)
        if plain in known:
            return plain
    return None


RUN_LONGEST = 16


def run_together(word: str, known: Collection[str]) -> tuple[str, str] | None:
    """Two vocabulary words typed without the space between them ("wheream", "howmuch",
    "invpls"): the one place a split leaves two known words, each of two letters or more.
    At most ``RUN_LONGEST`` letters, so the work per word stays bounded."""
    if not 4 <= len(word) <= RUN_LONGEST or not word.isalpha():
        return None
    splits = [(word[:k], word[k:]) for k in range(2, len(word) - 1) if word[:k] in known and word[k:] in known]
    return splits[0] if len(splits) == 1 else None
