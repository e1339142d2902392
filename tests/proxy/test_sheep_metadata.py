"""A sheep's shorn flag: the wool byte of its metadata, read for a sheep the world model knows.

The server sends a shearing as the wool byte alone (vanilla's ``packDirty``); a sheep coming into
view carries its health (a float) first. Every version's index and entry layout is read back from
bytes written the way the version's ``entityMetadata`` layout says."""
from __future__ import annotations

import struct

import pytest

from engine import events as ev
from proxy.codec import metadata, translators
from proxy.codec.versioned import VersionCodec
from proxy.protocol.tables import table_for_version
from proxy.testing import Rig, build_packet, frame

VERSIONS = ("1.8.8", "1.9.4", "1.12.2", "1.13.2", "1.14.4", "1.16.5", "1.18.2", "1.20.4", "1.21.11", "26.1")
SHEEP, COW = 7, 9


def _entry(codec: VersionCodec, index: int, kind: str, value: bytes) -> bytes:
    """One entry: 1.8 packs type << 5 | index in a byte, 1.9-1.12 an index and a type byte, then a VarInt type."""
    packed, one_byte, _, types = metadata._layout(codec.table)
    type_id = next(i for i, layout in sorted(types.items()) if layout == kind)
    if packed:
        return bytes([type_id << 5 | index]) + value
    return bytes([index, type_id]) + value       # every type id here is under 128: one VarInt byte


def _end(codec: VersionCodec) -> bytes:
    return bytes([metadata._layout(codec.table)[2]])


def _sheep_events(codec: VersionCodec, raw: bytes) -> list[ev.Event]:
    packet = codec.encode("play", "toClient", "entity_metadata", {"entityId": SHEEP, "metadata": raw})
    return translators.sheep_metadata(codec, codec.decode("play", "toClient", "entity_metadata", packet))


@pytest.mark.parametrize("version", VERSIONS)
def test_the_wool_byte_alone_says_shorn_or_woolly(version: str) -> None:
    codec = VersionCodec(table_for_version(version))
    wool = metadata.wool_index(codec.protocol)
    shorn = _entry(codec, wool, "i8", bytes([0x10 | 3])) + _end(codec)        # shorn, light blue
    assert _sheep_events(codec, shorn) == [ev.EntitySheared(SHEEP, True)]
    woolly = _entry(codec, wool, "i8", bytes([0])) + _end(codec)
    assert _sheep_events(codec, woolly) == [ev.EntitySheared(SHEEP, False)]
    # Coming into view: the flags byte and the health float before the wool byte are sized and passed.
    health = wool - 8           # the living entity's health, a float, some entries before the wool
    spawn = (_entry(codec, 0, "i8", b"\x00") + _entry(codec, health, "f32", struct.pack(">f", 8.0))
             + _entry(codec, wool, "i8", bytes([0x10])) + _end(codec))
    assert _sheep_events(codec, spawn) == [ev.EntitySheared(SHEEP, True)]
    # No wool byte, or one behind an entry the reader cannot size (a custom name): nothing said.
    assert _sheep_events(codec, _entry(codec, 0, "i8", b"\x00") + _end(codec)) == []


def test_the_wool_index_follows_minecraft_datas_metadata_keys() -> None:
    # minecraft-data 3.119.0's entities.json metadataKeys index of "wool" (1.19.4-1.21.11, 26.1).
    assert metadata.wool_index(table_for_version("1.20.1").protocol) == 17
    assert metadata.wool_index(table_for_version("1.21.11").protocol) == 17
    assert metadata.wool_index(table_for_version("26.1").protocol) == 18
    assert [metadata.wool_index(table_for_version(v).protocol) for v in ("1.8.8", "1.9.4", "1.12.2", "1.14.4",
                                                                          "1.16.5", "1.18.2")] == [16, 12, 13, 15, 16, 17]


def test_a_truncated_entry_ends_the_reading() -> None:
    codec = VersionCodec(table_for_version("1.20.4"))
    wool = metadata.wool_index(codec.protocol)
    assert metadata.entries(codec.table, _entry(codec, wool, "f32", b"\x00\x00")) == {}
    assert metadata.entries(codec.table, _entry(codec, 2, "string", b"\x7f" + b"a")) == {}


def _rig() -> Rig:
    rig = Rig("1.20.1", features={"assistant": False, "reflexes": False, "autopilot": True, "world": True})
    rig.login(threshold=-1)
    types = rig.codec.table.entities
    for eid, kind in ((SHEEP, "sheep"), (COW, "cow")):
        type_id = next(k for k, v in types.items() if v[0] == kind)
        rig.server_send(build_packet(rig.codec, "play", "toClient", "spawn_entity", entityId=eid, type=type_id,
                                     x=1.0, y=64.0, z=1.0))
    assert rig.client is not None
    rig.client.received()
    return rig


def test_the_proxy_reads_a_known_sheeps_shorn_flag_and_forwards_the_packet_unchanged() -> None:
    rig = _rig()
    session = rig.bridge.session
    assert session is not None
    wool = metadata.wool_index(rig.codec.protocol)
    for eid, value, expect in ((SHEEP, 0x10, True), (COW, 0x10, False), (SHEEP, 0x00, False)):
        raw = _entry(rig.codec, wool, "i8", bytes([value])) + b"\xff"
        wire = frame(build_packet(rig.codec, "play", "toClient", "entity_metadata", entityId=eid, metadata=raw))
        assert rig.upstream is not None and rig.client is not None
        rig.upstream.proto.dataReceived(wire)
        assert rig.client.raw_received() == wire
        assert session.world.entities[eid].sheared is expect
        assert session.world.snapshot().entities is not None
    assert not session.world.burning          # a sheep's flags byte is never the player's own
