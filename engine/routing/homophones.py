"""Repair of pinyin-IME slips: a character of the right sound but the wrong meaning.

How this works: a player typing pinyin picks from characters of one sound, so
血量 (xue liang) comes out as 学量 and 坐标 as 坐表. Every vocabulary word of
two to ``MAX_WORD`` characters is stored under each of its one-character
"sound masks": the word with one character replaced by one of that character's
readings (坐标 under (坐, biao) and (zuo, 标)). When segmentation leaves a
character unknown, the windows of two to ``MAX_WORD`` characters around it are
looked up the same way; a window that is no word but shares a mask with
words of exactly one meaning (longest windows first, the typed characters'
commonest readings before their others) is that word, typed with one slip.
Voice input slips whole words: two unknown characters side by side whose
commonest readings are those of exactly one two-character word's meaning
("学两", xue liang) are that word (血量).
Only content words are repair targets (topics and item names): never filler,
a filter word or a write. A pronoun (我, 你, 他…), 好 or a common adverb (很, 太, 也…)
is never the slipped character: it is the IME's first choice for its sound and
typed on purpose, so "我着火了吗" is not "握着 火", "钻石好多" not "钻石镐 多".

Readings come from ``data/pinyin.txt.gz`` (GB2312's 6,763 characters, see
``scripts/gen_pinyin.py``). Work per unknown character is bounded: at most
``MAX_WORD`` window lengths × ``MAX_WORD`` starts × ``MAX_WORD`` positions ×
the character's readings lookups, and the caller's ``SpellingBudget`` caps
how many characters one request may try.
"""
from __future__ import annotations

import gzip
from collections.abc import Iterable, Iterator, Mapping
from importlib import resources

MAX_WORD = 4
PRONOUNS = frozenset("我你您他她它俺咱")
# Also typed on purpose, each a word of its own: 好 and common adverbs. "我的钻石好多" is not
# 钻石镐 (镐 is read hao too) followed by 多.
_PLAIN = PRONOUNS | frozenset("好很太真也就才")
_Mask = tuple[str, str, str]  # (before, reading, after)


def load_readings() -> dict[str, tuple[str, ...]]:
    data = resources.files("engine.routing").joinpath("data", "pinyin.txt.gz").read_bytes()
    readings: dict[str, tuple[str, ...]] = {}
    for line in gzip.decompress(data).decode("utf-8").splitlines():
        char, _, sounds = line.partition(" ")
        if char and sounds:
            readings[char] = tuple(sounds.split(","))
    return readings


class HomophoneIndex:
    def __init__(
        self, words: Iterable[str], readings: Mapping[str, tuple[str, ...]], meaning: Mapping[str, str] = {}
    ) -> None:
        """``meaning``: word → what it means; words of one meaning (坐标, 座标) are one answer."""
        self._readings = readings
        self._meaning = meaning
        self._words: set[str] = set()
        self._by_mask: dict[_Mask, set[str]] = {}
        self._by_sound: dict[tuple[str, str], set[str]] = {}  # two-character words by both readings
        for word in words:
            if not 2 <= len(word) <= MAX_WORD:
                continue
            self._words.add(word)
            for mask in self._masks(word):
                self._by_mask.setdefault(mask, set()).add(word)
            if len(word) == 2:
                for first in readings.get(word[0], ()):
                    for second in readings.get(word[1], ()):
                        self._by_sound.setdefault((first, second), set()).add(word)

    def _masks(self, text: str, commonest: bool = False, typed: bool = False) -> Iterator[_Mask]:
        for i, char in enumerate(text):
            if typed and char in _PLAIN:
                continue
            readings = self._readings.get(char, ())
            for reading in readings[:1] if commonest else readings:
                yield text[:i], reading, text[i + 1:]

    def repair(self, run: str, position: int, unknown: frozenset[int] = frozenset()) -> tuple[int, str, str] | None:
        """``(start, window, word)`` for the slip around ``run[position]``, or None when none or several fit.

        ``unknown``: the run's positions segmentation left unknown. Two unknown characters side by
        side may be a two-character word with both slipped, as voice input types it ("学两" is
        血量), when exactly one word's meaning sounds like them.
        """
        one = self._one_slip(run, position)
        if one is not None or not unknown:
            return one
        found: dict[str, tuple[int, str, str]] = {}
        for start in (position - 1, position):
            window = run[max(start, 0): start + 2]
            if start < 0 or len(window) < 2 or not {start, start + 1} <= unknown or _PLAIN.intersection(window):
                continue
            for first in self._readings.get(window[0], ())[:1]:
                for second in self._readings.get(window[1], ())[:1]:
                    for word in self._by_sound.get((first, second), ()):
                        found.setdefault(self._meaning.get(word, word), (start, window, word))
        return next(iter(found.values())) if len(found) == 1 else None

    def _one_slip(self, run: str, position: int) -> tuple[int, str, str] | None:
        n = len(run)
        for length in range(min(MAX_WORD, n), 1, -1):
            # The typed characters' commonest readings first ("搞" is gao before
            # qiao: 铁镐, not 铁锹), then all of them.
            for commonest in (True, False):
                found: dict[str, tuple[int, str, str]] = {}
                for start in range(max(0, position - length + 1), min(position, n - length) + 1):
                    window = run[start: start + length]
                    if window in self._words:
                        continue
                    for mask in self._masks(window, commonest, typed=True):
                        for word in self._by_mask.get(mask, ()):
                            found.setdefault(self._meaning.get(word, word), (start, window, word))
                if len(found) == 1:
                    return next(iter(found.values()))
                if found:
                    return None  # words of several meanings fit: leave it to the model
        return None
