"""Player-info forwarding in the login flow, on Twisted's fakes: what the backend is
told (read back with the backend-side receiver in tests/forwarding_receiver.py),
what passes through untouched, and that the secret stays secret."""
from __future__ import annotations

import base64
import json
import os
import uuid
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import padding
from cryptography.hazmat.primitives.serialization import load_der_public_key
from twisted.internet.address import IPv4Address
from twisted.internet.defer import succeed
from twisted.internet.testing import StringTransport
from twisted.protocols.haproxy._wrapper import HAProxyWrappingFactory

from proxy.config import ConfigError, load
from proxy.operations.console import ConsoleCommands
from proxy.connection.forwarding import CHANNEL
from proxy.protocol.handshake import parse_handshake
from proxy.connection.profile import offline_uuid
from proxy.protocol.framing import Framing
from proxy.protocol.wire import pack_string, pack_varint
from proxy.testing import build_packet, frame, handshake_packet, packet_id
from tests.forwarding_receiver import Refused, read_legacy, read_modern
from tests.proxy.harness import Leg, Rig

SECRET = "pa55-the-backend-knows-too"
NOTCH = "069a79f444e94726a5befca90e38aaf5"
# Shaped as Mojang's: base64 of the skin's JSON, and a 512-byte RSA signature in base64 (684 characters).
TEXTURES = {"name": "textures",
            "value": base64.b64encode(json.dumps({
                "timestamp": 1700000000000, "profileId": NOTCH, "profileName": "Notch", "textures": {"SKIN": {
                    "url": "http://textures.minecraft.net/texture/292009a4925b58f02c77dadc3ecef07ea4c7472f64e0fdc32ce5522489362680"}},
            }).encode()).decode(),
            "signature": base64.b64encode(bytes(range(256)) * 2).decode()}


def _plugin_request(rig: Rig, message_id: int, channel: str, data: bytes) -> bytes:
    pid = rig.codec.table.packet_id("login", "toClient", "login_plugin_request")
    assert pid is not None
    return pack_varint(pid) + pack_varint(message_id) + pack_string(channel) + data


def _plugin_response(rig: Rig, message_id: int, data: bytes | None) -> bytes:
    pid = rig.codec.table.packet_id("login", "toServer", "login_plugin_response")
    assert pid is not None
    return pack_varint(pid) + pack_varint(message_id) + (b"\x00" if data is None else b"\x01" + data)


def _response_data(rig: Rig, packet: bytes, message_id: int) -> bytes | None:
    """The data of a Login Plugin Response, read by hand: varint id, varint message id, bool, rest."""
    assert packet_id(packet) == rig.codec.table.packet_id("login", "toServer", "login_plugin_response")
    assert packet[1] == message_id  # one-byte varints in these tests
    return packet[3:] if packet[2] == 1 else None


def _begin(rig: Rig, name: str = "alice", host: str = "10.0.0.1") -> Leg:
    rig.connect_client(host=host)
    rig.client_send(handshake_packet(rig.codec.protocol, host="play.example.org"))
    rig.client_send(build_packet(rig.codec, "login", "toServer", "login_start", username=name))
    upstream = rig.accept_upstream()
    return upstream


@pytest.mark.parametrize("version", ["1.18.2", "1.21.4"])
def test_velocity_request_is_answered_by_the_proxy_with_the_signed_player_info(version: str) -> None:
    rig = Rig(version, forwarding={"mode": "velocity", "secret": SECRET})
    upstream = _begin(rig)
    handshake, login_start = upstream.received()
    assert parse_handshake(handshake).host == "play.example.org"  # modern forwarding leaves the handshake alone
    rig.server_send(_plugin_request(rig, 9, CHANNEL, b"\x04"))
    assert rig.client.received() == []  # the client never sees the request
    (response,) = upstream.received()
    got = read_modern(_response_data(rig, response, 9), SECRET.encode())
    assert (got.address, got.uuid, got.name, got.properties) == ("10.0.0.1", str(offline_uuid("alice")), "alice", ())
    assert got.version == (4 if version == "1.21.4" else 1)
    assert rig.bridge.login.identity_forwarded
    # The backend's Login Success then reaches the client as usual.
    success = build_packet(rig.codec, "login", "toClient", "success", username="alice",
                           uuid=str(offline_uuid("alice")))
    rig.server_send(success)
    assert rig.client.received() == [success]


