"""Words whose sense depends on where they stand, read once the terms are known.

How this works: the vocabulary gives each phrase one meaning, so 跟 is "follow", 给 "give",
"open" and "wait" are writes. Where such a word stands between things it cannot act on, it
means something else: ``word_senses`` rewrites those terms in place, each rule looking only at
the word's neighbours (like the governed filters). A write word that may act on what follows
keeps its meaning, so the write filter still stops the line. ``without_vocatives`` drops, from
a Chinese line's text, whom it is said to ("…啊兄弟") and a hesitation that opens it ("那个，").
"""
from __future__ import annotations

import re

from engine.routing.mood import names_speaker
from engine.routing.terms import Term, TermKind

_NAMED = frozenset({TermKind.TOPIC, TermKind.SLOT})
_OPENS = frozenset({"open", "打开"})
# The assistant's own lists: "open inbox" is the inbox notice's button. Opening the inventory is
# the game client's screen, which may be what the player wants done: that stays a write.
_VIEWS = frozenset({"@inbox", "@help"})
_GIVES = frozenset({"给", "give", "gimme"})
HOLD_ON = frozenset({"wait", "hold on", "hang on", "hold up"})  # a pause, not "stop"
_ASKING = frozenset({"@what", "@where", "@who", "@how", "@howmuch", "@be", "@do", "@can", "@have"})
_ASKING_WORDS = frozenset({"what", "where", "who", "how", "which", "whats", "wheres", "whos", "hows"})
# Values that can only be told, never handed over ("给我经验", "give me hp" ask for the thing).
_VALUES_TOLD = frozenset({"@position", "@id", "@status", "@dimension", "@facing"})
# Lists given to the player are read ("gimme the command list", "give me my messages"); without
# "me" the word may be the command's name ("用give指令").
_LISTS_TOLD = frozenset({"@help", "@inbox"})
_TRIGGERS = HOLD_ON | _GIVES | _OPENS | {"跟", "装备", "东西", "卡住"}
_DOERS = frozenset({"@autopilot", "@you", "@doing"})
_HAS_A_STATUS = frozenset({"@progress", "@autopilot", "@inbox", "@doing"})
_GOALS = frozenset({"@autopilot", "@progress"})
_EMPTIES = frozenset({"empty", "emptied"})
_DEGREES = frozenset({"almost", "nearly", "so", "too", "completely", "totally", "kinda", "pretty", "basically", "half",
                      "all", "quite", "fully"})
_TURNED = frozenset({"facing", "looking", "pointing", "pointed", "turned", "face"})
_MEASURES = frozenset({"@distance", "@nearby"})
_AFTER_THAT = frozenset({"after that", "after this"})
_VAGUE = frozenset({"stuff", "things", "东西"})
# A plea that opens a question about something else: "help me im lost where am i", "HELP WHERE AM I".
_PLEAS = frozenset({"help", "help me", "halp", "pls help", "plz help", "help pls", "help plz", "someone help",
                    "somebody help", "救命", "救救我"})
# A line that goes on from the last one: "and my xp?", "also whats my level". With nothing before
# them these join no second request.
_GOES_ON = frozenset({"and", "also", "and also", "plus", "n", "&", "还有", "那"})
# A confirming tag after a question mark: "im in the nether right?".
TAGS = frozenset({"right", "yeah", "yes", "ya", "correct", "innit", "yea", "ye"})

# Whom the line is said to, not whom it is about: "我在哪啊兄弟", "兄弟，我在哪", after a particle or a
# mark at the end, before a mark at the start ("我兄弟在线吗" keeps its brother); and a hesitation
# before a mark at the start ("那个，我血量多少": no reference to anything).
# The assistant spoken to like a pet ("小助手乖～", "小ai小ai，", "宝宝你好呀") is said to it, too.
_VOCATIVES = ("兄弟们|兄弟|哥们儿|哥们|老铁|老哥|大佬|大哥|宝子|家人们|朋友们|各位|小助手|小可爱|宝宝|宝贝|亲爱的|小ai|小机器人"
              "|乖狗狗|乖乖")
_ZH_VOCATIVE = re.compile(
    rf"(?<=[啊呀呢吗吧嘛哦哈啦,，!！?？ ~～])(?:{_VOCATIVES})$"
    rf"|^(?:(?:{_VOCATIVES})(?:乖乖|乖|你好呀|你好)?[~～]?)+(?=[,，!！ 、~～])|^(?:那个|这个|那啥|就是说|就是)(?=[,，!！ 、])"
    rf"|^(?:(?:{_VOCATIVES})[~～]?)+(?=[我你有])"
)


