"""A per-connection packet rate limit, as data and arithmetic (no clock of its own).

How this works: two allowances apply at once. The average one cuts time into windows of
``window`` seconds, each allowing ``per_second * window`` packets (Paper's packet
limiter: 500/s over 7 s); the burst one cuts time into one-second windows, each allowing
``burst`` packets. ``start(now)`` is called once per read with the reactor's time and
opens new windows when the last ones are over; ``room()`` says how many more packets fit
in both; ``count()`` is called per frame and names the allowance it exceeds, if any.

Why a burst allowance too: the average one lets a flooder's first ``per_second * window``
packets (3,500) through in one read, and on they go to the server in one burst. Reads
are checked whole against ``room()`` before any of their frames is handled
(``Connection.client_data``), so a read holding more than the allowances leave is
refused whole and reaches nobody. A fixed window lets up to twice an allowance straddle
a boundary, which is harmless: the aim is to stop floods of thousands per second (one
client at ~295k frames/s delayed everyone's packets), not to shape traffic.
"""
from __future__ import annotations

AVERAGE = "average"
BURST = "burst"
UNLIMITED = 1 << 62


class PacketRate:
    __slots__ = ("window", "allowance", "burst", "_window_start", "_count", "_second_start", "_second_count")

    def __init__(self, per_second: float, window: float, burst: float = 0.0) -> None:
        self.window = window
        self.allowance = int(per_second * window) if per_second > 0 else -1  # -1: no limit
        self.burst = int(burst) if burst > 0 else -1
        self._window_start = float("-inf")
        self._count = 0
        self._second_start = float("-inf")
        self._second_count = 0

    def start(self, now: float) -> None:
        if now - self._window_start >= self.window:
            self._window_start = now
            self._count = 0
        if now - self._second_start >= 1.0:
            self._second_start = now
            self._second_count = 0

    def room(self) -> int:
        """How many more packets both current windows allow (``UNLIMITED`` without limits)."""
        room = UNLIMITED
        if self.allowance >= 0:
            room = min(room, max(self.allowance - self._count, 0))
        if self.burst >= 0:
            room = min(room, max(self.burst - self._second_count, 0))
        return room

    def exceeded_by(self, packets: int) -> str | None:
        """Which allowance ``packets`` more would exceed (``BURST`` first), without counting them."""
        if self.burst >= 0 and self._second_count + packets > self.burst:
            return BURST
        if self.allowance >= 0 and self._count + packets > self.allowance:
            return AVERAGE
        return None

    def add(self, packets: int) -> None:
        """Count ``packets`` already checked with ``exceeded_by``."""
        self._count += packets
        self._second_count += packets

    def count(self) -> str | None:
        """One more packet; the allowance it exceeds, or None."""
        self._count += 1
        self._second_count += 1
        return self.exceeded_by(0)
