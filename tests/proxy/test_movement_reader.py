"""The client's movement packets read with one struct call (proxy.codec.movement) give the
events the layout decoder and the translators give, on every supported version."""
from __future__ import annotations

import random

import pytest

from proxy.codec import translators
from proxy.codec.movement import MovementReader
from proxy.codec.subscriptions import CLIENT_MOVEMENT
from proxy.codec.versioned import VersionCodec
from proxy.protocol.errors import PeerError
from proxy.protocol.states import State
from proxy.protocol.tables import TO_SERVER, table_for_version
from proxy.protocol.versions import SUPPORTED
from proxy.protocol.wire import pack_varint

VERSIONS = [v.name for v in SUPPORTED]


def _reference(codec: VersionCodec, name: str, packet: bytes) -> str:
    try:
        fields = codec.decode(State.PLAY, TO_SERVER, name, packet)
    except PeerError as exc:
        return f"PeerError: {exc}"
    return repr(translators.events(codec, TO_SERVER, name, fields))  # repr: NaN equals itself


@pytest.mark.parametrize("version", VERSIONS)
def test_every_version_reads_its_movement_packets_without_the_layout_decoder(version: str) -> None:
    codec = VersionCodec(table_for_version(version))
    present = {n for n in CLIENT_MOVEMENT if codec.table.packet_id(State.PLAY, TO_SERVER, n) is not None}
    assert present and MovementReader(codec).compiled == present


@pytest.mark.parametrize("version", VERSIONS)
def test_the_events_equal_the_layout_decoders_on_random_bytes(version: str) -> None:
    codec = VersionCodec(table_for_version(version))
    reader = MovementReader(codec)
    rng = random.Random(version)
    for name in sorted(reader.compiled):
        pid = codec.table.packet_id(State.PLAY, TO_SERVER, name)
        assert pid is not None
        head = pack_varint(pid)
        for length in range(0, 40):
            for _ in range(12):
                body = bytes(rng.choice((0, 1, 2, 3, 0x80, 0xFF, rng.randrange(256))) for _ in range(length))
                packet = head + body
                fast = reader.events(name, packet)
                expected = _reference(codec, name, packet)
                if fast is None:  # too short: the layout decoder reads it and names the error
                    assert expected.startswith("PeerError"), (name, packet.hex())
                else:
                    assert repr(fast) == expected, (name, packet.hex())


def test_what_it_was_not_compiled_for_goes_to_the_layout_decoder() -> None:
    codec = VersionCodec(table_for_version("1.21.11"))
    reader = MovementReader(codec)
    pid = codec.table.packet_id(State.PLAY, TO_SERVER, "position")
    assert pid is not None
    body = bytes(25)
    assert reader.events("position", bytes([pid]) + body) is not None
    assert reader.events("position", bytes([pid | 0x80, 0]) + body) is None  # the same id, not in one byte
    assert reader.events("held_item_slot", bytes([pid]) + body) is None
    assert reader.events("position", bytes([pid]) + body[:-1]) is None  # short: the decoder names the error
