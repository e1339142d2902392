"""Online mode on the client leg: encryption request, shared secret, session check."""
from __future__ import annotations

import os
from typing import Any

from cryptography.hazmat.primitives.asymmetric import padding
from cryptography.hazmat.primitives.serialization import load_der_public_key
from twisted.internet.defer import fail, succeed

from proxy.protocol.framing import Framing, Writer
from proxy.testing import build_packet, handshake_packet, packet_id
from proxy.testing import Rig


def _start(rig: Rig) -> tuple[dict, bytes]:
    rig.connect_client()
    rig.client_send(handshake_packet(rig.codec.protocol))
    rig.client_send(build_packet(rig.codec, "login", "toServer", "login_start", username="alice"))
    (request,) = rig.client.received()
    fields = rig.codec.decode("login", "toClient", "encryption_begin", request)
    return fields, request


def _respond(rig: Rig, fields: dict, token: bytes | None = None) -> bytes:
    key = load_der_public_key(fields["publicKey"])
    secret = os.urandom(16)
    enc = lambda data: key.encrypt(data, padding.PKCS1v15())  # noqa: E731
    response = build_packet(rig.codec, "login", "toServer", "encryption_begin",
                            sharedSecret=enc(secret), verifyToken=enc(token or fields["verifyToken"]))
    rig.client_send(response)
    return secret


def test_online_login_encrypts_then_connects_upstream() -> None:
    rig = Rig("1.18.2", online_mode=True)
    rig.server.verify_session = lambda name, digest: succeed(  # type: ignore[method-assign]
        {"id": "069a79f444e94726a5befca90e38aaf5", "name": name, "properties": []})
    fields, request = _start(rig)
    assert packet_id(request) == rig.codec.table.packet_id("login", "toClient", "encryption_begin")
    assert rig.reactor.tcpClients == []  # no upstream before authentication
    secret = _respond(rig, fields)
    upstream = rig.accept_upstream()
    assert [packet_id(p) for p in upstream.received()] == [0, 0]  # handshake, login start
    # From now on the client leg is encrypted with the shared secret.
    rig.server_send(build_packet(rig.codec, "login", "toClient", "success", username="alice"))
    reader = Framing()
    reader.enable_encryption(secret)
    reader.feed(rig.client.transport.value())
    (frame,) = list(reader.frames())
    assert packet_id(frame.packet) == rig.codec.table.packet_id("login", "toClient", "success")
    # And the client's encrypted chat reaches the upstream decrypted.
    writer = Writer()
    writer.enable_encryption(secret)
    chat = build_packet(rig.codec, "play", "toServer", "chat", message="hi")
    rig.leg.dataReceived(writer.seal(writer.frame(chat)))
    assert upstream.received() == [chat]


def test_failed_session_check_disconnects_with_reason() -> None:
    rig = Rig("1.18.2", online_mode=True)
    rig.server.verify_session = lambda name, digest: fail(RuntimeError("no route"))  # type: ignore[method-assign]
    fields, _ = _start(rig)
    secret = _respond(rig, fields)
    reader = Framing()
    reader.enable_encryption(secret)
    reader.feed(rig.client.transport.value())
    (frame,) = list(reader.frames())
    assert b"Could not verify your account" in frame.packet
    assert rig.client.transport.disconnecting and rig.reactor.tcpClients == []


def test_session_server_saying_no_refuses_the_player() -> None:
    # Mojang answers 204 No Content (None here) when the player did not join: never a login.
    rig = Rig("1.18.2", online_mode=True)
    rig.server.verify_session = lambda name, digest: succeed(None)  # type: ignore[method-assign]
    fields, _ = _start(rig)
    secret = _respond(rig, fields)
    reader = Framing()
    reader.enable_encryption(secret)
    reader.feed(rig.client.transport.value())
    (frame,) = list(reader.frames())
    assert b"Could not verify your account" in frame.packet
    assert rig.client.transport.disconnecting and rig.reactor.tcpClients == []


def test_wrong_verify_token_closes_the_connection() -> None:
    rig = Rig("1.18.2", online_mode=True)
    fields, _ = _start(rig)
    _respond(rig, fields, token=b"nope")
    assert rig.client.transport.disconnecting and rig.reactor.tcpClients == []


def _respond_1_19(rig: Rig, fields: dict, *, signed_nonce: bool = False) -> bytes:
    """1.19-1.19.2's response: the verify token behind the hasVerifyToken switch, or a signed nonce."""
    key = load_der_public_key(fields["publicKey"])
    secret = os.urandom(16)
    enc = lambda data: key.encrypt(data, padding.PKCS1v15())  # noqa: E731
    crypto = ({"salt": 1, "messageSignature": b"\x01" * 256} if signed_nonce
              else {"verifyToken": enc(fields["verifyToken"])})
    rig.client_send(build_packet(rig.codec, "login", "toServer", "encryption_begin", sharedSecret=enc(secret),
                                 hasVerifyToken=not signed_nonce, crypto=crypto))
    return secret


def test_a_1_19_client_answering_with_the_verify_token_logs_in() -> None:
    # 1.19-1.19.2 put the token behind a switch (hasVerifyToken): it was read from the wrong
    # field, so every online login on those versions was refused as a signed nonce.
    rig = Rig("1.19.2", online_mode=True)
    asked: list[tuple[str, str]] = []

    def verify(name: str, digest: str) -> Any:
        asked.append((name, digest))
        return succeed({"id": "069a79f444e94726a5befca90e38aaf5", "name": name, "properties": []})

    rig.server.verify_session = verify  # type: ignore[method-assign]
    fields, _ = _start(rig)
    secret = _respond_1_19(rig, fields)
    assert [name for name, _ in asked] == ["alice"]
    upstream = rig.accept_upstream()
    assert [packet_id(p) for p in upstream.received()] == [0, 0]  # handshake, login start
    rig.server_send(build_packet(rig.codec, "login", "toClient", "success", uuid="069a79f4-44e9-4726-a5be-fca90e38aaf5",
                                 username="alice", properties=[]))
    reader = Framing()
    reader.enable_encryption(secret)
    reader.feed(rig.client.transport.value())
    (frame,) = list(reader.frames())
    assert packet_id(frame.packet) == rig.codec.table.packet_id("login", "toClient", "success")


def test_a_1_19_signed_nonce_is_refused_with_a_reason() -> None:
    rig = Rig("1.19.2", online_mode=True)
    fields, _ = _start(rig)
    _respond_1_19(rig, fields, signed_nonce=True)
    assert rig.client.transport.disconnecting and rig.reactor.tcpClients == []
    assert b"signed-nonce" in rig.client.transport.value()
