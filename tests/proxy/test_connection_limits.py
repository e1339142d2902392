"""What one connection may cost: each limit closes that connection with a reason.

Issue 16's connection items, on Twisted's memory reactor: pre-login budget, backpressure,
per-IP cap, login deadline, slowloris, admission of logins in progress, packet rate,
sizes checked before inflating, and an upstream that accepts but never answers.
"""
from __future__ import annotations

import zlib

import pytest
from twisted.internet.error import ConnectionRefusedError

from proxy.protocol.states import PRE_PLAY_BUDGET
from proxy.protocol.wire import pack_varint
from proxy.testing import HalfClosingTransport, Rig, build_packet, frame, handshake_packet


def _closed_with(rig: Rig, fragment: bytes) -> None:
    assert rig.client is not None
    packets = rig.client.received()
    assert rig.client.transport.disconnecting
    assert packets and fragment in packets[-1], packets[-1:]


def _start_login(rig: Rig, name: str, port: int = 50000, host: str = "10.0.0.1") -> None:
    rig.connect_client(host, port)
    rig.client_send(handshake_packet(rig.codec.protocol))
    rig.client_send(build_packet(rig.codec, "login", "toServer", "login_start", username=name))


def test_before_login_a_client_may_send_only_login_packets() -> None:
    rig = Rig("1.18.2")
    _start_login(rig, "alice")
    rig.client_send(build_packet(rig.codec, "play", "toServer", "chat", message="queued forever"))
    _closed_with(rig, b"not allowed in the login state")


def test_before_login_a_large_frame_is_refused_before_it_is_buffered() -> None:
    rig = Rig("1.18.2")
    rig.connect_client()
    rig.client_send(handshake_packet(rig.codec.protocol))
    # The length prefix alone says 2 MB: closed at once, nothing buffered.
    rig.leg.dataReceived(pack_varint((1 << 21) - 1) + b"\x02" * 1000)
    assert rig.client is not None and rig.client.transport.disconnecting
    assert rig.bridge.reader.pending < PRE_PLAY_BUDGET


def test_status_allows_only_request_and_ping() -> None:
    rig = Rig("1.18.2", status={"passthrough": False})
    rig.connect_client()
    rig.client_send(handshake_packet(rig.codec.protocol, next_state=1))
    rig.client_send(b"\x05" + b"x" * 100)
    assert rig.client is not None and rig.client.transport.disconnecting


def test_a_client_that_stops_reading_pauses_the_upstream_then_is_closed() -> None:
    rig = Rig("1.18.2", read_timeout_seconds=600)
    rig.login()
    assert rig.client is not None and rig.upstream is not None
    throttle = rig.client.transport.producer
    assert throttle is not None
    throttle.pauseProducing()  # what Twisted does when the client's write buffer is full
    assert rig.upstream.transport.producerState == "paused"
    throttle.resumeProducing()
    assert rig.upstream.transport.producerState == "producing"
    throttle.pauseProducing()
    rig.reactor.advance(29)
    assert not rig.client.transport.disconnecting
    rig.reactor.advance(2)
    assert rig.client.transport.disconnecting
    assert rig.bridge.close_category == "client_stalled"


def test_connections_per_address_are_capped() -> None:
    rig = Rig("1.18.2", limits={"connections_per_ip": 3})
    clients = [rig.another() for _ in range(3)]
    for i, client in enumerate(clients):
        client.connect_client("10.0.0.9", 50000 + i)
    with pytest.raises(ConnectionRefusedError):
        rig.another().connect_client("10.0.0.9", 50010)
    rig.another().connect_client("10.0.0.10", 50011)  # another address is not affected


def test_a_connection_must_reach_play_before_the_deadline() -> None:
    rig = Rig("1.18.2", read_timeout_seconds=600, limits={"login_deadline_seconds": 20})
    rig.connect_client()
    rig.client_send(handshake_packet(rig.codec.protocol))
    rig.reactor.advance(19)
    assert rig.client is not None and not rig.client.transport.disconnecting
    rig.reactor.advance(2)
    _closed_with(rig, b"logging in took longer than 20 seconds")


