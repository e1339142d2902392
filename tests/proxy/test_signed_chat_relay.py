"""Signed chat through an account's server leg: byte-identical until the proxy keeps a
signed line, then re-signed so the server's chain stays valid (proxy/codec/chat_signing.py)."""
from __future__ import annotations

import struct
import uuid
from typing import Any

import attrs
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from proxy.codec.chat_signing import ChatKey
from proxy.testing import Rig, build_packet, packet_id
from tests.proxy.test_upstream_account import ACCOUNT_UUID, FakeAccounts, _login_start

SESSION = uuid.UUID("11111111-2222-4333-8444-555555555555")
VERSIONS = ["1.19.4", "1.20.4", "1.21.11", "26.1", "26.2"]


@attrs.frozen
class KeyedSession:
    account: str
    name: str
    uuid: uuid.UUID
    access_token: str = attrs.field(repr=False)
    chat_key: ChatKey | None = attrs.field(repr=False, default=None)


def _chat_key() -> tuple[ChatKey, rsa.RSAPrivateKey]:
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    der = private.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    return ChatKey(private, der, b"\x05" * 512, 1_900_000_000_000), private


def _signable(session: uuid.UUID, index: int, text: str, ts: int, salt: int, seen: list[bytes]) -> bytes:
    body = text.encode()
    return (struct.pack(">i", 1) + ACCOUNT_UUID.bytes + session.bytes + struct.pack(">i", index)
            + struct.pack(">qq", salt, ts // 1000) + struct.pack(">i", len(body)) + body
            + struct.pack(">i", len(seen)) + b"".join(seen))


class Player:
    """A signing client on the rig: its own chat session, index and last-seen window (vanilla's tracker)."""

    def __init__(self, rig: Rig, private: rsa.RSAPrivateKey, der: bytes) -> None:
        self.rig, self.private, self.der = rig, private, der
        self.index = 0
        self.window: list[bytes | None] = [None] * 20  # oldest first
        self.new = 0

    def session_update(self) -> bytes:
        return build_packet(self.rig.codec, "play", "toServer", "chat_session_update", sessionUUID=str(SESSION),
                            expireTime=1_800_000_000_000, publicKey=self.der, signature=b"\x06" * 512)

    def receive(self, signature: bytes) -> None:
        self.window = self.window[1:] + [signature]
        self.new += 1

    def line(self, text: str, ts: int, salt: int = 9) -> bytes:
        seen = [s for s in self.window if s is not None]
        bits = sum(1 << i for i, s in enumerate(self.window) if s is not None).to_bytes(3, "little")
        signature = self.private.sign(_signable(SESSION, self.index, text, ts, salt, seen), padding.PKCS1v15(),
                                      hashes.SHA256())
        self.index += 1
        offset, self.new = self.new, 0
        return build_packet(self.rig.codec, "play", "toServer", "chat_message", message=text, timestamp=ts,
                            salt=salt, signature=signature, offset=offset, acknowledged=bits)


def _play(version: str, chat_key: ChatKey | None) -> Rig:
    accounts = FakeAccounts(KeyedSession("main", "Notch", ACCOUNT_UUID, "t", chat_key))  # type: ignore[arg-type]
    rig = Rig(version, accounts=accounts, upstream_auth={"mode": "microsoft", "account": "main"})
    _login_start(rig, "Notch")
    upstream = rig.accept_upstream()
    upstream.received()
    rig.server_send(build_packet(rig.codec, "login", "toClient", "success", username="Notch",
                                 uuid=str(ACCOUNT_UUID)))
    rig.client.received()
    if rig.codec.table.has_configuration:
        rig.client_send(build_packet(rig.codec, "login", "toServer", "login_acknowledged"))
        rig.server_send(build_packet(rig.codec, "configuration", "toClient", "finish_configuration"))
        rig.client_send(build_packet(rig.codec, "configuration", "toServer", "finish_configuration"))
    rig.client.received()
    upstream.received()
    return rig


def _player_chat(rig: Rig, signature: bytes) -> bytes:
    """A player chat message as far as the proxy reads it: the fields up to the signature
    (what follows is forwarded unread, so a short tail stands in for it)."""
    from proxy.protocol.wire import pack_varint

    pid = rig.codec.table.packet_id("play", "toClient", "player_chat")
    assert pid is not None
    fields = list(rig.codec.field_types("play", "toClient", "player_chat"))
    head = pack_varint(pid) + (pack_varint(3) if fields[0] == "globalIndex" else b"")
    return head + uuid.uuid4().bytes + pack_varint(0) + b"\x01" + signature + b"\x02hi"


def _fields(rig: Rig, packet: bytes) -> dict[str, Any]:
    return rig.codec.decode("play", "toServer", "chat_message", packet)


@pytest.mark.parametrize("version", VERSIONS)
def test_signed_chat_passes_byte_identical_until_a_line_is_kept_then_stays_valid(version: str) -> None:
    key, private = _chat_key()
    rig = _play(version, key)
    player = Player(rig, private, key.public_key_der)  # the client's key is the account's, as Mojang gives it
    session = player.session_update()
    rig.client_send(session)
    assert rig.upstream.received() == [session]
    other = b"\x0a" * 256
    rig.server_send(_player_chat(rig, other))
    rig.client.received()
    player.receive(other)
    first = player.line("hello", 1_700_000_001_000)
    rig.client_send(first)
    assert rig.upstream.received() == [first]  # byte-identical
    rig.client_send(player.line("!help", 1_700_000_002_000))  # kept: the client's index runs ahead
    assert rig.upstream.received() == []  # nothing new seen: no acknowledgement either
    rig.client.received()
    after = player.line("still there?", 1_700_000_003_000, salt=77)
    rig.client_send(after)
    (sent,) = rig.upstream.received()
    fields = _fields(rig, sent)
    assert fields["message"] == "still there?" and fields["salt"] == 77 and fields["timestamp"] == 1_700_000_003_000
    assert fields["acknowledged"] == _fields(rig, after)["acknowledged"]
    # The server's chain: one signed line so far, so index 1, over the message it saw.
    private.public_key().verify(fields["signature"], _signable(SESSION, 1, "still there?", 1_700_000_003_000, 77,
                                                               [other]), padding.PKCS1v15(), hashes.SHA256())


def test_a_kept_line_with_another_key_starts_a_session_of_the_proxys() -> None:
    key, private = _chat_key()
    client_key, client_private = _chat_key()
    rig = _play("1.21.11", key)
    player = Player(rig, client_private, client_key.public_key_der)
    rig.client_send(player.session_update())
    rig.upstream.received()
    rig.client_send(player.line("!help", 1_700_000_002_000))
    (update,) = rig.upstream.received()
    assert packet_id(update) == rig.codec.table.packet_id("play", "toServer", "chat_session_update")
    fields = rig.codec.decode("play", "toServer", "chat_session_update", update)
    assert bytes(fields["publicKey"]) == key.public_key_der
    rig.client.received()
    rig.client_send(player.line("next", 1_700_000_003_000))
    (sent,) = rig.upstream.received()
    private.public_key().verify(_fields(rig, sent)["signature"],
                                _signable(uuid.UUID(str(fields["sessionUUID"])), 0, "next", 1_700_000_003_000, 9, []),
                                padding.PKCS1v15(), hashes.SHA256())
    # The client's own later session update would point the server at a key the proxy does not sign with.
    rig.client_send(player.session_update())
    assert rig.upstream.received() == []


def test_without_a_chat_key_the_player_is_told_once() -> None:
    client_key, client_private = _chat_key()
    rig = _play("1.21.11", None)
    player = Player(rig, client_private, client_key.public_key_der)
    rig.client_send(player.session_update())
    rig.upstream.received()
    rig.client_send(player.line("!help", 1_700_000_002_000))
    texts = rig.chat_texts(rig.client.received())
    assert any("Use /ai and /agent here" in t for t in texts)
    rig.client_send(player.line("!help", 1_700_000_003_000))
    assert not any("Use /ai and /agent here" in t for t in rig.chat_texts(rig.client.received()))


def test_unsigned_chat_is_untouched() -> None:
    key, _ = _chat_key()
    rig = _play("1.21.11", key)
    line = build_packet(rig.codec, "play", "toServer", "chat_message", message="hi", timestamp=1, salt=2)
    rig.client_send(line)
    assert rig.upstream.received() == [line]
    rig.client_send(build_packet(rig.codec, "play", "toServer", "chat_message", message="!help"))
    rig.client.received()
    rig.client_send(line)
    assert rig.upstream.received() == [line]


def test_acknowledgements_that_do_not_fit_leave_chat_to_the_server() -> None:
    key, private = _chat_key()
    rig = _play("1.21.11", key)
    player = Player(rig, private, key.public_key_der)
    rig.client_send(player.session_update())
    rig.upstream.received()
    player.new = 5  # claims five messages the server never sent
    bad = player.line("x", 1_700_000_001_000)
    rig.client_send(bad)
    assert rig.upstream.received() == [bad]
    rig.client_send(player.line("!help", 1_700_000_002_000))
    rig.client.received()
    later = player.line("y", 1_700_000_003_000)
    rig.client_send(later)
    assert rig.upstream.received() == [later]  # as it came: the server judges
