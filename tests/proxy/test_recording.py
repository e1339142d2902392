"""The recording tap (proxy.connection.recording): what a capture keeps, what it never keeps.

A capture must hold what the capacity bench's replay needs (the configuration and play
packets both ways, the threshold, the version) and nothing of the login: no shared
secret, no forwarding data, no cookies, no chat-session keys. Each secret below is a
distinct byte string fed through the recorder; the test fails if any of them is found
in the written file, compressed or not, or if a packet the replay needs is missing.
"""
from __future__ import annotations

import lzma
from pathlib import Path

import pytest

from proxy.connection import recording
from proxy.protocol.states import State
from proxy.protocol.tables import TO_CLIENT, TO_SERVER
from proxy.protocol.wire import pack_varint
from proxy.testing import Rig, build_packet, codec_for, frame, handshake_packet

SECRETS = {
    "shared secret": b"SHARED-SECRET-0123456789abcdef",
    "verify token": b"VERIFY-TOKEN-5a5a",
    "forwarding": b"FORWARDING-HMAC-deadbeef",
    "cookie": b"COOKIE-VALUE-cafebabe",
    "chat key": b"CHAT-PUBLIC-KEY-feedface",
}


def _string(text: bytes) -> bytes:
    return pack_varint(len(text)) + text


def _session(version: str) -> tuple[recording.Recorder, list[bytes], list[bytes]]:
    """A whole login through a recorder, with every secret in the places a real login has them;
    returns the recorder and the configuration/play packets it should keep, each way."""
    codec = codec_for(version)
    table = codec.table
    now = [100.0]
    rec = recording.Recorder(Path("unused"), lambda: now[0])
    c2s, s2c = rec.from_client, rec.from_server

    def pid(state: str, direction: str, name: str) -> bytes:
        found = table.packet_id(state, direction, name)
        assert found is not None, name
        return pack_varint(found)

    threshold = 64
    c2s(frame(handshake_packet(codec.protocol)) + frame(codec.build("login", TO_SERVER, "login_start",
                                                                      username="alice")))
    s2c(frame(codec.build("login", TO_CLIENT, "encryption_begin", serverId="", publicKey=b"PUB",
                          verifyToken=SECRETS["verify token"])))
    c2s(frame(codec.build("login", TO_SERVER, "encryption_begin", sharedSecret=SECRETS["shared secret"],
                          verifyToken=SECRETS["verify token"])))
    s2c(frame(codec.encode("login", TO_CLIENT, "compress", {"threshold": threshold})))
    s2c(frame(pid("login", TO_CLIENT, "login_plugin_request") + pack_varint(1) + _string(b"velocity:player_info")
              + SECRETS["forwarding"], threshold))
    c2s(frame(pid("login", TO_SERVER, "login_plugin_response") + pack_varint(1) + b"\x01" + SECRETS["forwarding"],
              threshold))
    s2c(frame(codec.build("login", TO_CLIENT, "success", username="alice"), threshold))
    kept_c2s: list[bytes] = []
    kept_s2c: list[bytes] = []
    if table.has_configuration:
        c2s(frame(pid("login", TO_SERVER, "login_acknowledged"), threshold))
        cookie = pid("configuration", TO_SERVER, "cookie_response") + _string(b"a:b") + b"\x01" + \
            _string(SECRETS["cookie"])
        config_s2c = [pid("configuration", TO_CLIENT, "custom_payload") + _string(b"minecraft:brand") + b"x",
                      pid("configuration", TO_CLIENT, "finish_configuration")]
        config_c2s = [pid("configuration", TO_SERVER, "finish_configuration")]
        c2s(frame(cookie, threshold))
        s2c(b"".join(frame(p, threshold) for p in config_s2c))
        c2s(b"".join(frame(p, threshold) for p in config_c2s))
        kept_s2c += config_s2c
        kept_c2s += config_c2s
    now[0] += 1.5
    join = codec.build("play", TO_CLIENT, "login", entityId=7)
    big = codec.build("play", TO_CLIENT, "keep_alive", keepAliveId=42) + bytes(300)  # compressed on the wire
    chat_key = codec.build("play", TO_SERVER, "chat_session_update", publicKey=SECRETS["chat key"],
                           signature=b"SIG")
    move = codec.build("play", TO_SERVER, "keep_alive", keepAliveId=42)
    joined = frame(join, threshold) + frame(big, threshold)
    s2c(joined[:5])  # a frame split across reads
    s2c(joined[5:])
    c2s(frame(chat_key, threshold) + frame(move, threshold))
    return rec, kept_c2s + [move], kept_s2c + [join, big]


