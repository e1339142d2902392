"""Signed chat (1.19.3+) through a proxy that keeps some lines from the server.

How this works: a vanilla client signs each chat line with its chat session key; the
signature covers the sender, the session, a link index that the server expects to grow by
one per signed line, the text, and the signatures of the last messages the client saw.
Lines the proxy answers itself (``!help``, ``@ai …``) never reach the server, so the
client's index runs ahead of the server's and its next line fails verification: the
server kicks the player (chat_validation_failed). Commands for the proxy (``/ai``,
``/agent``) are unsigned and cost nothing; chat lines do.

So the relay starts in ``PASSTHROUGH``: the client's session and every signed line go to
the server byte-identical, and the proxy only mirrors the server's record of what the
client has seen (``LastSeenWindow``, vanilla's ``LastSeenMessagesValidator``: 20 slots,
filled by each signed message the server sends, advanced by each line's offset and
acknowledgement bits) and counting the signed lines it forwarded (the server's link
index). The first time it keeps a signed line, and only if the account's own chat key is
at hand (Minecraft services' player certificates for the account the server leg logged
in as), it moves to ``SIGNING`` and from then on re-signs each line the client sends, over
the same text, timestamp, salt and last-seen signatures, so the server verifies every
line again. Minecraft services hand out one key per account at a time, so the client's
session key is usually the proxy's: then the proxy signs in the client's own session at
the server's index, and the server notices nothing. If the keys differ, the proxy first
sends a chat session of its own (vanilla resets the chain on a new key, index 0) and
drops the client's later session updates. Without a key, or with one that expires before
the client's (vanilla refuses a session older than the current one), it stays in
``PASSTHROUGH`` and says once that the next signed line will be refused (``warn``).

Nothing here does I/O; the signing key is used, never logged.
"""
from __future__ import annotations

import enum
import struct
import uuid
from collections.abc import Sequence

import attrs
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

WINDOW = 20  # vanilla's LastSeenMessagesTracker / Validator size
SIGNATURE_BYTES = 256
MAX_PENDING = 4096  # vanilla disconnects a player with more unacknowledged messages than this


class ChatStateError(Exception):
    """The client's acknowledgements do not fit the server's record (the server would refuse them too)."""


class LastSeenWindow:
    """The server's record of the signed messages this player was sent and has seen."""

    def __init__(self) -> None:
        # Slots 0..19 are the window the client's bits refer to; beyond them, messages the
        # client has not acknowledged yet. None: empty or ignored. (signature, pending)
        self._entries: list[tuple[bytes, bool] | None] = [None] * WINDOW
        self._last: bytes | None = None

    def sent(self, signature: bytes) -> None:
        """The server sent this player a signed message (vanilla's addPending)."""
        if signature != self._last:
            if len(self._entries) - WINDOW >= MAX_PENDING:
                raise ChatStateError("too many unacknowledged chat messages")
            self._entries.append((signature, True))
            self._last = signature

    def advance(self, offset: int) -> None:
        """The client saw ``offset`` new messages (a line's offset, or message_acknowledgement)."""
        if not 0 <= offset <= len(self._entries) - WINDOW:
            raise ChatStateError(f"acknowledged {offset} messages, only {len(self._entries) - WINDOW} were sent")
        del self._entries[:offset]

    def apply(self, offset: int, acknowledged: bytes) -> list[bytes]:
        """A line's update: advance, then the acknowledged signatures, oldest first (what the
        line's signature covers). ``acknowledged`` is the 20-bit set, least significant bit first."""
        self.advance(offset)
        bits = int.from_bytes(acknowledged, "little")
        if bits >> WINDOW:
            raise ChatStateError("acknowledgement bits beyond the window")
        seen: list[bytes] = []
        for i in range(WINDOW):
            entry = self._entries[i]
            if bits >> i & 1:
                if entry is None:
                    raise ChatStateError("acknowledged a message that was never sent or was ignored")
                self._entries[i] = (entry[0], False)
                seen.append(entry[0])
            else:
                if entry is not None and not entry[1]:
                    raise ChatStateError("ignored a message acknowledged before")
                self._entries[i] = None
        return seen


@attrs.frozen
class ChatKey:
    """The account's chat key, as Minecraft services certify it (``/player/certificates``)."""

    private_key: rsa.RSAPrivateKey = attrs.field(repr=False)
    public_key_der: bytes
    signature_v2: bytes  # Minecraft services' signature over the account's UUID, the expiry and the key
    expires_at_ms: int


