"""Cantonese, Taiwanese and regional words read as the Mandarin the vocabulary is written in.

A player on a Hong Kong server writes "我系唔系喺地狱度", "你而家做紧乜嘢", "我有几多血"; one on a
Taiwanese server writes 讯息 and 伺服器. The vocabulary, the examples and the filters are Mandarin,
so these are folded into 我是不是在地狱, 你现在在做什么, 我有多少血, 消息, 服务器 before anything
reads them (after traditional characters became simplified, so 係/邊/識 arrive as 系/边/识).

Only what cannot be misread is folded. Characters that are Cantonese alone (唔, 冇, 咗, 喺, 乜, 嘢,
佢 …) are folded wherever they stand. Characters Mandarin also uses are folded only in the
combinations that are Cantonese: 边 in 边度/边个/边一步 (never 旁边, 这边), 紧 after a verb
(做紧, never 要紧, 赶紧), 识 before a verb (识做, never 认识), 点 in 点样/点用, 系 in 系唔系/系乜.
One pass of one regex: linear in the line.
"""
from __future__ import annotations

import re

# Longest first where one is a prefix of another (乜嘢 before 乜, 系唔系 before 唔).
_WORDS = {
    "系唔系": "是不是", "系咪": "是不是", "系乜嘢": "是什么", "系咩": "是什么", "系乜": "是什么",
    "啲咩": "什么", "啲乜": "什么", "定系": "还是", "乜嘢": "什么", "乜野": "什么", "咩嘢": "什么", "咩野": "什么", "乜": "什么",
    "识唔识": "会不会", "得唔得": "行不行", "有冇": "有没有", "佢哋": "他们", "我哋": "我们", "你哋": "你们",
    "边度": "哪里", "边处": "哪里", "边个": "谁", "边位": "谁", "而家": "现在", "依家": "现在", "几多": "多少",
    "点样": "怎样", "点用": "怎么用", "点搞": "怎么搞", "点做": "怎么做", "点玩": "怎么玩",
    "讯息": "消息", "伺服器": "服务器",
    # Northern and south-western Mandarin: 嘎哈 (干啥), 噻 (a particle), 哪个在线 (谁).
    "嘎哈": "干啥", "干哈": "干啥", "噻": "啊", "哪个在线": "谁在线",
    "唔": "不", "冇": "没有", "咗": "了", "嘅": "的", "佢": "他", "哋": "们", "睇": "看", "俾": "给",
    "嚟": "来", "喺": "在", "嘢": "东西", "啲": "些", "嗰": "那", "揾": "找", "搵": "找",
    "㗎": "啊", "喎": "啊", "嘞": "啊", "啫": "啊", "噃": "啊", "囉": "啊", "啩": "吧",
}
_FOLDED = re.compile(
    # 喺…度: "in … (place)"; the place word 度 is no part of the question.
    r"喺(?P<place>(?!边)[\u4e00-\u9fff]{1,6}?)度(?=[啊呀吗呢㗎啦]*$|[\s,，?？])"
    r"|(?P<verb>[做搞打挖整玩忙行揾搵睇])紧"  # 做紧: doing now, 在做
    r"|边(?=[一条只样间])"  # 边一步, 边条路: which
    r"|识(?=[做用玩讲])"  # 识做: can do
    r"|咩"  # what; at the end of a line it asks, as 吗 does
    r"|" + "|".join(sorted(map(re.escape, _WORDS), key=len, reverse=True))
)
_ONE = {"边": "哪", "识": "会"}
_PARTICLES = frozenset("啊呀㗎啦")
_ASKS_AN_OBJECT = frozenset("做讲睇看食玩搞揾搵要有叫识会系是")


def _fold(match: re.Match[str]) -> str:
    word = match.group()
    if match.group("place") is not None:
        return "在" + match.group("place")
    if match.group("verb") is not None:
        return "在" + _WORDS.get(match.group("verb"), match.group("verb"))
    if word == "咩":
        rest = match.string[match.end():]
        before = match.string[match.start() - 1: match.start()]
        # "你识做咩": what a verb does is asked; "好咩", "真系咩": the line asks, as with 吗.
        return "吗" if all(c in _PARTICLES for c in rest) and before not in _ASKS_AN_OBJECT else "什么"
    return _ONE.get(word) or _WORDS[word]


def fold_dialect_words(text: str) -> str:
    """``text`` (simplified, casefolded) with its Cantonese and Taiwanese words in Mandarin."""
    return _FOLDED.sub(_fold, text)
