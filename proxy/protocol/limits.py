"""A per-connection packet rate limit, as data and arithmetic (no clock of its own).

How this works: time is cut into windows of ``window`` seconds; ``start(now)`` is called
once per read with the reactor's time and opens a new window when the last one is over;
``count()`` is called per frame and says when the window's allowance (``per_second *
window``) is used up. A fixed window lets a burst of up to twice the allowance straddle a
boundary, which is harmless: the aim is to stop floods of thousands per second (one
client at ~295k frames/s delayed everyone's packets), not to shape traffic.
"""
from __future__ import annotations


class PacketRate:
    __slots__ = ("window", "allowance", "_window_start", "_count")

    def __init__(self, per_second: float, window: float) -> None:
        self.window = window
        self.allowance = int(per_second * window) if per_second > 0 else -1  # -1: no limit
        self._window_start = float("-inf")
        self._count = 0

    def start(self, now: float) -> None:
        if now - self._window_start >= self.window:
            self._window_start = now
            self._count = 0

    def count(self) -> bool:
        """One more packet; True when the window's allowance is exceeded."""
        self._count += 1
        return self._count > self.allowance >= 0
