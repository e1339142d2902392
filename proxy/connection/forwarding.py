"""Player-info forwarding: telling the server behind the proxy who the player really is.

How this works: the backend runs in offline mode behind the proxy, so on its own
it would see an offline UUID, no skin and the proxy's address for every player.
Two published formats carry the real ones; both are built here from plain
values (a ``PlayerInfo``), with no sockets and no Twisted:

* **Velocity modern forwarding** (``mode "velocity"``). During login the backend
  sends a Login Plugin Request on channel ``velocity:player_info`` whose data
  may be one byte, the highest forwarding version it understands. The proxy
  answers with a Login Plugin Response whose data is
  ``HMAC-SHA256(secret, payload) || payload``, where payload is
  ``varint version, string client address, uuid, string name, properties``
  (``varint count``, then per property ``string name, string value,
  bool signed[, string signature]``) and, for versions 2 and 3 only, the 1.19
  chat key (``i64 expiry ms, varint-prefixed public key, varint-prefixed
  signature``) and for version 3 ``bool, uuid`` of the key's holder. The version
  is negotiated as Velocity does (``negotiate``). Login plugin messages exist
  from 1.13, so older clients cannot be forwarded this way (``refusal``).
* **BungeeCord legacy forwarding** (``mode "legacy"``). The handshake's server
  address becomes ``host\\0client-ip\\0uuid-without-dashes\\0properties-json``,
  which Spigot's ``bungeecord: true`` splits on NUL. It is not authenticated:
  anyone who can reach the backend can claim any identity, so the backend must
  be firewalled to the proxy.

The Login Plugin Request/Response layouts have not changed since 1.13 (the
response's "successful" flag became the presence flag of an optional payload in
1.20.2, the same byte on the wire), so they are read and written here without a
per-version layout; their packet ids still come from the version's table.

``Forwarding`` is the one object a connection asks: it holds the mode and the
secret, and never shows the secret (not in ``repr``, not in ``describe``).
"""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import uuid
from typing import Any, Literal

import attrs

from proxy.connection.profile import GameProfile
from proxy.protocol.wire import FIXED, pack_string, pack_varint, read_string, read_varint

Mode = Literal["none", "velocity", "legacy"]
MODES: tuple[Mode, ...] = ("none", "velocity", "legacy")

CHANNEL = "velocity:player_info"
# Velocity's forwarding versions.
MODERN_DEFAULT = 1          # address, UUID, name, properties
MODERN_WITH_KEY = 2         # + the 1.19 chat key
MODERN_WITH_KEY_V2 = 3      # + the 1.19.1/1.19.2 chat key and its holder's UUID
MODERN_LAZY_SESSION = 4     # 1.19.3+: as 1, chat sessions come later in play
MODERN_MAX = MODERN_LAZY_SESSION
LOGIN_PLUGIN_PROTOCOL = 393   # 1.13: the first version with login plugin messages
CHAT_SESSION_PROTOCOL = 761   # 1.19.3: login-time chat keys gave way to chat sessions
SIGNATURE_BYTES = 32          # HMAC-SHA256
MAX_CHANNEL_CHARS = 32767


class ForwardingError(ValueError):
    """Our own misuse (a mode without what it needs); never the peer's fault."""


@attrs.frozen
class ChatKey:
    """The signed chat key a 1.19–1.19.2 client sends in Login Start."""

    expires_at_ms: int
    public_key: bytes
    signature: bytes
    linked: bool  # 1.19.1+: the signature covers the holder's UUID (Velocity's LINKED_V2)
    holder: uuid.UUID | None = None


@attrs.frozen
class PlayerInfo:
    """Everything forwarded about one player."""

    profile: GameProfile
    address: str  # the client's IP address as text, no port
    protocol: int
    key: ChatKey | None = None


@attrs.frozen
class LoginPluginRequest:
    message_id: int
    channel: str
    data: bytes


def chat_key(login_start: dict[str, Any]) -> ChatKey | None:
    """The chat key from decoded Login Start fields, if the client sent one.

    The layouts say which revision it is: 1.19's Login Start has the key only,
    1.19.1's adds the holder's UUID, and from 1.19.3 the key is gone.
    """
    signed = login_start.get("signature")
    if not isinstance(signed, dict):
        return None
    holder = login_start.get("playerUUID")
    return ChatKey(int(signed["timestamp"]), bytes(signed["publicKey"]), bytes(signed["signature"]),
                   linked="playerUUID" in login_start,
                   holder=uuid.UUID(str(holder)) if holder is not None else None)


def client_address(host: str) -> str:
    """The address as Java's ``InetAddress.getHostAddress``-style text the backends parse:
    no brackets, no IPv6 scope, and an IPv4-mapped IPv6 address as the IPv4 one."""
    bare = host.strip("[]").split("%", 1)[0]
    try:
        ip = ipaddress.ip_address(bare)
    except ValueError:
        return bare
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return ip.compressed


# -- Velocity modern forwarding ---------------------------------------------------
def requested_version(request_data: bytes) -> int:
    """The backend may send one byte, the highest version it reads; anything else means 1."""
    if len(request_data) == 1:
        return int(FIXED["i8"].unpack(request_data)[0])  # a Java byte: signed
    return MODERN_DEFAULT


def negotiate(requested: int, info: PlayerInfo) -> int:
    """The version actually sent, as Velocity chooses it: the key-carrying versions
    only for a 1.19–1.19.2 player who has a key, and version 3 (not 2) for a linked key."""
    requested = min(requested, MODERN_MAX)
    if requested <= MODERN_DEFAULT:
        return MODERN_DEFAULT
    if info.protocol >= CHAT_SESSION_PROTOCOL:
        return MODERN_LAZY_SESSION if requested >= MODERN_LAZY_SESSION else MODERN_DEFAULT
    if info.key is None:
        return MODERN_DEFAULT
    if not info.key.linked:
        return MODERN_WITH_KEY
    # A linked key cannot be read as version 2: without 3 the key is left out.
    return MODERN_WITH_KEY_V2 if requested >= MODERN_WITH_KEY_V2 else MODERN_DEFAULT


