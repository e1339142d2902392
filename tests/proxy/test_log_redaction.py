"""Invariant 8 on the proxy side: no log line carries a secret, whatever form it takes there."""
from __future__ import annotations

import json
from typing import Any

import pytest
from twisted.logger import Logger, formatEvent
from twisted.python.failure import Failure

from proxy.operations.log_redaction import RedactingObserver

KEY = 'sk-live"quote\\slash-0123456789abcd'


def _lines(secrets: list[str | None]) -> tuple[Logger, list[dict[str, Any]]]:
    seen: list[dict[str, Any]] = []
    return Logger(namespace="test", observer=RedactingObserver([seen.append], secrets)), seen


@pytest.mark.parametrize("written", [KEY, repr(KEY), json.dumps(KEY)])
def test_no_log_line_shows_the_key_in_any_form(written: str) -> None:
    log, seen = _lines([KEY, None])
    log.warn("model call failed: {detail}", detail=f"echo Authorization: Bearer {written}")
    text = formatEvent(seen[0])
    assert "sk-…abcd" in text and "quote" not in text


def test_a_logged_traceback_is_scrubbed_too() -> None:
    log, seen = _lines([KEY])
    try:
        raise ValueError(f"bad header {KEY!r}")
    except ValueError:
        log.failure("request failed", Failure())
    assert "quote" not in formatEvent(seen[0]) and "ValueError" in formatEvent(seen[0])
    assert "log_failure" not in seen[0]


def test_lines_without_secrets_pass_untouched() -> None:
    log, seen = _lines([KEY])
    log.info("alice joined from {peer}", peer="10.0.0.1:5000")
    assert seen[0]["peer"] == "10.0.0.1:5000" and "log_redacted" not in seen[0]
