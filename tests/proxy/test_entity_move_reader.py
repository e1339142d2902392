"""Entity movements read with one struct call (proxy.codec.entity_moves) give the events the
layout decoder and the translators give, on every supported version."""
from __future__ import annotations

import pytest

from proxy.codec.entity_moves import EntityMoveReader
from proxy.codec.subscriptions import ENTITY_MOVES
from proxy.codec.versioned import VersionCodec
from proxy.protocol.states import State
from proxy.protocol.tables import TO_CLIENT, table_for_version
from proxy.protocol.versions import SUPPORTED
from proxy.protocol.wire import pack_varint
from tests.proxy.fast_readers import assert_agrees_on_random_bytes

VERSIONS = [v.name for v in SUPPORTED]


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
    assert_agrees_on_random_bytes(codec, EntityMoveReader(codec), TO_CLIENT, version, lengths=80, tries=6)


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
