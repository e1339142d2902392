"""Domain vocabularies (en + zh) that turn a request into normalized terms.

How this works: ``analyze`` tokenizes the normalized text (``tokens.py``), then
walks the tokens left to right taking the longest phrase the lexicon knows:

* English words are matched as word sequences ("where am i", "how many");
  Han runs are segmented by forward maximum matching over characters.
* A phrase maps to a domain feature and a kind (topic, function, write or a
  filter kind), to an item-name slot (``@item``), or to nothing (filler such
  as "the", "please", "的").
* Asking adds nothing: a Chinese A-not-A question ("饿不饿", "有没有")
  becomes the word, so its "不" is not read as a negation; particles
  (吗/呢/啊) are filler; a final 没/没有 after 有 or 了 ("有人找我没") asks
  "or not?" and is dropped too.
* One meaning said twice in a row ("xp lvl", "经验等级") is one term, so the
  request matches the example that says it once. Slots are never merged.
* An English word the lexicon does not know is corrected first, when it is
  one typo (two in a long word) from exactly one word of the lexicon and is no
  common English word (``spelling.py``): "helth" → health, "wher am i" → where
  am i. Otherwise it stays as ``w:<word>``, and an unknown Chinese character stays as ``c:<char>``.
  Unfamiliar content is kept on purpose: it must be covered by the example
  that matches, or the request goes to the model.

Player names known at request time become ``@player``; numbers become ``#num``.
The lexicon is built once at start; ``analyze`` only reads it.
"""
from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from importlib import resources
from typing import Literal, TypeVar

import attrs
import pydantic

from engine.routing.filters import EN_FILTER_WORDS, ZH_FILTER_WORDS, governed
from engine.routing.homophones import HomophoneIndex, load_readings
from engine.routing.clauses import before_purpose, focus, may_have_clauses
from engine.routing.mood import Mood, asks_to_be_shown, mood, names_speaker
from engine.routing.normalize import NOT_YET
from engine.routing.pinyin_words import INITIALS_MAX, pinyin_words
from engine.routing.player_names import PLAYER_FEATURE as PLAYER_FEATURE, name_players
from engine.routing.spelling import SpellingBudget, SpellingIndex, load_guard_words
from engine.routing.asides import INTERJECTIONS, without_asides
from engine.routing.chat_forms import (CHAT_SPELLINGS, devoweled, run_together, skeletons, undoubled, unleet,
                                       unstretched)
from engine.routing.senses import TAGS, without_vocatives, word_senses
from engine.routing.sentences import how_it_looks, restated as one_request, shifted
from engine.routing.terms import Analysis, Term, TermKind
from engine.routing.tokens import RawToken, Script, english_words, tokenize

ITEM_FEATURE = "@item"
NUMBER_FEATURE = "#num"
_SLOT_FEATURES = {"player": PLAYER_FEATURE, "item": ITEM_FEATURE, "number": NUMBER_FEATURE}
_A_NOT_A = "不没"
_QUESTION_TAILS = ("没有", "莫得", "没得", "没")  # 莫得, 没得: 没有 in south-western speech
_PARTICLES = "吗呢啊呀吧嘛么啦呗哈"
# "at the farm", "my build", "what loot": a write word after one is a thing ("that" is no such word:
# "after that tp me").
_DETERMINERS = frozenset({"the", "a", "an", "my", "his", "her", "our", "their", "your", "ur", "this", "what", "which"})
# A Minecraft name that no word is spelled like: an underscore, or three letters then digits.
_NICK = re.compile(r"(?=[a-z0-9_]{3,16}$)(?:[a-z0-9]*_[a-z0-9_]*|[a-z_]*[a-z]{3}[a-z_]*[0-9]+)")
_COLLAPSING = frozenset({TermKind.TOPIC, TermKind.FUNCTION})
_INFLECTIONS = frozenset({"ed", "d", "ing"})
_EN_SPEAKER = frozenset({"i", "im", "i'm", "me", "my", "mine", "myself", "ive", "i've"})
# "血满了告诉我": an event, then what to do once it happens. Read from the text, since a phrase
# that ends in 了 (满了, 下线了) takes the 了 that the filter's "了告诉我" would have matched.
_ZH_ONCE_DONE = re.compile(r"了(?:就|再)?(?:告诉我|通知我|提醒我|叫我|喊我|跟我说|说一声)")
_ONCE_DONE = Term("了告诉我", "!condition", TermKind.CONDITION)
_PINYIN_ASKING = frozenset({"@howmuch", "@what", "@where", "@how"})
_ZH_STATES_ASKED = frozenset({"@on", "@full"})  # "开着没", "满没": is it on, full, or not?
K = TypeVar("K", str, tuple[str, ...])


