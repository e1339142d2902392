"""The sans-IO connection driven by bytes alone: no transports, no reactor I/O."""
from __future__ import annotations

from twisted.internet.testing import MemoryReactorClock

from proxy.config import ProxyConfig
from proxy.connection.core import Connection
from proxy.protocol.states import State
from proxy.server import ProxyServer
from proxy.testing import RecordingIO, build_packet, codec_for, frame, handshake_packet, packet_id


def _connection(version: str = "1.18.2", **config: object) -> tuple[Connection, RecordingIO, ProxyServer]:
    config.setdefault("autopilot", {"log_dir": None})
    server = ProxyServer(ProxyConfig(**config), MemoryReactorClock())  # type: ignore[arg-type]
    io = RecordingIO()
    conn = Connection(server, io)
    server.connections.add(conn)
    return conn, io, server


def test_login_to_play_and_the_fast_path_without_sockets() -> None:
    conn, io, _ = _connection("1.20.4")
    codec = codec_for("1.20.4")
    hs = handshake_packet(codec.protocol)
    start = build_packet(codec, "login", "toServer", "login_start", username="alice")
    conn.client_data(frame(hs) + frame(start))
    assert conn.state is State.LOGIN and io.connects == 1
    assert io.server_bytes == b""  # queued until the upstream is there
    conn.upstream_connected()
    assert io.to_server.packets == [hs, start]
    conn.server_data(frame(build_packet(codec, "login", "toClient", "success", username="alice")))
    assert conn.session is not None and conn.states.server is State.LOGIN
    conn.client_data(frame(build_packet(codec, "login", "toServer", "login_acknowledged")))
    assert (conn.states.client, conn.states.server) == (State.CONFIGURATION, State.CONFIGURATION)
    conn.server_data(frame(build_packet(codec, "configuration", "toClient", "finish_configuration")))
    conn.client_data(frame(build_packet(codec, "configuration", "toServer", "finish_configuration")))
    assert conn.states.playing
    # An unsubscribed server packet goes to the client as the bytes it came as.
    wire = frame(build_packet(codec, "play", "toClient", "keep_alive", keepAliveId=7))
    before = len(io.client_bytes)
    conn.server_data(wire)
    assert bytes(io.client_bytes[before:]) == wire


def test_status_answered_by_the_proxy_when_the_upstream_cannot_be_reached() -> None:
    conn, io, _ = _connection(status={"motd": "own motd"})
    conn.client_data(frame(handshake_packet(codec_for("1.18.2").protocol, next_state=1)) + frame(b"\x00"))
    assert io.connects == 1
    conn.upstream_failed("Connection refused")
    assert b"own motd" in io.to_client.packets[0] and b"server unreachable" in io.to_client.packets[0]
    conn.client_data(frame(b"\x01" + b"\x00" * 7 + b"\x2a"))
    assert io.to_client.packets[-1] == b"\x01" + b"\x00" * 7 + b"\x2a"
    assert conn.states.closed and io.client_closed is False


def test_a_bad_packet_closes_with_a_reason_in_the_login_state() -> None:
    conn, io, _ = _connection()
    conn.client_data(frame(handshake_packet(codec_for("1.18.2").protocol)) + b"\xff\xff\xff\xff")
    assert conn.states.closed and io.client_closed is True and io.upstream_closed
    assert packet_id(io.to_client.packets[-1]) == 0 and b"Bad packet" in io.to_client.packets[-1]
    assert conn.close_category == "bad_packet"


def _playing(version: str = "1.18.2") -> tuple[Connection, RecordingIO, ProxyServer]:
    conn, io, server = _connection(version)
    codec = codec_for(version)
    conn.client_data(frame(handshake_packet(codec.protocol))
                     + frame(build_packet(codec, "login", "toServer", "login_start", username="alice")))
    conn.upstream_connected()
    conn.server_data(frame(build_packet(codec, "login", "toClient", "success", username="alice")))
    assert conn.states.playing
    return conn, io, server


def test_a_server_kick_reaches_the_client_as_sent_and_closes_as_kicked() -> None:
    conn, io, _ = _playing()
    codec = codec_for("1.18.2")
    kick = build_packet(codec, "play", "toClient", "kick_disconnect", reason='{"text":"banned"}')
    conn.server_data(frame(kick))
    assert io.to_client.packets[-1] == kick  # the server's own words, not the proxy's
    assert conn.states.server_left and not conn.states.closed
    conn.upstream_lost("Connection was closed cleanly.")
    assert conn.states.closed and conn.close_category == "kicked_by_server"
    assert io.to_client.packets[-1] == kick and io.client_closed is False


def test_an_upstream_lost_without_a_kick_tells_the_player() -> None:
    conn, io, _ = _playing()
    conn.upstream_lost("Connection was closed cleanly.")
    assert conn.close_category == "upstream_lost" and b"Lost connection to the server" in io.to_client.packets[-1]