def modern_payload(info: PlayerInfo, version: int) -> bytes:
    """The unsigned forwarding data of one version."""
    profile = info.profile
    out = bytearray(pack_varint(version))
    out += pack_string(info.address)
    out += profile.uuid.bytes
    out += pack_string(profile.name)
    out += pack_varint(len(profile.properties))
    for prop in profile.properties:
        out += pack_string(prop.name) + pack_string(prop.value)
        if prop.signature:
            out += b"\x01" + pack_string(prop.signature)
        else:
            out += b"\x00"
    if MODERN_WITH_KEY <= version < MODERN_LAZY_SESSION:
        key = info.key
        if key is None:
            raise ForwardingError(f"forwarding version {version} needs the player's chat key")
        out += FIXED["i64"].pack(key.expires_at_ms)
        out += pack_varint(len(key.public_key)) + key.public_key
        out += pack_varint(len(key.signature)) + key.signature
        if version >= MODERN_WITH_KEY_V2:
            out += (b"\x01" + key.holder.bytes) if key.holder is not None else b"\x00"
    return bytes(out)


def sign(secret: bytes, payload: bytes) -> bytes:
    """Signature first, then the data it covers, as the backends read it."""
    return hmac.new(secret, payload, hashlib.sha256).digest() + payload


def parse_login_plugin_request(packet: bytes) -> LoginPluginRequest:
    """``varint id, varint message id, string channel, rest: data`` (1.13 onwards)."""
    _, pos = read_varint(packet, 0)
    message_id, pos = read_varint(packet, pos)
    channel, pos = read_string(packet, pos, limit=MAX_CHANNEL_CHARS)
    return LoginPluginRequest(message_id, channel, bytes(packet[pos:]))


def login_plugin_response(packet_id: int, message_id: int, data: bytes | None) -> bytes:
    """``varint id, varint message id, bool understood, rest: data``; None means not understood."""
    head = pack_varint(packet_id) + pack_varint(message_id)
    return head + (b"\x00" if data is None else b"\x01" + data)


# -- BungeeCord legacy forwarding ------------------------------------------------
def legacy_host(virtual_host: str, info: PlayerInfo) -> str:
    """The handshake address Spigot's ``bungeecord: true`` reads.

    Only what the client typed before any NUL is kept: a client that put its own
    NUL-separated fields into the address must not choose what the backend reads
    (Forge's ``\\0FML\\0`` marker goes too; Spigot would refuse a fifth field).
    """
    host = virtual_host.split("\0", 1)[0]
    properties = [
        {"name": p.name, "value": p.value, **({"signature": p.signature} if p.signature else {})}
        for p in info.profile.properties
    ]
    # json.dumps escapes control characters, so no NUL can appear inside the JSON.
    return "\0".join((host, info.address, info.profile.uuid.hex, json.dumps(properties, separators=(",", ":"))))


class Forwarding:
    """The configured mode and secret: what a connection asks during login."""

    __slots__ = ("mode", "_secret")

    def __init__(self, mode: Mode = "none", secret: bytes = b"") -> None:
        if mode not in MODES:
            raise ForwardingError(f"unknown forwarding mode {mode!r}")
        if mode == "velocity" and not secret:
            raise ForwardingError("velocity forwarding needs a secret")
        self.mode: Mode = mode
        self._secret = secret

    def __repr__(self) -> str:
        return f"Forwarding(mode={self.mode!r})"  # never the secret

    def describe(self) -> str:
        """The startup line's words for this mode."""
        if self.mode == "velocity":
            return ("velocity (modern, HMAC-signed): the backend gets each player's real UUID, name, "
                    "skin and address; clients 1.13+")
        if self.mode == "legacy":
            return ("legacy (BungeeCord, unauthenticated): the backend gets each player's real UUID, skin and "
                    "address in the handshake; firewall the backend so only the proxy reaches it")
        return "none: the backend sees offline UUIDs and the proxy's address"

    def refusal(self, protocol: int) -> str | None:
        """Why a client of this protocol cannot be forwarded, or None."""
        if self.mode == "velocity" and protocol < LOGIN_PLUGIN_PROTOCOL:
            return ("This server needs Minecraft 1.13 or newer: the proxy forwards your identity with "
                    "Velocity modern forwarding, which older clients cannot carry.")
        return None

    def upstream_host(self, virtual_host: str, info: PlayerInfo) -> str:
        """The server address for the handshake sent to the backend."""
        if self.mode == "legacy":
            return legacy_host(virtual_host, info)
        return virtual_host

    @property
    def reads_login_plugin_requests(self) -> bool:
        """Whether the backend's requests need reading at all (else they pass as they came)."""
        return self.mode == "velocity"

    def answer(self, request: LoginPluginRequest, info: PlayerInfo) -> bytes | None:
        """The response data when the request is ours to answer; None passes it on."""
        if self.mode != "velocity" or request.channel != CHANNEL:
            return None
        version = negotiate(requested_version(request.data), info)
        return sign(self._secret, modern_payload(info, version))

    def unanswered(self, answered: bool) -> str | None:
        """At the backend's Login Success: the problem when it never asked for the player info."""
        if self.mode == "velocity" and not answered:
            return ("The server behind the proxy did not ask for player info; it is not set up for "
                    "Velocity modern forwarding (enable it there with the same secret).")
        return None
