"""Back-off for failed secret checks, per key (an address, a player name); time comes in as ``now``.

How this works: each key has a count of failures in a row. The first ``free``
failures cost nothing; after that each failure locks the key for ``base``
seconds, doubling per failure up to ``ceiling``. ``locked_for(key, now)`` says
how long a key must still wait; callers refuse without checking the secret while
it waits, so guessing runs at one try per lock, not at line rate. A success
clears the key. Keys idle for a long time are forgotten, so the table stays
bounded however many keys a flood uses.
"""
from __future__ import annotations

import attrs

MAX_KEYS = 10_000


@attrs.define
class _Record:
    failures: int = 0
    locked_until: float = 0.0
    last: float = 0.0


class Backoff:
    def __init__(self, *, free: int = 3, base: float = 1.0, ceiling: float = 300.0) -> None:
        self.free, self.base, self.ceiling = free, base, ceiling
        self._keys: dict[str, _Record] = {}

    def __len__(self) -> int:
        return len(self._keys)

    def locked_for(self, key: str, now: float) -> float:
        record = self._keys.get(key)
        return 0.0 if record is None else max(0.0, record.locked_until - now)

    def failed(self, key: str, now: float) -> tuple[int, float]:
        """Count a failure: (failures in a row, seconds the key is now locked)."""
        self._forget_idle(now)
        record = self._keys.setdefault(key, _Record())
        record.failures += 1
        record.last = now
        over = record.failures - self.free
        if over > 0:
            record.locked_until = now + min(self.ceiling, self.base * 2 ** min(over - 1, 30))
        return record.failures, max(0.0, record.locked_until - now)

    def succeeded(self, key: str) -> None:
        self._keys.pop(key, None)

    def _forget_idle(self, now: float) -> None:
        if len(self._keys) < MAX_KEYS:
            return
        horizon = now - self.ceiling * 2
        self._keys = {k: r for k, r in self._keys.items() if r.last >= horizon or r.locked_until > now}
        if len(self._keys) >= MAX_KEYS:  # a flood from many keys at once: keep the newest half
            newest = sorted(self._keys.items(), key=lambda item: item[1].last)[MAX_KEYS // 2:]
            self._keys = dict(newest)
