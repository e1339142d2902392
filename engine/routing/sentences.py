"""Sentences of one line: whether they restate one request, and the terms a final "looking" closes.

``restated`` says whether the sentences of a line ask one thing ("am i hungry? whats my
food bar at"), so each may be matched on its own; ``shifted`` carries the sentence cuts
over to the terms that survive the filters' pass; ``how_it_looks`` reads "how's my health
looking" as a question about health, not about facing.
"""
from __future__ import annotations

from collections.abc import Sequence

from engine.routing.terms import Term, TermKind

_LOOKS = frozenset({"looking", "lookin", "doing"})
_DOERS = ("@autopilot", "@progress")  # "what is the autopilot doing" asks what it does


def how_it_looks(terms: list[Term]) -> None:
    """"how's my health looking", "how's my food bar doing": after another topic, a final
    "looking"/"doing" asks how that topic is, not which way the player faces or what one does."""
    if len(terms) >= 2 and terms[-1].surface in _LOOKS and terms[-1].feature in ("@facing", "@doing") and (
        terms[-2].kind is TermKind.TOPIC and terms[-2].feature not in (terms[-1].feature, *_DOERS)
    ):
        del terms[-1]


def restated(terms: list[Term], cuts: list[int], speaker: bool = False) -> bool:
    """Whether the sentences of a line ask one thing: "am i hungry? whats my food bar at".

    Every sentence that names something names something they all share, and
    no sentence has a write; a sentence that names nothing ("how many", "what
    r u for") only asks about the others. "where am i? how hungry am i" names
    two things: two requests. ``speaker``: a Chinese line that names the player,
    where a bare "在哪" sentence is "我在哪" (the vocabulary drops 我), which asks
    where the player is: "我在哪？Alex在哪" is two requests.
    """
    named: list[set[str]] = []
    for start, end in zip([0, *cuts], [*cuts, len(terms)]):
        part = terms[start:end]
        if any(t.kind is TermKind.WRITE for t in part):
            return False
        things = named_things(part) or where_i_am(part, speaker)
        if things:
            named.append(things)
    return not named or bool(set.intersection(*named))


# A value names the topic it is a value of: "我面朝哪个方向？东还是西" asks one thing; what the
# autopilot is doing is how its run is going ("自动那个卡住了吧？现在在干嘛").
_VALUE_OF = {"@cardinal": "@facing", "@dimname": "@dimension", "@modename": "@gamemode", "@doing": "@progress"}


def where_i_am(terms: Sequence[Term], speaker: bool) -> set[str]:
    """"我在哪": 我 is filler and 在哪 asks where, so words that name nothing else name the
    player's position when the player is the one named."""
    if speaker and any(t.feature == "@where" for t in terms) and not named_things(terms):
        return {"@position"}
    return set()


def named_things(terms: Sequence[Term]) -> set[str]:
    """The topics and slots the terms name, with the topic of each value they name."""
    things = {t.feature for t in terms if t.kind in (TermKind.TOPIC, TermKind.SLOT)}
    return things | {_VALUE_OF[f] for f in things if f in _VALUE_OF}


def shifted(terms: list[Term], kept: tuple[Term, ...], cuts: list[int]) -> tuple[int, ...]:
    """``cuts`` (indexes into ``terms``) as indexes into ``kept``, which drops some terms in order."""
    out: list[int] = []
    j = 0
    pending = iter(cuts)
    cut = next(pending, None)
    for i, term in enumerate(terms):
        while cut is not None and cut == i:
            out.append(j)
            cut = next(pending, None)
        if j < len(kept) and kept[j] is term:
            j += 1
    return tuple(dict.fromkeys(c for c in out if 0 < c < len(kept)))
