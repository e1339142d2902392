"""Keeping the API key out of everything but the Authorization header.

``Secret`` wraps the key so ``repr``/``str``/f-strings of anything holding it
show the redacted form; only ``reveal()`` gives the key, and only the HTTP
client calls it. ``redact`` is the one place that decides what the redacted
form looks like (``sk-…abcd`` at most); ``scrub`` removes the key from any
text that might have picked it up (an exception message, a response body, a
model that echoes its request headers) in every form it can take there: raw,
escaped as Python's ``repr`` writes it, and escaped as JSON writes it.
``check_key`` refuses a key with control characters at start: such a key (a
pasted newline) cannot be a real one, and its escaped forms are the ones that
would slip past a naive search.
"""
from __future__ import annotations

import json
import unicodedata


class BadKey(ValueError):
    """An API key that cannot be right (control characters): refused at start."""


def check_key(key: str, source: str) -> str:
    """The key, or ``BadKey`` naming where it came from and what is wrong (never the key)."""
    bad = sorted({f"U+{ord(c):04X}" for c in key if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")})
    if bad:
        raise BadKey(f"the API key from {source} contains control characters ({', '.join(bad)}; "
                     "a pasted newline?): fix it and start again")
    return key


def forms(key: str) -> tuple[str, ...]:
    """Every way the key can appear in text: raw, repr-escaped, JSON-escaped (ASCII or not)."""
    found = {key, repr(key)[1:-1], json.dumps(key)[1:-1], json.dumps(key, ensure_ascii=False)[1:-1],
             key.encode("unicode_escape").decode("ascii")}
    return tuple(sorted((f for f in found if f), key=len, reverse=True))


def redact(key: str | None) -> str:
    """``sk-…abcd``: the well-known prefix and the last four characters, never more."""
    if not key:
        return "(none)"
    if len(key) < 12:
        return "…"  # too short to show any of it safely
    prefix = key[:3] if key.startswith("sk-") else ""
    return f"{prefix}…{key[-4:]}"


def scrub(text: str, key: str | None) -> str:
    if not key:
        return text
    for form in forms(key):
        if form in text:
            text = text.replace(form, redact(key))
    return text


class Secret:
    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def redacted(self) -> str:
        return redact(self._value)

    def __repr__(self) -> str:
        return f"Secret({self.redacted()})"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return repr(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)

    def __reduce__(self) -> str | tuple[object, ...]:
        raise TypeError("a Secret is not pickled")
