"""The exact intent cache: "this exact normalized request was judged to be this read-only module".

How this works:

* A key is (player scope, run generation, memory generation, language,
  SHA-256 of the normalized text). The text itself is never stored, so the
  cache cannot leak what a player said, and two players never share an entry
  because their scopes differ.
* Entries live in one access-ordered map (an LRU, like a JDK LinkedHashMap in
  access order) bounded to ``max_entries``, and in a per-scope map bounded to
  ``per_player``; inserting past either bound evicts the least recently used
  entry of that map. An entry expires ``ttl`` seconds after it was written.
* A scope is opened with its current generations. Opening it again with new
  generations (memory cleared, new run) drops its old entries; ``clear_scope``
  (disconnect, preference change) drops them and closes the scope. A write
  whose key carries a closed scope or stale generations is dropped: a model
  answer that arrives after the player left or cleared memory cannot land.

Only ``put`` writes, and only ``Router.remember`` calls it, after a
model-chosen read-only module completed and its arguments re-parsed from the
text and agreed. Time comes in as ``now``.
"""
from __future__ import annotations

import hashlib
from collections import OrderedDict

import attrs


@attrs.frozen
class CacheKey:
    scope: str
    run_generation: int
    memory_generation: int
    language: str
    digest: bytes  # SHA-256 of the normalized text; the text is not kept


def make_key(scope: str, run_generation: int, memory_generation: int, language: str, normalized: str) -> CacheKey:
    digest = hashlib.sha256(normalized.encode("utf-8")).digest()
    return CacheKey(scope, run_generation, memory_generation, language, digest)


@attrs.frozen
class CacheEntry:
    module_id: str
    expires_at: float


class IntentCache:
    def __init__(self, max_entries: int = 1024, per_player: int = 32, ttl: float = 300.0) -> None:
        if max_entries <= 0 or per_player <= 0 or ttl <= 0:
            raise ValueError("cache sizes and ttl must be positive")
        self.max_entries = max_entries
        self.per_player = per_player
        self.ttl = ttl
        self._entries: OrderedDict[CacheKey, CacheEntry] = OrderedDict()
        self._by_scope: dict[str, OrderedDict[CacheKey, None]] = {}
        self._scopes: dict[str, tuple[int, int]] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def entries_for(self, scope: str) -> int:
        return len(self._by_scope.get(scope, ()))

    def configure(self, max_entries: int, per_player: int, ttl: float) -> None:
        """New limits (config reload): shrink now; the new ttl applies to entries written from now on."""
        if max_entries <= 0 or per_player <= 0 or ttl <= 0:
            raise ValueError("cache sizes and ttl must be positive")
        self.max_entries, self.per_player, self.ttl = max_entries, per_player, ttl
        for scope in list(self._by_scope):
            while self.entries_for(scope) > per_player:
                self._evict_oldest_of(scope)
        while len(self._entries) > max_entries:
            self._remove(next(iter(self._entries)))

    def open_scope(self, scope: str, run_generation: int, memory_generation: int) -> None:
        current = self._scopes.get(scope)
        if current is not None and current != (run_generation, memory_generation):
            self._drop_entries(scope)
        self._scopes[scope] = (run_generation, memory_generation)

    def clear_scope(self, scope: str) -> int:
        """Forget the scope's entries and close it, so late writes for it are dropped."""
        self._scopes.pop(scope, None)
        return self._drop_entries(scope)

    def is_current(self, key: CacheKey) -> bool:
        return self._scopes.get(key.scope) == (key.run_generation, key.memory_generation)

    def get(self, key: CacheKey, now: float) -> str | None:
        if not self.is_current(key):
            return None
        entry = self._entries.get(key)
        if entry is None:
            return None
        if now >= entry.expires_at:
            self._remove(key)
            return None
        self._entries.move_to_end(key)
        self._by_scope[key.scope].move_to_end(key)
        return entry.module_id

    def put(self, key: CacheKey, module_id: str, now: float) -> bool:
        """Store; False when dropped because the scope closed or its generations moved on."""
        if not self.is_current(key):
            return False
        scoped = self._by_scope.setdefault(key.scope, OrderedDict())
        self._entries[key] = CacheEntry(module_id, now + self.ttl)
        self._entries.move_to_end(key)
        scoped[key] = None
        scoped.move_to_end(key)
        while len(scoped) > self.per_player:
            self._evict_oldest_of(key.scope)
        while len(self._entries) > self.max_entries:
            self._remove(next(iter(self._entries)))
        return True

    def purge_expired(self, now: float) -> int:
        stale = [k for k, e in self._entries.items() if now >= e.expires_at]
        for key in stale:
            self._remove(key)
        return len(stale)

    def _evict_oldest_of(self, scope: str) -> None:
        scoped = self._by_scope[scope]
        self._remove(next(iter(scoped)))

    def _remove(self, key: CacheKey) -> None:
        self._entries.pop(key, None)
        scoped = self._by_scope.get(key.scope)
        if scoped is not None:
            scoped.pop(key, None)
            if not scoped:
                del self._by_scope[key.scope]

    def _drop_entries(self, scope: str) -> int:
        scoped = self._by_scope.pop(scope, None)
        if not scoped:
            return 0
        for key in scoped:
            self._entries.pop(key, None)
        return len(scoped)
