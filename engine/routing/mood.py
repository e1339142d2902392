"""What kind of utterance a line is, read from its text: a request, or not one.

The vocabulary drops 了, 吗, 呢 and 我 as filler (they would otherwise make
"我饿不饿" and "饿不饿" different requests), and the tokenizer drops quotes, so
the terms cannot tell "我饿了" (the player says they are hungry) from "我饿了吗"
(are they?), "在哪" (where is — what?) from "我在哪", nor "有人说"谁在线""
(someone said it) from "谁在线". These checks read the normalized text; each is
one pass over it.

How this works, first match wins:

* **Quotes**: a line with a quoted part ("he said "where am i"", 「坐标」) talks
  about those words; the quoted words are not the player's request.
* **How-to**: "how do i check my health", "怎么查看自己的血量" ask how the game
  shows something, not for the value; "what is a milestone" asks what the word
  means (an indefinite article: "what is the milestone" still asks for it),
  and "what's the inbox for" what it is for.
* **Statement** (Chinese): past its final particles (啊, 呀, 哦…) the line ends
  in 了 or 啦, or says what the player is, has or does ("我在下界", "我有钻石",
  "我没在下界", "我现在在下界"), or how something is ("我的血量是满的": 是…的,
  "我经验30级": a number),
  and it has no question marker (吗, 呢, 谁, 几, 哪, 啥, 怎/咋,
  什么, 多少, 还是, an A-not-A pair such as 饿不饿, a final 没 or 不) and no
  word that asks for something (看, 查, 告诉, 说, 报, 发, 列, 数, 忘了: "重锤id我
  忘了" wants the id).

None of these goes direct: it may be a complaint, small talk, a question about
the game or a request, and the answer differs, so the model decides.
"""
from __future__ import annotations

import enum
import re


class Mood(enum.Enum):
    __hash__ = object.__hash__

    ASKS = "asks"
    QUOTES = "quotes"
    HOW_TO = "how-to"
    STATES = "states"


_QUOTES = frozenset('"「」『』')
_EN_HOW_TO = re.compile(
    r"\bhow (?:do|does|can|could|should|would|to)(?: (?:i|you|u|we|one|people|players))? "
    r"(?:check|see|view|find|look|know|tell|get(?! help)|show|open|read|display)\b"
)
_EN_DEFINITION = re.compile(
    r"^(?:what|wat|wut)(?:'s|s| is| are) (?:an? [a-z]+(?: [a-z]+)?"
    r"|(?!(?:you|u|ya|this|it|the bot)\b)(?:the |a |an )?[a-z]+(?: [a-z]+)? (?:for|used for))$"
)
_EN_I_KNOW = ("i know ", "i already know ", "i knew ", "ik ", "i kno ")
_ZH_HOW = ("怎么", "怎样", "如何", "咋")
_ZH_HOW_TO_VERBS = ("查看", "查", "看", "知道", "打开", "找到", "显示", "调出")
_TRAILING = frozenset("啊呀哦哈嘞咯喽哇~～")
_QUESTION_CHARS = frozenset("吗么嘛呢谁几哪啥咋怎何")
_QUESTION_WORDS = ("什么", "多少", "多远", "多高", "多深", "多大", "多长", "多久", "是否", "还是",
                   # A tag that asks to confirm: "我在下界对吧", "我在主世界是吧".
                   "对吧", "是吧", "对不对", "对么", "对吗", "没错吧")
_ASKING_WORDS = ("看", "查", "告诉", "说", "报", "发", "列", "数", "瞅", "瞧", "康康", "忘了", "问")
_A_NOT_A = frozenset("不没")
_SPEAKER = frozenset("我俺咱")
# The player as the subject of a predicate: "我在下界" says where they are.
_SPEAKER_PREDICATES = ("我在", "我有", "我是", "我没", "我不", "我还", "我也", "我都", "我已经", "我刚", "我正在", "我朝",
                       "我面朝", "我面向")
# The same with a time word between: "我现在在下界", "我目前有钻石".
_SPEAKER_NOW = re.compile(r"我(?:现在|目前|此刻|已经|刚刚|正在|刚|正|又|就)+[在有是没不]")


