"""Cost control: per-player requests per minute and calls in flight, global concurrency, daily tokens.

How this works: ``admit(scope, now)`` is asked before a call leaves the
proxy and either reserves a slot (the call may go) or names the limit that
stops it; ``finish(tokens, now)`` is called exactly once for every admitted
call, whatever became of it (answered, failed, player gone), with the same
player key, to free the slots and count the tokens. One player has at most
``per_player_concurrent`` calls in flight, so nobody can hold every global slot. Time comes in as ``now`` (seconds since the
epoch); the token budget and the day's call count reset at midnight in
``time_zone`` (an IANA name, UTC unless the owner configured one).

Every call counts, whatever started it, so no loop (a player, a script, a
model answer that looks like a request) can get past these numbers.
"""
from __future__ import annotations

import enum
from collections import deque
from datetime import datetime
from zoneinfo import ZoneInfo

import attrs

DAY = 86400.0
WINDOW = 60.0


class Limit(enum.Enum):
    RATE = "rate"              # this player's requests per minute
    CONCURRENCY = "concurrency"  # calls in flight across all players
    PLAYER_BUSY = "player_busy"  # this player's own call still in flight
    BUDGET = "budget"          # today's tokens


@attrs.frozen
class LimitSettings:
    requests_per_minute: int = 6
    max_concurrent: int = 4
    daily_tokens: int = 200_000
    per_player_concurrent: int = 1
    time_zone: str = "UTC"  # whose midnight resets the day's tokens and calls

    def __attrs_post_init__(self) -> None:
        if min(self.requests_per_minute, self.max_concurrent, self.daily_tokens, self.per_player_concurrent) < 1:
            raise ValueError("model limits must be positive")
        ZoneInfo(self.time_zone)  # an unknown name fails here, at start, not at the first call


def calendar_day(now: float, zone: ZoneInfo) -> int:
    """The day ``now`` falls on in ``zone``, as a proleptic ordinal: changes at local midnight."""
    return datetime.fromtimestamp(now, zone).date().toordinal()


class ModelLimits:
    def __init__(self, settings: LimitSettings | None = None) -> None:
        self.settings = settings or LimitSettings()
        self.in_flight = 0
        self.tokens_today = 0
        self.calls_today = 0  # calls admitted since midnight
        self._zone = ZoneInfo(self.settings.time_zone)
        self._day = -1
        self._recent: dict[str, deque[float]] = {}
        self._in_flight_by: dict[str, int] = {}
        self.refused: dict[Limit, int] = {}

    def _roll(self, now: float) -> None:
        day = calendar_day(now, self._zone)
        if day != self._day:
            self._day = day
            self.tokens_today = 0
            self.calls_today = 0

    def today(self, now: float) -> tuple[int, int]:
        """Calls and tokens since midnight, as of ``now`` (zero once the day has turned)."""
        self._roll(now)
        return self.calls_today, self.tokens_today

    def admit(self, player: str, now: float) -> Limit | None:
        """``player`` keys the rate limit: the player's name, so reconnecting does not reset it."""
        self._roll(now)
        if len(self._recent) > 4096:
            self._recent = {k: v for k, v in self._recent.items() if v and now - v[-1] < WINDOW}
        recent = self._recent.setdefault(player, deque())
        while recent and now - recent[0] >= WINDOW:
            recent.popleft()
        refusal: Limit | None = None
        if self.tokens_today >= self.settings.daily_tokens:
            refusal = Limit.BUDGET
        elif len(recent) >= self.settings.requests_per_minute:
            refusal = Limit.RATE
        elif self.in_flight >= self.settings.max_concurrent:
            refusal = Limit.CONCURRENCY
        elif self._in_flight_by.get(player, 0) >= self.settings.per_player_concurrent:
            refusal = Limit.PLAYER_BUSY
        if refusal is not None:
            self.refused[refusal] = self.refused.get(refusal, 0) + 1
            return refusal
        recent.append(now)
        self.calls_today += 1
        self.in_flight += 1
        self._in_flight_by[player] = self._in_flight_by.get(player, 0) + 1
        return None

    def finish(self, player: str, tokens: int, now: float) -> None:
        self.in_flight = max(0, self.in_flight - 1)
        left = self._in_flight_by.get(player, 0) - 1
        if left > 0:
            self._in_flight_by[player] = left
        else:
            self._in_flight_by.pop(player, None)
        self._roll(now)
        self.tokens_today += max(0, tokens)

    def in_flight_for(self, player: str) -> int:
        return self._in_flight_by.get(player, 0)

    def seconds_until_allowed(self, player: str, now: float) -> float:
        recent = self._recent.get(player)
        if not recent or len(recent) < self.settings.requests_per_minute:
            return 0.0
        return max(0.0, WINDOW - (now - recent[0]))

    def status(self, now: float) -> str:
        self._roll(now)
        s = self.settings
        return (f"limits: {s.requests_per_minute}/min per player, {self.in_flight}/{s.max_concurrent} in flight, "
                f"tokens today {self.tokens_today}/{s.daily_tokens}")
