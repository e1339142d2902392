"""Inputs and parsers shared by the built-in modules."""
from __future__ import annotations

import attrs

from engine.modules.declarations import ParseContext
from engine.routing.vocabulary import ITEM_FEATURE, PLAYER_FEATURE


@attrs.frozen
class Empty:
    """The input of a query without arguments."""


EMPTY = Empty()


def no_arguments(_text: str, ctx: ParseContext) -> Empty | None:
    # A no-argument query has nothing to mis-parse, but a named item or player
    # means the request is about something this module does not take.
    for term in ctx.analysis.terms:
        if term.feature in (ITEM_FEATURE, PLAYER_FEATURE):
            return None
    return EMPTY


def players_named(ctx: ParseContext) -> list[str]:
    """Online player names the request mentions, spelled as the tab list spells them."""
    online = ctx.players or ParseContext.player_names(ctx.snapshot)
    found: list[str] = []
    for term in ctx.analysis.terms:
        if term.feature == PLAYER_FEATURE and term.surface in online and online[term.surface] not in found:
            found.append(online[term.surface])
    return found


def fmt(value: float, places: int = 1) -> str:
    text = f"{value:.{places}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text
