"""Lines typed wholly in pinyin, read as the Chinese they spell: "wo you duo shao zuan shi".

Chinese players without their IME type the syllables of what they would have written. Such a
line has no Chinese character, so language detection calls it English and the English index
matches nothing in it. ``PinyinReader.read`` turns it into Chinese characters, which then go
through the Chinese vocabulary, filters and thresholds like any Chinese line.

How this works:

1. The line is pinyin when its words (after an "ai"/"bot" address) split into syllables of
   ``data/pinyin.txt.gz``, there are at least two such words and three syllables, at most one
   other short word ("id", "xp") is among them, and no more than half of them are English
   words ("a man", "he he" are English).
2. Each syllable has candidate characters: those with that reading that the assistant's own
   Chinese text (the modules' examples and the vocabulary's phrases) uses, the commonest first.
3. A character bigram model of that same text picks the likeliest string (Viterbi), so "you"
   is 有 before 多少 and "zai na" is 在哪: what an IME does, with our own text as its corpus.
4. The guess must be sure where it matters: when a syllable could also be a character that
   stops a line (a negation, condition, reference or write: 那 for "na", 又 for "you") and the
   best string with that character instead is nearly as likely (``_SURE``), the line is not
   read ("na ge zuo biao" may be 那个坐标, a reference back); it stays with the model.

Work is linear in the line: each word is cut into syllables by a bounded dynamic programme,
and the Viterbi step is (syllables × candidates²) with at most ``_CANDIDATES`` candidates.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping

_CANDIDATES = 16  # characters kept per syllable, the commonest in our own text
_LONGEST_SYLLABLE = 6  # "zhuang"
_LONGEST_WORD = 40  # letters: a longer run is no word anyone typed in pinyin
_ADDRESS = frozenset({"ai", "@ai", "bot", "@bot"})
_SURE = math.log(20.0)  # how much likelier the guess must be than reading a stopping character there
_REMEMBERED = 200_000  # pairs whose probability is kept: common pairs recur, memory stays bounded
_FOLLOWING = 0.7  # weight of what follows the character before, against the character alone
_START = "^"
_TOKEN = re.compile(r"[a-z]+|[^a-z\s]+")


class PinyinReader:
    def __init__(
        self, readings: Mapping[str, tuple[str, ...]], texts: Iterable[str], english: Collection[str],
        stopping: Collection[str] = (),
    ) -> None:
        """``readings``: character → toneless pinyin ("lv" for lü); ``texts``: the Chinese the
        assistant itself knows, from which both the candidates and the bigrams come;
        ``english``: words that make a line English rather than pinyin; ``stopping``: characters
        that stop a line on their own (不, 那, 又), which a guess must be sure is not meant."""
        self._english = english
        self._stopping = frozenset(stopping)
        self._unigrams: Counter[str] = Counter()
        self._bigrams: Counter[tuple[str, str]] = Counter()
        self._follows: Counter[str] = Counter()  # how often anything follows a character (or starts: _START)
        for text in texts:
            previous = _START
            for ch in text:
                if not _is_han(ch):
                    previous = _START
                    continue
                self._unigrams[ch] += 1
                self._bigrams[previous, ch] += 1
                self._follows[previous] += 1
                previous = ch
        self._logs: dict[tuple[str, str], float] = {}  # _log's answers, up to _REMEMBERED of them
        self._total = sum(self._unigrams.values())
        by_sound: dict[str, list[str]] = {}
        for ch, sounds in readings.items():
            for sound in sounds:
                by_sound.setdefault(sound, []).append(ch)
        self._syllables = frozenset(by_sound)
        self._candidates: dict[str, tuple[str, ...]] = {}
        for sound, chars in by_sound.items():
            known = sorted((c for c in chars if c in self._unigrams), key=lambda c: -self._unigrams[c])
            # A syllable none of our text uses still reads as some character: an unknown word.
            self._candidates[sound] = tuple(known[:_CANDIDATES]) or (chars[0],)

    def read(self, normalized: str) -> str | None:
        """The Chinese a pinyin line spells, or None when the line is not pinyin."""
        if not normalized.isascii():
            return None
        tokens = _TOKEN.findall(normalized)
        head: list[str] = []
        while tokens and tokens[0] in _ADDRESS:
            head.append(tokens.pop(0))
        pieces: list[list[str] | str] = []  # a word's syllables, or text kept as typed
        words = others = english = syllables = 0
        for token in tokens:
            if not token.isalpha():
                pieces.append(token)
                continue
            sounds = self._split(token)
            if sounds is None:
                others += 1
                if len(token) > 3:
                    return None  # "where", "nether": an English word, not a slip among pinyin
                pieces.append(token)
                continue
            words += 1
            syllables += len(sounds)
            english += token in self._english
            pieces.append(sounds)
        if words < 2 or syllables < 3 or others > 1 or english * 2 > words:
            return None
        out = [" ".join(head) + " "] if head else []
        run: list[str] = []
        for piece in [*pieces, ""]:
            if isinstance(piece, list):
                run.extend(piece)
                continue
            characters = self._characters(run)
            if characters is None:
                return None
            out.append(characters)
            run = []
            out.append(piece)
        return "".join(out)

    def _split(self, word: str) -> list[str] | None:
        """The fewest syllables that spell ``word`` exactly, or None."""
        n = len(word)
        if n > _LONGEST_WORD:
            return None
        best: list[list[str] | None] = [[]] + [None] * n
        for end in range(1, n + 1):
            for start in range(max(0, end - _LONGEST_SYLLABLE), end):
                before = best[start]
                if before is not None and word[start:end] in self._syllables and (
                    best[end] is None or len(before) + 1 < len(best[end] or ())
                ):
                    best[end] = [*before, word[start:end]]
        return best[n]

    def _characters(self, sounds: list[str]) -> str | None:
        """The likeliest characters for consecutive syllables (Viterbi over bigrams), or None
        when a stopping character would read nearly as well somewhere."""
        if not sounds:
            return ""
        columns = [self._candidates[sound] for sound in sounds]
        # forward[i][c]: the best score of the first i+1 syllables ending in c, and where it came from.
        forward: list[dict[str, tuple[float, str]]] = [{c: (self._log(_START, c), _START) for c in columns[0]}]
        for column in columns[1:]:
            before = forward[-1]
            forward.append({c: max(((score + self._log(p, c), p) for p, (score, _) in before.items()),
                                   key=lambda found: found[0]) for c in column})
        # backward[i][c]: the best score of the syllables after i, given c at i.
        backward: list[dict[str, float]] = [{c: 0.0 for c in columns[-1]}]
        for i in range(len(columns) - 2, -1, -1):
            after = backward[0]
            backward.insert(0, {c: max(self._log(c, n) + score for n, score in after.items()) for c in columns[i]})
        last = max(forward[-1], key=lambda c: forward[-1][c][0])
        best = forward[-1][last][0]
        chosen = [last]
        for i in range(len(columns) - 1, 0, -1):
            chosen.append(forward[i][chosen[-1]][1])
        chosen.reverse()
        for i, column in enumerate(columns):
            if chosen[i] in self._stopping:
                continue
            if any(best - (forward[i][c][0] + backward[i][c]) < _SURE for c in column if c in self._stopping):
                return None  # "na ge zuo biao": 哪个 or 那个, a reference back, is anyone's guess
        return "".join(chosen)

    def _log(self, previous: str, ch: str) -> float:
        """log P(ch | previous), interpolated with the character's own frequency (Jelinek–Mercer),
        so a pair our text never has costs the same after a common character as after a rare one."""
        known = self._logs.get((previous, ch))
        if known is not None:
            return known
        alone = (self._unigrams[ch] + 1) / (self._total + len(self._unigrams) + 1)
        seen = self._follows[previous]
        after = self._bigrams[previous, ch] / seen if seen else 0.0
        found = math.log(_FOLLOWING * after + (1.0 - _FOLLOWING) * alone)
        if len(self._logs) < _REMEMBERED:
            self._logs[previous, ch] = found
        return found


def _is_han(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf"