class _FeatureSpec(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    kind: Literal["topic", "function", "write"]
    phrases: list[str]


class VocabularyFile(pydantic.BaseModel):
    """``engine/routing/data/vocabulary-<lang>.json``."""

    model_config = pydantic.ConfigDict(extra="forbid")
    language: str
    comment: str = ""
    features: dict[str, _FeatureSpec]
    filler: list[str] = []


@attrs.frozen
class _Entry:
    feature: str | None  # None: filler, dropped
    kind: TermKind | None


_FILLER = _Entry(None, None)


class VocabularyError(ValueError):
    """The built-in vocabulary defines one phrase twice with different meanings."""


def load_vocabulary_file(language: str) -> VocabularyFile:
    text = resources.files("engine.routing").joinpath("data", f"vocabulary-{language}.json").read_text(encoding="utf-8")
    return VocabularyFile.model_validate(json.loads(text))


class Vocabulary:
    def __init__(
        self,
        english: VocabularyFile,
        chinese: VocabularyFile,
        item_names_en: Iterable[str] = (),
        item_names_zh: Iterable[str] = (),
        guard: Collection[str] = (),
        readings: Mapping[str, tuple[str, ...]] = {},
    ) -> None:
        """``guard``: English words never corrected into a vocabulary word ("good" is not "food");
        ``readings``: character → toneless pinyin, to repair IME slips ("学量" is 血量)."""
        self._en: dict[tuple[str, ...], _Entry] = {}
        self._zh: dict[str, _Entry] = {}
        # Item names go in first: a domain word that is also an item ("map",
        # "compass") keeps its domain meaning.
        item = _Entry(ITEM_FEATURE, TermKind.SLOT)
        for name in item_names_en:
            words = english_words(name)
            if words:
                self._en[words] = item
        for name in item_names_zh:
            if name:
                self._zh[name] = _Entry(ITEM_FEATURE, TermKind.SLOT)
        defined_en: dict[tuple[str, ...], _Entry] = {}
        defined_zh: dict[str, _Entry] = {}
        for feature, spec in english.features.items():
            entry = _Entry(feature, TermKind(spec.kind))
            for phrase in spec.phrases:
                self._define(defined_en, english_words(phrase), entry)
        for kind, words in EN_FILTER_WORDS.items():
            for phrase in words:
                self._define(defined_en, english_words(phrase), _Entry(f"!{kind.value}", kind))
        for phrase in english.filler:
            self._define(defined_en, english_words(phrase), _FILLER)
        for feature, spec in chinese.features.items():
            entry = _Entry(feature, TermKind(spec.kind))
            for phrase in spec.phrases:
                self._define(defined_zh, phrase, entry)
        for kind, words in ZH_FILTER_WORDS.items():
            for phrase in words:
                self._define(defined_zh, phrase, _Entry(f"!{kind.value}", kind))
        for phrase in chinese.filler:
            self._define(defined_zh, phrase, _FILLER)
        # Plurals of topics ("coordinate" → "coordinates", "hunger bar" → "hunger bars") unless defined.
        for words, entry in list(defined_en.items()):
            if entry.kind is TermKind.TOPIC and words[-1].isalpha() and not words[-1].endswith("s"):
                defined_en.setdefault((*words[:-1], words[-1] + "s"), entry)
        # Chat spellings of a phrase's words ("wut can i ask", "what can u do"): one word
        # swapped for a spelling the lexicon gives the same meaning, unless defined.
        for words, entry in list(defined_en.items()):
            if len(words) >= 2:
                for i, word in enumerate(words):
                    for variant in CHAT_SPELLINGS.get(word, ()):
                        defined_en.setdefault((*words[:i], variant, *words[i + 1:]), entry)
        self._en.update(defined_en)
        self._zh.update(defined_zh)
        # Longest phrase starting with each word, so most tokens try one lookup, not en_max.
        self._en_longest: dict[str, int] = {}
        for words in self._en:
            if len(words) > self._en_longest.get(words[0], 1):
                self._en_longest[words[0]] = len(words)
        self._zh_max = max((len(k) for k in self._zh), default=1)
        # Chinese phrases that open with a Latin letter ("y值", "y坐标"): the tokenizer
        # splits "y" from "坐标", so such a pair is read as one Chinese run.
        self._zh_latin_heads = frozenset(k[: k.index(next(c for c in k if not c.isascii()))]
                                         for k in self._zh if k[:1].isascii() and not k.isascii())
        # Typos are corrected into any word of a phrase the lexicon knows, before
        # phrases are matched: "wher am i" reads "where am i", "emerald blok id"
        # the item "emerald block".
        self._en_words = frozenset(w for words in self._en for w in words)
        # Interjections that are filler and no part of any phrase are dropped before phrases
        # are matched, so "where tf am i" still reads "where am i".
        in_phrases = {w for words in self._en if len(words) > 1 for w in words}
        self._interjections = frozenset(w for w in INTERJECTIONS
                                        if self._en.get((w,)) is _FILLER and w not in in_phrases)
        meaning = {words[0]: entry.feature for words, entry in self._en.items() if len(words) == 1 and entry.feature}
        self.spelling = SpellingIndex(self._en_words, guard, meaning)
        self._dictionary = frozenset(guard)
        self._short_topics = frozenset(w for (w, *rest), e in self._en.items() if not rest and len(w) == 2 and e.kind in (
            TermKind.TOPIC, TermKind.SLOT))
        self.readings = readings  # character → toneless pinyin, also for reading lines typed in pinyin
        self._skeletons = skeletons(self._en_words, self._en_words | self._dictionary, meaning)
        # "zuobiao", "zb": a Chinese topic typed in pinyin, when it can mean nothing else.
        # Question words too ("饥饿值duoshao", "zenme yong"): they ask, and name nothing.
        spelled = pinyin_words({w: e.feature for w, e in self._zh.items()},
                               [w for w, e in self._zh.items() if e.kind is TermKind.TOPIC
                                or e.kind is TermKind.FUNCTION and e.feature in _PINYIN_ASKING], readings,
                               self._en_words | self._dictionary)
        self._pinyin = {w: _Entry(f, TermKind.FUNCTION if f in _PINYIN_ASKING else TermKind.TOPIC)
                        for w, f in spelled.items() if f not in _PINYIN_ASKING or len(w) > INITIALS_MAX}
        content = (TermKind.TOPIC, TermKind.SLOT)
        # Item names are distinct meanings although all are the @item slot; topics share their feature.
        zh_meaning = {w: (w if e.kind is TermKind.SLOT else e.feature or w) for w, e in self._zh.items() if e.kind in content}
        self.homophones = HomophoneIndex(zh_meaning, readings, zh_meaning)

    @property
    def dictionary(self) -> frozenset[str]:
        """Common English words: never corrected, and what makes a line English rather than pinyin."""
        return self._dictionary

    def chinese_phrases(self) -> dict[str, TermKind | None]:
        return {phrase: entry.kind for phrase, entry in self._zh.items()}

    def may_be_topic(self, feature: str) -> bool:
        """Whether an unfamiliar feature may name something the module does not answer.

        Topics, slots and unknown Chinese characters may. An unknown English
        word may when it is an English word ("house", "village", "dog"); one
        that is not (slang, a typo too far to correct, an offline player's nick:
        "ayo", "wassup", "kev") names nothing a module could be wrong about.
        """
        if feature.startswith("w:"):
            return feature[2:] in self._dictionary
        return True

    @staticmethod
    def _define(table: dict[K, _Entry], key: K, entry: _Entry) -> None:
        if not key:
            return
        existing = table.get(key)
        if existing is not None and existing != entry:
            raise VocabularyError(f"phrase {key!r} is defined as {existing.feature} and as {entry.feature}")
        table[key] = entry

    @classmethod
    def builtin(cls, item_names_en: Iterable[str] = (), item_names_zh: Iterable[str] = ()) -> "Vocabulary":
        return cls(
            load_vocabulary_file("en"), load_vocabulary_file("zh"), item_names_en, item_names_zh, load_guard_words(),
            load_readings(),
        )

    def analyze(
        self, normalized: str, names: Collection[str] = (), spelling: SpellingBudget | None = None,
        marked: bool = False,
    ) -> Analysis:
        """``marked``: the text ended with a question mark (``ends_with_question_mark``)."""
        analysis = self._analyze(normalized, names, spelling, marked)
        # A line with a context clause ("about to craft, how many planks do i have", "where is
        # alex, i can kind of see her"): each clause is read on its own, and the one that asks
        # is the request when the others only say what happened or why.
        if analysis.mood in (Mood.ASKS, Mood.STATES) and may_have_clauses(normalized):
            found = focus(normalized, lambda clause, asked: self._analyze(clause, names, None, asked), analysis)
            if found is not None:
                return found
        return analysis

    def _analyze(
        self, normalized: str, names: Collection[str] = (), spelling: SpellingBudget | None = None,
        marked: bool = False,
    ) -> Analysis:
        """Terms of already-normalized text; ``names`` are lower-cased player names to treat as slots.

        Linear in the text: one tokenizer pass, phrase lookups bounded by the
        longest phrase, typo correction bounded by ``spelling`` (a fresh
        per-request budget when None).
        """
        budget = spelling if spelling is not None else SpellingBudget()
        normalized = without_vocatives(normalized)
        terms: list[Term] = []
        breaks = 0
        cuts: list[int] = []
        chinese = False
        tokens = without_asides(self._corrected(tokenize(normalized), names, budget), names, self._interjections,
                               self._unknown_word)
        han = any(t.script is Script.HAN for t in tokens)  # pinyin initials ("zb") only beside Chinese
        i = 0
        n = len(tokens)
        while i < n:
            token = tokens[i]
            script = token.script
            if script is Script.LATIN and i + 1 < n and tokens[i + 1].script is Script.HAN and (
                self._zh_phrase_at(token.text + tokens[i + 1].text, len(token.text))
            ):
                chinese = True
                self._chinese(token.text + tokens[i + 1].text, terms, i + 2 == n or tokens[i + 2].script is Script.BREAK,
                              budget)
                i += 2
                continue
            if script is Script.LATIN:
                i = self._english(tokens, i, names, terms, han)
                continue
            if script is Script.HAN:
                chinese = True
                self._chinese(token.text, terms, i + 1 == n or tokens[i + 1].script is Script.BREAK, budget)
            elif script is Script.NUMBER:
                terms.append(Term(token.text, NUMBER_FEATURE, TermKind.SLOT))
            elif script is Script.SLOT:
                terms.append(Term(token.text, _SLOT_FEATURES[token.text], TermKind.SLOT))
            elif terms:
                breaks += 1
                cuts.append(len(terms))
            i += 1
        if marked and terms and terms[-1].surface in TAGS and terms[-1].kind is TermKind.UNKNOWN:
            del terms[-1]  # "im in the nether right?": a tag asking to confirm what was said
        if chinese and _ZH_ONCE_DONE.search(normalized) and not any(t.kind is TermKind.CONDITION for t in terms):
            terms.append(_ONCE_DONE)
        name_players(terms, self._dictionary)
        word_senses(terms, normalized)
        how_it_looks(terms)
        kept = governed(tuple(terms))
        kind = mood(normalized, chinese)
        if marked and kind is Mood.STATES:
            kind = Mood.ASKS  # "我饿了？", "我在下界？": said as a statement, asked with the mark
        # 我 is filler and "where am i" one phrase: ``speaker`` keeps that the player was named.
        speaker = names_speaker(before_purpose(normalized, terms, kept)) if chinese else any(
            word in _EN_SPEAKER for term in kept for word in term.surface.split(" "))
        restated = bool(breaks) and one_request(terms, cuts, chinese and speaker)
        requested = asks_to_be_shown(normalized, chinese)
        if not restated:
            return Analysis(kept, breaks, mood=kind, speaker=speaker, marked=marked, requested=requested)
        return Analysis(kept, 0, shifted(terms, kept, cuts), mood=kind, speaker=speaker, marked=marked,
                        requested=requested)

    def _zh_phrase_at(self, run: str, head: int) -> bool:
        """"tnt矿车", "b站": a Chinese phrase whose first letters are Latin opens the run; in
        "tnt的id" no phrase does, and "tnt" is read as an English word."""
        if run[:head] not in self._zh_latin_heads:
            return False
        return any(run[:length] in self._zh for length in range(min(self._zh_max, len(run)), head, -1))

    def _english(
        self, tokens: list[RawToken], start: int, names: Collection[str], out: list[Term], han: bool = False
    ) -> int:
        # Longest lexicon phrase over consecutive Latin tokens.
        word = tokens[start].text
        longest = self._en_longest.get(word, 1)
        if longest > 1:
            limit = start
            while limit < len(tokens) and limit - start < longest and tokens[limit].script is Script.LATIN:
                limit += 1
            words = tuple(t.text for t in tokens[start:limit])
            for length in range(len(words), 1, -1):
                entry = self._en.get(words[:length])
                if entry is not None:
                    self._emit(" ".join(words[:length]), entry, out)
                    return start + length
        if word in names:
            out.append(Term(word, PLAYER_FEATURE, TermKind.SLOT))
            return start + 1
        entry = self._en.get((word,))
        if entry is None and han:
            entry = self._zh.get(word)  # "我现在多少y": a Chinese phrase in Latin letters
        syllables = self._spaced_pinyin(tokens, start, han) if entry is None and word not in names else 0
        if syllables:
            spaced = tokens[start:start + syllables]
            self._emit(" ".join(t.text for t in spaced), self._pinyin["".join(t.text for t in spaced)], out)
            return start + syllables
        if entry is None and (han or len(word) > INITIALS_MAX):
            entry = self._pinyin.get(word)
        if entry is None and word.startswith("minecraft:"):
            entry = _Entry(ITEM_FEATURE, TermKind.SLOT)
        if entry is None and _NICK.fullmatch(word):
            # "alex_99", "xx_dragon_xx": a player's name, online or not, is a player.
            out.append(Term(word, PLAYER_FEATURE, TermKind.SLOT))
            return start + 1
        if entry is None or entry.kind is TermKind.WRITE and start and tokens[start - 1].text in _DETERMINERS:
            out.append(Term(word, f"w:{word}", TermKind.UNKNOWN))  # "at the farm", "my build": a thing, not a verb
        else:
            self._emit(word, entry, out)
        return start + 1

    def _spaced_pinyin(self, tokens: list[RawToken], start: int, han: bool) -> int:
        """"zuo biao", "bang zhu": a topic's pinyin typed a syllable at a time; how many tokens it
        spans (0 when none does). Without Chinese characters beside it, only syllables of two
        letters or more that make a full pinyin ("z b" is no "zb" there)."""
        for length in (4, 3, 2):
            words = tokens[start:start + length]
            if len(words) == length and all(t.script is Script.LATIN and t.text.isalpha() and (
                han or len(t.text) > 1) for t in words):
                joined = "".join(t.text for t in words)
                if joined in self._pinyin and (han or len(joined) > INITIALS_MAX):
                    return length
        return 0

    def _unknown_word(self, word: str, names: Collection[str]) -> bool:
        """A word no player name, dictionary, vocabulary or pinyin knows: a nickname, maybe."""
        return not (word in names or word in self._en_words or word in self._dictionary or word in self._pinyin)

    def _corrected(self, tokens: list[RawToken], names: Collection[str], budget: SpellingBudget) -> list[RawToken]:
        # The corrected word replaces the token, so phrases and parsers read it
        # ("emerald blok id" names the item "emerald block").
        known = self._en_words
        out: list[RawToken] = []
        for token in tokens:
            word = token.text
            last = out[-1].text if out and out[-1].script is Script.LATIN and token.script is Script.LATIN else ""
            if last and (last + word,) in self._en and (last, word) not in self._en:
                out[-1] = RawToken(last + word, Script.LATIN)  # "red stone dust", "on line": one word split
                continue
            out.append(token)
            if token.script is Script.LATIN and word not in known and word not in names and word not in self._pinyin:
                plain = (unleet(word, known) or unstretched(word, known) or undoubled(word, self._short_topics)
                         or devoweled(word, self._skeletons))
                if plain is not None:
                    out[-1] = RawToken(plain, Script.LATIN)
                    continue
                corrected = self.spelling.correct(word, budget)
                if corrected is not None and not self._past_of_a_write(word, corrected):
                    out[-1] = RawToken(corrected, Script.LATIN)
                    continue
                split = run_together(word, known) if word not in self._dictionary else None  # not "any way"
                if split is not None:
                    out[-1:] = [RawToken(part, Script.LATIN) for part in split]
        return out

    def _past_of_a_write(self, word: str, corrected: str) -> bool:
        """"respawned", "teleported": a write verb's past or ongoing form says what happened,
        it asks for nothing; it is no typo of the verb."""
        entry = self._en.get((corrected,))
        return entry is not None and entry.kind is TermKind.WRITE and word.startswith(corrected) and (
            word[len(corrected):] in _INFLECTIONS
        )

    def _chinese(self, run: str, out: list[Term], last: bool, budget: SpellingBudget) -> None:
        if last:
            run = self._without_question_tail(run)
        segments = list(self._segments(run))
        unknown = [i for i, _, entry in segments if entry is None]
        if unknown:
            repaired = self._repaired(run, unknown, budget)
            if repaired != run:
                run, segments = repaired, list(self._segments(repaired))
        for i, length, entry in segments:
            if entry is None:
                out.append(Term(run[i], f"c:{run[i]}", TermKind.UNKNOWN))
            else:
                self._emit(run[i: i + length], entry, out)

    def _segments(self, run: str) -> Iterator[tuple[int, int, _Entry | None]]:
        """Forward maximum matching: (start, length, entry), entry None for an unknown character."""
        n = len(run)
        i = 0
        while i < n:
            if i + 2 < n and run[i + 1] in _A_NOT_A and run[i + 2] == run[i] and run[i:i + 3] not in self._zh:
                # "饿不饿", "有没有", "在不在线": the question asks about the word that
                # follows, so "X不" is dropped and matching goes on from the second X
                # ("在不在线" is "在线"); the 不/没 is no negation. A phrase of its own ("好不好") is read whole.
                i += 2
                continue
            if i + 4 < n and run[i + 2] in _A_NOT_A and run[i + 3: i + 5] == run[i: i + 2] and run[i: i + 2] in self._zh:
                i += 3  # "在线不在线", "满血没满血": the same with a word of two characters
                continue
            for length in range(min(self._zh_max, n - i), 0, -1):
                entry = self._zh.get(run[i: i + length])
                if entry is not None:
                    if entry is _FILLER:
                        length, entry = self._filler_yields(run, i, length)
                    yield i, length, entry
                    i += length
                    break
            else:
                yield i, 1, None
                i += 1

    def _filler_yields(self, run: str, i: int, length: int) -> tuple[int, _Entry]:
        """"你能帮我查什么": the filler 你能帮我查 would swallow the start of the help phrase
        能帮我查什么; a filler ends where a longer content phrase begins inside it, when what is
        before that is a phrase too (你)."""
        end = i + length
        for j in range(i + 1, end):
            head = self._zh.get(run[i:j])
            if head is None:
                continue
            for k in range(min(j + self._zh_max, len(run)), end, -1):
                entry = self._zh.get(run[j:k])
                if entry is not None and entry is not _FILLER:
                    return j - i, head
        return length, _FILLER

    def _repaired(self, run: str, unknown: list[int], budget: SpellingBudget) -> str:
        # A repair keeps the run's length, so the other unknown positions stay valid.
        fixed_to = -1
        for position in unknown:
            if position < fixed_to:
                continue
            if budget.words_left <= 0:
                break
            budget.words_left -= 1
            budget.words += 1
            found = self.homophones.repair(run, position, frozenset(unknown))
            if found is not None:
                start, window, word = found
                run = run[:start] + word + run[start + len(window):]
                fixed_to = start + len(word)
        return run

    def _without_question_tail(self, run: str) -> str:
        """A final 没/没有/不 after a topic or a state asks "or not?" ("Alex在线不", "消息没有呢"):
        dropped like 吗. After 有, 了 or 过 normalize_text has already made it 吗; what is left here
        needs the lexicon. After an adverb ("还没", "都没有") it stays a statement.
        """
        end = len(run)
        while end and run[end - 1] in _PARTICLES:
            end -= 1
        for tail in _QUESTION_TAILS:
            head = end - len(tail)
            if head >= 2 and run[head:end] == tail and run[head - 1] not in NOT_YET and (
                self._ends_with_topic(run[:head])
            ):
                return run[:head] + run[end:]
        head = end - 1
        if head >= 2 and run[head] == "不" and (self._ends_with_topic(run[:head]) or "有" in run[:head] and (
            self._ends_with_item(run[:head])
        )):
            return run[:head] + run[end:]  # "Alex在线不", "饱食度满不", "我有水桶不": "…or not?"
        return run

    def _ends_with_topic(self, text: str) -> bool:
        """"在线没", "消息没有", "自动驾驶开着没": a topic or a state asked about, "or not"."""
        entry = self._last_entry(text)
        return entry is not None and (entry.kind is TermKind.TOPIC or entry.feature in _ZH_STATES_ASKED)

    def _ends_with_item(self, text: str) -> bool:
        entry = self._last_entry(text)
        return entry is not None and entry.feature == ITEM_FEATURE

    def _last_entry(self, text: str) -> _Entry | None:
        """The longest phrase the text ends in."""
        for length in range(min(self._zh_max, len(text)), 0, -1):
            entry = self._zh.get(text[-length:])
            if entry is not None:
                return entry
        return None

    @staticmethod
    def _emit(surface: str, entry: _Entry, out: list[Term]) -> None:
        feature, kind = entry.feature, entry.kind
        if feature is None or kind is None:
            return
        # "xp lvl", "经验等级": one meaning said twice is one term, so it
        # matches the example that says it once.
        if kind in _COLLAPSING and out and out[-1].feature == feature:
            return
        if kind is TermKind.TOPIC and len(out) >= 2 and out[-1].feature == "@and" and out[-2].feature == feature:
            del out[-1]  # "x和z", "x and z": two parts of one thing asked together are one question
            return
        out.append(Term(surface, feature, kind))
