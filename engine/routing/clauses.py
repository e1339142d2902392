"""Context clauses: the question of a line that says why or what happened around it.

Players give the circumstance with the question: "just got blown up by a
creeper, how much health do i have now", "准备合成，我有多少木板", "anyone near me?
hearing footsteps". The clause that names something (a topic or a slot) is the
question; the others only say what happened or what the player is about to do.

How this works: the normalized line is cut at commas and sentence punctuation (and a
space between Chinese characters, where Chinese players put a comma), and
before an English question about the player that opens after other words ("bro i keep
taking damage how much health do i have": typed without a comma);
each clause is analyzed on its own. When exactly one clause asks (a question
word, a question's opening, "?" or a Chinese question marker), names something,
and every other clause is *context*, the line is read as that clause alone; every
rule (filters, mood, thresholds, anchoring) then judges it. A clause is context
when it:

* names no topic or slot, or names one among words the vocabulary does not know
  ("刚过传送门", "was away for a bit"): "where am i, show my inventory" is two requests,
* has no negation, condition, compound or reference word ("don't", "if",
  "then", "that" keep the line with the model) and names no player,
* asks nothing: no question word, does not open like a question ("is it
  raining"), no "?" after it and no Chinese question marker (吗, 呢, 谁, 几…);
  two questions are two requests,
* has no write, unless it opens with a purpose ("about to craft", "准备附魔") or says
  what the player just did ("刚去吃饭了", "i was mining"): "go home, where am i" is a
  command and a question.

Two clauses that ask are two requests, unless both name the same thing and lean on nothing
else ("where am i, what are my coords"): they are then kept as the sentences of one request,
each of which must go direct to the same module on its own.

Otherwise the whole line is analyzed as before. Each clause is one more
analysis of part of the text, so the cost stays linear in the line.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import attrs

from engine.routing.mood import Mood, asks_in
from engine.routing.senses import HOLD_ON
from engine.routing.sentences import named_things, where_i_am
from engine.routing.terms import QUESTION_WORDS, Analysis, Term, TermKind

# Chinese players type a space where a comma goes: "血还剩多少 刚被苦力怕炸".
# The assistant addressed in the middle of a line starts the request: "刚被炸了 ai 我还有多少血"
# ("how close is the bot to finishing" names it: no cut after a determiner or "is", nor before a
# last word: "what stage is the speedrun bot on").
_CUT = re.compile(r"[,，、.。?!;？！；:：]+|(?<=[\u4e00-\u9fff]) +(?=[\u4e00-\u9fff])|(?<!\bthe)(?<!\bthis)(?<!\bthat)(?<!\bmy)(?<!\bur)(?<!\byour)(?<!\bis)(?<!\ba)(?<!\bspeedrun)(?<!\bput)(?<!\btype)(?<!\bsay)(?<!\bwrite)(?<!\bwith)(?: +@(?:ai|bot) +| +(?:ai|bot) +(?=\S+ +\S|[\u4e00-\u9fff]{2}))"
                  # What happened, said after the question without a comma: "check my health please i just fell".
                  # Not inside a clause that a conjunction opens: "while i was gone", "what i was doing".
                  r"|(?<=[a-z])(?<!\bwhile)(?<!\bwhen)(?<!\bsince)(?<!\bafter)(?<!\bbefore)(?<!\bthat)(?<!\bwhat)"
                  r"(?<!\bcause)(?<!\bcuz)(?<!\bbecause)(?<!\bif)(?<!\bas)(?<!\bwhere) +(?=(?:i just|i think i|i was|just got|i went|i fell|i died|i keep|i got lost|got lost"
                  r"|i'?m (?:so |kinda |really |totally |completely )?lost) )"
                  # What else may have happened, asked as an alternative: "… or did the portal glitch" (_OR_ELSE).
                  r"|(?<=[a-z0-9]) +(?=or (?:did|has|have|was|were|had) )"
                  # The question after what the player is about to do: "i'm about to fight the wither so how many …".
                  r"|(?<=[a-z]) +(?=so (?:how|what|whats|what's|where|wheres|where's|who|whos|who's|am i|do i|did|have i|any)\b)"
                  # What the player does next, said after the question: "hp check before i jump in" (_BEFORE);
                  # what may befall them is a condition ("tell me my health before i die").
                  r"|(?<=[a-z0-9]) +(?=(?:before|b4) i (?!die|get |am |run out|starve|drown))")
# "am i in the nether or did the portal glitch", "is alex nearby or did she log": the question, then
# what else may have happened; the second part asks nothing the first does not (it is past).
_OR_ELSE = ("or did ", "or has ", "or have ", "or was ", "or were ", "or had ")
_A_NOT_A = re.compile(r"([\u4e00-\u9fff])[不没]\1")  # "有没有下雨", "是不是": a question of its own
_NAMES = frozenset({TermKind.TOPIC, TermKind.SLOT})
_NOT_CONTEXT = frozenset({TermKind.NEGATION, TermKind.CONDITION, TermKind.COMPOUND, TermKind.REFERENCE})
_OPENS_A_QUESTION = frozenset({"@be", "@do", "@can", "@any"})
_DONT = ("dont ", "don't ", "do not ")  # "dont wanna fall into the void": no "do …?" question
_AUX_PHRASES = ("did i ", "have i ", "has anyone ", "did anyone ", "did someone ", "did somebody ")
_PAST = frozenset({"was", "were", "been"})  # "was away for a bit": says what happened
_PAST_ASKS = frozenset({"@any", "@self", "@you", "@players"})  # "were there any messages", "was i"
# What the player does not see or know ("i dont see her good", "i didnt get where i am"): a statement.
_EN_UNABLE = re.compile(r"\bi (?:do not|did not|dont|don't|didnt|didn't) (?:see|find|know|remember|get|understand|hear)\b")
# A verb's potential complement negated: 挖不动, 看不了, 找不到: the player cannot.
_ZH_CANNOT = re.compile(r"[\u4e00-\u9fff]不(?:[了动到见着住清倒]|起来|行了)|不(?:知道|知到|晓得|清楚|会用|汇用|太会|懂)|^(?:我|还是)?不会[啊呀哈嘛呢诶]*$")  # "怎么用你啊 不会"
# Typed without a comma: "bro i keep taking damage how much health do i have", "i think im lost lol
# where am i". A question about the player that opens after other words starts a clause of its own,
# unless the word before it makes it part of the sentence ("the village is how far", "tell me where
# am i", "and how many").
_EN_QUESTION = re.compile(
    r"(?<=[a-z0-9']) (?=(?:how (?:much|many)|where (?:am|r) i|what(?:'s|s| is| are) my|whats my|where(?:'s|s| is) my|am i"
    r"|do i (?:have|got)"
    r"|is my)\b)"
)
_NO_CUT_AFTER = frozenset({
    "is", "are", "was", "were", "am", "be", "been", "of", "to", "and", "or", "if", "when", "whether", "tell", "know",
    "wonder", "see", "check", "ask", "asked", "asking", "me", "show", "says", "said", "say", "but", "so", "then",
    "why", "come",  # "why is my hp low", "how come am i hungry": a question of causes, not two clauses
})

# Words of a question that has begun: a later "do i have" is part of it.
_ASKS_ALREADY = frozenset({
    "how", "what", "whats", "what's", "wat", "wut", "wht", "where", "wher", "whre", "wheres", "where's", "who", "whos",
    "who's", "which", "am", "hw", "hwo",
    "do", "does", "did", "is", "are", "can", "could", "r",
})


def may_have_clauses(normalized: str) -> bool:
    """Whether the line may hold more than one clause: a mark between words, or a question
    about the player that opens after other words."""
    return _CUT.search(normalized) is not None or _EN_QUESTION.search(normalized) is not None


def _question_cuts(text: str) -> list[str]:
    """``text`` cut once, before a question about the player that opens after words that ask nothing."""
    for found in _EN_QUESTION.finditer(text):
        words = text[:found.start()].split()
        if any(w in _ASKS_ALREADY for w in words):
            break  # "how much health do i have": the question began before
        if words and words[-1] not in _NO_CUT_AFTER:
            return [text[:found.start()].strip(), text[found.end():].strip()]
    return [text]


def clauses(normalized: str) -> list[tuple[str, bool]]:
    """(clause text, followed by a question mark) for each non-empty clause of the line."""
    out: list[tuple[str, bool]] = []
    start = 0
    for cut in _CUT.finditer(normalized):
        text = normalized[start:cut.start()].strip()
        if text:
            *heads, last = _question_cuts(text)
            out.extend((head, False) for head in heads)
            out.append((last, "?" in cut.group() or "？" in cut.group()))
        start = cut.end()
    tail = normalized[start:].strip()
    if tail:
        out.extend((part, False) for part in _question_cuts(tail))
    return out


def focus(normalized: str, analyze: Callable[[str, bool], Analysis], whole: Analysis | None = None) -> Analysis | None:
    """The one clause that asks, when every other clause of the line is context; else None.

    ``whole``: the line read as one. A pronoun it resolved within the line ("first time using
    this bot, what can i ask it") is no reference back in the clause either."""
    every = clauses(normalized)
    parts = _after_anyway(_said_to_the_assistant(normalized, every), analyze)
    if len(parts) < 2:
        alone = analyze(*parts[0]) if parts and len(parts) < len(every) else None
        return alone if alone is not None and alone.mood is Mood.ASKS else None
    # A correction ("y level i mean", "我是说我的饥饿值") asks again, without its marker: one request
    # if it names what the question names, two otherwise.
    corrects = [_CORRECTS.search(text) is not None for text, _ in parts]
    parts = [(_CORRECTS.sub(" ", text).strip() or text, asked) if again else (text, asked)
             for (text, asked), again in zip(parts, corrects)]
    analyses = [analyze(text, asked) for text, asked in parts]  # a "?" after a clause marks it
    asking = [i for i, ((text, asked), a) in enumerate(zip(parts, analyses)) if _asks(text, asked, a) or corrects[i]]
    if not asking:  # "I'm lost. Location?": no clause asks in words; the one that names something does
        asking = [i for i, a in enumerate(analyses) if any(t.kind in _NAMES for t in a.terms)]
    if len(asking) > 1:
        return _restated(analyses, asking, parts)
    named_after = asking and _named_after(analyses, asking[0])
    if named_after and len(parts) == 2:
        return None  # the line is that question alone: read whole, as it reads
    if named_after:  # "just fell in lava, am i ok, hp?": the question, then what it is about
        analyses[asking[0]] = attrs.evolve(analyses[asking[0]], terms=analyses[asking[0]].terms + analyses[asking[0] + 1].terms)
    told = _told_before(analyses, asking[0]) if asking else ()
    if told:  # "my hearts are looking sus, how many do i have left": what the question counts was said first
        analyses[asking[0]] = attrs.evolve(analyses[asking[0]], terms=analyses[asking[0]].terms + told)
    if not asking or not (any(t.kind in _NAMES for t in analyses[asking[0]].terms) or _uses_you(analyses[asking[0]])
                          or where_i_am(analyses[asking[0]].terms, analyses[asking[0]].speaker)):
        return None
    # "alex在哪，我好像看到她了": a pronoun in a context clause is the player the question names.
    named = any(t.feature == "@player" for t in analyses[asking[0]].terms)
    seen = _seen_before(analyses, parts, asking[0])
    if seen is not None:  # "我看到Alex了，她具体在哪个位置": the pronoun is the player just seen
        analyses[asking[0]] = attrs.evolve(analyses[asking[0]], terms=tuple(
            analyses[seen].terms[[t.feature for t in analyses[seen].terms].index("@player")]
            if t.kind is TermKind.REFERENCE and t.surface in _PERSONAL else t for t in analyses[asking[0]].terms),
            speaker=False)
    # "am i in survival, the minigame swapped it": "it" in a statement is what the question names.
    topic = any(t.kind is TermKind.TOPIC for t in analyses[asking[0]].terms)
    for i, analysis in enumerate(analyses):
        if i != asking[0] and not (named_after and i == asking[0] + 1) and not (told and i == asking[0] - 1) and (
            i != seen
        ) and not _context(analysis, parts[i][0], named, topic):
            return None
    chosen = analyses[asking[0]]
    if whole is not None and chosen.has(TermKind.REFERENCE) and not whole.has(TermKind.REFERENCE):
        chosen = attrs.evolve(chosen, terms=tuple(t for t in chosen.terms if t.kind is not TermKind.REFERENCE))
    return chosen if chosen.mood is Mood.ASKS else None


_SEES = re.compile(r"(?:i (?:can )?(?:see|saw|spotted|found)|我(?:能)?(?:看到|看见|瞧见|找到))\b|我(?:能)?(?:看到|看见|瞧见)")


def _seen_before(analyses: list[Analysis], parts: list[tuple[str, bool]], i: int) -> int | None:
    """The clause just before the question, in which the player says they see one player, when the
    question speaks of "her"/"him" and names no player itself: that clause's index."""
    question = analyses[i].terms
    if i == 0 or any(t.feature == "@player" for t in question) or sum(
        t.kind is TermKind.REFERENCE for t in question) != 1 or not any(
        t.kind is TermKind.REFERENCE and t.surface in _PERSONAL for t in question
    ):
        return None
    said = analyses[i - 1].terms
    if _SEES.match(_ADDRESSED.sub("", parts[i - 1][0])) is None or [t.feature for t in said].count("@player") != 1 or any(
        t.kind in _NOT_CONTEXT or t.kind is TermKind.WRITE for t in said
    ):
        return None
    return i - 1


def _named_after(analyses: list[Analysis], i: int) -> bool:
    """"am i ok, hp?", "how much left? food": a question that names nothing, then a clause of
    topics alone that names what it asks about (no slot: "how many, diamonds" is an item's count,
    which the whole line reads)."""
    question, after = analyses[i], analyses[i + 1] if i + 1 < len(analyses) else None
    return after is not None and bool(after.terms) and all(t.kind is TermKind.TOPIC for t in after.terms) and not any(
        t.kind in _NAMES or t.kind in _NOT_CONTEXT or t.kind is TermKind.WRITE for t in question.terms)


def _told_before(analyses: list[Analysis], i: int) -> tuple[Term, ...]:
    """"my hearts are looking sus, how many do i have left", "food bar's low. how much is left": a
    question that names nothing, after a statement of the player's own ("my …") about one topic;
    the topic is what it asks about. Nothing else may be named or filtered in either clause."""
    if i == 0 or any(t.kind in _NAMES or t.kind in _NOT_CONTEXT or t.kind is TermKind.WRITE for t in analyses[i].terms):
        return ()
    before = analyses[i - 1].terms
    topics = {t.feature for t in before if t.kind is TermKind.TOPIC}
    if not before or before[0].feature != "@self" or len(topics) != 1 or any(
        t.kind is TermKind.SLOT or t.kind in _NOT_CONTEXT or t.kind is TermKind.WRITE for t in before
    ):
        return ()
    return tuple(t for t in before if t.kind is TermKind.TOPIC)


# The address, not the word: "do i need to type @ai", "put @ai first", "what does this ai bot do" name it.
_MID_ADDRESS = re.compile(r"(?<!\bthe)(?<!\bthis)(?<!\bthat)(?<!\bmy)(?<!\bur)(?<!\byour)(?<!\ba)(?<!\btype)(?<!\bsay)(?<!\bput)"
                          r"(?<!\buse)(?<!\bwrite)(?<!\bcall)(?<!\bwith)(?<!\bto)(?<!\bai)(?<![打用叫])\s@?(?:ai|bot)\s+$")


def _said_to_the_assistant(normalized: str, parts: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """"lol alex look at this. ai how hungry am i": what comes before the assistant is addressed in the
    middle of a line is said to others, whatever it is; the request starts with the address. A line
    that opens with the address is all said to the assistant."""
    if _ADDRESSED.match(normalized) or len(parts) < 2:
        return parts
    at = 0
    for i, (text, _) in enumerate(parts):
        found = normalized.find(text, at)
        if found < 0:
            return parts
        if i and (_MID_ADDRESS.search(normalized[:found]) is not None or _ADDRESSED.match(text) is not None):
            return parts[i:]  # "oh sure, nobody ever messages me. ai check anyway, any messages?"
        at = found + len(text)
    return parts


_WAIT_NO = re.compile(r"(?:wait|hold on|hang on) no\b")  # "wait no it was a cave": the story corrected
_ANYWAY = re.compile(r"(?:(?:so|but|ok|okay|well|and) )?(?:anyway|anyways|anyhow)\b")


def _after_anyway(parts: list[tuple[str, bool]], analyze: Callable[[str, bool], Analysis]) -> list[tuple[str, bool]]:
    """"i fell into a ravine, wait no it was a cave, anyway where am i": "anyway" turns from the story to
    the request, which starts there; what came before is only told, however it is worded, unless it
    asks for something to be done ("take me home, anyway where am i" is two requests)."""
    turn = next((i for i in range(len(parts) - 1, 0, -1) if _ANYWAY.match(parts[i][0])), None)
    if turn is None:
        return parts
    for text, asked in parts[:turn]:
        told = analyze(text, asked)
        paused = _WAIT_NO.match(text) is not None
        if told.requested or any(t.kind is TermKind.WRITE and not (paused and t.surface in HOLD_ON) for t in told.terms):
            return parts  # "if i die tell me, anyway …": a request of its own
    return parts[turn:]


_USING_YOU = frozenset({"@how", "@work", "@you", "@can", "@do", "@what", "@be", "@self"})


def _uses_you(analysis: Analysis) -> bool:
    """"这个ai怎么用的", "how do i use you": a question about using the assistant names no topic."""
    features = set(analysis.features)
    return bool(features) and features <= _USING_YOU and "@work" in features


def _restated(analyses: list[Analysis], asking: list[int], parts: list[tuple[str, bool]]) -> Analysis | None:
    """"where am i, what are my coords", "how do i talk to you, do i need a prefix": clauses that ask
    one thing in other words, with every other clause context. They are kept as the sentences
    of one request, each of which must then go direct to the same module on its own (the
    index's ``_agreed``); clauses that name different things are two requests."""
    if any(analyses[i].mood is not Mood.ASKS or analyses[i].breaks or analyses[i].sentences
           or any(t.kind in _NOT_CONTEXT or t.kind is TermKind.WRITE for t in analyses[i].terms) for i in asking):
        return None  # a write, or a pronoun or "also" that may lean on another clause: the line is read whole
    if any(i not in asking and not _context(a, parts[i][0]) for i, a in enumerate(analyses)):
        return None
    # Each clause must name what it asks: "我在哪 背包里有啥" names a place by 我+哪 alone.
    named = [named_things(analyses[i].terms) or where_i_am(analyses[i].terms, analyses[i].speaker)
             or ({"@help"} if _uses_you(analyses[i]) else set()) for i in asking]
    if not all(named) or not set.intersection(*named):
        return None
    terms: list[Term] = []
    starts: list[int] = []
    for i in asking:
        if terms:
            starts.append(len(terms))
        terms.extend(analyses[i].terms)
    first = analyses[asking[0]]
    return Analysis(tuple(terms), 0, tuple(starts), mood=Mood.ASKS, speaker=any(analyses[i].speaker for i in asking),
                    marked=first.marked, requested=first.requested)


def asking_clauses(normalized: str, analyze: Callable[[str], Analysis]) -> int:
    """How many clauses of the line ask something (0 or 1 for a line of one clause)."""
    parts = clauses(normalized)
    if len(parts) < 2:
        return len(parts)
    return sum(1 for text, asked in parts if _asks(text, asked, analyze(text)))


# A question word opening the clause, whatever phrase took it in ("which way am i facing": @facing).
_EN_WH = re.compile(r"(?:which|what|whats|what's|wat|wut|where|wheres|where's|how|hows|how's|who|whos|who's)\b")


def _exclaims(analysis: Analysis) -> bool:
    """"咋整 我迷路了 坐标多少来着", "omg where am i??? help": "what to do" or a plea for help said
    alone beside a question is an exclamation; the question is the request."""
    return [t.feature for t in analysis.terms] in (["@advice"], ["@help"]) and all(
        t.surface in _PLEAS for t in analysis.terms if t.feature == "@help")


# "饿死了", "累死我了", "吓死人了": how the player feels, "…to death"; asks nothing.
_ZH_TO_DEATH = re.compile(r"(?:我|真是|快)?[\u4e00-\u9fff]{1,2}死(?:我|人)?了[啊呀吧哈]*")
_PERSONAL = frozenset({"he", "she", "him", "her", "他", "她"})
_SPEAKER_OPENS = ("i ", "im ", "i'm ", "我")
_PLEAS = frozenset({"help", "help me", "halp", "救命", "救救我", "帮帮我", "求助"})


def _asks(text: str, asked: bool, analysis: Analysis) -> bool:
    terms = analysis.terms
    if _exclaims(analysis) or text.startswith(_OR_ELSE):
        return False
    if not asked and text.endswith("呢") and _ZH_DOING.search(text) is not None and any(
        t.kind is TermKind.WRITE for t in terms
    ) and not QUESTION_WORDS.intersection(analysis.features):
        return False  # "打末影龙呢": what the player is doing; 呢 after a verb asks nothing here
    if asked or analysis.requested or asks_in(text) or _A_NOT_A.search(text) is not None or (
        _EN_WH.match(_ADDRESSED.sub("", text)) is not None  # "@ai which way am i facing"
    ):
        return True
    if _inability(terms, text):
        return False  # "cant break anything": says what the player cannot do
    return bool(QUESTION_WORDS.intersection(analysis.features)) or bool(terms) and (
        terms[0].surface.startswith(_AUX_PHRASES)  # "did i get any notices": a phrase that opens asking
        or terms[0].feature in _OPENS_A_QUESTION and not text.startswith(_DONT) and (
            terms[0].surface not in _PAST or len(terms) > 1 and (
                terms[1].feature in _PAST_ASKS or terms[1].surface.startswith("any ")  # "were any notices left"
            )
        )
    )


def _inability(terms: tuple[Term, ...], text: str) -> set[int]:
    """Terms of a statement that the player cannot do something: "i cant break anything",
    "挖不动方块", "看不了f3". The negation and the verb it governs ask for nothing to be done
    (normalizing spells "cant" "can not"); "can't you …" asks the assistant, so is none."""
    out: set[int] = set()
    for i, term in enumerate(terms):
        if term.kind is not TermKind.NEGATION:
            continue
        if term.surface == "not" and i > 0 and terms[i - 1].feature == "@can" and (
            i + 1 == len(terms) or terms[i + 1].feature not in ("@you", "@self")
        ) or term.surface == "not" and i > 0 and terms[i - 1].feature == "@do" and _EN_UNABLE.search(text):
            out.update((i - 1, i))
            if i + 1 < len(terms) and terms[i + 1].kind is TermKind.WRITE:
                out.add(i + 1)
        elif term.surface == "不" and len(_ZH_CANNOT.findall(text)) == text.count("不") and "没" not in text:
            out.add(i)
            if i > 0 and terms[i - 1].kind is TermKind.WRITE:
                out.add(i - 1)
            if i + 1 < len(terms) and terms[i + 1].kind is TermKind.WRITE:
                out.add(i + 1)  # 找不到: the 到 of the complement
    return out


_ADDRESSED = re.compile(r"^@?(?:ai|bot)\s+")
# What the player just did or was doing: "刚去吃饭了", "i was mining", "just got killed by a
# skeleton" say what happened; its verb asks for nothing ("just take me home" is no such opening).
_JUST_DID = ("刚", "我刚", "i just ", "i was ", "was ", "just got ", "i got ", "got ", "think i got ", "i think i got ",
             "i forgot ", "forgot ", "been ", "i been ", "ive been ", "i've been ")
# "just fell into lava", "i just found diamonds": a past verb says what happened, whatever it names.
_JUST_HAPPENED = re.compile(r"(?:i )?just (?:[a-z]+ed|fell|got|went|came|ate|lost|found|saw|made|woke|left|took|ran"
                            r"|fought|hit|broke|spent|threw|dug|swam|flew|drank|blew)\b")
# "又掉线了": what happened once more; not before a write, which may be asked again ("又给我tp回家").
_HAPPENED_AGAIN = ("又", "我又")
# A clause that opens with a finished action: "打完凋灵感觉快不行了", "挖完矿了".
_DONE_FIRST = re.compile(r"(?:我|刚)?[\u4e00-\u9fff]完")
# Went somewhere and came back: "我去上个厕所回来", "吃完饭回来了".
_BACK = ("回来", "回来了", "回来啦", "i'm back", "im back", "back now")


# "this cave", "这个洞": a demonstrative before a noun points at what is around the player, not back at
# something said before; in a clause that only says what the player is doing, it refers to nothing.
_POINTING = frozenset({"this", "that", "these", "those", "这个", "那个", "这", "那", "same", "the same"})


def _without_pointing(terms: tuple[Term, ...]) -> tuple[Term, ...]:
    return tuple(t for i, t in enumerate(terms) if not (
        t.kind is TermKind.REFERENCE and t.surface in _POINTING and i + 1 < len(terms)
        and terms[i + 1].kind in (TermKind.UNKNOWN, TermKind.TOPIC, TermKind.SLOT)
        or i == 0 and t.kind is TermKind.REFERENCE and t.surface in _JUST_NOW
        or t.kind is TermKind.CONDITION and t.surface in _BEFORE and (i == 0 or i == len(terms) - 1)
        or t.kind is TermKind.REFERENCE and t.surface in _AGAIN
        or t.kind in (TermKind.REFERENCE, TermKind.CONDITION) and t.surface in _PAST_TIMES))


# "before i fight the wither, how's my health", "打龙之前，我血多少": what the player will do next,
# said before a question asked now; it puts nothing off ("tell me when …" does).
_BEFORE = frozenset({"before", "b4", "之前", "以前"})
# "op messed with my gamemode earlier", "back after a day offline", "logged in after yesterday": when
# something happened, said of the past; no earlier request is pointed at, nothing is put off.
_PAST_TIMES = frozenset({"earlier", "yesterday", "last night", "after a day", "after yesterday", "after", "since",
                         "昨天", "之前"})
# "lost in a mineshaft again", "又死了": what happened once more, said of the player; it points
# back to no earlier request (a clause that asks is never read here).
_AGAIN = frozenset({"again", "agian", "又"})
# "刚才去吃饭了": opening a clause that says what the player did, "just now" is a time, not a reference.
_JUST_NOW = frozenset({"刚才", "刚刚"})


# What the player is about to do, said as a plan: "i go to the cave now", "要回家了", "准备去挖矿了".
_ABOUT_TO = ("i go ", "i will ", "i'll ", "ill ", "im off to ", "i'm off to ", "heading to ", "im heading ",
             "i'm heading ", "headed to ", "wanna ", "want to ", "gonna ", "was gonna ", "im gonna ", "i'm gonna ")
# Where the player is, said before the question: "on a boat, where am i heading", "in a cave lol, …".
_WHERE_I_AM = ("on a ", "in a ", "im on a ", "im in a ", "i'm on a ", "i'm in a ", "inside a ", "stuck in a ")
_ASKED_OF_YOU = re.compile(r"\b(?:you|u|ya)\b|你|您|帮我")
# What the player needs the answer for: "i need for the pickaxe", "need it for a beacon".
_NEED = ("i need ", "need ", "i needed ", "i need it ", "for the ", "for my ", "for a ", "looking for ", "searching for ",
         "hunting for ", "im looking for ", "i'm looking for ")
_CORRECTS = re.compile(r"\bi mean\b|\bi meant\b|\bactually\b|\bno wait\b|不对|我是说|我的意思是")
_THANKS = ("thanks", "thank you", "thank u", "thx", "ty ", "tysm", "cheers", "谢谢", "多谢", "感谢", "hey thanks", "hey thx")
_BECAUSE = frozenset({"since", "because", "cause", "cuz", "coz", "bc", "as"})  # a reason opens the plan
_WANTS = ("我要", "我想要", "i want ", "want ", "i wanna ", "wanna ")
_ZH_ABOUT_TO = re.compile(r"(?:我)?(?:马上|快|就)?要[\u4e00-\u9fff]{1,6}了$|我(?:马上|等下|待会儿?|就)?要(?!不要)")
# "在盖城堡", "正在挖矿", "打末影龙呢": what the player is doing now, said beside the question.
_ZH_DOING = re.compile(r"^我?(?:正在|正|在)(?=[\u4e00-\u9fff])|^[\u4e00-\u9fff]{2,8}呢$")
# "我去吃饭了一下", "我刚才去挖矿了": where the player went, said after the question.
_WENT = re.compile(r"我(?:刚才?|刚刚)?去[\u4e00-\u9fff]{1,6}了")


_STATES_OPENS = re.compile(r"(?:i|im|i'm|ive|i've|my|it|its|it's|this|thats|that's|he|she|they|theyre|they're|we"
                           r"|there's|theres|everything|everyone|nothing|nobody|cant|can't|cannot|can not|couldnt|couldn't"
                           r"|dont wanna|don't wanna|dont want to|don't want to)\b")  # "dont wanna fall into the void"
# Pronouns a statement says of its own subject; "the same", "earlier" point back still, and "he"/"she"
# may be the player the question names, whom the clause then speaks of ("where is steve, he's not
# answering" is said to the others, unless the player sees them: ``seen``).
_ITS_OWN = frozenset({"it", "its", "this", "they", "them", "em"})


def _stated(terms: tuple[Term, ...], text: str) -> bool:
    """The clause says something of a subject of its own: it opens with one ("i", "my inv", "it's",
    "this") or with a word the vocabulary does not know before "is"/"are" ("skeletons are …"), and it
    asks nothing of the assistant, does nothing, and names nothing of ours unless beside unknown words."""
    if not (_STATES_OPENS.match(text) or len(terms) > 1 and terms[0].kind is TermKind.UNKNOWN and (
        terms[1].feature == "@be"
    )) or _ASKED_OF_YOU.search(text) is not None:
        return False
    if any(t.kind is TermKind.WRITE or t.kind is TermKind.CONDITION or t.kind is TermKind.COMPOUND for t in terms):
        return False
    return not any(t.kind in _NAMES for t in terms) or any(t.kind is TermKind.UNKNOWN for t in terms)


def _context(analysis: Analysis, text: str, named: bool = False, topic: bool = False) -> bool:
    if _exclaims(analysis) or text.startswith(_THANKS) or text.startswith(_OR_ELSE) or _ZH_TO_DEATH.fullmatch(text):
        return True  # "thanks for earlier!", "饿死了": said beside the request, asking nothing
    text = _ADDRESSED.sub("", text)  # "ai 刚才忙着打龙": whom it is said to, then what happened
    unable = _inability(analysis.terms, text)
    # What the player sees of the named player ("i can see her", "我看到他了"); "tell him hi" is no
    # such clause.
    # ... or means to ask them ("wanna invite him"), or cannot see them ("cant see her in this fog").
    seen = named and text.startswith((*_SPEAKER_OPENS, *_ABOUT_TO, "cant ", "can't ", "cannot "))
    # A statement with its own subject ("the minigame swapped it"), not a request ("fix it").
    said_of_it = topic and bool(analysis.terms) and (analysis.terms[0].kind is TermKind.UNKNOWN or (
        analysis.terms[0].feature == "@self")) and not any(t.kind is TermKind.WRITE for t in analysis.terms)
    # A statement with a subject of its own ("my inv is so full it's not even funny", "i can see her
    # name tag but not her", "skeletons are wrecking me", "it's pitch black down here"): its negation
    # and its pronouns are inside what it says, not about the request. Not one said to the assistant
    # ("i dont want you to …") nor one that names only what it is about ("i dont need my coords").
    stated = _stated(analysis.terms, text)
    terms = tuple(t for i, t in enumerate(analysis.terms) if i not in unable and not (
        stated and (t.kind is TermKind.NEGATION or t.surface in _ITS_OWN)) and not (
        seen and t.kind is TermKind.REFERENCE and t.surface in _PERSONAL) and not (
        said_of_it and i >= 2 and t.kind is TermKind.REFERENCE and t.surface in ("it", "its", "them", "它")))
    if analysis.mood is not Mood.ASKS and analysis.mood is not Mood.STATES:
        return False
    terms = _without_pointing(terms)
    if any(t.kind in _NOT_CONTEXT or t.feature == "@player" for t in terms):
        return False  # "alex wants to know, …": someone else is in it
    if len(terms) >= 2 and terms[0].kind is TermKind.UNKNOWN and terms[1].surface in ("me", "us"):
        return False  # "…, heal me": a verb the vocabulary does not know, said to the assistant
    wanted = [t for t in terms if t.kind is not TermKind.FUNCTION]
    if text.startswith(_WANTS) and len(wanted) == 2 and wanted[1].feature == "@item":
        return False  # "…, 我要钻石", "…, i want diamonds": a thing wanted, which the assistant may be asked for
    asked_of_you = _ASKED_OF_YOU.search(text) is not None
    if asked_of_you and any(t.kind in _NAMES for t in terms) and any(
        t.kind is TermKind.UNKNOWN for t in terms
    ):
        return False  # "…, want you to find diamonds": something asked of the assistant about a thing
    # A plan names what it is about ("i want to dig down to diamond level", "要盖房子了"): the
    # things a write of the player's own plan names are no second request.
    # Not one asked of the assistant: "need you to craft a pickaxe", "要你帮我挖矿了" are requests.
    # What the player is trying to do ("tryna find diamonds": a verb, then what it acts on) names
    # what it is about as well; a topic of ours in it is a second request ("i want to see my
    # inventory, where am i"), and a thing wanted without a verb may be asked for ("我要钻石").
    lead = 1 if len(terms) > 1 and terms[0].surface in _BECAUSE else 0  # "since i'm about to dig down"
    purpose = bool(terms) and terms[lead].feature == "@purpose"
    plan = not asked_of_you and (
        text.startswith(_NEED) or text.startswith(_WHERE_I_AM) or purpose and len(terms) > lead + 1
        and terms[lead + 1].kind is TermKind.UNKNOWN and not any(t.kind is TermKind.TOPIC for t in terms)
        or any(t.kind is TermKind.WRITE for t in terms) and (
            purpose or text.startswith(_ABOUT_TO) or _ZH_ABOUT_TO.match(text) is not None))
    # "刚才掉线了", "刚才挂机": what happened, unless the clause asks about it.
    said = text.startswith((*_JUST_DID, *_HAPPENED_AGAIN)) and (
        analysis.mood is Mood.STATES or not QUESTION_WORDS.intersection(analysis.features)
    ) or _JUST_HAPPENED.match(text) is not None
    if not plan and not said and any(t.kind in _NAMES for t in terms) and not any(
        t.kind is TermKind.UNKNOWN for t in terms
    ):
        return False  # "where am i, show my inventory": a second request, not what happened
    before = bool(analysis.terms) and any(t.kind is TermKind.CONDITION and t.surface in _BEFORE
                                          for t in (analysis.terms[0], analysis.terms[-1]))
    return not any(t.kind is TermKind.WRITE for t in terms) or plan or (
        before or text.startswith(_JUST_DID) or text.endswith(_BACK) or _DONE_FIRST.match(text) is not None
        or _WENT.match(text) is not None or _ZH_DOING.search(text) is not None and not asked_of_you
        or "到一半" in text  # "挖矿挖到一半": in the middle of it
    )


def before_purpose(normalized: str, terms: Sequence[Term], kept: tuple[Term, ...]) -> str:
    """The text the kept terms came from when a trailing purpose clause was dropped ("alex在哪个位置
    我要去找她": the player named in the purpose is not the one asking about a position); else all of it."""
    if not kept or len(kept) >= len(terms) or tuple(terms[:len(kept)]) != kept or (
        terms[len(kept)].feature != "@purpose"
    ):
        return normalized
    at = 0
    for term in kept:
        found = normalized.find(term.surface, at)
        if found < 0:
            return normalized
        at = found + len(term.surface)
    return normalized[:at]
