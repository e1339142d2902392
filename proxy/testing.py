"""Test helpers shipped with the proxy: build any packet of any version, frame it,
and read frames back, so tests (ours and extenders') speak the real protocol.

``build_packet`` fills every field of a generated layout with a zero value of its
type and applies overrides, so a test names only the fields it cares about.
"""
from __future__ import annotations

from typing import Any

from proxy.codec import VersionCodec
from proxy.handshake import LOGIN, Handshake, build_handshake
from proxy.protocol.framing import Framing, Writer
from proxy.protocol.tables import table_for_version
from proxy.protocol.wire import read_varint



def codec_for(version: str) -> VersionCodec:
    return VersionCodec(table_for_version(version))


def build_packet(codec: VersionCodec, state: str, direction: str, name: str, **fields: Any) -> bytes:
    return codec.build(state, direction, name, **fields)


def handshake_packet(protocol: int, next_state: int = LOGIN, host: str = "127.0.0.1", port: int = 25566) -> bytes:
    return build_handshake(Handshake(protocol, host, port, next_state))


def frame(packet: bytes, threshold: int = -1) -> bytes:
    writer = Writer()
    writer.threshold = threshold
    return writer.frame(packet)


class FrameReader:
    """Accumulates bytes written to a transport and splits them into packets."""

    def __init__(self) -> None:
        self.framing = Framing()
        self.packets: list[bytes] = []
        self.frames: list[bytes] = []

    def feed(self, data: bytes) -> list[bytes]:
        self.framing.feed(data)
        new = []
        for f in self.framing.frames():
            self.frames.append(f.raw)
            new.append(f.packet)
        self.packets.extend(new)
        return new

    def set_threshold(self, threshold: int) -> None:
        self.framing.threshold = threshold


def packet_id(packet: bytes) -> int:
    return read_varint(packet, 0)[0]
