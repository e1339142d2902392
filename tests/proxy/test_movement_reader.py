"""The client's movement packets read with one struct call (proxy.codec.movement) give the
events the layout decoder and the translators give, on every supported version."""
from __future__ import annotations

import pytest

from proxy.codec.movement import MovementReader
from proxy.codec.subscriptions import CLIENT_MOVEMENT
from proxy.codec.versioned import VersionCodec
from proxy.protocol.states import State
from proxy.protocol.tables import TO_SERVER, table_for_version
from proxy.protocol.versions import SUPPORTED
from tests.proxy.fast_readers import assert_agrees_on_random_bytes

VERSIONS = [v.name for v in SUPPORTED]


@pytest.mark.parametrize("version", VERSIONS)
def test_every_version_reads_its_movement_packets_without_the_layout_decoder(version: str) -> None:
    codec = VersionCodec(table_for_version(version))
    present = {n for n in CLIENT_MOVEMENT if codec.table.packet_id(State.PLAY, TO_SERVER, n) is not None}
    assert present and MovementReader(codec).compiled == present


@pytest.mark.parametrize("version", VERSIONS)
def test_the_events_equal_the_layout_decoders_on_random_bytes(version: str) -> None:
    codec = VersionCodec(table_for_version(version))
    assert_agrees_on_random_bytes(codec, MovementReader(codec), TO_SERVER, version, lengths=40, tries=12)


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
