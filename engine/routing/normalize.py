"""Text normalization shared by the vocabulary, the filters and the cache key.

NFKC folds full-width forms (``？``, ``ｉｄ``, full-width digits) into their
ASCII forms so an IME's output and a keyboard's output match; casefold makes
``Where Am I`` and ``where am i`` the same request. Surrounding punctuation
carries no intent, so ``where am i?`` and ``where am i`` share one cache key.
"""
from __future__ import annotations

import re
import unicodedata

_SPACES = re.compile(r"\s+")
# Curly quotes typed by phones and some IMEs; the tokenizer expects ASCII ones.
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "`": "'"})
_EDGE_PUNCTUATION = " \t\"'.,!?;:。，！？；：、…~-*()[]<>「」『』"


def normalize_text(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).translate(_QUOTES).casefold()
    return _SPACES.sub(" ", folded).strip(_EDGE_PUNCTUATION)
