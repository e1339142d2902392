"""Chinese topic words typed in pinyin: "zuobiao", "zb多少", "我的xl".

Chinese players who do not switch the IME on type a word's pinyin, or only its
initials ("zb" for 坐标, "jy" for 经验). Both are derived once from the
vocabulary's Chinese topic phrases and the characters' commonest readings
(``data/pinyin.txt.gz``), never listed by hand:

* the full pinyin of a phrase of two to four characters ("zuobiao", "beibao"),
  when it is at least five letters long;
* the initials of a two- or three-character phrase ("zb", "jyz"), read only in a
  line that also has Chinese characters: in an English line "bf", "gn" and "ms"
  are chat of their own.

A spelling is kept only when it cannot mean anything else: it is no word the
English lexicon already knows and no common English word (``guard``: "bang",
"fang", "dj"…), and every Chinese phrase of any kind (a topic, a write, a
filter word or an item name) that shares it has the same feature. So "bb" is
not 背包, because 帮帮 (help) has the same initials, and a pinyin that is also a
write ("kaishi", 开始) makes the topic's spelling ambiguous, so it is dropped.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping

MIN_FULL = 5  # shorter full pinyin ("xue", "ren") is too often an English word or a name
INITIALS_MAX = 3  # a spelling this short is initials: read only in a line with Chinese characters
_FULL_CHARS = range(2, 5)
_INITIAL_CHARS = range(2, INITIALS_MAX + 1)


def _spellings(phrase: str, readings: Mapping[str, tuple[str, ...]]) -> list[str]:
    sounds = [readings.get(c, ("",))[0] for c in phrase]
    if not all(sounds):
        return []
    out = []
    if len(phrase) in _FULL_CHARS:
        full = "".join(sounds)
        if len(full) >= MIN_FULL:
            out.append(full)
    if len(phrase) in _INITIAL_CHARS:
        out.append("".join(s[0] for s in sounds))
    return out


def pinyin_words(
    phrases: Mapping[str, str | None],
    topics: Collection[str],
    readings: Mapping[str, tuple[str, ...]],
    known: Collection[str],
) -> dict[str, str]:
    """Latin spelling → feature, for the Chinese ``topics`` whose spelling is unambiguous.

    ``phrases``: every Chinese phrase with its feature (None for filler: it shares
    a spelling with nothing); ``known``: English words that must keep their meaning.
    """
    meanings: dict[str, set[str]] = {}
    for phrase, feature in phrases.items():
        if feature is None or not all("\u4e00" <= c <= "\u9fff" for c in phrase):
            continue
        for spelling in _spellings(phrase, readings):
            meanings.setdefault(spelling, set()).add(feature)
    out: dict[str, str] = {}
    for phrase in topics:
        for spelling in _spellings(phrase, readings):
            found = meanings.get(spelling, set())
            if len(found) == 1 and spelling not in known:
                out[spelling] = next(iter(found))
    return out
