"""Text normalization shared by the vocabulary, the filters and the cache key.

NFKC folds full-width forms (``？``, ``ｉｄ``, full-width digits) into their
ASCII forms so an IME's output and a keyboard's output match; casefold makes
``Where Am I`` and ``where am i`` the same request. Traditional characters are
folded into simplified ones (坐標 → 坐标, 背包裡有什麼 → 背包里有什么): the
vocabulary, the item names and the examples are simplified, and a player on a
Taiwanese or Hong Kong server asks the same things (``data/traditional.txt.gz``,
from OpenCC, see ``scripts/gen_traditional.py``; GB2312's characters are never
changed), Cantonese and Taiwanese words into Mandarin (``dialect_words``: 乜嘢, 喺, 讯息), and
internet spellings (肿么, 木有, 偶) into the words they stand for. Surrounding punctuation carries
no intent, so ``where am i?`` and
``where am i`` share one cache key.
"""
from __future__ import annotations

import gzip
import re
import unicodedata
from importlib import resources

from engine.routing.dialect_words import fold_dialect_words

_SPACES = re.compile(r"\s+")
# Curly quotes typed by phones and some IMEs; the tokenizer expects ASCII ones.
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "`": "'"})
_EDGE_PUNCTUATION = " \t\"'.,!?;:。，！？；：、…~-*()[]<>「」『』"


def _load_traditional() -> dict[int, str]:
    data = resources.files("engine.routing").joinpath("data", "traditional.txt.gz").read_bytes()
    return {ord(line[0]): line[1] for line in gzip.decompress(data).decode("utf-8").splitlines() if len(line) == 2}


_TRADITIONAL = _load_traditional()


# Internet spellings of common words (网络用语) read as the words they stand for, so the
# vocabulary, the filters and the cache see one form: "肿么用" is 怎么用, "有人找我木有" asks
# 没有, "偶的坐标" is 我的, "有没人" 有没有人, "搁哪" 在哪. 偶 stays where it is part of a word (偶尔, 偶像,
# 配偶, 偶数). 下届 (next term) is the IME's commonest slip for 下界, the Nether, and 稿 after a
# material (钻石稿子) for 镐, the pickaxe, whose item name has no 子.
_NET_SPELLINGS = re.compile(r"(?<=[钻石铁金木])(?:稿子?|镐子)|下届|肿么|木有|虾米|森么|神马|神么|咋个|有没人|东东|搁(?=哪|这|那)|(?<!配)偶(?![尔像遇数然发])")
_NET_WORDS = {"稿": "镐", "稿子": "镐", "镐子": "镐", "下届": "下界", "肿么": "怎么", "木有": "没有", "虾米": "什么", "森么": "什么", "神马": "什么", "神么": "什么", "咋个": "怎么", "偶": "我", "有没人": "有没有人", "搁": "在", "东东": "东西"}


def _net_word(match: re.Match[str]) -> str:
    return _NET_WORDS[match.group()]


# 那 and 拿 for 哪, the pinyin IME's commonest slip, where the line can only ask where the player is:
# "我现在在那里", "我在拿" at the end of a line ("我在那里挖矿" says where the player is).
_WHERE_AM_I_SLIP = re.compile(r"(?<=我)((?:现在|目前)?在)(?:那|拿)(?=(?:里|儿)?[吗呢啊呀啦]*$)")
# "俺这血还剩多少", "我这背包": 这 after the speaker is their own thing, not a reference back ("我这是在哪",
# "我这里", "我这边" keep it).
_MY_THIS = re.compile(r"(?<=[我俺咱])这(?![是里儿边样么个些])")
# "这个ai怎么用", "这bot会干嘛": the tokenizer cuts Latin from Chinese, and a lone "ai" is whom a line
# is said to, so the demonstrative would be left pointing at nothing; it is the assistant.
_THIS_BOT = re.compile(r"(?:这个|这|那个)\s*(?:ai|bot)(?![a-z])")
# The same slip before what a question asks which one of, at the end of a clause: "我在那个维度",
# "steve在那个位置", "你会那些命令" ("去那个村庄" names a place; it is no such word).
_WHICH_SLIP = re.compile(r"那(?=(?:个|些)(?:维度|位置|世界|方向|地方|命令|指令|功能)[吗呢啊呀啦]*(?:$|[ ,，?？]))")


