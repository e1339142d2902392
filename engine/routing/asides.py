"""Words around a request that are not part of it: interjections and the assistant's nickname.

"where tf am i", "how many do i even have": an interjection said between the words of a question
would split a phrase. "clanker what do i have", "jeeves, where am i": the line opens with the name
the player gives the assistant, a word nothing knows, before a question's first word. Both are
dropped from the tokens before phrases are matched; one pass, linear in the tokens.
"""
from __future__ import annotations

from collections.abc import Callable, Collection

from engine.routing.tokens import RawToken, Script

# Words said between the words of a question: "where tf am i", "how many do i even have".
INTERJECTIONS = frozenset({
    "tf", "actually", "even", "lol", "lmao", "lmfao", "bruh", "dude", "fam", "ngl", "tbh", "fr", "lowkey", "kinda",
    "rn", "atm", "btw", "tho", "though", "um", "umm", "uh", "uhh", "erm", "hm", "hmm", "welp", "yo", "yoo", "ayo",
    "really", "rly", "exactly", "quickly", "kindly", "currently", "pls", "pleas", "plss", "thx", "ty", "tysm",
})
_PAIRS = frozenset({("the", "heck"), ("the", "hell"), ("the", "fuck"), ("on", "earth"), ("tha", "hell")})
# A question's first word, after the name the assistant is called by.
_OPENS_A_QUESTION = frozenset({
    "what", "whats", "what's", "wat", "wut", "where", "wheres", "where's", "who", "whos", "who's", "how", "hows",
    "how's", "which", "do", "does", "did", "is", "am", "are", "r", "can", "any", "anyone", "show", "list", "tell",
})


def without_asides(tokens: list[RawToken], names: Collection[str], interjections: Collection[str],
                   unknown: Callable[[str, Collection[str]], bool]) -> list[RawToken]:
    """The tokens without interjections (``interjections``: those the vocabulary reads as filler) and
    without an opening nickname (``unknown``: whether a word is known to nothing)."""
    out: list[RawToken] = []
    i = 0
    if _addressed(tokens, names, unknown):
        i = 2 if tokens[1].script is Script.BREAK else 1
    while i < len(tokens):
        token = tokens[i]
        if token.script is Script.LATIN and token.text not in names:
            if i + 1 < len(tokens) and (token.text, tokens[i + 1].text) in _PAIRS:
                i += 2
                continue
            if token.text in interjections:
                i += 1
                continue
        out.append(token)
        i += 1
    return out


def _addressed(tokens: list[RawToken], names: Collection[str], unknown: Callable[[str, Collection[str]], bool]) -> bool:
    if len(tokens) < 3 or tokens[0].script is not Script.LATIN or not unknown(tokens[0].text, names):
        return False
    after = tokens[2] if tokens[1].script is Script.BREAK else tokens[1]
    return after.script is Script.LATIN and after.text in _OPENS_A_QUESTION
