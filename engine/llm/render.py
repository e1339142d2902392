"""Model text as plain chat lines the player can trust not to do anything.

The proxy builds chat components from plain strings, so a model cannot add a
click action or formatting through the component tree; this module makes the
*text* harmless too and keeps it short:

* formatting codes (``§a``), ANSI escapes, control and zero-width characters
  and Markdown emphasis are removed; runs of whitespace collapse;
* the whole answer is capped (``max_chars``) and split into lines of at most
  ``line_chars`` (at a space for Latin text, anywhere for CJK), at most
  ``max_lines`` lines, with "…" where something was cut;
* the first line is labelled as the model's, so it is never mistaken for
  the proxy's own authoritative messages;
* nothing becomes a button: a model answer never carries a ``ChatButton``.
"""
from __future__ import annotations

import re
import unicodedata

from engine.actions import ReplyToPlayer

MAX_CHARS = 600
LINE_CHARS = 100
MAX_LINES = 8
LABEL = "AI: "

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
_SECTION = re.compile(r"§.?", re.DOTALL)
_EMPHASIS = re.compile(r"(\*\*|__|\*|`+|~~)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+", re.MULTILINE)
_SPACES = re.compile(r"[ \t\u00a0\u3000]+")
_INVISIBLE = {"Cc", "Cf", "Co", "Cs", "Zl", "Zp"}


def clean(text: str) -> str:
    text = _ANSI.sub("", text)
    text = _SECTION.sub("", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = "".join(ch for ch in text if ch == "\n" or unicodedata.category(ch) not in _INVISIBLE)
    text = _HEADING.sub("", text)
    text = _EMPHASIS.sub("", text)
    paragraphs = [_SPACES.sub(" ", p).strip() for p in text.split("\n")]
    return "\n".join(p for p in paragraphs if p)


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def _wrap(paragraph: str, width: int) -> list[str]:
    lines: list[str] = []
    rest = paragraph
    while rest:
        # CJK characters are two columns wide and text in them has no spaces to break at.
        limit = width // 2 if any(_wide(ch) for ch in rest[:width]) else width
        if len(rest) <= limit:
            lines.append(rest)
            break
        cut = rest.rfind(" ", 0, limit + 1)
        if cut <= limit // 2:
            head, rest = rest[:limit], rest[limit:].lstrip()  # no good space: break inside the word
        else:
            head, rest = rest[:cut], rest[cut + 1:]
        lines.append(head.rstrip())
    return lines


def render_lines(
    text: str, max_chars: int = MAX_CHARS, line_chars: int = LINE_CHARS, max_lines: int = MAX_LINES, label: str = LABEL
) -> tuple[str, ...]:
    body = clean(text)
    cut = False
    if len(body) > max_chars:
        body = body[: max_chars - 1].rstrip()
        cut = True
    lines: list[str] = []
    for paragraph in body.split("\n"):
        lines.extend(_wrap(paragraph, line_chars))
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        cut = True
    if not lines:
        return ()
    if cut:
        last = lines[-1]
        limit = line_chars // 2 if any(_wide(ch) for ch in last) else line_chars
        lines[-1] = (last if len(last) < limit else last[:-1]) + "…"
    lines[0] = label + lines[0]
    return tuple(lines)


def render_reply(text: str, max_chars: int = MAX_CHARS, line_chars: int = LINE_CHARS, max_lines: int = MAX_LINES) -> ReplyToPlayer:
    """A plain reply with no buttons; empty model text gives an empty reply (no lines)."""
    return ReplyToPlayer(render_lines(text, max_chars, line_chars, max_lines))
