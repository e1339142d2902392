"""The bridge on Twisted's memory reactor: login relay, chat taps, fast path, failures."""
from __future__ import annotations

import pytest
from twisted.internet.error import ConnectionDone
from twisted.python.failure import Failure

from proxy.testing import build_packet, frame, handshake_packet, packet_id
from proxy.protocol.versions import SUPPORTED
from proxy.testing import Rig

VERSIONS = [v.name for v in SUPPORTED]


def chat_packet(rig: Rig, text: str) -> bytes:
    name = "chat_message" if rig.codec.table.packet_id("play", "toServer", "chat_message") is not None else "chat"
    return build_packet(rig.codec, "play", "toServer", name, message=text)


@pytest.mark.parametrize("version", VERSIONS)
def test_login_is_relayed_byte_identical(version: str) -> None:
    rig = Rig(version)
    rig.connect_client()
    hs = handshake_packet(rig.codec.protocol)
    start = build_packet(rig.codec, "login", "toServer", "login_start", username="alice")
    rig.client_send(hs)
    rig.client_send(start)
    upstream = rig.accept_upstream()
    assert upstream.received() == [hs, start]
    rig.server_send(build_packet(rig.codec, "login", "toClient", "compress", threshold=64))
    client_packets = rig.client.received()
    assert [packet_id(p) for p in client_packets] == [rig.codec.table.packet_id("login", "toClient", "compress")]
    assert rig.bridge.writer.threshold == 64 and rig.bridge.reader.threshold == 64


@pytest.mark.parametrize("version", VERSIONS)
def test_unaddressed_chat_is_forwarded_byte_identical(version: str) -> None:
    rig = Rig(version)
    rig.login()
    for text in ("hello world", "!", "! not a command", "@aiwhat", "ai where am i", "héllo ✓ 你好", "x" * 200):
        packet = chat_packet(rig, text)
        wire = frame(packet, rig.client.threshold)
        rig.leg.dataReceived(wire)
        assert rig.upstream.raw_received() == wire, text
        assert rig.client.received() == []


@pytest.mark.parametrize("version", VERSIONS)
def test_proxy_commands_are_answered_and_never_forwarded(version: str) -> None:
    rig = Rig(version)
    rig.login()
    rig.client_send(chat_packet(rig, "!help"))
    assert rig.upstream.received() == []
    texts = rig.chat_texts(rig.client.received())
    assert any("!ping" in t for t in texts) and all(t.startswith("[mcagent] ") for t in texts)
    rig.client_send(chat_packet(rig, "@ai where am I"))
    assert rig.upstream.received() == []
    assert rig.chat_texts(rig.client.received())


def test_swallowed_chat_consumes_whole_frame_and_next_packet_still_flows() -> None:
    rig = Rig("1.18.2")
    rig.login()
    swallowed = frame(chat_packet(rig, "!help"), rig.client.threshold)
    keep = frame(build_packet(rig.codec, "play", "toServer", "keep_alive", keepAliveId=7), rig.client.threshold)
    ordinary = frame(chat_packet(rig, "after"), rig.client.threshold)
    rig.leg.dataReceived(swallowed + keep + ordinary)
    assert rig.upstream.raw_received() == keep + ordinary
    assert rig.bridge.reader.pending == 0


def test_unsubscribed_packets_take_the_fast_path_unchanged() -> None:
    rig = Rig("1.18.2")
    rig.login(threshold=16)
    big = build_packet(rig.codec, "play", "toServer", "keep_alive", keepAliveId=1)
    wire = frame(big, 16)
    rig.leg.dataReceived(wire)
    assert rig.upstream.raw_received() == wire
    # A large server packet arrives compressed and must leave exactly as it came.
    payload = build_packet(rig.codec, "play", "toClient", "kick_disconnect", reason='{"text":"' + "z" * 500 + '"}')
    kick_id = packet_id(payload)
    unsubscribed = bytes([0x4F]) + b"\x00" * 600  # an entity metadata-sized blob nobody decodes
    assert rig.codec.subscribed["toClient"].get(0x4F) is None and kick_id != 0x4F
    wire = frame(unsubscribed, 16)
    before = rig.bridge.fast_frames
    rig.upstream.proto.dataReceived(wire)
    assert rig.client.raw_received() == wire
    assert rig.bridge.fast_frames == before + 1


@pytest.mark.parametrize("protocol, expected", [
    (999, ("1.8 to 26.2", "protocol 999.", "nearest supported release is 26.2")),
    # known to minecraft-data but without data: the kick says so and names the closest release
    (108, ("protocol 108 (1.9.1): minecraft-data", "nearest supported release is 1.9.2")),
    (485, ("protocol 485 (1.14.2)", "nearest supported release is 1.14.3")),  # a tie: the newer
    (777, ("protocol 777 (26.3)", "nearest supported release is 26.2")),
])
def test_unsupported_version_gets_a_clear_kick(protocol: int, expected: tuple[str, ...]) -> None:
    rig = Rig("1.18.2")
    rig.connect_client()
    rig.client_send(handshake_packet(protocol))
    rig.client_send(b"\x00\x03bob")
    packets = rig.client.received()
    assert packets and packet_id(packets[0]) == 0
    text = packets[0].decode("utf-8", "replace")
    for part in expected:
        assert part in text
    assert rig.client.transport.disconnecting
    assert rig.reactor.tcpClients == []


