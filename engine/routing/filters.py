"""Conservative filters: wordings that make a local direct answer unsafe.

A negation ("don't tell me where I am"), a condition ("if my health is low…"),
a reference to something earlier ("what is that") or a compound request
("…and then take me home") changes what the player wants in ways a
bag-of-features match cannot see, so any of them sends the request to the model.
So does a write action word: similarity never authorizes a write.

The word lists live here; the vocabulary loads them as phrases, so segmentation
sees "当前" (current) as one word and does not find the condition "当" in it.
Chinese A-not-A questions ("饿不饿", "有没有") are questions, not negations;
the vocabulary reads them before the negation "不" can match.
"""
from __future__ import annotations

from engine.routing.terms import QUESTION_WORDS, Analysis, Term, TermKind

EN_FILTER_WORDS: dict[TermKind, tuple[str, ...]] = {
    TermKind.NEGATION: (
        "not", "no", "never", "nothing", "none", "nobody", "without", "never mind", "nevermind", "nvm",
        "neither", "nor", "instead",
    ),
    TermKind.CONDITION: (
        "if", "when", "whenever", "unless", "once", "until", "till", "while", "after", "before",
        "in case", "as soon as", "otherwise",
    ),
    TermKind.REFERENCE: (
        "it", "that", "this", "those", "these", "them", "they", "there", "again", "same", "the one",
        "last one", "previous", "above", "earlier", "he", "she", "him", "her", "his", "hers", "its",
        "former", "latter", "em", "'em",
    ),
    TermKind.COMPOUND: (
        "and then", "then", "also", "as well", "after that", "afterwards", "plus", "and also",
    ),
}

ZH_FILTER_WORDS: dict[TermKind, tuple[str, ...]] = {
    TermKind.NEGATION: ("不", "别", "没", "勿", "甭", "莫", "不要", "不用", "没有", "无需", "不必", "算了"),
    TermKind.CONDITION: (
        "如果", "要是", "假如", "假设", "万一", "的话", "当", "一旦", "除非", "只要", "等到", "等我", "等",
        "之前", "以前", "时候", "的时候", "否则",
        # A time back then ("打boss那会儿"): a condition unless it frames when the inbox's messages came.
        "那会儿", "那会", "那阵子", "那阵", "那时候", "那时",
        # "Steve上线了告诉我": an event, then what to do once it happens (no 如果 needed).
        "了告诉我", "了通知我", "了提醒我", "了叫我", "了喊我", "了跟我说", "了说一声", "就告诉我", "就通知我",
        "就提醒我", "就叫我", "时告诉我", "时通知我", "时提醒我",
        # Later, not now: "过会儿看看背包" asks for something at a time still to come.
        "过会", "过会儿", "过一会", "过一会儿", "一会儿", "等会", "等会儿", "待会", "待会儿", "稍后", "晚点", "迟点",
    ),
    TermKind.REFERENCE: (
        "那个", "这个", "那", "这", "它", "它们", "他", "她", "他们", "那里", "这里", "那儿", "这儿",
        "刚才", "刚刚", "上次", "上一个", "同样", "又", "一样", "其",
    ),
    TermKind.COMPOUND: ("然后", "接着", "再", "并且", "而且", "同时", "顺便", "之后", "以后", "完了", "以及", "随后"),
}

# What a filter word governs (``governed``): these readings leave the request a
# plain read of the player's own state or of the assistant itself.
_DEMONSTRATIVES = frozenset({"this", "这个", "这"})
_ABOUT_THE_ASSISTANT = frozenset({"@how", "@what", "@do", "@can", "@work", "@be", "@self", "@you", "@help"})
_RELATIVES = frozenset({"that", "which"})
_PERSONS = frozenset({"@self", "@you"})
_NOUNS = frozenset({TermKind.TOPIC, TermKind.SLOT})
_BACK_WITHIN = frozenset({"it", "its", "它", "这个", "这"})
_ZH_STATES = frozenset({"满", "饱", "够"})
_ZH_PLACES = frozenset({"@dimname", "@dimension"})
_HERE_AND_NOW = frozenset({"@gamemode", "@dimension"})
_ZH_HERE = frozenset({"这", "这里", "这儿", "this"})  # "is this the end", "这是下界不"
_DETERMINERS = frozenset({"this", "that", "these", "those", "them", "这个", "那个", "这", "那"})
_EARLIER = frozenset({"earlier", "刚才", "刚刚", "上次"})
_ZH_THAT = frozenset({"那", "那个", "这", "这个"})
_STEP_NAMES = frozenset({"@dimname", "@item"})  # what a milestone is named for