# Phone keyboards' slips that land on another word, where the words around leave one reading:
# "hoe far is the autopilot", "hiw many emeralds" (a key beside one of "how", before a measure;
# "now" is left alone: "right now many mobs spawn"), "whats the i'd for …" (autocorrect's i'd for
# id) and "my good level" (good for food).
_NEAR_KEYS = {"h": "gjybn", "o": "iplk0", "w": "qesa"}
_HOW_SLIPS = sorted({"how"[:i] + k + "how"[i + 1:] for i, c in enumerate("how") for k in _NEAR_KEYS[c]} - {"now"})
_EN_SLIPS = re.compile(rf"\b(?:{'|'.join(_HOW_SLIPS)})(?= (?:many|much|far|long|close|high|deep)\b)"
                       r"|(?<=\bthe )i'd\b|(?<=\bmy )good(?= (?:level|bar|meter)\b)"
                       r"|(?:(?<=\bdo u )|(?<=\bdid u )|(?<=\bdo you )|(?<=\bdid you )|(?<=\bi dont )|(?<=\bi don't ))no\b"  # "do u no", "i dont no": know
                       r"|\bwyd\b|\bwya\b")  # texting's "what (are) you doing", "where you at"
_SLIPPED = {"i'd": "id", "good": "food", "no": "know", "wyd": "what you doing", "wya": "where you at"}


# "i keep typing it wrong in /give", "the id for /give": a command named, not its verb ("give" would be
# a write); "/give me diamonds", "can you /tp me home" keep the command said.
_SLASH_COMMAND = re.compile(r"(?:(?<=\bin )|(?<=\bwith )|(?<=\bfor )|(?<=\buse )|(?<=\busing )|(?<=\btype )"
                            r"|(?<=\btyping )|(?<=\binto )|(?<=\bthe )|(?<=\bof ))/([a-z]+)\b")


def _slipped(match: re.Match[str]) -> str:
    return _SLIPPED.get(match.group(), "how")


# "有人找我没", "有新邮件不", "身上带了床没", "干完没", "找过我没", "饿了莫得", "有人找我未" (Cantonese):
# a final 没/不/未 after 有, 了, 过, 完 or 好 asks "…or not?", as 吗 does; "什么都没有" has none of
# them before it, and after 还/都/也 ("吃了还没") it is a statement. Read per clause. A tail after a
# topic alone ("在线不") needs the vocabulary to know the topic: ``Vocabulary._without_question_tail``.
NOT_YET = "还都也并从就"  # "还没", "都没有": after these a final 没 says something did not happen
_OR_NOT_TAIL = re.compile(
    rf"((?:有(?!点)|了|过|完|好)[^有了没不,，。.?？!！;；\s]*)(?<![{NOT_YET}])(?:没有|没得|莫得|没|不|未)"
    r"(?=[啊呀呢啦嘛哇]?(?:$|[\s,，。.?？!！;；~～]))")


_AFTER_MARK = " \t\r\n!！.。~～"
# The mark may be followed by a laugh or a plea: "im hungry? lol".
_LAUGHS = ("lol", "lmao", "xd", "haha", "pls", "plz", "bro", "rn", "@ai", "bot")  # or whom it is said to


# "i have torches or not": said as a statement, asked with its tail as with a mark.
_OR_NOT = (" or not", " or nah", " or no", " or nope")


def ends_with_question_mark(text: str) -> bool:
    """"i am hungry?", "我饿了？": a final question mark, which normalizing strips, makes a
    line shaped like a statement a question. Linear in the text: a few strips from its end."""
    tail = text.rstrip(_AFTER_MARK)
    for _ in range(4):
        if tail.endswith(("?", "？")) or tail.casefold().endswith(_OR_NOT):
            return True
        laugh = next((w for w in _LAUGHS if tail.casefold().endswith(w)), None)
        if laugh is None:
            return False
        tail = tail[: -len(laugh)].rstrip(_AFTER_MARK)
    return False


def normalize_text(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).translate(_QUOTES).casefold()
    if folded.isascii():
        return _SLASH_COMMAND.sub(r"the \1 command", _EN_SLIPS.sub(_slipped, _SPACES.sub(" ", folded).strip(_EDGE_PUNCTUATION)))
    folded = _NET_SPELLINGS.sub(_net_word, fold_dialect_words(folded.translate(_TRADITIONAL)))
    folded = _WHERE_AM_I_SLIP.sub(r"\1哪", _SPACES.sub(" ", folded).strip(_EDGE_PUNCTUATION))
    folded = _MY_THIS.sub("的", _WHICH_SLIP.sub("哪", _THIS_BOT.sub("这个助手", folded.replace("@我", "艾特我"))))
    return _OR_NOT_TAIL.sub(r"\1吗", folded)
