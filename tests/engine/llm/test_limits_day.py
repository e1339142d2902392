"""The day's calls and tokens reset at midnight in the configured time zone, not at start."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from engine.llm.limits import LimitSettings, ModelLimits


def _at(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc).timestamp()


def _one_call(limits: ModelLimits, now: float, tokens: int) -> None:
    assert limits.admit("alice", now) is None
    limits.finish("alice", tokens, now)


def test_calls_and_tokens_today_reset_at_utc_midnight() -> None:
    limits = ModelLimits(LimitSettings(requests_per_minute=100))
    _one_call(limits, _at("2026-03-01T23:58:00"), 100)
    _one_call(limits, _at("2026-03-01T23:59:00"), 50)
    assert limits.today(_at("2026-03-01T23:59:59")) == (2, 150)
    assert limits.today(_at("2026-03-02T00:00:01")) == (0, 0)
    _one_call(limits, _at("2026-03-02T00:01:00"), 7)
    assert limits.today(_at("2026-03-02T12:00:00")) == (1, 7)


def test_a_configured_time_zone_moves_midnight() -> None:
    limits = ModelLimits(LimitSettings(requests_per_minute=100, time_zone="Asia/Tokyo"))  # UTC+9, no DST
    _one_call(limits, _at("2026-03-01T14:30:00"), 10)   # 23:30 in Tokyo
    assert limits.today(_at("2026-03-01T14:59:00")) == (1, 10)
    assert limits.today(_at("2026-03-01T15:00:01")) == (0, 0)   # 00:00:01 in Tokyo, still 1 March in UTC
    _one_call(limits, _at("2026-03-01T16:00:00"), 5)
    assert limits.today(_at("2026-03-01T23:59:00")) == (1, 5)


def test_refused_calls_are_not_counted_and_an_unknown_zone_fails_at_start() -> None:
    limits = ModelLimits(LimitSettings(requests_per_minute=1))
    now = _at("2026-03-01T10:00:00")
    _one_call(limits, now, 1)
    assert limits.admit("alice", now + 1) is not None
    assert limits.today(now + 2) == (1, 1)
    with pytest.raises(Exception, match="Mars/Olympus"):
        LimitSettings(time_zone="Mars/Olympus")