def governed(terms: tuple[Term, ...]) -> tuple[Term, ...]:
    """The terms without the filter words that govern nothing the request depends on.

    How this works: each rule looks at the filter word's neighbours, never at
    the whole sentence's meaning, so each stays small and testable.

    * A demonstrative that is the assistant itself: "how does this work",
      "what can this do", "这个怎么用" — the line has no topic but working or
      being able to do. ("this thing", "this world", "这个东西" are phrases of
      the vocabulary, read before any filter.)
    * A relative pronoun: "mail that i haven't read", "emeralds that i have" —
      "that" after a noun and before "i"/"you" opens a clause that narrows the
      noun, so it and any negation inside that clause govern the noun, not the
      request.
    * A demonstrative right before an item or player it points at ("那个金苹果的id", "this
      diamond's id") is a determiner: the line names the thing.
    * "这"/"这里" right before a dimension's name or "(在)where" ("这是下界不", "我这是在哪")
      is the player's own place, as "this" in "what dimension is this".
    * "there" next to a form of "be" ("is there a help menu") says something
      exists; "it"/"its"/"这个" after an item or player named earlier in the
      line points at that name; a final "this" after "what dimension/game mode is"
      is the one the player is in ("the vault block, what's its id", "宝库这个方块
      id"), and "its" after a topic at that topic ("the autopilot … its plan"); "again" in a line that names what it asks about ("my coords
      again") only asks once more.
    * A yes/no question about a state: "am i not at full health", "is my hunger
      not full yet" (the line opens with a form of "be"); "饱食度还没满吗",
      "是不是没在下界" (没/不 before full/enough or a dimension). The answer is
      the same read either way.

    * A purpose clause after a complete question: "what y level am i at, trying
      to strip mine", "tell me where i am so i can write it down", "查下我的y
      值，想挖钻石" — the question before "trying to"/"so i can"/"想" names what
      is asked; the clause says why, so it and every word in it (a write verb
      too: nothing is done, only the question is answered) are dropped. A line
      that opens with the purpose ("trying to mine, where are diamonds", "我想
      去下界") keeps every word, and its write still stops it.

    * "while/when i was …" closing a line about the inbox: when the messages came
      ("did anyone msg me while i was in the dungeon"); the clause is dropped.

    * "until"/"till" before a noun that ends the line: "how much xp until next
      level", "steps left till the iron pickaxe" — a preposition measuring the way
      to a goal, not a condition on an event ("until it gets dark" has a verb).

    * A write word that asks what happened or how far something got (``_asked_not_done``):
      "did steve send me anything", "自动跑图跑到哪一步了".

    Other writes are never governed away (nor inside such a purpose clause), and neither is a negation of the request
    ("don't tell me", "别显示") nor a condition on what will happen ("if my
    health drops"): those words keep stopping the line.
    """
    terms = _without_enough_for(_without_purpose(terms))
    asked, sent = _asked_not_done(terms)
    if not asked and not sent and not any(t.kind in _GOVERNABLE for t in terms):
        return terms
    drop: set[int] = asked
    here: set[int] = set()  # "this" that is the player's own place or mode: read as "i"
    features = {t.feature for t in terms if t.kind not in _GOVERNABLE or t.kind is TermKind.COMPOUND}
    relative_from = len(terms)
    has_noun = any(t.kind in _NOUNS for t in terms)
    for i, term in enumerate(terms):
        kind, surface = term.kind, term.surface
        if kind is TermKind.REFERENCE:
            if surface in _DEMONSTRATIVES and features <= _ABOUT_THE_ASSISTANT and (
                "@work" in features or {"@can", "@do"} <= features or "@help" in features
            ):
                drop.add(i)
            elif (surface in _RELATIVES and 0 < i < len(terms) - 1 and terms[i - 1].kind in _NOUNS
                  and terms[i + 1].feature in _PERSONS):
                drop.add(i)
                relative_from = min(relative_from, i)
            elif surface == "there" and (
                i > 0 and terms[i - 1].feature == "@be" or i + 1 < len(terms) and terms[i + 1].feature == "@be"
            ):
                drop.add(i)  # "is there", "there are": existence, not a place
            elif surface in _BACK_WITHIN and any(t.kind is TermKind.SLOT for t in terms[:i]):
                drop.add(i)  # "the vault block, what's its id": what it names is in the line
            elif surface in _TOPIC_BACK and _named_first(terms, i):
                drop.add(i)  # "my health, how is it", "pockets - whats in em": the topic the line opened with
            elif surface == "its" and any(t.kind is TermKind.TOPIC for t in terms[:i]):
                drop.add(i)  # "where's the autopilot at in its plan": a possessive of what was named
            elif surface in _PERSONAL and any(t.feature == "@player" for t in terms[:i]):
                drop.add(i)  # "is steve still on or did he leave": the player the line named
            elif surface == "it" and _DOERS.intersection(t.feature for t in terms if t is not term):
                # "has the autopilot got iron, what step is it on", "what's it doing now, the auto thing":
                # the autopilot the line names, before the pronoun or just after it
                drop.add(i)
            elif surface in ("it", "它") and any(t.feature == "@you" and t.surface not in _SECOND_PERSON
                                                 for t in terms[:i]):
                drop.add(i)  # "first time using this bot, what can i ask it": the assistant, named before
            elif surface == "this" and i == len(terms) - 1 and i >= 2 and terms[i - 1].feature == "@be" and (
                terms[i - 2].feature in _HERE_AND_NOW
            ):
                here.add(i)  # "what game mode is this", "what dimension is this": the one the player is in
            elif surface in _DETERMINERS and i + 1 < len(terms) and terms[i + 1].feature == "@you":
                drop.add(i)  # "这个ai能干嘛": the tokenizer splits "这个ai", which is the assistant
            elif surface in _ZH_THAT and 0 < i < len(terms) - 1 and terms[i + 1].feature == "@progress" and (
                terms[i - 1].feature in _STEP_NAMES
            ):
                drop.add(i)  # "到下界那一步没有", "铁那个阶段": the step the line names
            elif surface in _DETERMINERS and i + 1 < len(terms) and terms[i + 1].kind is TermKind.SLOT:
                # "那个金苹果的id", "this diamond's id", "them diamonds": the line names what it points at. Not
                # past a word between ("those purple glass panes"): the item read would lose its colour.
                drop.add(i)
            elif surface in _ZH_HERE and i + 1 < len(terms) and terms[i + 1].feature == "@dimname" and (
                surface != "this" or all(t.kind is TermKind.FUNCTION or t.feature == "@dimension" for t in terms[i + 2:])
            ):  # "is this the end dimension im in", not "is this a nether fortress"
                here.add(i)  # "这是下界不": here is the player's own place
            elif surface in _ZH_HERE and [t.feature for t in terms[i + 1:i + 3]] in (
                ["@where"], ["@in", "@where"], ["@in", "@what"]
            ):
                drop.add(i)  # "我这是到哪了", "我这是在哪(个世界)": where the player is
            elif surface in _EARLIER and "@inbox" in features:
                drop.add(i)  # "steve刚才给我发消息了没", "did anyone msg me earlier": when the messages came
            elif surface == "again" and has_noun:
                drop.add(i)  # "my coords again": asked once more, about what the line names
            elif surface in _ZH_THAT and 0 < i < len(terms) - 1 and terms[i - 1].feature == "@autopilot" and (
                terms[i + 1].kind in _NOUNS
            ):
                drop.add(i)  # "挂机那个进度", "自动驾驶那个任务": the autopilot's, named just before
            elif surface in _ZH_THAT and i + 1 < len(terms) and terms[i + 1].feature == "@progress" and any(
                t.feature in _ZH_DOERS for t in terms[:i]
            ):
                drop.add(i)  # "你现在忙啥呢 那个目标搞到哪了", "你那活干完没": the goal of whom the line asks
            elif surface == "it" and 0 < i and terms[i - 1].feature == "@be" and (
                any(t.kind is TermKind.TOPIC for t in terms[:i - 1])
            ) and terms[i + 1:] and all(t.kind is TermKind.FUNCTION for t in terms[i + 1:]):
                drop.add(i)  # "what's my health and is it low": the state the line just asked for
        elif kind is TermKind.CONDITION:
            if surface in _UP_TO and i > 0 and _goal_only(terms[i + 1:]):
                drop.add(i)
            elif surface in _PAST_TIME and "@inbox" in features and i > 0 and (
                [t.surface for t in terms[i + 1:i + 3]] in (["i", "was"], ["i", "were"])
            ):
                # "did anyone msg me while i was in the dungeon": when the messages came, which
                # is what the inbox keeps; a past time is no condition on anything to be done.
                drop.update(range(i, len(terms)))
            elif surface in _ZH_PAST_TIME and _frames_inbox(terms, i):
                # "打boss的时候有人私聊我吗": the clause before says when the messages came.
                drop.update(range(i + 1))
        elif kind is TermKind.COMPOUND:
            if surface == "then" and i and i == len(terms) - 1:
                drop.add(i)  # "who's about then", "where am i then": a word that closes the question
        elif kind is TermKind.NEGATION:
            if i > relative_from:
                drop.add(i)
            elif surface == "not" and terms[0].feature == "@be" and 0 < i <= 3:
                drop.add(i)
            elif surface in ("没", "不") and i + 1 < len(terms) and (
                terms[i + 1].surface in _ZH_STATES or terms[i + 1].feature == "@in" and i + 2 < len(terms)
                and terms[i + 2].feature in _ZH_PLACES
            ):
                drop.add(i)
                if i > 0 and terms[i - 1].surface == "还":  # "还没满": not yet full
                    drop.add(i - 1)
    if not drop and not here and not sent:
        return terms
    return tuple(Term(t.surface, "@self", TermKind.FUNCTION) if i in here
                 else Term(t.surface, "@inbox", TermKind.TOPIC) if i in sent else t
                 for i, t in enumerate(terms) if i not in drop)


