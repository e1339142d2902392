"""Which language a request is in.

The client settings packet tells us the player's locale (``zh_cn``, ``en_us``).
The script of the text wins when it contradicts the locale: a player with a
Chinese client typing ``where am i`` gets the English index, and the reverse.
Latin text from a locale we have no vocabulary for (``fr_fr``) keeps that
locale's language, so it falls back to the model instead of being matched
against English examples it was never written in.
"""
from __future__ import annotations

SUPPORTED_LANGUAGES = ("en", "zh")


def locale_language(locale: str | None) -> str | None:
    if not locale:
        return None
    head = locale.replace("-", "_").split("_", 1)[0].strip().lower()
    return head or None


def script_of(text: str) -> str | None:
    """``han``, ``kana``, ``hangul``, ``latin`` or None (digits/punctuation only)."""
    latin = False
    han = False
    for ch in text:
        code = ord(ch)
        if 0x3040 <= code <= 0x30FF:
            return "kana"
        if 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF:
            return "hangul"
        if 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0xF900 <= code <= 0xFAFF:
            han = True
        elif ch.isascii() and ch.isalpha():
            latin = True
    if han:
        return "han"
    if latin:
        return "latin"
    return None


def detect_language(text: str, locale: str | None) -> str:
    from_locale = locale_language(locale)
    script = script_of(text)
    if script == "han":
        return "zh"
    if script == "kana":
        return "ja"
    if script == "hangul":
        return "ko"
    if script == "latin":
        if from_locale is None or from_locale == "zh":
            return "en"
        return from_locale
    return from_locale or "en"


def reply_language(locale: str | None, request_language: str | None = None) -> str:
    """The language replies are written in: the request's if we speak it, else the locale's, else English."""
    if request_language is not None and request_language in SUPPORTED_LANGUAGES:
        return request_language
    return "zh" if locale_language(locale) == "zh" else "en"