def without_vocatives(text: str) -> str:
    """A Chinese line without whom it is said to and without an opening hesitation."""
    return _ZH_VOCATIVE.sub("", text) if not text.isascii() else text


def word_senses(terms: list[Term], normalized: str = "") -> None:
    """Write words that, where they stand, write nothing.

    * "血量跟饥饿值", "Alex跟我多远": 跟 between a topic or slot and a topic is "and"/"from", not
      "follow" ("跟着我", "跟Alex走", "血量跟我说一下" keep the write).
    * "open my inbox", "打开消息": opening the assistant's own list (mail, help) shows it
      ("打开背包", "打开自动驾驶", "open the chest" keep the write).
    * "穿的啥装备": 装备 after "what" is the gear; "收件箱有东西吗": 东西 after the mailbox is
      what it holds, not the inventory ("需要吃东西" keeps it).
    * "wait where am i", "hold on, am i hungry": a line that opens with "wait"/"hold on" and goes on
      with a question pauses, it does not ask to stop ("wait here" keeps the write).
    * "自动驾驶是不是卡住了": stuck is how the autopilot's run is going; with no one else named
      ("我是不是卡住了") it is the player, and no word the vocabulary knows.
    * "status of the goal", "inbox status": the status of a thing the line names is that thing's.
    * "给个坐标", "给我钻石的id", "give coords": giving the player a value they read is telling it,
      when the line ends in that value and names no one else ("给我钻石", "给Alex我的坐标" keep it).
    """
    _openers(terms)
    _asked_last(terms, normalized)
    if len(terms) == 1 and terms[0].surface in _VAGUE and not names_speaker(normalized):
        # "stuff?", "ai 东西": a word that names the inventory only beside a question or a "my" ("我的东西").
        terms[0] = Term(terms[0].surface, ("w:" if terms[0].surface.isascii() else "c:") + terms[0].surface,
                        TermKind.UNKNOWN)
        return
    for i in range(len(terms) - 1, 0, -1):
        if terms[i].surface in _EMPTIES and terms[i].kind is TermKind.WRITE and (
            i + 1 < len(terms) and terms[i + 1].feature == "@inventory"
        ):
            del terms[i]  # "how many empty inventory slots": the slots' kind, as "empty slots" is
        elif terms[i].surface in _EMPTIES and terms[i].kind is TermKind.WRITE and (
            terms[i - 1].feature == "@be" or terms[i - 1].surface in _DEGREES
            or i == len(terms) - 1 and terms[0].feature == "@be"
        ):
            # "the bar is almost empty", "is my inventory empty": how full, not "empty it"
            terms[i] = Term(terms[i].surface, "@full", TermKind.FUNCTION)
        elif terms[i].surface == "looking" and terms[i - 1].feature == "@be" and i + 1 < len(terms) and (
            terms[i + 1].kind is TermKind.UNKNOWN
        ):
            del terms[i]  # "my hearts are looking sus": how they look, not which way
        elif terms[i].feature == "@facing" and terms[i].surface in _TURNED and any(
            t.feature == "@player" for t in terms[max(0, i - 2):i]
        ):
            # "which way is notch facing": the way that player looks, which only their own client
            # knows; "which way is notch" is the way to them.
            terms[i] = Term(terms[i].surface, "w:" + terms[i].surface, TermKind.UNKNOWN)
    if any(t.feature in _GOALS for t in terms) and not any(
        t.kind is TermKind.SLOT or t.feature in ("@players", "@who") for t in terms
    ):
        # "autopilot how far", "how close is it to the goal": how far the run has got, not a distance
        # (a player or a thing named keeps it: "how far is alex from the goal", "anyone near the bot").
        terms[:] = [Term(t.surface, "@progress", TermKind.TOPIC) if t.feature in _MEASURES else t for t in terms]
    if any(t.feature == "@status" for t in terms) and any(t.feature in _HAS_A_STATUS for t in terms):
        # "status of the goal", "bot status on ur goal?", "收件箱状态": how that thing stands, not the
        # player's health and hunger.
        terms[:] = [t for t in terms if t.feature != "@status"]
    for i in range(len(terms) - 1, -1, -1):
        if i and terms[i].feature == "@itemword" and terms[i - 1].feature == "@item":
            del terms[i]  # "crying obsidian block": the item's own kind, part of its name
        elif terms[i].surface in _AFTER_THAT and i + 1 < len(terms) and terms[i + 1].kind in (TermKind.UNKNOWN, TermKind.SLOT):
            del terms[i]  # "health left after that creeper": after a thing that happened, not "and then"
    if any(t.feature == "@server" for t in terms) and any(t.feature in ("@online", "@players") for t in terms):
        terms[:] = [t for t in terms if t.feature != "@server"]  # "服务器上都有谁在线": who, not the server
    if not any(t.surface in _TRIGGERS for t in terms):
        return  # most lines: none of the words below, nothing to read
    if len(terms) > 1 and terms[0].surface in HOLD_ON and (
        terms[1].feature in _ASKING or terms[1].surface.split(" ", 1)[0] in _ASKING_WORDS
    ):
        del terms[0]  # "wait where am i", "hold on, what's my hp": a pause before a question, not "stop"
    if terms and not any(t.feature == "@player" for t in terms):
        for i, term in enumerate(terms[:-1]):
            # "give me the coords", "give me the id of dirt", "给我钻石的id": the value given is told.
            to_me = terms[i + 1].feature == "@self" and i + 2 < len(terms)
            told = terms[i + 2] if to_me else terms[i + 1]
            if term.surface in _GIVES and told.kind in _NAMED and (_VALUES_TOLD.intersection(
                (told.feature, terms[-1].feature)
            ) or told.feature in _LISTS_TOLD and (to_me or term.surface == "gimme")) and not any(
                t.kind is TermKind.WRITE for t in terms[i + 1:]
            ):
                del terms[i]
                break
    for i in range(len(terms) - 1, -1, -1):
        surface = terms[i].surface
        after = terms[i + 1] if i + 1 < len(terms) else None
        if after is not None and after.feature == "@self" and i + 2 < len(terms):
            after = terms[i + 2]
        if surface == "跟" and 0 < i and terms[i - 1].kind in _NAMED and after is not None and after.kind is TermKind.TOPIC:
            terms[i] = Term("跟", "@and", TermKind.FUNCTION)
        elif surface in _OPENS and after is not None and after.feature in _VIEWS:
            del terms[i]
        elif surface == "装备" and i and terms[i - 1].feature == "@what":
            terms[i] = Term(surface, "@inventory", TermKind.TOPIC)  # "穿的啥装备": the gear, not "equip"
        elif surface == "东西" and any(t.feature == "@inbox" for t in terms[:i]):
            del terms[i]  # "收件箱有东西吗": things in the mailbox, not the inventory
        elif surface == "卡住" and not any(t.feature in _DOERS for t in terms):
            terms[i] = Term(surface, "c:卡住", TermKind.UNKNOWN)  # "我是不是卡住了": the player, not the autopilot