_GOVERNABLE = frozenset({TermKind.REFERENCE, TermKind.NEGATION, TermKind.CONDITION, TermKind.COMPOUND})
_ZH_DOERS = frozenset({"@you", "@autopilot"})
_SECOND_PERSON = frozenset({"you", "your", "u", "ya", "yourself", "ur", "yours", "yu", "yuo", "你", "您"})
_PERSONAL = frozenset({"he", "she", "him", "her", "his", "hers", "他", "她"})
_TOPIC_BACK = frozenset({"it", "they", "them", "em", "'em"})
_WH = frozenset({"what", "where", "how", "who", "which", "wat", "wut", "wher"})


def _named_first(terms: tuple[Term, ...], at: int) -> bool:
    """The line opens by naming one topic and then asks about "it": "xp level - what is it".

    Only question words may stand between the topic and the pronoun and after it, so
    the pronoun can point at nothing but that topic; "is it" with anything else named,
    or a topic that is not the line's first word (besides "my"), stays a reference.
    """
    start = 1 if terms and terms[0].feature == "@self" else 0
    return (start < at and terms[start].kind is TermKind.TOPIC
            and terms[start].surface.split(" ", 1)[0] not in _WH  # "where am i, what is it": a question, not a topic
            and all(t.kind is TermKind.FUNCTION for t in terms[start + 1:at])
            and all(t.kind is TermKind.FUNCTION for t in terms[at + 1:]))
