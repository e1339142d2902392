"""Back-off for failed secret checks (console tokens, admin secrets), per address or per player.

How this works: each key (an address, a player) has a count of failures in a
row. The first ``free`` failures cost nothing; after that each failure locks the
key for ``base`` seconds, doubling per failure up to ``ceiling``. ``locked_for``
says how long a key must still wait; a caller refuses without checking the
secret while it waits, so guessing runs at one try per lock, not at line rate.
A success clears the key. Logging is summarised: the first failure of a key is
logged at once, later ones are counted and reported once per ``summary``
seconds, so a flood of guesses writes a few lines, not one per guess. Time
comes from the injected clock; keys idle for a long time are forgotten, so the
table stays bounded.
"""
from __future__ import annotations

from typing import Any, Callable

import attrs

MAX_KEYS = 10_000


@attrs.define
class _Record:
    failures: int = 0
    locked_until: float = 0.0
    last: float = 0.0
    unreported: int = 0


class LoginThrottle:
    def __init__(self, clock: Any, report: Callable[[str, int, float], None], *, free: int = 3,
                 base: float = 1.0, ceiling: float = 300.0, summary: float = 60.0) -> None:
        """``report(key, failures, locked_for)`` is called for the first failure of a key and
        then at most once per ``summary`` seconds with the failures counted since."""
        self.clock = clock
        self.report = report
        self.free, self.base, self.ceiling, self.summary = free, base, ceiling, summary
        self._keys: dict[str, _Record] = {}
        self._pending_report: Any = None

    def locked_for(self, key: str) -> float:
        record = self._keys.get(key)
        if record is None:
            return 0.0
        return max(0.0, record.locked_until - float(self.clock.seconds()))

    def failed(self, key: str) -> float:
        """Count a failure; returns how long the key is now locked."""
        now = float(self.clock.seconds())
        self._forget_idle(now)
        record = self._keys.setdefault(key, _Record())
        record.failures += 1
        record.last = now
        over = record.failures - self.free
        if over > 0:
            record.locked_until = now + min(self.ceiling, self.base * 2 ** min(over - 1, 30))
        locked = max(0.0, record.locked_until - now)
        if record.failures == 1:
            self.report(key, 1, locked)
        else:
            record.unreported += 1
            self._schedule_report()
        return locked

    def refused(self, key: str) -> None:
        """An attempt refused while locked: counted in the summary, never checked."""
        record = self._keys.get(key)
        if record is not None:
            record.unreported += 1
            self._schedule_report()

    def succeeded(self, key: str) -> None:
        self._keys.pop(key, None)

    def _schedule_report(self) -> None:
        if self._pending_report is None or not self._pending_report.active():
            self._pending_report = self.clock.callLater(self.summary, self._flush)

    def _flush(self) -> None:
        self._pending_report = None
        now = self.clock.seconds()
        for key, record in self._keys.items():
            if record.unreported:
                self.report(key, record.unreported, max(0.0, record.locked_until - now))
                record.unreported = 0

    def _forget_idle(self, now: float) -> None:
        if len(self._keys) < MAX_KEYS:
            return
        horizon = now - max(self.ceiling, self.summary) * 2
        self._keys = {k: r for k, r in self._keys.items() if r.last >= horizon or r.locked_until > now}
        if len(self._keys) >= MAX_KEYS:  # a flood from many addresses: keep the newest half
            newest = sorted(self._keys.items(), key=lambda item: item[1].last)[MAX_KEYS // 2:]
            self._keys = dict(newest)
