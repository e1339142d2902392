"""Keeping the API key out of everything but the Authorization header.

``Secret`` wraps the key so ``repr``/``str``/f-strings of anything holding it
show the redacted form; only ``reveal()`` gives the key, and only the HTTP
client calls it. ``redact`` is the one place that decides what the redacted
form looks like (``sk-…abcd`` at most); ``scrub`` removes the key from any
text that might have picked it up (an exception message, a response body).
"""
from __future__ import annotations


def redact(key: str | None) -> str:
    """``sk-…abcd``: the well-known prefix and the last four characters, never more."""
    if not key:
        return "(none)"
    if len(key) < 12:
        return "…"  # too short to show any of it safely
    prefix = key[:3] if key.startswith("sk-") else ""
    return f"{prefix}…{key[-4:]}"


def scrub(text: str, key: str | None) -> str:
    if key and key in text:
        text = text.replace(key, redact(key))
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
