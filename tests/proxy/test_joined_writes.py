"""One server read, one write to the client (``Connection.hold_client``): runs forwarded unseen,
frames the proxy reads and forwards, and what their handling sends, go out joined, in order;
a disconnect in the middle sends what was held, then the reason, then closes."""
from __future__ import annotations

from typing import Any

from proxy.testing import Rig, build_packet, frame


def _counting(rig: Rig) -> list[bytes]:
    assert rig.client is not None
    transport: Any = rig.client.transport
    writes: list[bytes] = []
    real = transport.write

    def write(data: bytes) -> None:
        writes.append(data)
        real(data)

    transport.write = write
    return writes


def _playing() -> tuple[Rig, list[bytes]]:
    """A 1.18.2 player in play, the client's writes counted from now on."""
    rig = Rig("1.18.2")
    rig.login()
    assert rig.client is not None
    rig.client.received()
    return rig, _counting(rig)


def _unread(rig: Rig) -> bytes:
    """A packet nobody reads (the view distance: a VarInt), built by hand."""
    pid = rig.codec.table.packet_id("play", "toClient", "update_view_distance")
    assert pid is not None and pid < 0x80
    return bytes([pid, 10])


def _read(rig: Rig, *packets: bytes) -> bytes:
    assert rig.upstream is not None
    wire = b"".join(frame(p, rig.upstream.threshold) for p in packets)
    rig.upstream.proto.dataReceived(wire)
    return wire


def test_a_read_with_runs_and_read_frames_is_one_write_of_the_same_bytes() -> None:
    rig, writes = _playing()
    assert rig.client is not None
    codec = rig.codec
    fast = _unread(rig)
    health = build_packet(codec, "play", "toClient", "update_health", health=17.0, food=12, foodSaturation=2.0)
    wire = _read(rig, fast, fast, health, fast, health, fast)
    assert writes == [wire]  # runs and read frames, as they came, in one write
    assert rig.bridge.session is not None and rig.bridge.session.world.health == 17.0
    wire = _read(rig, fast, fast)
    assert writes[1:] == [wire]  # a read that is one run: as it came


def test_a_disconnect_in_the_middle_of_a_read_sends_what_was_held_first() -> None:
    rig, writes = _playing()
    assert rig.client is not None
    codec = rig.codec
    fast = _unread(rig)
    health = build_packet(codec, "play", "toClient", "update_health", health=17.0, food=12, foodSaturation=2.0)
    broken = health[:3]  # update_health cut short: the proxy cannot read it
    _read(rig, fast, health, broken, fast)
    assert rig.client.transport.disconnecting
    held = frame(fast, rig.client.threshold) + frame(health, rig.client.threshold)
    assert writes[0] == held  # what came before the broken frame, then the reason
    assert len(writes) == 2 and b"malformed" in writes[1]


def test_a_disconnect_while_writes_are_held_sends_them_before_the_reason() -> None:
    rig, writes = _playing()
    assert rig.client is not None
    conn = rig.bridge
    conn.hold_client()
    conn.send_packet(_unread(rig))
    assert writes == []
    conn.disconnect("bye")  # e.g. from a frame's handling, inside the read
    assert writes[0] == frame(_unread(rig), rig.client.threshold)
    assert len(writes) == 2 and b"bye" in writes[1] and rig.client.transport.disconnecting
    conn.release_client()  # the read's end: nothing more
    assert len(writes) == 2
