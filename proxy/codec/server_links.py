"""Server links (1.21+): the configured ones added to the backend's, kept across switches.

How this works: a ``server_links`` packet (configuration and play) is a VarInt count and that
many entries (a bool "known kind", then the kind's VarInt or a text component as NBT, then the
URL), and each packet replaces the client's whole list. The proxy never reads a backend's
entries: it keeps the count and the bytes after it, and a merged packet is the new count, the
backend's bytes as they came and the configured entries after them.

The play relay remembers the links a backend sends while configuring (they reach the client as
they came) and, after each Join Game, sends the merged list in play: the backend's and the
configured ones, or the configured ones alone when the backend sent none — which also replaces
an earlier backend's links after a switch. Links a backend sends while playing are merged on
the way through.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from proxy.codec.versioned import VersionCodec
from proxy.protocol.errors import PeerError
from proxy.protocol.nbt import write_nbt
from proxy.protocol.states import State
from proxy.protocol.tables import TO_CLIENT
from proxy.protocol.wire import pack_string, pack_varint, read_varint

MAX_BACKEND_LINKS = 1024


class LinkEntry(Protocol):
    """A configured link (``proxy.config.ServerLink``)."""

    @property
    def label(self) -> str | None: ...
    @property
    def kind(self) -> str | None: ...
    @property
    def url(self) -> str: ...


def encode_entries(links: Sequence[LinkEntry], kinds: Sequence[str]) -> bytes:
    """The entries' bytes, without their count (``kinds``: the client's known kinds, in order)."""
    out = bytearray()
    for link in links:
        if link.kind is not None:
            out += b"\x01" + pack_varint(kinds.index(link.kind))
        else:
            out += b"\x00" + write_nbt(link.label or "", named_root=False)  # a plain-text component
        out += pack_string(link.url)
    return bytes(out)


class ServerLinks:
    def __init__(self, codec: VersionCodec, links: Sequence[LinkEntry], kinds: Sequence[str]) -> None:
        table = codec.table
        self.play_id = table.packet_id(State.PLAY, TO_CLIENT, "server_links")
        self.configuration_id = table.packet_id(State.CONFIGURATION, TO_CLIENT, "server_links")
        self._count = len(links)
        self._ours = encode_entries(links, kinds)
        self._backend: tuple[int, bytes] = (0, b"")  # what the backend sent while configuring

    @classmethod
    def for_codec(cls, codec: VersionCodec, links: Sequence[LinkEntry], kinds: Sequence[str]) -> "ServerLinks | None":
        """None when there is nothing to add or the version has no server links."""
        if not links or codec.table.packet_id(State.PLAY, TO_CLIENT, "server_links") is None:
            return None
        return cls(codec, links, kinds)

    def configured(self, packet: bytes) -> None:
        """The backend's links while configuring: sent on after its Join Game, with ours."""
        self._backend = _entries(packet)

    def after_join(self) -> bytes:
        """The merged list to send after a Join Game (the backend's configuring links, if any)."""
        count, entries = self._backend
        self._backend = (0, b"")
        return self._packet(count, entries)

    def merged(self, packet: bytes) -> bytes:
        """A backend's play ``server_links`` with the configured entries added."""
        return self._packet(*_entries(packet))

    def _packet(self, count: int, entries: bytes) -> bytes:
        assert self.play_id is not None
        return pack_varint(self.play_id) + pack_varint(count + self._count) + entries + self._ours


def _entries(packet: bytes) -> tuple[int, bytes]:
    """A backend's links packet as its count and the bytes of its entries."""
    _, pos = read_varint(packet, 0)
    count, pos = read_varint(packet, pos)
    if not 0 <= count <= MAX_BACKEND_LINKS:
        raise PeerError(f"server_links with {count} links")
    return count, bytes(packet[pos:])
