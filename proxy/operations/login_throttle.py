"""The TCP console's guard against token guessing: ``engine.backoff`` per address, logged in summary.

How this works: ``LoginThrottle`` asks the engine's ``Backoff`` (time from the
injected clock) whether an address may try, and counts its failures there.
Logging is summarised: the first failure of an address is reported at once;
later failures and refused attempts are counted and reported once per
``summary`` seconds, so a flood of guesses writes a few lines, not one per guess.
"""
from __future__ import annotations

from typing import Any, Callable

from engine.backoff import Backoff


class LoginThrottle:
    def __init__(self, clock: Any, report: Callable[[str, int, float], None], *, free: int = 3,
                 base: float = 1.0, ceiling: float = 300.0, summary: float = 60.0) -> None:
        """``report(key, failures, locked_for)`` is called for the first failure of a key and
        then at most once per ``summary`` seconds with the attempts counted since."""
        self.clock = clock
        self.report = report
        self.summary = summary
        self.backoff = Backoff(free=free, base=base, ceiling=ceiling)
        self._unreported: dict[str, int] = {}
        self._pending_report: Any = None

    def _now(self) -> float:
        return float(self.clock.seconds())

    def locked_for(self, key: str) -> float:
        return self.backoff.locked_for(key, self._now())

    def failed(self, key: str) -> float:
        """Count a failure; returns how long the key is now locked."""
        failures, locked = self.backoff.failed(key, self._now())
        if failures == 1:
            self.report(key, 1, locked)
        else:
            self._count(key)
        return locked

    def refused(self, key: str) -> None:
        """An attempt refused while locked: counted in the summary, never checked."""
        self._count(key)

    def succeeded(self, key: str) -> None:
        self.backoff.succeeded(key)

    def _count(self, key: str) -> None:
        if key not in self._unreported and len(self._unreported) >= 10_000:
            return  # a flood from very many addresses: the next summary has the rest
        self._unreported[key] = self._unreported.get(key, 0) + 1
        if self._pending_report is None or not self._pending_report.active():
            self._pending_report = self.clock.callLater(self.summary, self._flush)

    def _flush(self) -> None:
        self._pending_report = None
        pending, self._unreported = self._unreported, {}
        for key, count in pending.items():
            self.report(key, count, self.locked_for(key))