@pytest.mark.parametrize("version", ["1.20.1", "1.21.11"])
def test_a_capture_keeps_configuration_and_play_and_no_secret(version: str, tmp_path: Path) -> None:
    rec, want_c2s, want_s2c = _session(version)
    rec.directory = tmp_path
    path = rec.close()
    assert path is not None
    data = path.read_bytes()
    plain = lzma.decompress(data)
    for what, secret in SECRETS.items():
        assert secret not in plain, f"the {what} was recorded"
    assert b"alice" not in plain  # nothing of the login start or success either
    capture = recording.decode(data, str(path))
    assert capture.header["version"] == version and capture.header["threshold"] == 64
    assert [r.packet for r in capture.records if not r.to_client] == want_c2s
    assert [r.packet for r in capture.records if r.to_client] == want_s2c
    play = [r for r in capture.records if r.state is State.PLAY]
    assert play[-1].ms == (1500 if capture.header["configuration"] else 0)  # ms since the first record


def test_round_trip_and_bad_files_name_the_file() -> None:
    records = [recording.Record(True, State.CONFIGURATION, 0, b"\x01ab"),
               recording.Record(False, State.PLAY, 70000, b"\x02" + bytes(200))]
    capture = recording.Capture({"format": recording.FORMAT, "version": "1.20.1"}, records)
    assert recording.decode(recording.encode(capture)) == capture
    with pytest.raises(ValueError, match="cap.xz"):
        recording.decode(b"not lzma", "cap.xz")
    truncated = lzma.compress(lzma.decompress(recording.encode(capture))[:-5])
    with pytest.raises(ValueError, match="cap.xz: record at byte"):
        recording.decode(truncated, "cap.xz")


def test_a_status_ping_is_not_recorded(tmp_path: Path) -> None:
    rec = recording.Recorder(tmp_path, lambda: 0.0)
    rec.from_client(frame(handshake_packet(763, next_state=1)) + frame(b"\x00"))
    rec.from_server(frame(b"\x00" + _string(b'{"players":{}}')))
    assert rec.close() is None and not list(tmp_path.iterdir())


def test_off_without_the_variable_and_on_through_the_proxy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(recording.ENV, raising=False)
    rig = Rig("1.20.1")
    rig.login("alice")
    assert rig.bridge.recorder is None and rig.bridge.reader.tap is None and rig.bridge.server_reader.tap is None

    monkeypatch.setenv(recording.ENV, str(tmp_path))
    rig = Rig("1.20.1")
    rig.login("alice")
    join = build_packet(rig.codec, "play", TO_CLIENT, "keep_alive", keepAliveId=5)
    rig.server_send(join)
    rig.client_send(build_packet(rig.codec, "play", TO_SERVER, "keep_alive", keepAliveId=5))
    rig.leg.connectionLost()
    files = list(tmp_path.glob("*.mcrec.xz"))
    assert len(files) == 1
    capture = recording.decode(files[0].read_bytes())
    assert [(r.to_client, r.packet) for r in capture.records] == [
        (True, join), (False, build_packet(rig.codec, "play", TO_SERVER, "keep_alive", keepAliveId=5))]
