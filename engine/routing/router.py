"""The routing pipeline for one request addressed to the assistant.

How this works, in order; the first step that decides wins:

1. **Text limit**: text over ``maxCharacters`` is TOO_LONG before any other
   work (normalizing, tokenizing, spelling), so a long line costs no more
   than a short one; option numbers and explicit phrases are short anyway.
2. **Option number**: "2" while the player's last card offered options picks
   that option's explicit command (a structured action, like a click).
   **Explicit phrase**: the exact normalized text is a phrase a module
   registered ("pos", "坐标"); its command parser reads the (empty) arguments.
3. **Mode**: mode OFF skips steps 4–5.
4. **Intent cache** (ENFORCE, history on): a hit names a module; the module
   must still be direct-capable and its parser must read the arguments again
   from *this* text, or the hit counts for nothing.
5. **Lexical match**: vocabulary → TF-IDF → ``SemanticIndex.decide``; a
   direct verdict (DIRECT, or LEARNED from the line model on a line the
   thresholds refused) still needs the module's parser to succeed. In SHADOW
   the would-be direct answer is only counted.
6. Otherwise the request falls back (model or honest "not sure"), carrying
   the local candidates whose arguments parse.

Writes cannot come out of steps 4–5: only direct-capable modules (read-only,
``RoutingProfile.read``, not explicit/structured-only) are ever returned there.
``remember`` is the only way into the cache.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from engine.modules.declarations import ParseContext
from engine.modules.module import Access
from engine.modules.registry import ModuleRegistry, Registered
from engine.routing.cache import CacheKey, IntentCache, make_key
from engine.routing.corrections import corrected
from engine.routing.config import Mode, SemanticConfig
from engine.routing.filters import blocking_filter
from engine.routing.normalize import ends_with_question_mark, normalize_text
from engine.routing.pinyin_lines import PinyinReader
from engine.routing.player_names import PLAYER_FEATURE, as_speaker
from engine.routing.semantic_index import Match, SemanticIndex
from engine.routing.stats import LatestMatch, Reason, RoutingStats
from engine.routing.terms import Analysis, TermKind
from engine.routing.vocabulary import Vocabulary
from engine.world.snapshot import WorldSnapshot

MAX_CANDIDATES = 4
_OPTION = re.compile(r"^(?:#|no\.?\s*|option\s*|第)?\s*(\d{1,2})\s*(?:个|项)?$")


@attrs.frozen
class ScopeState:
    """Per-player routing state that the cache key is made of."""

    scope: str
    run_generation: int = 0
    memory_generation: int = 0
    history: bool = True  # history saving off: the cache is neither read nor written


@attrs.frozen
class Candidate:
    module_id: str
    score: float
    read_only: bool
    command_line: str | None  # explicit command with this request's arguments; None if they do not parse
    label_key: str | None


@attrs.frozen
class Route:
    reason: Reason
    language: str
    module_id: str | None = None  # set when a module runs now (EXPLICIT, CACHE_HIT, DIRECT)
    args: Any = None
    command_line: str | None = None  # OPTION: the explicit command to run
    match: Match | None = None
    candidates: tuple[Candidate, ...] = ()
    key: CacheKey | None = None  # for remember() after a model choice

    @property
    def local(self) -> bool:
        return self.module_id is not None or self.command_line is not None


def option_number(normalized: str) -> int | None:
    found = _OPTION.match(normalized)
    return int(found.group(1)) if found else None


class Router:
    def __init__(
        self,
        config: SemanticConfig,
        registry: ModuleRegistry,
        vocabulary: Vocabulary,
        index: SemanticIndex | None,
        cache: IntentCache,
        stats: RoutingStats,
        perf_counter: Callable[[], float] | None = None,
        pinyin: PinyinReader | None = None,
    ) -> None:
        if not registry.frozen:
            raise ValueError("freeze the module registry before building the router")
        self.config = config
        self.registry = registry
        self.vocabulary = vocabulary
        self.index = index
        self.cache = cache
        self.stats = stats
        self.perf_counter = perf_counter  # injected; None: routing time is not measured
        self.pinyin = pinyin  # lines typed wholly in pinyin, read as Chinese; None: they stay English

    def analyze(self, normalized: str, snapshot: WorldSnapshot) -> Analysis:
        return self.vocabulary.analyze(normalized, ParseContext.player_names(snapshot))

    def parse_context(
        self, normalized: str, snapshot: WorldSnapshot, language: str, marked: bool = False
    ) -> ParseContext:
        """``marked``: the request's text ended with a question mark, which ``normalized`` has lost."""
        names = ParseContext.player_names(snapshot)
        return ParseContext(snapshot, language, self.vocabulary.analyze(normalized, names, marked=marked), names)

    def route(
        self,
        text: str,
        language: str,
        scope: ScopeState,
        snapshot: WorldSnapshot,
        now: float,
        options: Sequence[str] = (),
    ) -> Route:
        perf = self.perf_counter
        started = perf() if perf is not None else 0.0
        route = self._route(text, language, scope, snapshot, now, options)
        if perf is not None:
            # Routing only: the module that runs next and any model call are not in it.
            self.stats.record_seconds(perf() - started)
        self.stats.count(route.reason)
        return route

    def _route(
        self, text: str, language: str, scope: ScopeState, snapshot: WorldSnapshot, now: float, options: Sequence[str]
    ) -> Route:
        config = self.config
        # The limit comes before any work on the text: everything below is
        # linear in it, but a 30,000-character line still has no business here.
        # Option numbers and explicit phrases are short, so nothing is lost.
        if len(text) > config.max_characters:
            return Route(Reason.TOO_LONG, language)
        normalized = normalize_text(text)
        if language == "en" and self.pinyin is not None and "zh" in config.languages:
            spelled = self.pinyin.read(normalized)
            if spelled is not None:  # "wo you duo shao zuan shi": Chinese without the IME
                text, normalized, language = spelled, normalize_text(spelled), "zh"
        own = snapshot.player_name.lower()
        if own and own in normalized and self._is_a_name(own):
            normalized = as_speaker(normalized, own)
        names = ParseContext.player_names(snapshot)  # once, for every part the rewrites read
        normalized = corrected(normalized, lambda part: self.vocabulary.analyze(part, names))
        if options:
            number = option_number(normalized)
            if number is not None:
                line = options[number - 1] if 1 <= number <= len(options) else None
                return Route(Reason.OPTION, language, command_line=line)
        ctx = self.parse_context(normalized, snapshot, language, ends_with_question_mark(text))
        analysis = ctx.analysis
        phrase = self.registry.phrase(normalized)
        if phrase is not None:
            owner, command = phrase
            value = command.parse("", ctx)
            if value is not None:
                return Route(Reason.EXPLICIT, language, module_id=owner.id, args=value)
        if config.mode is Mode.OFF or self.index is None:
            return Route(Reason.MODE_OFF, language)
        if language not in config.languages or language not in self.index.indexes:
            return Route(Reason.UNSUPPORTED_LANGUAGE, language)
        key = None
        if scope.history and config.mode is Mode.ENFORCE:
            self.cache.open_scope(scope.scope, scope.run_generation, scope.memory_generation)
            key = make_key(scope.scope, scope.run_generation, scope.memory_generation, language, normalized)
            cached = self.cache.get(key, now)
            if cached is not None:
                entry = self.registry.get(cached)
                value = self._parse(entry, text, ctx) if entry is not None and entry.direct_capable else None
                if entry is not None and value is not None:
                    return Route(Reason.CACHE_HIT, language, module_id=entry.id, args=value, key=key)
        verdict = self.index.decide(analysis, language, config, normalized)
        reason = verdict.reason
        match = verdict.match
        if (reason is Reason.DIRECT or reason is Reason.LEARNED) and match is not None:
            entry = self.registry.get(match.module_id)
            value = self._parse(entry, text, ctx) if entry is not None and entry.direct_capable else None
            if value is None:
                reason = Reason.ARGS_UNPARSED
            elif config.mode is Mode.SHADOW:
                reason = Reason.SHADOW_DIRECT
            else:
                self._record(match, reason)
                return Route(reason, language, module_id=match.module_id, args=value, match=match, key=key)
        if match is not None:
            self._record(match, reason)
        candidates = () if config.mode is Mode.SHADOW else self._candidates(match, text, ctx)
        return Route(reason, language, match=match, candidates=candidates, key=key)

    def _is_a_name(self, own: str) -> bool:
        """The player's name is no word the vocabulary reads ("Tester" is; a player called "food" is not)."""
        terms = self.vocabulary.analyze(own).terms
        return len(terms) == 1 and terms[0].kind is TermKind.UNKNOWN or all(t.feature == PLAYER_FEATURE for t in terms)

    @staticmethod
    def _parse(entry: Registered, text: str, ctx: ParseContext) -> Any:
        profile = entry.routing.profile
        if profile is None or profile.parser is None:
            return None
        return profile.parser(text, ctx)

    def _record(self, match: Match, reason: Reason) -> None:
        self.stats.record_match(LatestMatch(match.module_id, match.language, match.score, match.margin, match.coverage, reason))

    def _candidates(self, match: Match | None, text: str, ctx: ParseContext) -> tuple[Candidate, ...]:
        if self.index is None:
            return ()
        out: list[Candidate] = []
        for ranked in self.index.candidates(match)[:MAX_CANDIDATES]:
            entry = self.registry.get(ranked.label)
            if entry is None or not entry.model_visible or entry.access is Access.ADMIN:
                continue
            command = entry.first_command()
            value = self._parse(entry, text, ctx)
            line = command.line(value) if command is not None and value is not None else None
            profile = entry.routing.profile
            label = entry.routing.shortcuts[0].label_key if entry.routing.shortcuts else (
                profile.choice_label if profile is not None else None)
            out.append(Candidate(entry.id, ranked.score, entry.access is Access.READ, line, label))
        return tuple(out)

    def remember(
        self, key: CacheKey | None, text: str, module_id: str, model_args: Any, snapshot: WorldSnapshot, now: float
    ) -> bool:
        """Cache a model's read-only choice after the module completed; False when refused or dropped.

        Refused unless: mode ENFORCE; the key belongs to this text; the module
        may go direct; no conservative filter fires; its parser reads the same
        arguments from the text as the model gave; and no topic, slot or
        unknown word that may be a topic is unfamiliar to the module (used by
        none of its examples). Filler ("yo", "pls", "请", "帮我看看") is not a
        term, and an unknown word that is no English word ("ayo", "wassup") names
        no topic, so neither blocks; nor does the wording differing from the
        examples.
        """
        if key is None or self.config.mode is not Mode.ENFORCE or self.index is None:
            return False
        if len(text) > self.config.max_characters:
            return False
        normalized = normalize_text(text)
        if make_key(key.scope, key.run_generation, key.memory_generation, key.language, normalized) != key:
            return False
        entry = self.registry.get(module_id)
        if entry is None or not entry.direct_capable:
            return False
        ctx = self.parse_context(normalized, snapshot, key.language)
        analysis = ctx.analysis
        if not analysis.terms or blocking_filter(analysis) is not None:
            return False
        value = self._parse(entry, text, ctx)
        if value is None or value != model_args:
            return False
        if key.language not in self.index.indexes:
            return False
        unfamiliar = self.index.unfamiliar(analysis, key.language, module_id)
        if any(self.vocabulary.may_be_topic(feature) for feature in unfamiliar):
            return False
        if not self.cache.put(key, module_id, now):
            self.stats.count(Reason.CACHE_WRITE_DROPPED)
            return False
        self.stats.count(Reason.CACHE_WRITE)
        return True