@pytest.mark.parametrize(("version", "forwarded_version", "holder"), [("1.19", 2, None), ("1.19.2", 3, NOTCH)])
def test_a_1_19_clients_chat_key_goes_with_the_player_info(version: str, forwarded_version: int,
                                                           holder: str | None) -> None:
    rig = Rig(version, forwarding={"mode": "velocity", "secret": SECRET})
    rig.connect_client()
    rig.client_send(handshake_packet(rig.codec.protocol))
    key = {"timestamp": 1_800_000_000_000, "publicKey": b"\x30\x82" + bytes(160), "signature": bytes(range(200))}
    extra = {"playerUUID": str(uuid.UUID(NOTCH))} if holder else {}
    rig.client_send(build_packet(rig.codec, "login", "toServer", "login_start", username="alice", signature=key,
                                 **extra))
    upstream = rig.accept_upstream()
    upstream.received()
    rig.server_send(_plugin_request(rig, 2, CHANNEL, b"\x04"))
    (response,) = upstream.received()
    got = read_modern(_response_data(rig, response, 2), SECRET.encode())
    assert got.version == forwarded_version
    assert got.key == (key["timestamp"], key["publicKey"], key["signature"])
    assert got.holder == (str(uuid.UUID(holder)) if holder else None)


def test_online_mode_forwards_the_verified_profile_with_its_signed_skin() -> None:
    rig = Rig("1.21.4", online_mode=True, forwarding={"mode": "velocity", "secret": SECRET})
    rig.server.verify_session = lambda name, digest: succeed(  # type: ignore[method-assign]
        {"id": NOTCH, "name": "Notch", "properties": [TEXTURES]})
    rig.connect_client(host="203.0.113.9")
    rig.client_send(handshake_packet(rig.codec.protocol))
    rig.client_send(build_packet(rig.codec, "login", "toServer", "login_start", username="Notch",
                                 playerUUID=str(uuid.UUID(NOTCH))))
    (request,) = rig.client.received()
    fields = rig.codec.decode("login", "toClient", "encryption_begin", request)
    key = load_der_public_key(fields["publicKey"])
    shared = os.urandom(16)
    rig.client_send(build_packet(rig.codec, "login", "toServer", "encryption_begin",
                                 sharedSecret=key.encrypt(shared, padding.PKCS1v15()),  # type: ignore[union-attr]
                                 verifyToken=key.encrypt(fields["verifyToken"], padding.PKCS1v15())))  # type: ignore[union-attr]
    upstream = rig.accept_upstream()
    upstream.received()
    rig.server_send(_plugin_request(rig, 1, CHANNEL, b"\x04"))
    (response,) = upstream.received()
    got = read_modern(_response_data(rig, response, 1), SECRET.encode())
    assert (got.uuid, got.name, got.address) == (str(uuid.UUID(NOTCH)), "Notch", "203.0.113.9")
    assert got.properties == ((TEXTURES["name"], TEXTURES["value"], TEXTURES["signature"]),)
    reader = Framing()
    reader.enable_encryption(shared)
    reader.feed(rig.client.transport.value())
    assert list(reader.frames()) == []  # nothing of the exchange reached the (encrypted) client leg


def test_legacy_mode_puts_the_player_info_into_the_handshake() -> None:
    rig = Rig("1.12.2", online_mode=True, forwarding={"mode": "legacy"})
    rig.server.verify_session = lambda name, digest: succeed(  # type: ignore[method-assign]
        {"id": NOTCH, "name": "Notch", "properties": [TEXTURES]})
    rig.connect_client(host="198.51.100.4")
    rig.client_send(handshake_packet(rig.codec.protocol, host="play.example.org"))
    rig.client_send(build_packet(rig.codec, "login", "toServer", "login_start", username="Notch"))
    (request,) = rig.client.received()
    fields = rig.codec.decode("login", "toClient", "encryption_begin", request)
    key = load_der_public_key(fields["publicKey"])
    rig.client_send(build_packet(rig.codec, "login", "toServer", "encryption_begin",
                                 sharedSecret=key.encrypt(os.urandom(16), padding.PKCS1v15()),  # type: ignore[union-attr]
                                 verifyToken=key.encrypt(fields["verifyToken"], padding.PKCS1v15())))  # type: ignore[union-attr]
    handshake, login_start = rig.accept_upstream().received()
    hs = parse_handshake(handshake)
    assert hs.protocol == rig.codec.protocol and hs.port == 25566
    host, got = read_legacy(hs.host)
    assert (host, got.address, got.uuid) == ("play.example.org", "198.51.100.4", str(uuid.UUID(NOTCH)))
    assert got.properties == ((TEXTURES["name"], TEXTURES["value"], TEXTURES["signature"]),)