_DOERS = frozenset({"@autopilot", "@progress"})
# Who did it, in "did steve send me", "what did you save": a subject between "did" and a verb.
_DID_SUBJECTS = frozenset({"@player", "@self", "@you", "@we", "@players", "@autopilot"})
_SEND = frozenset({"send", "sent", "write", "wrote"})
# Where a reach ends, in "跑到哪一步了", "进度到多少了": a question, not a destination.
_REACHED = frozenset({"@progress", "@where", "@howmuch", "@what"})


def _asked_not_done(terms: tuple[Term, ...]) -> tuple[set[int], set[int]]:
    """Write words that ask what happened or how far something got, which asks for nothing to be done:
    (those to drop, those that say a message was sent to the player).

    * "did <someone> <verb>": "what messages did you save for me" asks about the past; a
      request would have no "did" before its subject. "did steve send me anything" asks
      what was sent to the player: its messages.
    * A move that reaches a question, after the autopilot or its progress: "自动跑图跑到哪一步了",
      "进度到多少了", "速通bot走到哪一步了" ask how far it got; "带我去下界" (no question after
      the verb) and "跑到哪里去挖铁" (a second write) still stop.
    """
    found: set[int] = set()
    sent: set[int] = set()
    for i, term in enumerate(terms):
        if term.kind is not TermKind.WRITE:
            continue
        if i >= 2 and terms[i - 2].surface == "did" and (
            terms[i - 1].feature in _DID_SUBJECTS or terms[i - 1].kind is TermKind.UNKNOWN  # a name it does not know
        ):
            if term.surface in _SEND and i + 1 < len(terms) and terms[i + 1].feature == "@self":
                sent.add(i)
            else:
                found.add(i)
        elif term.feature == "@move" and i + 1 < len(terms) and terms[i + 1].feature in _REACHED and (
            _DOERS.intersection(t.feature for t in terms[:i])
        ) and sum(t.kind is TermKind.WRITE for t in terms) == 1:
            found.add(i)
        elif term.feature == "@move" and _reached_step(terms[i + 1:]) and sum(
            t.kind is TermKind.WRITE for t in terms
        ) == 1:
            # The verb and what names the step: the question is the step, not the item or the place.
            found.update(range(i, i + 1 + _step_name_length(terms[i + 1:])))
    return found, sent


