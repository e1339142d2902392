"""Invariant 7: one bad connection hurts only itself."""
from __future__ import annotations

import zlib

from proxy.protocol.wire import pack_varint
from proxy.testing import build_packet, frame
from proxy.testing import Rig


def _two_players() -> tuple[Rig, Rig]:
    bad, good = Rig("1.18.2", login_rate_limit_seconds=0), None
    bad.login("mallory")
    good = bad.another()  # same server, a second client
    good.login("alice", port=50001)
    return bad, good


def _assert_closed_with_reason(rig: Rig, fragment: bytes) -> None:
    packets = rig.client.received()
    assert rig.client.transport.disconnecting
    assert packets and fragment in packets[-1]


def _assert_other_still_relays(good: Rig) -> None:
    packet = build_packet(good.codec, "play", "toServer", "chat", message="still here")
    wire = frame(packet, good.client.threshold)
    good.leg.dataReceived(wire)
    assert good.upstream.raw_received() == wire
    assert good.bridge in good.server.connections


def test_oversized_frame_closes_only_that_connection() -> None:
    bad, good = _two_players()
    bad.leg.dataReceived(pack_varint(3_000_000) + b"\x00" * 10)
    _assert_closed_with_reason(bad, b"frame length prefix")
    _assert_other_still_relays(good)


def test_bad_varint_closes_only_that_connection() -> None:
    bad, good = _two_players()
    bad.leg.dataReceived(b"\xff\xff\xff\xff\xff\x01")
    _assert_closed_with_reason(bad, b"longer than 3 bytes")
    _assert_other_still_relays(good)


def test_lying_uncompressed_length_closes_only_that_connection() -> None:
    bad, good = _two_players()
    body = zlib.compress(b"\x03\x02hi")
    payload = pack_varint(8_000_000) + body
    bad.leg.dataReceived(pack_varint(len(payload)) + payload)
    _assert_closed_with_reason(bad, b"impossible")
    _assert_other_still_relays(good)


def test_lying_uncompressed_length_on_a_decoded_packet_is_caught() -> None:
    bad, good = _two_players()
    chat = build_packet(bad.codec, "play", "toServer", "chat", message="y" * 300)
    body = zlib.compress(chat)
    payload = pack_varint(len(chat) + 500) + body  # plausible ratio, wrong length
    bad.leg.dataReceived(pack_varint(len(payload)) + payload)
    _assert_closed_with_reason(bad, b"declared uncompressed length")
    _assert_other_still_relays(good)


def test_invalid_utf8_in_chat_closes_only_that_connection() -> None:
    bad, good = _two_players()
    chat_id = bad.codec.table.packet_id("play", "toServer", "chat")
    packet = pack_varint(chat_id) + pack_varint(4) + b"\xff\xfe\xfd\xfc"
    bad.leg.dataReceived(frame(packet, bad.client.threshold))
    _assert_closed_with_reason(bad, b"UTF-8")
    assert bad.upstream.raw_received() == b""
    _assert_other_still_relays(good)


def test_truncated_packet_closes_only_that_connection() -> None:
    bad, good = _two_players()
    chat_id = bad.codec.table.packet_id("play", "toServer", "chat")
    packet = pack_varint(chat_id) + pack_varint(50) + b"short"
    bad.leg.dataReceived(frame(packet, bad.client.threshold))
    _assert_closed_with_reason(bad, b"out of range")
    _assert_other_still_relays(good)


def test_garbage_handshake_is_refused() -> None:
    rig = Rig("1.18.2")
    rig.connect_client()
    rig.leg.dataReceived(frame(b"\x05garbage"))
    assert rig.client.transport.disconnecting
