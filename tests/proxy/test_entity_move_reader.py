"""Entity movements read with one struct call (proxy.codec.entity_moves) give the events the
layout decoder and the translators give, on every supported version."""
from __future__ import annotations

import random

import pytest

from proxy.codec import translators
from proxy.codec.entity_moves import EntityMoveReader
from proxy.codec.subscriptions import ENTITY_MOVES
from proxy.codec.versioned import VersionCodec
from proxy.protocol.errors import PeerError
from proxy.protocol.states import State
from proxy.protocol.tables import TO_CLIENT, table_for_version
from proxy.protocol.versions import SUPPORTED
from proxy.protocol.wire import pack_varint

VERSIONS = [v.name for v in SUPPORTED]


def _reference(codec: VersionCodec, name: str, packet: bytes) -> str:
    try:
        fields = codec.decode(State.PLAY, TO_CLIENT, name, packet)
    except PeerError as exc:
        return f"PeerError: {exc}"
    return repr(translators.events(codec, TO_CLIENT, name, fields))  # repr: NaN equals itself


@pytest.mark.parametrize("version", VERSIONS)
def test_every_version_reads_its_entity_moves_without_the_layout_decoder(version: str) -> None:
    codec = VersionCodec(table_for_version(version))
    present = {n for n in ENTITY_MOVES if codec.table.packet_id(State.PLAY, TO_CLIENT, n) is not None}
    compiled = EntityMoveReader(codec).compiled
    # 1.21.2+ entity_teleport carries relative-axis flags (a named type): the layout decoder reads it.
    assert present and present - {"entity_teleport"} <= compiled <= present


@pytest.mark.parametrize("version", VERSIONS)
def test_the_events_equal_the_layout_decoders_on_random_bytes(version: str) -> None:
    codec = VersionCodec(table_for_version(version))
    reader = EntityMoveReader(codec)
    rng = random.Random(version)
    for name in sorted(reader.compiled):
        pid = codec.table.packet_id(State.PLAY, TO_CLIENT, name)
        assert pid is not None
        head = pack_varint(pid)
        for length in range(0, 80):
            for _ in range(6):
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
    reader = EntityMoveReader(codec)
    pid = codec.table.packet_id(State.PLAY, TO_CLIENT, "rel_entity_move")
    assert pid is not None
    body = pack_varint(300) + bytes(7)
    assert reader.events("rel_entity_move", bytes([pid]) + body) is not None
    assert reader.events("rel_entity_move", bytes([pid | 0x80, 0]) + body) is None  # the id not in one byte
    assert reader.events("entity_metadata", bytes([pid]) + body) is None
    assert reader.events("rel_entity_move", bytes([pid]) + body[:-1]) is None  # short: the decoder names it
    assert reader.events("rel_entity_move", bytes([pid]) + b"\xff" * 6) is None  # an entity id over 5 bytes
