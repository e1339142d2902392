"""Fixtures the proxy's tests share."""
from __future__ import annotations

from typing import Any, Iterator

import pytest
from twisted.logger import formatEvent, globalLogPublisher


@pytest.fixture
def logged() -> Iterator[list[str]]:
    """Every log event while the test runs, formatted and as its repr: where a secret could show."""
    lines: list[str] = []

    def observe(event: dict[str, Any]) -> None:
        lines.append(formatEvent(event) or "")
        lines.append(repr(event))

    globalLogPublisher.addObserver(observe)
    try:
        yield lines
    finally:
        globalLogPublisher.removeObserver(observe)