# What a step of the autopilot's goal is named by: "到下界那步", "拿到铁了没 在第几步".
_STEP_NAMES = frozenset({"@item", "@dimname", "@xp"})


def _step_name_length(rest: tuple[Term, ...]) -> int:
    named = 0
    while named < len(rest) and rest[named].feature in _STEP_NAMES:
        named += 1
    return named


def _reached_step(rest: tuple[Term, ...]) -> bool:
    """"自动驾驶到下界那步了吗", "机器人拿到铁了没 在第几步": a step reached, named by what it gets,
    then the step asked about; "带我去下界" names no step."""
    named = _step_name_length(rest)
    after = [t.feature for t in rest[named:] if t.feature != "@in"]
    return named > 0 and bool(after) and after[0] == "@progress"
_UP_TO = frozenset({"until", "till", "til"})
_PAST_TIME = frozenset({"while", "when"})
_ASKS_WHO_SENT = frozenset({"@have", "@any", "@who", "@what", "@howmuch", "@players"})
_ZH_PAST_TIME = frozenset({"的时候", "时候", "那会儿", "那会", "那阵子", "那阵", "那时候", "那时"})


def _frames_inbox(terms: tuple[Term, ...], i: int) -> bool:
    """A time clause opening a question about the inbox: nothing before it but what the player was
    doing (no other condition, no inbox yet), and after it the inbox asked with no write of its own."""
    before, after = terms[:i], terms[i + 1:]
    return bool(before) and any(t.feature == "@inbox" for t in after) and any(
        t.feature in _ASKS_WHO_SENT for t in after  # "…的时候提醒我" asks for a reminder: a condition
    ) and not any(
        t.kind in _STOPS and t.kind is not TermKind.WRITE or t.feature == "@inbox" for t in before
    ) and not any(t.kind in _STOPS for t in after)
# Words of a goal's noun phrase that are no verb and no person: "next level".
_GOAL_WORDS = frozenset({"w:next", "@progress", "@xp", "@item"})
_DONE = frozenset({"w:done", "w:finished", "w:complete", "w:completed", "w:over", "@progress"})


def _goal_only(rest: tuple[Term, ...]) -> bool:
    """The rest of the line is a goal to reach (a level, a milestone, an item), with no verb, or the
    goal said done ("till the goal is done": how far the run still has to go, no event to wait for)."""
    if len(rest) > 2 and rest[0].feature == "@progress" and rest[1].feature == "@be" and all(
        t.feature in _DONE for t in rest[2:]
    ):
        return True
    return bool(rest) and all(t.feature in _GOAL_WORDS for t in rest) and rest[-1].kind in _NOUNS
