"""The handshake packet, whose layout has not changed since 1.7, parsed without a version."""
from __future__ import annotations

import attrs

from proxy.protocol.errors import PeerError
from proxy.protocol.wire import FIXED, pack_string, pack_varint, read_string, read_varint

STATUS = 1
LOGIN = 2
TRANSFER = 3
HOST_LIMIT = 32767


@attrs.frozen
class Handshake:
    protocol: int
    host: str
    port: int
    next_state: int


def parse_handshake(packet: bytes) -> Handshake:
    pid, pos = read_varint(packet, 0)
    if pid != 0:
        raise PeerError(f"expected a handshake, got packet 0x{pid:02x}")
    protocol, pos = read_varint(packet, pos)
    # Vanilla reads at most 255 characters here, but a BungeeCord in front of us with
    # ip_forward puts the player's address, UUID and skin JSON after the host (Spigot
    # reads up to 32767), and that must pass through to the backend untouched.
    host, pos = read_string(packet, pos, limit=HOST_LIMIT)
    if pos + 2 > len(packet):
        raise PeerError("truncated handshake")
    port = FIXED["u16"].unpack_from(packet, pos)[0]
    next_state, pos = read_varint(packet, pos + 2)
    if next_state not in (STATUS, LOGIN, TRANSFER):
        raise PeerError(f"handshake asks for unknown state {next_state}")
    return Handshake(protocol, host, port, next_state)


def build_handshake(hs: Handshake) -> bytes:
    return (pack_varint(0) + pack_varint(hs.protocol) + pack_string(hs.host)
            + FIXED["u16"].pack(hs.port) + pack_varint(hs.next_state))
