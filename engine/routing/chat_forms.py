"""Chat spellings of vocabulary words: "wat", "u", "wh0", "c00rds", "whereeee", "whereami".

``CHAT_SPELLINGS`` are the spellings players type for a word (each also a phrase of the
same feature); ``unleet`` reads digits typed for letters, ``unstretched`` a letter held
down, ``undoubled`` a short topic's last letter struck twice. Each returns the vocabulary word only when exactly one is meant.
"""
from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping

# Spellings players type for a word; each is also a phrase of the same feature on its own.
CHAT_SPELLINGS: dict[str, tuple[str, ...]] = {
    "what": ("wat", "wut", "wht", "wot"), "you": ("u", "ya", "yu"), "your": ("ur",), "are": ("r",), "where": ("wher", "whre", "were"),
    "how": ("hw", "hwo"), "who": ("hoo",), "the": ("teh", "hte"), "my": ("mah",), "have": ("hav", "hve"),
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


def undoubled(word: str, topics: Collection[str]) -> str | None:
    """"idd", "hpp", "xpp": a short topic word with its last key struck twice. Only topics: a
    doubled letter also makes other words ("inn", "bee"), which ask for nothing of ours."""
    if len(word) == 3 and word[1] == word[2] and word[:2] in topics:
        return word[:2]
    return None


RUN_LONGEST = 24
# One-letter words a run may hold ("whereami", "howmanydoihave"); any other part has two letters or more.
_RUN_LETTERS = frozenset({"i", "u"})


def run_together(word: str, known: Collection[str]) -> tuple[str, ...] | None:
    """Vocabulary words typed without the spaces between them ("wheream", "whereami",
    "invpls", "howmanytorchesdoihave"): the one way to split the word into the fewest known
    words. At most ``RUN_LONGEST`` letters, and the split is a dynamic program over the
    word's prefixes, so the work per word stays bounded."""
    n = len(word)
    if not 4 <= n <= RUN_LONGEST or not word.isalpha():
        return None
    # fewest[k]: the fewest words "word[:k]" splits into; ways[k]: how many splits reach it
    # (counted up to 2: only "one" or "more than one" matters); back[k]: where the last begins.
    fewest: list[int | None] = [0] + [None] * n
    ways = [1] + [0] * n
    back = [0] * (n + 1)
    for end in range(1, n + 1):
        for start in range(end):
            part = word[start:end]
            previous = fewest[start]
            if previous is None or (len(part) < 2 and part not in _RUN_LETTERS) or part not in known:
                continue
            current = fewest[end]
            if current is None or previous + 1 < current:
                fewest[end], ways[end], back[end] = previous + 1, ways[start], start
            elif previous + 1 == current:
                ways[end] = min(2, ways[end] + ways[start])
    if fewest[n] is None or fewest[n] == 1 or ways[n] != 1:
        return None
    parts: list[str] = []
    end = n
    while end:
        parts.append(word[back[end]:end])
        end = back[end]
    return tuple(reversed(parts))


_VOWELS = frozenset("aeiou")


def skeletons(words: Iterable[str], taken: Collection[str], meaning: Mapping[str, str] = {}) -> dict[str, str]:
    """Words typed without their vowels ("hlth", "invntry", "pstn"): consonants → the one word of at
    least four letters they are the consonants of (the first letter is kept, vowel or not). A
    skeleton two words of different meanings share (``meaning``: word → feature; "inventory" and
    the misspelling "inventroy" are one), or that is a word itself ("bt"), stands for none."""
    found: dict[str, str | None] = {}
    for word in sorted(words):
        if len(word) < 4 or not word.isalpha() or not word.isascii():
            continue
        bare = word[0] + "".join(c for c in word[1:] if c not in _VOWELS)
        if len(bare) < 3 or bare == word or bare in taken:
            continue
        before = found.get(bare, word)
        same = before is not None and meaning.get(before, before) == meaning.get(word, word)
        found[bare] = before if same else None
    return {bare: word for bare, word in found.items() if word is not None}


def devoweled(word: str, known: Mapping[str, str]) -> str | None:
    """The vocabulary word ``word`` is typed without the vowels of, if exactly one (``skeletons``)."""
    if len(word) < 3 or _VOWELS.intersection(word[1:]):
        return None
    return known.get(word)
