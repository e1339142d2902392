"""Player-visible texts of the reflexes, in English and Chinese."""
from __future__ import annotations

import attrs


@attrs.frozen
class Notice:
    """``[mcagent] <text>`` once a reflex takes over; ``key`` names it for logs and tests."""

    key: str
    en: str
    zh: str

    def text(self, locale: str | None) -> str:
        return self.zh if locale and locale.lower().startswith("zh") else self.en