def test_legacy_mode_offline_forwards_the_offline_uuid() -> None:
    rig = Rig("1.8.8", forwarding={"mode": "legacy"})
    handshake, _ = _begin(rig, "bob", host="192.0.2.33").received()
    host, got = read_legacy(parse_handshake(handshake).host)
    assert (host, got.address, got.uuid, got.properties) == ("play.example.org", "192.0.2.33",
                                                             str(offline_uuid("bob")), ())


@pytest.mark.parametrize(("mode", "channel"), [
    ("none", CHANNEL),                 # behind another proxy: its player_info request is not ours
    ("none", "fabric:hello"),
    ("velocity", "fabric:hello"),      # in velocity mode, any other channel is the client's business
    ("legacy", CHANNEL),
])
def test_login_plugin_messages_not_ours_pass_through_untouched(mode: str, channel: str) -> None:
    config: dict[str, Any] = {"mode": mode}
    if mode == "velocity":
        config["secret"] = SECRET
    rig = Rig("1.20.4", forwarding=config)
    upstream = _begin(rig)
    upstream.received()
    request = _plugin_request(rig, 77, channel, b"\x04opaque\x00bytes")
    rig.server_send(request)
    assert rig.client.received() == [request]
    assert upstream.received() == []
    response = _plugin_response(rig, 77, b"answer from the proxy in front")
    rig.client_send(response)
    assert upstream.received() == [response]
    not_understood = _plugin_response(rig, 78, None)
    rig.client_send(not_understood)
    assert upstream.received() == [not_understood]


def test_without_velocity_mode_even_a_malformed_request_passes_unread() -> None:
    rig = Rig("1.18.2")
    upstream = _begin(rig)
    upstream.received()
    pid = rig.codec.table.packet_id("login", "toClient", "login_plugin_request")
    assert pid is not None
    odd = pack_varint(pid) + pack_varint(1) + b"\xff\xff"  # a channel length no reader would accept
    rig.server_send(odd)
    assert rig.client.received() == [odd]


def test_velocity_mode_closes_on_a_malformed_request_with_a_reason() -> None:
    rig = Rig("1.18.2", forwarding={"mode": "velocity", "secret": SECRET})
    upstream = _begin(rig)
    upstream.received()
    pid = rig.codec.table.packet_id("login", "toClient", "login_plugin_request")
    assert pid is not None
    rig.server_send(pack_varint(pid) + pack_varint(1) + b"\xff\xff")
    (kick,) = rig.client.received()
    assert b"malformed" in kick and upstream.transport.disconnecting


def test_behind_bungeecord_its_legacy_handshake_passes_untouched() -> None:
    # mcagent (mode none) between a BungeeCord with ip_forward and a Spigot backend: the
    # handshake's long NUL-separated address (the skin's JSON) reaches the backend as it came.
    rig = Rig("1.18.2")
    rig.connect_client()
    bungee_host = "\0".join(("play.example.org", "203.0.113.7", NOTCH, json.dumps([TEXTURES])))
    assert len(bungee_host) > 1024
    handshake = handshake_packet(rig.codec.protocol, host=bungee_host)
    rig.client_send(handshake)
    login_start = build_packet(rig.codec, "login", "toServer", "login_start", username="Notch")
    rig.client_send(login_start)
    assert rig.accept_upstream().received() == [handshake, login_start]


def test_behind_a_load_balancer_the_proxy_protocol_address_is_forwarded() -> None:
    rig = Rig("1.18.2", proxy_protocol=True, forwarding={"mode": "velocity", "secret": SECRET})
    wrapped = HAProxyWrappingFactory(rig.server).buildProtocol(IPv4Address("TCP", "10.1.1.1", 40000))
    transport = StringTransport(peerAddress=IPv4Address("TCP", "10.1.1.1", 40000))
    wrapped.makeConnection(transport)
    rig.client = Leg(wrapped, transport)
    wrapped.dataReceived(b"PROXY TCP4 203.0.113.50 10.1.1.2 56324 25566\r\n"
                         + frame(handshake_packet(rig.codec.protocol))
                         + frame(build_packet(rig.codec, "login", "toServer", "login_start", username="carol")))
    upstream = rig.accept_upstream()
    upstream.received()
    rig.server_send(_plugin_request(rig, 3, CHANNEL, b""))
    (response,) = upstream.received()
    got = read_modern(_response_data(rig, response, 3), SECRET.encode())
    assert (got.address, got.name, got.version) == ("203.0.113.50", "carol", 1)


