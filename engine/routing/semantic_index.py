"""Per-module similarity with the seed's direct-routing rules.

How this works: each configured language has one ``LexicalIndex`` over the
example sentences of every module that declared a semantic profile, plus the
reject samples. A module's similarity is its best example's cosine; s1 is the
best module and s2 the best *other* module (reject samples included, so a
request close to "where is my dog" keeps "where am i" from winning by a
wide margin). ``decide`` then applies, in order:

1. conservative filters (negation, condition, compound, reference, write words);
2. the winner must be a real module that may go direct (read-only, direct
   profile, not explicit-only or structured-only) and not a reject sample;
3. score ≥ threshold, margin = s1 − s2 ≥ threshold, coverage ≥ threshold, with
   per-module and per-``module@lang`` overrides from the config, each compared
   with ``meets`` so the last bit of a float never flips a decision (an exact
   match scores exactly 1.0: ``engine/routing/scores.py``);
4. every topic, unknown word and slot of the input appears in the winning example.

A line the thresholds refuse may still go direct when what it names belongs to
the module and nothing else (``anchored``), when its sentences each go to one
module (``_agreed``), or when the line model is sure of a module and the line is
one question that names nothing another module owns (``_learned``).

Coverage is the IDF-weighted share of the input's distinct unigram features
present in the winning example: similarity alone would let a short example
match a long request that only shares its keywords.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import attrs

from engine.routing.clauses import asking_clauses
from engine.routing.config import SemanticConfig, Thresholds
from engine.routing.filters import blocking_filter
from engine.routing.lexical_index import DEFAULT_BACKEND, Backend, LabelScore, LexicalIndex
from engine.routing.line_model import NONE, LineModel, Prediction, line_features, sure
from engine.routing.mood import Mood, asks_in
from engine.routing.normalize import normalize_text
from engine.routing.scores import meets
from engine.routing.stats import Reason
from engine.routing.terms import QUESTION_WORDS, Analysis, Term, TermKind
from engine.routing.vocabulary import Vocabulary

REJECT_PREFIX = "reject:"
CANDIDATE_FLOOR = 0.35  # below this a module is not worth offering as a candidate
RANKED = 6

_FILTER_REASONS = {
    TermKind.NEGATION: Reason.FILTERED_NEGATION,
    TermKind.CONDITION: Reason.FILTERED_CONDITION,
    TermKind.REFERENCE: Reason.FILTERED_REFERENCE,
    TermKind.COMPOUND: Reason.FILTERED_COMPOUND,
    TermKind.WRITE: Reason.FILTERED_WRITE,
}


# Who a question is about: "what is my xp" asks about the player, "what is xp" may ask what xp is.
# "anyone"/"players" ask about the people on the server: no general-knowledge reading either.
_PERSONS = frozenset({"@self", "@you", "@we", "@players"})
# No general-knowledge reading: the assistant's own, and messages kept for the player.
_ABOUT_US = frozenset({"@help", "@progress", "@autopilot", "@inbox"})
# The player's own state: asked of "you" (the assistant, which has none) it is not the player's.
_PLAYER_STATE = frozenset({
    "@position", "@dimension", "@dimname", "@facing", "@cardinal", "@health", "@food", "@xp", "@gamemode",
    "@modename", "@inventory", "@hold", "@status",
})
# What only the player's own client knows: another player's is not in the snapshot.
_OWN_STATE = frozenset({"@health", "@food", "@xp", "@gamemode", "@modename", "@inventory", "@hold", "@status"})
# "你在线不", "are you online": whether the assistant is on is not who is on the server;
# "你有消息吗", "有人私聊你吗": the assistant's mail is not the player's.
_ASKED_OF_YOU = _PLAYER_STATE | {"@online", "@inbox"}
# English words that name nothing a module could be wrong about: adverbs of time and
# degree, "number of". Unknown to the vocabulary, they still do not stop a request anchored
# by its topics ("whats the next milestone", "number of torches i have"); in the thresholds'
# path they count as before. Not "get", "more", "much": "how do i get more xp" asks how.
_LIGHT_WORDS = frozenset({
    "w:next", "w:already", "w:yet", "w:still", "w:ever", "w:number", "w:total", "w:amount", "w:going", "w:along",
    "w:lost", "w:currently", "w:anymore", "w:overall", "w:exactly", "w:precisely", "w:approximately",
    "w:roughly", "w:okay", "w:alright", "w:seem", "w:seems", "w:wise", "w:basically", "w:low", "w:high",
    "w:located", "w:situated", "w:done", "w:finished", "w:complete", "w:completed",
    "w:almost", "w:nearly", "w:miss", "w:missed", "w:yesterday", "w:today", "w:tonight", "w:first", "w:second",
    "w:last", "w:final", "w:with", "w:everything", "w:all", "w:from", "w:into",
    "w:exact", "w:percent", "w:percentage", "w:half", "w:since", "w:night", "w:morning", "w:really", "w:actually",
    "w:but", "w:ugh", "w:hi", "w:hello", "w:question", "w:questions", "w:real", "w:quick",
})
_WHAT_IS_IT = frozenset({"@what", "@be", "@autopilot"})
_VALUES = frozenset({"@cardinal", "@dimname", "@modename"})
# A topic phrase that opens with a question word asks, wherever it stands: "which way im facing",
# "how far underground am i", "lost lol where am i".
_WH_WORDS = frozenset({"what", "which", "where", "how", "who", "wat", "wut", "wich", "whatcha", "watcha"})
_ABOUT_A_NAME = frozenset({"@online", "@nearby", "@distance"})
# What is near or how far: about people only when a person is asked for ("附近有谁", "anyone near").
_THINGS_AROUND = frozenset({"@nearby", "@distance"})
# Where the player is: "我在哪个维度" asks where as much as "我在哪".
_PLACE_TOPICS = frozenset({"@position", "@dimension", "@dimname", "@facing", "@cardinal"})
_NEAREST = frozenset({"nearest", "closest", "最近", "最近的", "离我最近"})
_PEOPLE = frozenset({"@who", "@players", "@player", "@any", "@online"})
_DOERS = frozenset({"@you", "@we", "@autopilot", "@progress"})
_COUNTS = frozenset({"@have", "@howmuch", "@left"})


def _names_then_asks(analysis: Analysis) -> bool:
    """"alex online?", "steve nearby": a player, then whether they are on or near, is the question."""
    terms = analysis.terms
    return len(terms) == 2 and terms[0].feature == "@player" and terms[1].feature in _ABOUT_A_NAME
_QUESTION_OPENERS = frozenset({"@be", "@do", "@have", "@can", "@any", "@players", "@whether"})  # "anyone on?"
# A topic phrase that opens the line with a question's auxiliary asks too: "did i miss any messages".
_AUX_OPENERS = frozenset({"did", "do", "does", "is", "are", "am", "was", "were", "have", "has", "can", "could",
                          "any", "anything", "anyone", "anybody"})  # "any notices for me": "any" the phrase took


@attrs.frozen
class IndexSpec:
    """What the index needs from one module (or one set of reject samples)."""

    label: str
    examples: Mapping[str, Sequence[str]]  # language → sentences
    direct: bool


@attrs.frozen
class Match:
    language: str
    module_id: str
    score: float
    second_id: str | None
    second_score: float
    coverage: float
    uncovered: frozenset[str]  # topics/unknown words/slots of the input missing from the best example
    ranking: tuple[LabelScore[str], ...]
    learned: float | None = None  # the line model's probability, when it chose the module

    @property
    def margin(self) -> float:
        return self.score - self.second_score


@attrs.frozen
class Verdict:
    reason: Reason
    match: Match | None

    @property
    def direct(self) -> bool:
        return self.reason is Reason.DIRECT


def features_of(analysis: Analysis) -> tuple[str, ...]:
    return analysis.features + analysis.bigrams()


def _about_the_assistant(analysis: Analysis) -> bool:
    """"你饿吗", "你的坐标多少", "where r u": the player's state asked of the assistant.

    The modules read the player's own state; asked of "you" with no "I"/"my"
    (Chinese drops 我 as filler, so ``speaker`` says whether it was there) and
    no player named, the line asks something else: small talk, or the model's turn. An item
    does not make it the player's ("你背包里有几个钻石", "are you holding diamonds").
    """
    features = analysis.features
    return ("@you" in features and "@self" not in features and not analysis.speaker
            and "@player" not in features and bool(_ASKED_OF_YOU.intersection(features)))


def _own_items_counted(analysis: Analysis) -> bool:
    """"我的火把还有吗", "我还剩几个钻石": the player's own items, with a word that counts or holds them.

    Without one ("我的箱子呢") the item may be a placed block somewhere in the world.
    """
    features = analysis.features
    return analysis.speaker and "@item" in features and bool(_COUNTS.intersection(features))


def _what_the_player_does(analysis: Analysis) -> bool:
    """"我在干嘛", "what am i doing": what the player is doing, which no module knows.

    What the assistant or the autopilot is doing is progress's; asked of the player, with
    neither named, it is small talk or the model's turn.
    """
    features = analysis.features
    return "@doing" in features and (analysis.speaker or "@self" in features) and not (
        _DOERS.intersection(features)
    )


def _and_joins_names(analysis: Analysis) -> bool:
    """"my health and hunger", "血和饱食度": each side of every "and" names a topic or slot.

    A side that names nothing ("我在哪和谁", "coords and what else") may be a question
    the module does not answer, so the request is not anchored.
    """
    side = False
    for term in analysis.terms:
        if term.feature == "@and":
            if not side:
                return False
            side = False
        elif term.kind is TermKind.TOPIC or term.kind is TermKind.SLOT:
            side = True
    return side


def _asks_something_else(analysis: Analysis, language: str, named: frozenset[str]) -> bool:
    """Lines whose topics one module uses but whose shape asks something no module answers.

    Each check reads the line's shape (which words sit together), never a line's words.
    """
    features = analysis.features
    terms = analysis.terms
    if "@what" in features and named <= _THINGS_AROUND and not _PEOPLE.intersection(features):
        return True  # "附近有什么", "what's nearby": things around the player, not who
    if language == "zh" and "@where" in features and analysis.speaker and not analysis.has(TermKind.SLOT) and not (
        named <= _PLACE_TOPICS
    ):
        return True  # "我在哪，血多少": "我在哪" asks where the player is (我 is filler), a second request
    if "@how" in features and "@work" in features and "@help" not in named:
        return True  # "自动驾驶怎么用", "how does the inbox work": how to use it is help's, not its state
    if any(a.feature == "@dimname" and b.feature == "@position" for a, b in zip(terms, terms[1:])):
        return True  # "下界坐标多少", "my nether coords": coordinates in another dimension, converted
    if "@item" in features and any(t.surface in _NEAREST for t in terms):
        return True  # "how far is the nearest iron": a place in the world, not the player's or the ladder's
    if "@full" in features and "@howmuch" in features:
        return True  # "满血是多少", "how much is full health": the game's maximum, not the player's value
    # "饱食度是什么" (是 is filler) may ask what hunger is; "我的饱食度是什么" asks the
    # player's, "背包里有啥" what is in it.
    return language == "zh" and set(features) - named == {"@what"} and not analysis.speaker and not (
        analysis.has(TermKind.SLOT) or named <= _ABOUT_US
    )


def _shaped_to_ask(
    analysis: Analysis, language: str, named: frozenset[str], sentences: tuple[Analysis, ...] = ()
) -> bool:
    """What anchoring and the line model both ask of a line's shape: it names something a
    module answers and asks it, in words no rule reads as another question (``named``: its
    topics and slots; ``sentences``: judge those words per sentence instead)."""
    if not (any(t.kind is TermKind.TOPIC for t in analysis.terms) or _own_items_counted(analysis)) or not (
        _and_joins_names(analysis)
    ):
        return False  # a topic, or items the player counts as theirs ("我的火把还有吗"), is named
    if len(analysis.terms) == 1 and analysis.features[0] in _VALUES:
        return False  # "北", "下界", "creative": a value on its own asks nothing about it
    if "@who" in analysis.features and _PLAYER_STATE.intersection(named):
        return False  # "谁穿着钻石盔甲", "who has the most hearts": someone else's state
    if "@player" in named and _OWN_STATE.intersection(named):
        return False  # "steve还剩多少血", "alex是几级": a named player's state, which no module reads
    if set(analysis.features) <= _WHAT_IS_IT:
        return False  # "what is the autopilot", "自动驾驶是什么": what the thing is, not how it is doing
    if any(_asks_something_else(part, language, _named(part)) for part in sentences) if sentences else (
        _asks_something_else(analysis, language, named)
    ):
        return False
    features = analysis.features
    if language == "en":
        if not (_PERSONS.intersection(features) or "@who" in features or analysis.speaker
                or analysis.has(TermKind.SLOT) or analysis.requested) and not (
            named <= _ABOUT_US or named - {"@doing"} <= _ABOUT_US and bool(_DOERS.intersection(named))
        ):
            return False  # "what is xp" may ask what xp is; "what is my xp", "xp pls" ask about the player
        if not (_asks_in_words(analysis) or _names_then_asks(analysis)):
            return False  # "my inventory is full lol" says something; it asks nothing ("i am hungry?" asks)
    return True


def _named(analysis: Analysis) -> frozenset[str]:
    """The topics and slots a line names, without light words and words the vocabulary does not know."""
    return frozenset(f for f in analysis.must_cover() - _LIGHT_WORDS if not f.startswith(("w:", "c:")))


def _asks_in_words(analysis: Analysis) -> bool:
    """A question word, a question's opening, a wh-word opening a phrase, a question mark, or a
    request to be shown ("check my …", "… pls")."""
    features = analysis.features
    return analysis.marked or analysis.requested or bool(QUESTION_WORDS.intersection(features)) or (
        bool(features) and features[0] in _QUESTION_OPENERS
    ) or any(t.surface.split(" ", 1)[0] in _WH_WORDS for t in analysis.terms) or (
        bool(analysis.terms) and analysis.terms[0].surface.split(" ", 1)[0] in _AUX_OPENERS
    ) or _topic_then_opener(analysis.terms)


def _topic_then_opener(terms: tuple[Term, ...]) -> bool:
    """"mailbox, anything in it", "inventory - any food": the topic first, then "any" opens the question
    ("my inventory is full" opens nothing: "is" after the topic is its verb)."""
    start = 1 if terms and terms[0].feature == "@self" else 0
    return len(terms) > start + 1 and terms[start].kind is TermKind.TOPIC and terms[start + 1].feature == "@any"


def _asks(analysis: Analysis, language: str, normalized: str) -> bool:
    """The line asks: in words, or (Chinese) with a question marker."""
    return _asks_in_words(analysis) or (language == "zh" and asks_in(normalized))


class SemanticIndex:
    def __init__(
        self,
        vocabulary: Vocabulary,
        specs: Sequence[IndexSpec],
        languages: Collection[str],
        backend: Backend = DEFAULT_BACKEND,
        line_model: LineModel | None = None,
    ) -> None:
        self.vocabulary = vocabulary
        self.line_model = line_model
        self.direct_labels = frozenset(s.label for s in specs if s.direct and not s.label.startswith(REJECT_PREFIX))
        self._limits_for: SemanticConfig | None = None
        self._limits: dict[tuple[str, str], Thresholds] = {}
        self.indexes: dict[str, LexicalIndex[str]] = {}
        self.example_counts: dict[str, int] = {}
        # Per language and module: every unigram feature its examples use (what is
        # "familiar" to the module, for the intent cache).
        self._familiar: dict[tuple[str, str], frozenset[str]] = {}
        # Per language, the modules with an example that names the player ("我有几个{item}").
        self._spoken: set[tuple[str, str]] = set()
        for lang in languages:
            entries: list[tuple[str, Sequence[str]]] = []
            for spec in specs:
                familiar: set[str] = set()
                for sentence in spec.examples.get(lang, ()):
                    analysis = vocabulary.analyze(normalize_text(sentence))
                    if analysis.terms:
                        entries.append((spec.label, features_of(analysis)))
                        familiar.update(analysis.features)
                        if analysis.speaker:
                            self._spoken.add((lang, spec.label))
                self._familiar[(lang, spec.label)] = frozenset(familiar)
            self.indexes[lang] = LexicalIndex(entries, backend)
            self.example_counts[lang] = len(entries)

    def match(self, analysis: Analysis, language: str) -> Match | None:
        index = self.indexes.get(language)
        if index is None or not analysis.terms:
            return None
        ranked = index.ranked(features_of(analysis), RANKED)
        if not ranked:
            return None
        top = ranked[0]
        second = ranked[1] if len(ranked) > 1 else None
        example = index.entry_features[top.entry]
        total = covered = 0.0
        # Sorted: a set's order follows string hashing, which changes per process, and
        # the order of the additions would change the sum's last bit with it.
        for f in sorted(set(analysis.features)):
            weight = index.idf(f)
            total += weight
            if f in example:
                covered += weight
        return Match(
            language=language,
            module_id=top.label,
            score=top.score,
            second_id=second.label if second else None,
            second_score=max(second.score, 0.0) if second else 0.0,
            coverage=covered / total if total else 0.0,
            uncovered=analysis.must_cover() - example,
            ranking=tuple(ranked),
        )

    def decide(self, analysis: Analysis, language: str, config: SemanticConfig, normalized: str = "") -> Verdict:
        """``normalized``: the line's text, for the line model; without it the model is not asked."""
        if language not in self.indexes:
            return Verdict(Reason.UNSUPPORTED_LANGUAGE, None)
        if not analysis.terms:
            return Verdict(Reason.EMPTY, None)
        match = self.match(analysis, language)
        if match is None:
            return Verdict(Reason.EMPTY, None)
        blocked = blocking_filter(analysis)
        if blocked is not None:
            return Verdict(_FILTER_REASONS[blocked], match)
        if analysis.mood is not Mood.ASKS:
            return Verdict(Reason.NOT_ASKED, match)
        if _about_the_assistant(analysis) or _what_the_player_does(analysis):
            return Verdict(Reason.TOPIC_GAP, match)
        if match.module_id.startswith(REJECT_PREFIX):
            return Verdict(Reason.REJECTED, match)
        if match.module_id not in self.direct_labels:
            return Verdict(Reason.NOT_DIRECT, match)
        limits = self._thresholds(config, match.module_id, language)
        short = (
            Reason.LOW_SCORE if not meets(match.score, limits.score)
            else Reason.LOW_MARGIN if not meets(match.margin, limits.margin)
            else Reason.LOW_COVERAGE if not meets(match.coverage, limits.coverage)
            else Reason.TOPIC_GAP if match.uncovered
            else None
        )
        # Anchoring is asked only of a match the thresholds would refuse.
        if short is not None and not self.anchored(analysis, language, match.module_id):
            agreed = self._agreed(analysis, language, config)
            if agreed is None:
                agreed = self._learned(analysis, language, config, normalized, match)
            return Verdict(short, match) if agreed is None else agreed
        if "@where" in analysis.features and analysis.must_cover() <= _VALUES and not analysis.speaker and not (
            _PERSONS.intersection(analysis.features)
        ):
            # "where is", "在哪": where is what? The question is cut off before its
            # subject, whatever example it resembles; "末地在哪", "where is the end"
            # ask where a place is, not where the player is. (The vocabulary drops
            # 我 as filler; ``speaker`` says whether the text had it.)
            return Verdict(Reason.LOW_COVERAGE, match)
        if short is not None and self._doubted(analysis, language, config, normalized):
            return Verdict(Reason.DOUBTED, match)
        return Verdict(Reason.DIRECT, match)

    def _doubted(self, analysis: Analysis, language: str, config: SemanticConfig, normalized: str) -> bool:
        """Anchoring let a line through that the line model is sure is the model's turn.

        Anchoring reads what a line names, not what the rest of it says ("does my brother
        have torches" names an item and a count); a line the model has learned to leave
        alone stays with the model service. Lines that pass the thresholds are an example's
        near copies and are not doubted.
        """
        found = self._prediction(analysis, language, config, normalized)
        return found is not None and found[0].label == NONE and meets(found[0].probability, found[1])

    def _prediction(
        self, analysis: Analysis, language: str, config: SemanticConfig, normalized: str
    ) -> tuple[Prediction, float] | None:
        """The line model's label for the line and the least probability it must reach to be
        acted on; None when there is no model, it is off, it has no such language or no text came."""
        if self.line_model is None or config.line_model is None or not normalized:
            return None
        prediction = self.line_model.predict(language, line_features(analysis, normalized))
        return None if prediction is None else (prediction, config.line_model)

    def _agreed(self, analysis: Analysis, language: str, config: SemanticConfig) -> Verdict | None:
        """A restated request whose sentences, each on its own, go direct to one module.

        "am i hungry? whats my food bar at" matches no example as a whole, but
        each sentence does, to the same module. A sentence that names nothing
        and has no unknown word ("how many", "pls") only asks about the others;
        any other sentence must go direct, to that module, by every rule.
        """
        if not analysis.sentences:
            return None
        verdicts: list[Verdict] = []
        for part in analysis.parts():
            if not part.must_cover():
                continue
            verdict = self.decide(part, language, config)
            if not verdict.direct or verdict.match is None:
                return None
            verdicts.append(verdict)
        modules = {v.match.module_id for v in verdicts if v.match is not None}
        return verdicts[0] if len(modules) == 1 else None

    def _learned(
        self, analysis: Analysis, language: str, config: SemanticConfig, normalized: str, match: Match
    ) -> Verdict | None:
        """The line model's module for a line the thresholds refused, when it is sure and the line allows.

        The line must ask (a question word or opening, a question mark, a Chinese question
        marker), be one request (one sentence, one clause that asks, no "and" before a second
        question), have the shape anchoring asks for, name no topic the chosen module's
        examples never use ("在线人数上限多少"), not be the player's own step, and have only
        unknown words the model has evidence for. Filters, mood and reject samples have
        already had their say.
        """
        found = self._prediction(analysis, language, config, normalized)
        if found is None or self.line_model is None or not sure(*found) or found[0].label not in self.direct_labels:
            return None
        prediction = found[0]
        module_id = prediction.label
        named = _named(analysis)
        # Sentences the vocabulary judged one request ("my hearts r low?? how many i got") are shaped
        # as one line, but whether one asks something else is judged of each on its own.
        sentences = tuple(part for part in analysis.parts() if _named(part))
        if analysis.breaks or not (named and _asks(analysis, language, normalized)) or not (
            _shaped_to_ask(analysis, language, named, sentences)
        ):
            return None
        features = analysis.features
        if "@and" in features and QUESTION_WORDS.intersection(features[features.index("@and") + 1:]):
            return None  # "how many diamonds do i have and whats the id of …": two questions
        if not analysis.sentences and asking_clauses(normalized, self.vocabulary.analyze) > 1:
            return None  # "在线几个人 有没有下雨"
        familiar = self._familiar.get((language, module_id), frozenset())
        if any(t.kind is TermKind.TOPIC and t.feature in named and t.feature not in familiar for t in analysis.terms):
            return None  # "在线人数上限多少", "do i need … for armor": a topic the module never answers
        if "@progress" in named and analysis.speaker and not _DOERS.intersection(features) - {"@progress"}:
            return None  # "我卡在哪一步了": the player's own step, not the autopilot's
        # Light words need no evidence: they name nothing the model could have learned a module from.
        unknown = [f for f in features if f.startswith(("w:", "c:")) and f not in _LIGHT_WORDS]
        if not self.line_model.vouches(language, unknown, module_id):
            return None  # "my friend's inventory", "is my position right": a word it has no evidence for
        return Verdict(Reason.LEARNED, attrs.evolve(match, module_id=module_id, learned=prediction.probability))

    def anchored(self, analysis: Analysis, language: str, module_id: str) -> bool:
        """Whether what the request names belongs to this module and to nothing else (``owner``)."""
        return self.owner(analysis, language) == module_id

    def owner(self, analysis: Analysis, language: str) -> str | None:
        """The one module that what the request names belongs to, if any.

        Every topic and slot of the request is used by the module's examples,
        by no other module's and no reject sample's, the request has no unknown
        word and names at least one topic: "how many hearts am i on" can only
        be about health, however its question words are arranged.
        """
        named = analysis.must_cover() - _LIGHT_WORDS
        if not named or any(f.startswith(("w:", "c:")) for f in named):
            return None
        if not _shaped_to_ask(analysis, language, named):
            return None
        # Only modules that may answer directly compete. Reject samples differ from a
        # module's requests by a word the request would have ("dog", a player): with
        # no unknown word here, only a reject that is the best match stops it, and
        # decide() has checked that first. A write module is only chosen through its
        # verb, which the write filter has already stopped.
        owners = [label for (lang, label), familiar in self._familiar.items()
                  if lang == language and label in self.direct_labels and named <= familiar]
        if len(owners) > 1 and analysis.speaker:
            # "我的钻石呢": the player's own thing, so a module whose examples never speak of
            # the player (an id lookup: "钻石的id") is no owner of it.
            spoken = [label for label in owners if (language, label) in self._spoken]
            owners = spoken if len(spoken) == 1 else owners
        return owners[0] if len(owners) == 1 else None

    def unfamiliar(self, analysis: Analysis, language: str, module_id: str) -> frozenset[str]:
        """Topics, slots and unknown words of the request that no example of the module uses.

        Filler never appears here (the vocabulary drops it); an unknown word
        counts unless one of the module's examples has it too.
        """
        return analysis.must_cover() - self._familiar.get((language, module_id), frozenset())

    def _thresholds(self, config: SemanticConfig, module_id: str, language: str) -> Thresholds:
        # Resolved once per (config, module, language): a reload swaps the config object.
        if config is not self._limits_for:
            self._limits_for = config
            self._limits = {}
        key = (module_id, language)
        limits = self._limits.get(key)
        if limits is None:
            limits = self._limits[key] = config.thresholds(module_id, language)
        return limits

    def candidates(self, match: Match | None) -> tuple[LabelScore[str], ...]:
        """Modules worth offering (model candidates or the player's card), best first."""
        if match is None:
            return ()
        return tuple(
            r for r in match.ranking if not r.label.startswith(REJECT_PREFIX) and meets(r.score, CANDIDATE_FLOOR)
        )