def test_upstream_down_gives_client_a_reason() -> None:
    rig = Rig("1.18.2")
    rig.connect_client()
    rig.client_send(handshake_packet(rig.codec.protocol))
    rig.client_send(build_packet(rig.codec, "login", "toServer", "login_start", username="alice"))
    rig.refuse_upstream()
    packets = rig.client.received()
    assert packet_id(packets[-1]) == 0
    assert b"Cannot reach the server" in packets[-1]
    assert rig.client.transport.disconnecting


def test_upstream_dropping_mid_game_kicks_with_reason() -> None:
    rig = Rig("1.18.2")
    rig.login()
    rig.upstream.proto.connectionLost(Failure(ConnectionDone()))
    packets = rig.client.received()
    kick_id = rig.codec.table.packet_id("play", "toClient", "kick_disconnect")
    assert packet_id(packets[-1]) == kick_id
    assert b"Lost connection to the server" in packets[-1]
    assert rig.client.transport.disconnecting


def test_server_kick_is_forwarded_not_replaced() -> None:
    rig = Rig("1.18.2")
    rig.login()
    kick = build_packet(rig.codec, "play", "toClient", "kick_disconnect", reason='{"text":"banned"}')
    rig.server_send(kick)
    rig.upstream.proto.connectionLost(Failure(ConnectionDone()))
    assert rig.client.received() == [kick]


def test_status_ping_passes_through_upstream_answer() -> None:
    rig = Rig("1.18.2")
    rig.connect_client()
    rig.client_send(handshake_packet(rig.codec.protocol, next_state=1))
    rig.client_send(b"\x00")
    upstream = rig.accept_upstream()
    assert upstream.received()[1] == b"\x00"
    answer = b"\x00" + bytes([len(b'{"x":1}')]) + b'{"x":1}'
    rig.server_send(answer)
    assert rig.client.received() == [answer]


def test_status_answered_by_proxy_when_upstream_down() -> None:
    rig = Rig("1.18.2")
    rig.connect_client()
    rig.client_send(handshake_packet(rig.codec.protocol, next_state=1))
    rig.client_send(b"\x00")
    rig.refuse_upstream()
    packets = rig.client.received()
    assert b"server unreachable" in packets[0]
    rig.client_send(b"\x01" + b"\x00" * 7 + b"\x2a")
    assert rig.client.received() == [b"\x01" + b"\x00" * 7 + b"\x2a"]


def test_max_players_and_login_rate_limit() -> None:
    rig = Rig("1.18.2", login_rate_limit_seconds=3.0)
    rig.login("alice")
    # A second login from the same address within 3 s is refused with a reason.
    rig.connect_client(host="10.0.0.1", port=50001)
    rig.client_send(handshake_packet(rig.codec.protocol))
    rig.client_send(build_packet(rig.codec, "login", "toServer", "login_start", username="bob"))
    assert b"Too many logins" in rig.client.received()[-1]
    full = Rig("1.18.2", max_players=1, login_rate_limit_seconds=0)
    full.login("alice")
    full.connect_client(host="10.0.0.2")
    full.client_send(handshake_packet(full.codec.protocol))
    full.client_send(build_packet(full.codec, "login", "toServer", "login_start", username="bob"))
    assert b"full" in full.client.received()[-1]


def test_tick_drives_sessions_on_the_injected_clock() -> None:
    rig = Rig("1.18.2")
    rig.login()
    rig.server.start_ticking()
    for _ in range(20):
        rig.reactor.advance(0.05)
    assert rig.bridge.session is not None and rig.bridge.session.ticks == 20
    rig.server.stop_ticking()


def test_position_and_health_reach_the_world_model() -> None:
    rig = Rig("1.18.2")
    rig.login()
    rig.server_send(build_packet(rig.codec, "play", "toClient", "position", x=10.5, y=64.0, z=-3.25, teleportId=1))
    rig.server_send(build_packet(rig.codec, "play", "toClient", "update_health", health=17.0, food=12, foodSaturation=2.0))
    snap = rig.bridge.session.snapshot()
    assert snap.player.position is not None and (snap.player.position.x, snap.player.position.z) == (10.5, -3.25)
    assert snap.player.health == 17.0 and snap.player.food == 12
    # The packets still reach the client.
    assert len(rig.client.received()) == 2


def test_silent_client_times_out_with_a_reason() -> None:
    rig = Rig("1.18.2", read_timeout_seconds=30)
    rig.login()
    rig.reactor.advance(29)
    assert not rig.client.transport.disconnecting
    rig.client_send(build_packet(rig.codec, "play", "toServer", "keep_alive", keepAliveId=1))
    rig.reactor.advance(29)
    assert not rig.client.transport.disconnecting
    rig.reactor.advance(2)
    assert rig.client.transport.disconnecting
    assert b"Timed out" in rig.client.received()[-1]


def test_slash_commands_for_the_proxy_are_swallowed_on_the_fast_path() -> None:
    rig = Rig("1.20.4")
    rig.login()
    rig.client_send(build_packet(rig.codec, "play", "toServer", "chat_command", command="agent ping"))
    assert rig.upstream.received() == []
    other = build_packet(rig.codec, "play", "toServer", "chat_command", command="tp 1 2 3")
    rig.client_send(other)
    assert rig.upstream.received() == [other]
