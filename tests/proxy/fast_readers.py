"""The check both struct-compiled readers (proxy.codec.movement, proxy.codec.entity_moves) must pass:
on random bytes, their events are the layout decoder's and the translators', on a version's table."""
from __future__ import annotations

import random
from typing import Protocol

from engine import events as ev
from proxy.codec import translators
from proxy.codec.versioned import VersionCodec
from proxy.protocol.errors import PeerError
from proxy.protocol.states import State
from proxy.protocol.wire import pack_varint


class FastReader(Protocol):
    @property
    def compiled(self) -> frozenset[str]: ...
    def events(self, name: str, packet: bytes) -> list[ev.Event] | None: ...


def reference(codec: VersionCodec, direction: str, name: str, packet: bytes) -> str:
    """What the layout decoder and the translators make of a packet (repr: a NaN equals itself)."""
    try:
        fields = codec.decode(State.PLAY, direction, name, packet)
    except PeerError as exc:
        return f"PeerError: {exc}"
    return repr(translators.events(codec, direction, name, fields))


def assert_agrees_on_random_bytes(codec: VersionCodec, reader: FastReader, direction: str, seed: str,
                                  lengths: int, tries: int) -> None:
    """Bodies of every length below ``lengths``, ``tries`` each, biased to the bytes that matter
    (0, 1, flags, sign bits): the reader's events or, when it declines (too short), the layout
    decoder's named error."""
    rng = random.Random(seed)
    for name in sorted(reader.compiled):
        pid = codec.table.packet_id(State.PLAY, direction, name)
        assert pid is not None
        head = pack_varint(pid)
        for length in range(lengths):
            for _ in range(tries):
                body = bytes(rng.choice((0, 1, 2, 3, 0x80, 0xFF, rng.randrange(256))) for _ in range(length))
                packet = head + body
                fast = reader.events(name, packet)
                expected = reference(codec, direction, name, packet)
                if fast is None:
                    assert expected.startswith("PeerError"), (name, packet.hex())
                else:
                    assert repr(fast) == expected, (name, packet.hex())
