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
acknowledgement bits). The first time it keeps a signed line, and only if the account's
own chat key is at hand (Minecraft services' player certificates for the account the
server leg logged in as), it moves to ``SIGNING``: it sends the server a chat session of
its own (which resets the server's chain), drops the client's later session updates, and
re-signs each line the client sends with that key and its own link index, over the same
text, timestamp, salt and last-seen signatures, so the server verifies every line again.
Without a key it stays in ``PASSTHROUGH`` and says once that the next signed line will be
refused (``warning``).

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
    """Signs lines as one chat session of the account's (a fresh session id, index from 0)."""

    def __init__(self, key: ChatKey, sender: uuid.UUID, session: uuid.UUID | None = None) -> None:
        self.key = key
        self.sender = sender
        self.session = session or uuid.uuid4()
        self.index = 0

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
class Kept:
    """What to do when the proxy keeps a line: packets' fields for the server, and whether
    the relay now signs (the caller encodes ``session_update`` first when it is set)."""

    session_update: dict[str, object] | None
    warn: bool  # tell the player once: their next signed line will be refused


class SignedChat:
    """One connection's signed-chat state (see the module's docstring)."""

    def __init__(self, sender: uuid.UUID, key: ChatKey | None) -> None:
        self.mode = Mode.PASSTHROUGH
        self.window = LastSeenWindow()
        self.client_session = False  # the client sent its own chat session to the server
        self._sender = sender
        self._key = key
        self._signer: ChatSigner | None = None
        self._warned = False

    def kept(self, offset: int, acknowledged: bytes | None, signed: bool) -> Kept:
        """The proxy keeps a line the client sent (its offset and bits, and whether it was
        signed); the caller also passes the offset on in a message_acknowledgement."""
        if acknowledged is not None:
            self.window.apply(offset, acknowledged)
        else:
            self.window.advance(offset)
        if not signed or self.mode is Mode.SIGNING or not self.client_session:
            return Kept(None, False)
        if self._key is None:
            warn, self._warned = not self._warned, True
            return Kept(None, warn)
        self.mode = Mode.SIGNING
        self._signer = ChatSigner(self._key, self._sender)
        return Kept({"sessionUUID": str(self._signer.session), "expireTime": self._key.expires_at_ms,
                     "publicKey": self._key.public_key_der, "signature": self._key.signature_v2}, False)

    def forwarded(self, text: str, timestamp_ms: int, salt: int, offset: int, acknowledged: bytes,
                  signature: bytes | None) -> bytes | None:
        """A line goes to the server: its new signature when the relay signs, else None (as it came)."""
        seen = self.window.apply(offset, acknowledged)
        if self.mode is Mode.PASSTHROUGH or signature is None:
            return None
        assert self._signer is not None
        return self._signer.sign(text, timestamp_ms, salt, seen)
