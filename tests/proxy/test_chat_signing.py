"""The signed-chat state: the server's last-seen record mirrored, and lines re-signed after a kept one."""
from __future__ import annotations

import struct
import uuid

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from proxy.codec.chat_signing import ChatKey, ChatStateError, ClientSession, LastSeenWindow, Mode, SignedChat

SENDER = uuid.UUID("0f4e2c6a-9d1b-4c3e-8a7f-2b5d6e8f9a10")


def _key() -> tuple[ChatKey, rsa.RSAPublicKey]:
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    der = private.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    return ChatKey(private, der, b"\x05" * 512, 1_900_000_000_000), private.public_key()


def _bits(*slots: int) -> bytes:
    return sum(1 << s for s in slots).to_bytes(3, "little")


def _signable(session: uuid.UUID, index: int, text: str, ts: int, salt: int, seen: list[bytes]) -> bytes:
    body = text.encode()
    return (struct.pack(">i", 1) + SENDER.bytes + session.bytes + struct.pack(">i", index)
            + struct.pack(">qq", salt, ts // 1000) + struct.pack(">i", len(body)) + body
            + struct.pack(">i", len(seen)) + b"".join(seen))


def test_the_window_follows_vanilla() -> None:
    window = LastSeenWindow()
    a, b, c = b"a" * 256, b"b" * 256, b"c" * 256
    window.sent(a)
    window.sent(a)  # the same message twice is tracked once, as vanilla does
    window.sent(b)
    window.sent(c)
    # Three new messages: after the offset they sit in the last three slots of the window.
    assert window.apply(3, _bits(17, 18, 19)) == [a, b, c]
    assert window.apply(0, _bits(17, 18, 19)) == [a, b, c]  # still seen, nothing new
    with pytest.raises(ChatStateError):  # a message acknowledged before may not be dropped
        window.apply(0, _bits(19))
    with pytest.raises(ChatStateError):
        LastSeenWindow().advance(1)  # more than was sent


def test_dropping_an_acknowledged_message_is_refused() -> None:
    window = LastSeenWindow()
    window.sent(b"a" * 256)
    window.apply(1, _bits(19))
    with pytest.raises(ChatStateError):
        window.apply(0, _bits())


def test_acknowledging_an_empty_slot_is_refused() -> None:
    with pytest.raises(ChatStateError):
        LastSeenWindow().apply(0, _bits(0))


def _session(der: bytes, expires: int = 1_800_000_000_000) -> ClientSession:
    return ClientSession(uuid.UUID("11111111-2222-4333-8444-555555555555"), der, expires)


def test_with_the_clients_own_key_the_proxy_signs_in_the_clients_session_at_the_servers_index() -> None:
    key, public = _key()
    chat = SignedChat(SENDER, key)
    client = _session(key.public_key_der)
    assert chat.client_session(client)
    assert chat.forwarded("one", 1_700_000_000_000, 1, 0, _bits(), b"\x01" * 256) is None
    chat.forwarded_command(0, _bits(), signatures=1)  # /msg x hi: one signed argument
    assert chat.forwarded("two", 1_700_000_000_500, 2, 0, _bits(), b"\x01" * 256) is None
    kept = chat.kept(0, _bits(), signed=True)  # the client's index is now 4, the server's 3
    assert kept == type(kept)(None, False) and chat.mode is Mode.SIGNING
    signature = chat.forwarded("three", 1_700_000_001_000, 3, 0, _bits(), b"\x09" * 256)
    assert signature is not None
    public.verify(signature, _signable(client.session, 3, "three", 1_700_000_001_000, 3, []), padding.PKCS1v15(),
                  hashes.SHA256())


def test_a_session_update_with_another_key_is_dropped_while_the_proxy_signs() -> None:
    key, _ = _key()
    other, _ = _key()
    chat = SignedChat(SENDER, key)
    chat.client_session(_session(key.public_key_der))
    chat.kept(0, _bits(), signed=True)
    assert not chat.client_session(_session(other.public_key_der, 1_900_000_000_001))
    assert chat.client_session(_session(key.public_key_der))


def test_a_key_older_than_the_clients_cannot_take_over() -> None:
    key, _ = _key()  # expires at 1_900_000_000_000
    other, _ = _key()
    chat = SignedChat(SENDER, key)
    chat.client_session(_session(other.public_key_der, 1_950_000_000_000))
    assert chat.kept(0, _bits(), signed=True).warn
    assert chat.mode is Mode.PASSTHROUGH


def test_passthrough_until_a_signed_line_is_kept_then_lines_are_re_signed() -> None:
    key, public = _key()
    other, _ = _key()
    chat = SignedChat(SENDER, key)
    chat.client_session(_session(other.public_key_der))  # the client's key is not the proxy's
    seen = b"s" * 256
    chat.window.sent(seen)
    assert chat.forwarded("hello", 1_700_000_000_123, 42, 1, _bits(19), b"\x01" * 256) is None
    kept = chat.kept(0, _bits(19), signed=True)
    assert chat.mode is Mode.SIGNING and kept.session_update is not None
    session = uuid.UUID(str(kept.session_update["sessionUUID"]))
    assert kept.session_update["publicKey"] == key.public_key_der
    first = chat.forwarded("after", 1_700_000_001_000, 7, 0, _bits(19), b"\x02" * 256)
    second = chat.forwarded("again", 1_700_000_002_000, 8, 0, _bits(19), b"\x03" * 256)
    assert first is not None and second is not None
    public.verify(first, _signable(session, 0, "after", 1_700_000_001_000, 7, [seen]), padding.PKCS1v15(),
                  hashes.SHA256())
    public.verify(second, _signable(session, 1, "again", 1_700_000_002_000, 8, [seen]), padding.PKCS1v15(),
                  hashes.SHA256())
    with pytest.raises(InvalidSignature):
        public.verify(second, _signable(session, 0, "again", 1_700_000_002_000, 8, [seen]), padding.PKCS1v15(),
                      hashes.SHA256())


def test_unsigned_lines_and_lines_without_a_client_session_never_switch() -> None:
    key, _ = _key()
    chat = SignedChat(SENDER, key)
    assert chat.kept(0, _bits(), signed=True).session_update is None  # no client session yet
    chat.client_session(_session(b"other"))
    assert chat.kept(0, _bits(), signed=False).session_update is None
    assert chat.mode is Mode.PASSTHROUGH
    assert chat.forwarded("x", 0, 0, 0, _bits(), None) is None


def test_without_the_accounts_key_the_player_is_warned_once() -> None:
    chat = SignedChat(SENDER, None)
    chat.client_session(_session(b"der"))
    assert chat.kept(0, _bits(), signed=True).warn
    assert not chat.kept(0, _bits(), signed=True).warn
    assert chat.mode is Mode.PASSTHROUGH


def test_the_key_never_shows_in_a_repr() -> None:
    key, _ = _key()
    assert "RSAPrivateKey" not in repr(key) and "private" not in repr(key)