def test_a_trickle_of_bytes_does_not_reset_the_read_timeout() -> None:
    rig = Rig("1.18.2", read_timeout_seconds=10, limits={"login_deadline_seconds": 600})
    rig.login()
    assert rig.client is not None
    wire = frame(build_packet(rig.codec, "play", "toServer", "chat", message="slow " * 40), rig.client.threshold)
    for i in range(6):  # one byte every 3 s: never a whole packet
        rig.leg.dataReceived(wire[i:i + 1])
        rig.reactor.advance(3)
    assert rig.client.transport.disconnecting
    assert rig.bridge.close_category == "timeout"


def test_logins_in_progress_count_against_max_players() -> None:
    rig = Rig("1.18.2", max_players=2, login_rate_limit_seconds=0)
    first, second, third = rig.another(), rig.another(), rig.another()
    _start_login(first, "alice", 50001)
    _start_login(second, "bob", 50002)
    _start_login(third, "carol", 50003)  # none of them has a session yet
    _closed_with(third, b"full")
    assert first.client is not None and not first.client.transport.disconnecting
    assert len(rig.reactor.tcpClients) == 2  # the refused login never reached the upstream


def test_names_are_unique_case_insensitively_even_while_logging_in() -> None:
    rig = Rig("1.18.2", login_rate_limit_seconds=0)
    first, second = rig.another(), rig.another()
    _start_login(first, "owner", 50001)
    _start_login(second, "OWNER", 50002)
    _closed_with(second, b"already connected")
    assert len(rig.reactor.tcpClients) == 1  # the refused login never reached the upstream


def test_a_packet_flood_is_kicked_with_a_reason() -> None:
    rig = Rig("1.18.2", limits={"packets_per_second": 10, "packet_window_seconds": 1})
    rig.login()
    assert rig.client is not None and rig.upstream is not None
    flying = frame(build_packet(rig.codec, "play", "toServer", "flying", onGround=True), rig.client.threshold)
    rig.leg.dataReceived(flying * 8)
    rig.reactor.advance(1.5)  # a new window
    rig.leg.dataReceived(flying * 8)
    assert not rig.client.transport.disconnecting
    rig.leg.dataReceived(flying * 8)
    _closed_with(rig, b"more than 10 packets per second")


def test_a_small_frame_declaring_megabytes_is_refused_before_inflating() -> None:
    rig = Rig("1.18.2")
    rig.login(threshold=256)
    assert rig.client is not None
    flying_id = rig.codec.table.packet_id("play", "toServer", "flying")
    assert flying_id is not None
    packet = bytes([flying_id]) + b"\x00" * ((8 << 20) - 1)  # 8 MB, the most a frame may declare
    body = pack_varint(len(packet)) + zlib.compress(packet, 9)
    wire = pack_varint(len(body)) + body
    assert len(wire) < 16 * 1024
    rig.leg.dataReceived(wire)
    _closed_with(rig, b"flying packet of 8388608 bytes exceeds 256")


def test_an_upstream_that_never_answers_is_named_in_the_kick() -> None:
    rig = Rig("1.18.2", read_timeout_seconds=30, limits={"upstream_answer_seconds": 10})
    _start_login(rig, "alice")
    rig.accept_upstream()
    rig.reactor.advance(11)
    _closed_with(rig, b"did not answer within 10 seconds")
    assert rig.bridge.close_category == "upstream_silent"


def test_a_silent_upstream_gets_the_proxy_s_own_motd_for_a_ping() -> None:
    rig = Rig("1.18.2", status={"motd": "proxy motd"}, limits={"upstream_answer_seconds": 5})
    rig.connect_client()
    rig.client_send(handshake_packet(rig.codec.protocol, next_state=1))
    rig.client_send(b"\x00")
    upstream = rig.accept_upstream()
    assert len(upstream.received()) == 2  # handshake and request went on
    assert rig.client is not None and rig.client.received() == []
    rig.reactor.advance(6)
    answer = rig.client.received()
    assert len(answer) == 1 and b"proxy motd" in answer[0] and b"server not answering" in answer[0]
    rig.client_send(b"\x01" + b"\x00" * 7 + b"\x07")
    assert rig.client.received() == [b"\x01" + b"\x00" * 7 + b"\x07"]


