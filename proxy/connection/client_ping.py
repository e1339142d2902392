"""The client's own round trip, timed from the keep-alives the proxy relays.

How this works: the backend sends a keep-alive every few seconds and the client must
echo its id. The play relay hands both frames here as they pass (still forwarded raw):
``sent`` notes when an id went to the client, ``answered`` looks the echoed id up and
keeps the time between as the latest round trip. The id is the packet's payload bytes,
compared as bytes, so nothing is decoded and the same code serves every version's id
type (int, VarInt or long). Ids never answered (a switch of backend drops some) are
forgotten oldest first; at most ``MAX_PENDING`` are held. The clock is the caller's.
"""
from __future__ import annotations

MAX_PENDING = 4


class ClientPing:
    __slots__ = ("_pending", "rtt", "samples")

    def __init__(self) -> None:
        self._pending: dict[bytes, float] = {}
        self.rtt: float | None = None  # seconds, the latest answered keep-alive
        self.samples = 0

    def sent(self, key: bytes, now: float) -> None:
        pending = self._pending
        pending.pop(key, None)
        if len(pending) >= MAX_PENDING:
            del pending[next(iter(pending))]
        pending[key] = now

    def answered(self, key: bytes, now: float) -> None:
        at = self._pending.pop(key, None)
        if at is None:
            return  # not an id we saw go out (sent before play, or forgotten)
        self.rtt = max(0.0, now - at)
        self.samples += 1