_ASKED_LAST = frozenset({"@howmuch", "@where", "@what", "@which"})


def _asked_last(terms: list[Term], normalized: str) -> None:
    """"hp how much", "coords where", "facing which direction": the thing, then what is asked of it
    (the question word and at most one word after it), as chat puts it; read in the order English
    asks ("how much hp"). Chinese asks in this order ("血量多少") and keeps it."""
    if len(terms) < 2 or not normalized.isascii():
        return
    at = next((i for i, t in enumerate(terms) if t.feature in _ASKING), None)
    if at is not None and at >= len(terms) - 2 and at and terms[at].feature in _ASKED_LAST and (
        terms[at - 1].kind is TermKind.TOPIC
    ) and not any(t.feature in _ASKING for t in terms[at + 1:]):
        terms[:] = terms[at:] + terms[:at]


def _openers(terms: list[Term]) -> None:
    """A plea or a joining word that opens the line, before a question about something else."""
    if len(terms) > 1 and terms[0].surface in _GOES_ON and terms[0].kind in (TermKind.COMPOUND, TermKind.FUNCTION):
        del terms[0]
    elif len(terms) > 1 and terms[0].surface in _PLEAS and terms[0].feature == "@help" and any(
        t.kind in _NAMED and t.feature != "@help" for t in terms[1:]
    ) and not any(t.kind is TermKind.COMPOUND or t.feature == "@and" for t in terms[1:]):
        del terms[0]  # "help, and also where am i" asks for both