def test_a_kicked_flooder_is_not_read_during_the_close_grace() -> None:
    # The graceful close half-closes and waits up to 2 s for the client to close; a
    # flooder keeps sending, and reading (to drop) ~1 GB then stalled everyone else.
    rig = Rig("1.18.2", client_transport=HalfClosingTransport, limits={"packets_per_second": 10,
                                                                        "packet_window_seconds": 1})
    rig.login()
    assert rig.client is not None
    transport = rig.client.transport
    assert isinstance(transport, HalfClosingTransport)
    flying = frame(build_packet(rig.codec, "play", "toServer", "flying", onGround=True), rig.client.threshold)
    rig.leg.dataReceived(flying * 11)
    assert transport.write_closed, "the reason goes out before a half-close"
    assert b"more than 10 packets per second" in rig.client.received()[-1]
    assert transport.producerState == "paused"
    rig.reactor.advance(2.5)
    assert transport.disconnecting  # aborted after the grace


def test_a_draining_upstream_does_not_resume_reading_a_closed_client() -> None:
    rig = Rig("1.18.2", client_transport=HalfClosingTransport)
    rig.login()
    assert rig.client is not None and rig.upstream is not None
    to_server = rig.upstream.transport.producer  # pauses the client while the upstream's buffer is full
    assert to_server is not None
    to_server.pauseProducing()
    rig.bridge.disconnect("closing", "test")
    to_server.resumeProducing()  # the upstream's buffer drained as it closed
    assert rig.client.transport.producerState == "paused"


def test_a_burst_is_kicked_before_any_of_it_reaches_the_server() -> None:
    # 2,000 packets in one read are within the 7 s average allowance (3,500) but far over
    # one second's: the whole read is refused, so the flood never reaches the server.
    rig = Rig("1.18.2", limits={"packets_per_second": 500, "packet_window_seconds": 7,
                                "packet_burst_per_second": 1000})
    rig.login()
    assert rig.client is not None and rig.upstream is not None
    flying = frame(build_packet(rig.codec, "play", "toServer", "flying", onGround=True), rig.client.threshold)
    rig.leg.dataReceived(flying * 2000)
    _closed_with(rig, b"more than 1000 packets in one second")
    assert rig.upstream.received() == []
    assert rig.bridge.decoded_frames == 0 and rig.bridge.fast_frames == 0


def test_a_read_past_the_average_allowance_is_refused_whole() -> None:
    rig = Rig("1.18.2", limits={"packets_per_second": 10, "packet_window_seconds": 7, "packet_burst_per_second": 0})
    rig.login()
    assert rig.client is not None and rig.upstream is not None
    chat = frame(build_packet(rig.codec, "play", "toServer", "chat", message="hello"), rig.client.threshold)
    rig.leg.dataReceived(chat * 60)
    assert len(rig.upstream.received()) == 60
    rig.reactor.advance(1)
    rig.leg.dataReceived(chat * 11)  # 71 > 70 in the window: none of these go on
    _closed_with(rig, b"more than 10 packets per second (over 7 s)")
    assert rig.upstream.received() == []


def test_packets_within_both_allowances_all_go_on() -> None:
    rig = Rig("1.18.2", limits={"packets_per_second": 500, "packet_window_seconds": 7,
                                "packet_burst_per_second": 1000})
    rig.login()
    assert rig.client is not None and rig.upstream is not None
    chat = frame(build_packet(rig.codec, "play", "toServer", "chat", message="hello"), rig.client.threshold)
    rig.reactor.advance(1)  # the login's packets count in the second before
    for _ in range(3):  # 3 x 1,000 in three seconds: each second at its burst, the window under 3,500
        rig.leg.dataReceived(chat * 600)
        rig.leg.dataReceived(chat * 400)
        rig.reactor.advance(1)
    assert not rig.client.transport.disconnecting
    assert len(rig.upstream.received()) == 3000


def test_the_read_timeout_counts_from_the_last_whole_frame() -> None:
    """The timer is not moved on every read: when due it waits again from the last whole frame
    (ClientLeg.timeoutConnection), so the connection closes read_timeout_seconds after it."""
    rig = Rig("1.18.2", read_timeout_seconds=10, limits={"login_deadline_seconds": 600})
    rig.login()
    assert rig.client is not None
    keep_alive = build_packet(rig.codec, "play", "toServer", "keep_alive", keepAliveId=1)
    for _ in range(5):  # a frame every 4 s: the first timer comes due between two of them
        rig.reactor.advance(4)
        rig.client_send(keep_alive)
    rig.reactor.advance(9.5)  # 9.5 s after the last frame
    assert not rig.client.transport.disconnecting
    rig.reactor.advance(1)
    assert rig.client.transport.disconnecting
    assert rig.bridge.close_category == "timeout"