class ChatSigner:
    """Signs lines as one chat session of the account's, from link index ``index`` on."""

    def __init__(self, key: ChatKey, sender: uuid.UUID, session: uuid.UUID, index: int = 0) -> None:
        self.key = key
        self.sender = sender
        self.session = session
        self.index = index

    def sign(self, text: str, timestamp_ms: int, salt: int, last_seen: Sequence[bytes]) -> bytes:
        body = text.encode("utf-8")
        signable = b"".join((
            struct.pack(">i", 1), self.sender.bytes, self.session.bytes, struct.pack(">i", self.index),
            struct.pack(">qq", salt, timestamp_ms // 1000), struct.pack(">i", len(body)), body,
            struct.pack(">i", len(last_seen)), *last_seen,
        ))
        self.index += 1
        return self.key.private_key.sign(signable, padding.PKCS1v15(), hashes.SHA256())


class Mode(enum.Enum):
    PASSTHROUGH = "passthrough"
    SIGNING = "signing"


@attrs.frozen
class ClientSession:
    """The chat session the client told the server about (chat_session_update)."""

    session: uuid.UUID
    public_key_der: bytes
    expires_at_ms: int


@attrs.frozen
class Kept:
    """What keeping a line asks for: the fields of a chat session update to send the server
    first (when the proxy starts signing with a key other than the client's), and whether
    to tell the player, once, that their next signed line will be refused."""

    session_update: dict[str, object] | None
    warn: bool


class SignedChat:
    """One connection's signed-chat state (see the module's docstring)."""

    def __init__(self, sender: uuid.UUID, key: ChatKey | None) -> None:
        self.mode = Mode.PASSTHROUGH
        self.window = LastSeenWindow()
        self.client: ClientSession | None = None
        self._sender = sender
        self._key = key
        self._signer: ChatSigner | None = None
        self._index = 0  # the server's next link index in the client's session
        self._warned = False

    def client_session(self, session: ClientSession) -> bool:
        """The client's session update: True to forward it. While the proxy signs, only a
        session with the proxy's own key may pass (any other would make the server check
        the proxy's signatures against a key it does not sign with)."""
        if self.mode is Mode.SIGNING:
            assert self._key is not None
            if session.public_key_der != self._key.public_key_der:
                return False
            self.client = session
            self._signer = ChatSigner(self._key, self._sender, session.session)
            return True
        if self.client is None or session.public_key_der != self.client.public_key_der:
            self._index = 0  # a new key: the server starts a new chain
        self.client = session
        return True

    def kept(self, offset: int, acknowledged: bytes | None, signed: bool) -> Kept:
        """The proxy keeps a line the client sent (its offset and bits, and whether it was
        signed); the caller also passes the offset on in a message_acknowledgement."""
        if acknowledged is not None:
            self.window.apply(offset, acknowledged)
        else:
            self.window.advance(offset)
        if not signed or self.mode is Mode.SIGNING or self.client is None:
            return Kept(None, False)
        key = self._key
        same_key = key is not None and key.public_key_der == self.client.public_key_der
        if key is None or (not same_key and key.expires_at_ms < self.client.expires_at_ms):
            warn, self._warned = not self._warned, True
            return Kept(None, warn)
        self.mode = Mode.SIGNING
        if same_key:
            self._signer = ChatSigner(key, self._sender, self.client.session, self._index)
            return Kept(None, False)
        self._signer = ChatSigner(key, self._sender, uuid.uuid4())
        return Kept({"sessionUUID": str(self._signer.session), "expireTime": key.expires_at_ms,
                     "publicKey": key.public_key_der, "signature": key.signature_v2}, False)

    def forwarded(self, text: str, timestamp_ms: int, salt: int, offset: int, acknowledged: bytes,
                  signature: bytes | None) -> bytes | None:
        """A chat line goes to the server: its new signature when the relay signs, else None
        (it goes as it came)."""
        seen = self.window.apply(offset, acknowledged)
        if signature is None:
            return None
        if self.mode is Mode.PASSTHROUGH:
            self._index += 1
            return None
        assert self._signer is not None
        return self._signer.sign(text, timestamp_ms, salt, seen)

    def forwarded_command(self, offset: int, acknowledged: bytes | None, signatures: int) -> None:
        """A command goes to the server (1.19.3+ commands carry the same update; each
        signed argument takes one link index)."""
        if acknowledged is not None:
            self.window.apply(offset, acknowledged)
        if self.mode is Mode.PASSTHROUGH:
            self._index += signatures
