"""The few 1.20.5+ packets the network reads, by hand: Transfer and the cookie requests and answers.

Their layouts have not changed since 1.20.5, where they appeared (Transfer: ``string host,
varint port``; Cookie Request: ``string key``; Cookie Response: ``string key, optional byte
array``), and their bodies are the same in login, configuration and play; only the packet id
differs by state. So, as forwarding does for login plugin messages, they are read here without a
per-version layout, and moved from one state to another by changing the id alone.
"""
from __future__ import annotations

from proxy.protocol.errors import PeerError
from proxy.protocol.wire import pack_varint, read_string, read_varint

MAX_HOST = 32767
MAX_KEY = 32767


def transfer_target(packet: bytes) -> tuple[str, int]:
    _, pos = read_varint(packet, 0)
    host, pos = read_string(packet, pos, limit=MAX_HOST)
    port, _ = read_varint(packet, pos)
    if not 0 < port < 65536:
        raise PeerError(f"transfer to port {port}")
    return host, port


def cookie_key(packet: bytes) -> str:
    """The key of a Cookie Request or Cookie Response (its first field)."""
    _, pos = read_varint(packet, 0)
    return read_string(packet, pos, limit=MAX_KEY)[0]


def with_id(packet: bytes, packet_id: int) -> bytes:
    """The same packet under another state's id."""
    _, pos = read_varint(packet, 0)
    return pack_varint(packet_id) + packet[pos:]
