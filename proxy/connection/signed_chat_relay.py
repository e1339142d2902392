"""Signed chat's packets for one connection: what ``proxy.codec.chat_signing`` decides, as bytes.

How this works: on 1.19.3+ with the server leg logged in as the player's account, the
play relay hands this class every chat line, command, acknowledgement and chat session
update the client sends, and every player chat message the server sends (of which only the
signature is read, at its fixed place near the front). ``SignedChat`` keeps the server's
record of what the client has seen and decides whether a line goes as it came or
re-signed; here the fields are read from and written to this version's layouts.

If the client's acknowledgements ever stop fitting the mirrored record (a case this code
does not know), the relay stops judging: from then on every packet goes as it came, and the
server, whose record is the real one, decides.
"""
from __future__ import annotations

import uuid
from typing import Any, Callable

import attrs

from proxy.codec.chat_signing import ChatKey, ChatStateError, ClientSession, Mode, SignedChat
from proxy.codec.versioned import VersionCodec
from proxy.connection.seams import Log
from proxy.protocol.errors import PeerError
from proxy.protocol.tables import TO_CLIENT, TO_SERVER
from proxy.protocol.wire import read_varint
SIGNATURE_BYTES = 256
# The client packets this relay reads besides chat lines and commands.
CLIENT_PACKETS = ("chat_session_update", "message_acknowledgement")


@attrs.frozen
class Handled:
    forward: bytes | None  # the packet to send instead of the frame (None: the frame as it came)
    drop: bool = False  # send nothing
    before: tuple[bytes, ...] = ()  # packets for the server before it
    warn: str | None = None  # tell the player this, once


def applies(codec: VersionCodec) -> bool:
    """Chat sessions exist on this version (1.19.3+)."""
    return codec.table.packet_id("play", TO_SERVER, "chat_session_update") is not None


def subscribe(codec: VersionCodec) -> None:
    """Have the codec surface the packets this relay reads (before the connection's ids are taken)."""
    for direction, names in ((TO_SERVER, CLIENT_PACKETS), (TO_CLIENT, ("player_chat",))):
        for name in names:
            pid = codec.table.packet_id("play", direction, name)
            if pid is not None:
                codec.subscribed[direction][pid] = name


class SignedChatRelay:
    def __init__(self, codec: VersionCodec, sender: uuid.UUID, key: ChatKey | None, log: Log) -> None:
        self.codec = codec
        self.log = log
        self.chat = SignedChat(sender, key)
        self._prefix = _signature_prefix(codec)
        self._warned_commands = False
        self.broken = False

    def _guarded(self, work: Callable[[], Handled], fallback: Handled) -> Handled:
        if self.broken:
            return fallback
        try:
            return work()
        except ChatStateError as exc:
            self.log.warn("signed chat: the client's acknowledgements no longer fit ({why}); passing chat on as it "
                     "comes", why=str(exc))
            self.broken = True
            return fallback

    # -- from the server -------------------------------------------------------------
    def server_player_chat(self, packet: bytes) -> None:
        signature = self._prefix(packet)
        if signature is not None:
            self._guarded(lambda: self._sent(signature), Handled(None))

    def _sent(self, signature: bytes) -> Handled:
        self.chat.window.sent(signature)
        return Handled(None)

    # -- from the client -------------------------------------------------------------
    def client_other(self, name: str, fields: dict[str, Any]) -> Handled:
        """A chat session update or an acknowledgement."""
        return self._guarded(lambda: self._client_other(name, fields), Handled(None))

    def _client_other(self, name: str, fields: dict[str, Any]) -> Handled:
        if name == "chat_session_update":
            session = ClientSession(uuid.UUID(str(fields["sessionUUID"])), bytes(fields["publicKey"]),
                                    int(fields["expireTime"]))
            return Handled(None, drop=not self.chat.client_session(session))
        self.chat.window.advance(int(fields["count"]))  # message_acknowledgement
        return Handled(None)

    def line(self, fields: dict[str, Any]) -> Handled:
        """A chat line that goes to the server, as it came or re-signed."""
        return self._guarded(lambda: self._line(fields), Handled(None))

    def _line(self, fields: dict[str, Any]) -> Handled:
        signature = fields.get("signature")
        new = self.chat.forwarded(str(fields["message"]), int(fields["timestamp"]), int(fields["salt"]),
                                  int(fields["offset"]), bytes(fields["acknowledged"]),
                                  bytes(signature) if signature is not None else None)
        if new is None:
            return Handled(None)
        return Handled(self.codec.encode("play", TO_SERVER, "chat_message", {**fields, "signature": new}))

    def command(self, name: str, fields: dict[str, Any]) -> Handled:
        """A command that goes to the server: its arguments' signatures were made at the
        client's index, so once the proxy signs they would fail; they go without them
        (the server refuses such a command with a message, never a kick)."""
        return self._guarded(lambda: self._command(name, fields), Handled(None))

    def _command(self, name: str, fields: dict[str, Any]) -> Handled:
        signatures = fields.get("argumentSignatures") or []
        acknowledged = fields.get("acknowledged")
        self.chat.forwarded_command(int(fields.get("messageCount", 0)),
                                    bytes(acknowledged) if acknowledged is not None else None, len(signatures))
        if self.chat.mode is Mode.PASSTHROUGH or not signatures:
            return Handled(None)
        warn = None
        if not self._warned_commands:
            self._warned_commands = True
            warn = ("After a ! line, commands with a signed message (/msg, /me, /say) go to the server unsigned "
                    "and it may refuse them; reconnect to sign them again.")
        return Handled(self.codec.encode("play", TO_SERVER, name, {**fields, "argumentSignatures": []}), warn=warn)

    def kept(self, name: str, fields: dict[str, Any]) -> Handled:
        """The proxy keeps this line or command from the server (the acknowledgement of its
        offset is sent by the play relay in any case)."""
        return self._guarded(lambda: self._kept(fields), Handled(None, drop=True))

    def _kept(self, fields: dict[str, Any]) -> Handled:
        signed = bool(fields.get("signature") is not None or fields.get("argumentSignatures"))
        acknowledged = fields.get("acknowledged")
        offset = int(fields.get("offset", fields.get("messageCount", 0)))
        kept = self.chat.kept(offset, bytes(acknowledged) if acknowledged is not None else None, signed)
        before: tuple[bytes, ...] = ()
        if kept.session_update is not None:
            before = (self.codec.encode("play", TO_SERVER, "chat_session_update", kept.session_update),)
        warn = None
        if kept.warn:
            warn = ("Your client signed that line, and the proxy has no chat key for the account to keep your chat "
                    "valid: the server may refuse your next chat message. Use /ai and /agent here (never signed).")
        return Handled(None, drop=True, before=before, warn=warn)


def _signature_prefix(codec: VersionCodec) -> Any:
    """A reader of a player chat message's signature (or None), from the fields before it."""
    fields = list(codec.field_types("play", TO_CLIENT, "player_chat"))
    order = fields[:fields.index("signature")] if "signature" in fields else None

    def read(packet: bytes) -> bytes | None:
        if order is None:
            return None
        _, pos = read_varint(packet, 0)
        for field in order:
            if field == "senderUuid":
                pos += 16
            else:  # globalIndex (1.21.5+) and index are varints
                _, pos = read_varint(packet, pos)
        if pos >= len(packet):
            raise PeerError("player_chat ends before its signature")
        if not packet[pos]:
            return None
        signature = packet[pos + 1:pos + 1 + SIGNATURE_BYTES]
        if len(signature) != SIGNATURE_BYTES:
            raise PeerError("player_chat signature cut short")
        return bytes(signature)

    return read
