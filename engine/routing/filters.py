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

from engine.routing.terms import Analysis, TermKind

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
        "former", "latter",
    ),
    TermKind.COMPOUND: (
        "and then", "then", "also", "as well", "after that", "afterwards", "plus", "and also",
    ),
}

ZH_FILTER_WORDS: dict[TermKind, tuple[str, ...]] = {
    TermKind.NEGATION: ("不", "别", "没", "勿", "甭", "莫", "不要", "不用", "没有", "无需", "不必", "算了"),
    TermKind.CONDITION: (
        "如果", "要是", "假如", "假设", "万一", "的话", "当", "一旦", "除非", "只要", "等到", "等我",
        "之前", "以前", "时候", "的时候", "否则",
    ),
    TermKind.REFERENCE: (
        "那个", "这个", "那", "这", "它", "它们", "他", "她", "他们", "那里", "这里", "那儿", "这儿",
        "刚才", "刚刚", "上次", "上一个", "同样", "又", "一样", "其",
    ),
    TermKind.COMPOUND: ("然后", "接着", "再", "并且", "而且", "同时", "顺便", "之后", "以后", "完了", "以及", "随后"),
}

# Checked in this order; the first that applies names the reason.
BLOCKING_KINDS = (TermKind.NEGATION, TermKind.CONDITION, TermKind.COMPOUND, TermKind.REFERENCE, TermKind.WRITE)


def blocking_filter(analysis: Analysis) -> TermKind | None:
    present = {t.kind for t in analysis.terms}
    for kind in BLOCKING_KINDS:
        if kind in present:
            return kind
    if analysis.breaks > 0:
        return TermKind.COMPOUND
    return None
