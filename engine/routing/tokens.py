"""Split normalized text into raw tokens: English words, numbers, Han runs, slots.

English contractions are expanded here ("what's" → "what is", "don't" → "do
not") so the vocabulary and the negation filter see one spelling. Han runs stay
whole: the vocabulary segments them against its lexicon, which is the only
place that knows which character sequences are words. ``{player}``, ``{item}``
and ``{number}`` let example sentences name a slot without naming a value.
"""
from __future__ import annotations

import enum
import re

import attrs

from engine.routing.normalize import normalize_text


class Script(enum.Enum):
    LATIN = "latin"
    HAN = "han"
    NUMBER = "number"
    SLOT = "slot"
    BREAK = "break"  # sentence punctuation inside the text


@attrs.frozen
class RawToken:
    text: str
    script: Script


# Linear by construction: every quantifier is possessive, and a run of
# digits and "_" that is neither a word nor a number is consumed whole by
# ``skip`` instead of being retried from each of its positions. (The earlier
# ``[a-z0-9_]*[a-z]…`` word rescanned a letterless run from every position:
# quadratic, 4.7 s of CPU for 20,000 underscores.) The tokens are the same.
_TOKEN = re.compile(
    r"(?P<slot>\{(?:player|item|number)\})"
    r"|(?P<id>minecraft:[a-z0-9_./]++)"
    r"|(?P<word>[0-9_]*+[a-z][a-z0-9_]*+(?:'[a-z]++)*+)"
    r"|(?P<number>(?<![\w.])-?+\d++(?:\.\d++)?+)"
    r"|(?P<skip>[0-9_]++)"
    r"|(?P<han>[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]++)"
    r"|(?P<stop>[?!;。？！；]++)"
    r"|(?P<and>[+&])"
)

# Whole-word spellings, with and without the apostrophe players often skip.
_CONTRACTIONS: dict[str, tuple[str, ...]] = {
    "whats": ("what", "is"), "wheres": ("where", "is"), "whos": ("who", "is"),
    "hows": ("how", "is"), "thats": ("that", "is"), "whens": ("when", "is"),
    # Chat spellings of "what's" (the vocabulary knows "wat" and "wut" as "what").
    "wats": ("what", "is"), "wuts": ("what", "is"), "whts": ("what", "is"), "whatz": ("what", "is"),
    "wat's": ("what", "is"), "wut's": ("what", "is"), "wht's": ("what", "is"),
    "im": ("i", "am"), "ive": ("i", "have"), "youre": ("you", "are"), "theyre": ("they", "are"),
    "dont": ("do", "not"), "doesnt": ("does", "not"), "didnt": ("did", "not"),
    "cant": ("can", "not"), "wont": ("will", "not"), "isnt": ("is", "not"),
    "arent": ("are", "not"), "wasnt": ("was", "not"), "havent": ("have", "not"),
    "shouldnt": ("should", "not"), "wouldnt": ("would", "not"), "couldnt": ("could", "not"),
    "can't": ("can", "not"), "won't": ("will", "not"), "let's": ("let", "us"),
    "y'all": ("you", "all"),
}
_SOMEONE = frozenset({"friend", "buddy", "mate", "pal", "homie", "bro", "dude", "teammate", "brother", "sister", "son",
                      "dad", "mom", "wife", "husband", "girlfriend", "boyfriend", "partner", "friends"})
_S_IS = frozenset({"what", "where", "who", "how", "that", "it", "there", "here", "he", "she", "when", "why", "which", "this"})
_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("n't", "not"), ("'re", "are"), ("'m", "am"), ("'ll", "will"), ("'ve", "have"), ("'d", "would"),
)


def _expand(word: str) -> tuple[str, ...]:
    fixed = _CONTRACTIONS.get(word)
    if fixed is not None:
        return fixed
    if "'" not in word:
        return (word,)
    for suffix, full in _SUFFIXES:
        if word.endswith(suffix) and len(word) > len(suffix):
            return (word[: -len(suffix)], full)
    if word.endswith("'s"):
        base = word[:-2]
        # "what's" is "what is"; "steve's" is a possessive and the 's adds nothing.
        if base in _S_IS:
            return (base, "is")
        # "my friend's inventory" is someone else's: kept whole, so the filler "my
        # friend" ("where am i my friend") cannot swallow it and leave "my inventory".
        return (word,) if base in _SOMEONE else (base,)
    if word.endswith("'"):
        return (word[:-1],)
    return (word,)


def tokenize(normalized: str) -> list[RawToken]:
    out: list[RawToken] = []
    for match in _TOKEN.finditer(normalized):
        kind = match.lastgroup
        text = match.group()
        if kind == "word":
            out.extend(RawToken(part, Script.LATIN) for part in _expand(text) if part)
        elif kind == "id":
            out.append(RawToken(text, Script.LATIN))
        elif kind == "number":
            out.append(RawToken(text, Script.NUMBER))
        elif kind == "han":
            out.append(RawToken(text, Script.HAN))
        elif kind == "skip":
            continue
        elif kind == "and":
            out.append(RawToken("and", Script.LATIN))  # "health + hunger", "hp & food"
        elif kind == "slot":
            out.append(RawToken(text[1:-1], Script.SLOT))
        else:
            out.append(RawToken(text, Script.BREAK))
    # Trailing punctuation ends the request; only breaks between words matter.
    while out and out[-1].script is Script.BREAK:
        out.pop()
    return out


def english_words(phrase: str) -> tuple[str, ...]:
    """A vocabulary phrase as the token tuple the tokenizer would produce for it."""
    return tuple(t.text for t in tokenize(normalize_text(phrase)) if t.script in (Script.LATIN, Script.NUMBER))