def test_velocity_mode_refuses_clients_before_1_13_with_a_reason() -> None:
    rig = Rig("1.12.2", forwarding={"mode": "velocity", "secret": SECRET})
    rig.connect_client()
    rig.client_send(handshake_packet(rig.codec.protocol))
    (kick,) = rig.client.received()
    assert b"needs Minecraft 1.13 or newer" in kick
    assert rig.reactor.tcpClients == [] and rig.client.transport.disconnecting


def test_velocity_mode_refuses_a_backend_that_never_asks() -> None:
    rig = Rig("1.18.2", forwarding={"mode": "velocity", "secret": SECRET})
    upstream = _begin(rig)
    upstream.received()
    rig.server_send(build_packet(rig.codec, "login", "toClient", "success", username="alice"))
    (kick,) = rig.client.received()
    assert b"did not ask for player info" in kick
    assert upstream.transport.disconnecting and rig.bridge.session is None


def test_backend_refusal_reaches_the_player() -> None:
    # The backend checks the HMAC with its own (different) secret and refuses: its reason goes to the client.
    rig = Rig("1.18.2", forwarding={"mode": "velocity", "secret": SECRET})
    upstream = _begin(rig)
    upstream.received()
    rig.server_send(_plugin_request(rig, 5, CHANNEL, b"\x04"))
    (response,) = upstream.received()
    with pytest.raises(Refused) as refused:
        read_modern(_response_data(rig, response, 5), b"not the same secret")
    reason = json.dumps({"text": str(refused.value)})
    rig.server_send(build_packet(rig.codec, "login", "toClient", "disconnect", reason=reason))
    assert [json.loads(rig.codec.decode("login", "toClient", "disconnect", p)["reason"])["text"]
            for p in rig.client.received()] == ["Unable to verify player details"]


def test_secret_never_appears_in_logs_dump_or_system_output(logged: list[str]) -> None:
    rig = Rig("1.18.2", forwarding={"mode": "velocity", "secret": SECRET}, admins=["alice"])
    upstream = _begin(rig)
    upstream.received()
    rig.server_send(_plugin_request(rig, 1, CHANNEL, b"\x04"))
    rig.server_send(build_packet(rig.codec, "login", "toClient", "success", username="alice"))
    console = ConsoleCommands(rig.server, lambda: ["reloaded"], lambda: None)
    rig.server.console = console
    dump = "\n".join(console.execute("dump"))
    system = "\n".join(rig.server.admin_command(rig.bridge, "dump"))
    assert '"mode": "velocity"' in dump and "forwarded alice's identity" in "\n".join(logged)
    for text in (dump, system, "\n".join(logged), repr(rig.server.forwarding), repr(rig.server.config)):
        assert SECRET not in text


def test_secret_never_appears_in_config_errors(tmp_path: Path) -> None:
    bad_configs = [
        {"forwarding": {"mode": "velocity", "secret": SECRET, "secret_file": "/etc/elsewhere"}},  # both
        {"forwarding": {"mode": "velocity", "secret": [SECRET]}},                                  # wrong type
        {"forwarding": {"mode": "velocityy", "secret": SECRET}},                                   # bad mode
        {"forwarding": {"mode": "velocity", "secret": SECRET, "secrett": SECRET}},                 # unknown field
    ]
    for raw in bad_configs:
        path = tmp_path / "proxy.json"
        path.write_text(json.dumps(raw))
        with pytest.raises(ConfigError) as err:
            load(path)
        assert SECRET not in str(err.value), str(err.value)
        assert "forwarding" in str(err.value)


def test_secret_file_lines_are_joined_and_a_missing_secret_is_a_config_error(tmp_path: Path) -> None:
    secret_file = tmp_path / "forwarding.secret"
    secret_file.write_text(SECRET + "\n")
    path = tmp_path / "proxy.json"
    path.write_text(json.dumps({"forwarding": {"mode": "velocity", "secret_file": str(secret_file)}}))
    assert load(path).forwarding.secret_bytes() == SECRET.encode()
    path.write_text(json.dumps({"forwarding": {"mode": "velocity"}}))
    with pytest.raises(ConfigError, match="needs forwarding.secret"):
        load(path)
    secret_file.unlink()
    path.write_text(json.dumps({"forwarding": {"mode": "velocity", "secret_file": str(secret_file)}}))
    with pytest.raises(ConfigError, match="cannot read forwarding.secret_file"):
        load(path)