_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def mood(normalized: str, chinese: bool) -> Mood:
    """``chinese``: the line has Han characters (the vocabulary knows; the Chinese checks need them)."""
    if any(ch in normalized for ch in _QUOTES):
        return Mood.QUOTES
    if "how" in normalized and _EN_HOW_TO.search(normalized) or normalized.startswith("w") and _EN_DEFINITION.match(
        normalized
    ):
        return Mood.HOW_TO
    if not chinese:
        # "i know where i am": the player says what they know ("i don't know…" is filler and asks).
        return Mood.STATES if normalized.startswith(_EN_I_KNOW) else Mood.ASKS
    if _zh_how_to(normalized):
        return Mood.HOW_TO
    return Mood.STATES if is_statement(normalized) else Mood.ASKS


def _zh_how_to(text: str) -> bool:
    for how in _ZH_HOW:
        at = text.find(how)
        while at >= 0:
            rest = text[at + len(how):]
            if rest.startswith(_ZH_HOW_TO_VERBS) and not rest.startswith("看来"):
                return True
            at = text.find(how, at + 1)
    return False


def is_statement(normalized: str) -> bool:
    """"我饿了", "背包满啦", "我在下界": a Chinese line that says something and asks nothing."""
    end = len(normalized)
    while end and normalized[end - 1] in _TRAILING:
        end -= 1
    text = normalized[:end]
    if not end or not _HAN.search(text):
        return False
    if text[-1] not in "了啦" and not any(p in text for p in _SPEAKER_PREDICATES) and not _SPEAKER_NOW.search(text) and not (
        text[-1] == "的" and "是" in text
    ) and not any(ch.isdigit() for ch in text):
        return False  # "我的血量是满的": 是…的 says how something is; "我经验30级" gives a number
    if any(ch in _QUESTION_CHARS for ch in text) or any(w in text for w in _QUESTION_WORDS):
        return False
    if text.endswith(("没", "没有", "不")):
        return False  # "有人找我没", "在线不": "…or not?"
    if any(w in text for w in _ASKING_WORDS):
        return False
    # "饿不饿了", "有没有人上线了": A-not-A asks.
    return not any(text[i + 1] in _A_NOT_A and text[i + 2] == text[i] for i in range(len(text) - 2))


def names_speaker(normalized: str) -> bool:
    """"我在哪" names who is asked about; "在哪" does not."""
    return any(ch in _SPEAKER for ch in normalized)


def asks_in(text: str) -> bool:
    """A Chinese question marker in the text ("下雨了吗", "谁在"): it asks something."""
    return bool(_HAN.search(text)) and (
        any(ch in _QUESTION_CHARS for ch in text) or any(w in text for w in _QUESTION_WORDS)
    )


_EN_OPENER = re.compile(r"(?:(?:please|pls|plz) )?(?:check|show|tell me|list|display|view|read|let me see|lemme see)\b")
# Said to the assistant after a few words of address or politeness ("bhai kindly tell me my location",
# "reckon you could show us the coords"), or as formally as in a letter ("kindly provide a list of …").
_EN_SHOW_ME = re.compile(r"\b(?:tell|show|inform|advise|update) (?:me|us)\b|\b(?:kindly|please) (?:provide|confirm|report|list)\b"
                         r"|\bmay i request\b|\bwould you be so kind\b|\bgrateful if you could\b")
_EN_PLEASE = re.compile(r"\b(?:please|pls|plz|pleas|plez)$")
_EN_STATES_BE = re.compile(r"\b(?:is|are|am|im|i'm|was|were)\b")
_ZH_SHOW = re.compile(r"(?:看|查|告诉|说|报|发|列|瞅|瞧|显示)(?:一下|一哈|下)|告诉我|康康|给我看|让我看"
                      r"|给个[^，,。 ]{1,12}的(?:id|名字|英文名)")  # "给个烈焰棒的id呗": the id, not the item


def asks_to_be_shown(normalized: str, chinese: bool) -> bool:
    """"check my inventory", "hunger bar status pls", "坐标报一下": the player asks to be shown
    something, with no question word (the verb and the please are filler to the vocabulary): a read
    verb opening the line ("tell" only with "me": "tell steve where i am" passes something on), a
    please closing a line that is no statement (not "my inventory is full pls"), or in Chinese a
    verb of showing with 一下/下 or 我."""
    if chinese:
        return _ZH_SHOW.search(normalized) is not None
    return _EN_OPENER.match(normalized) is not None or _EN_SHOW_ME.search(normalized) is not None or (
        _EN_PLEASE.search(normalized) is not None and _EN_STATES_BE.search(normalized) is None)