_ASKED = frozenset({TermKind.TOPIC, TermKind.SLOT})
_SUBJECTS = frozenset({"i", "we", "you", "u", "ya", "he", "she", "it", "they", "bot", "autopilot"})
_STOPS = frozenset({TermKind.WRITE, TermKind.NEGATION, TermKind.CONDITION, TermKind.COMPOUND})


def _without_purpose(terms: tuple[Term, ...]) -> tuple[Term, ...]:
    """The line up to a purpose clause, when what comes before it asks something on its own."""
    for i, term in enumerate(terms):
        if term.feature != "@purpose" and not (term.feature == "@whether" and i):
            continue  # "whats my xp lvl, wanna know if i can enchant": what the answer will tell them
        if term.feature == "@purpose" and i and (
            terms[i - 1].surface.rsplit(" ", 1)[-1] in _SUBJECTS or terms[i - 1].feature in ("@player", "@players")
        ) and (
            term.surface.split(" ", 1)[0] not in _SUBJECTS
        ):
            # "where am i going to find iron", "is alex gonna starve", "anyone want to trade": the question's own verb, not a
            # purpose ("what level am i, i wanna enchant" has a subject of its own: a clause that says why)
            return terms
        head = terms[:i]
        if any(t.kind in _ASKED for t in head) and not any(t.kind in _STOPS for t in head):
            return head
        return terms
    return terms

_ENOUGH = frozenset({"enough", "enuf", "enought", "够", "够不够", "足够"})
_FOR_WORDS = frozenset({"@full", "@do"})  # "a full set of armor", "够做镐子": words of what it is for
_OBJECTS = frozenset({"@self", "@you", "@player"})
_FOR_LONGEST = 5


def _without_enough_for(terms: tuple[Term, ...]) -> tuple[Term, ...]:
    """"do i have enough obby for a portal", "黑曜石够不够搭传送门", "我经验够附魔吗": what the amount
    would be enough for (a write, a thing to make) asks nothing of its own; the line asks how much
    of the thing counted there is. Kept when the words after it go on to an object ("i have enough
    xp, enchant my sword" asks to enchant) or run longer than a thing to make."""
    e = next((i for i, t in enumerate(terms) if t.surface in _ENOUGH), None)
    if e is None:
        return terms
    if e + 1 < len(terms) and terms[e + 1].kind in _NOUNS:
        start = e + 2  # "enough obby | for a portal"
    elif e > 0 and any(t.kind in _NOUNS for t in terms[:e]):
        start = e + 1  # "黑曜石够 | 搭传送门", "我的经验等级多少 够不够 | 附魔30级"
    else:
        return terms
    end = start
    while end < len(terms) and end - start <= _FOR_LONGEST and (
        terms[end].kind is not TermKind.FUNCTION or terms[end].feature in _FOR_WORDS
    ) and terms[end].feature not in _OBJECTS:
        end += 1
    purpose = terms[start:end]
    if not any(t.kind is not TermKind.FUNCTION for t in purpose) or end - start > _FOR_LONGEST or (
        end < len(terms) and terms[end].feature in _OBJECTS
    ):
        return terms
    enough = () if terms[e].kind is TermKind.UNKNOWN else (terms[e],)  # "enough" says no more than 够 does
    return terms[:e] + enough + terms[e + 1:start] + terms[end:]


# Checked in this order; the first that applies names the reason.
BLOCKING_KINDS = (TermKind.NEGATION, TermKind.CONDITION, TermKind.COMPOUND, TermKind.REFERENCE, TermKind.WRITE)


def blocking_filter(analysis: Analysis) -> TermKind | None:
    present = {t.kind for t in analysis.terms}
    for kind in BLOCKING_KINDS:
        if kind in present:
            return kind
    if analysis.breaks > 0 or _two_questions(analysis.terms):
        return TermKind.COMPOUND
    return None


def _two_questions(terms: tuple[Term, ...]) -> bool:
    """"whats my xp and what dimension am i in": "and" opens a second question about something else;
    "what's my health and how much is left" asks one thing twice."""
    for i, term in enumerate(terms[:-1]):
        if term.feature == "@and" and terms[i + 1].feature in QUESTION_WORDS:
            before = {t.feature for t in terms[:i] if t.kind in _NOUNS}
            after = {t.feature for t in terms[i + 1:] if t.kind in _NOUNS}
            if before and after and before != after:
                return True
    return False
