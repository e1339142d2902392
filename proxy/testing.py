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

ZERO_UUID = "00000000-0000-0000-0000-000000000000"


def codec_for(version: str) -> VersionCodec:
    return VersionCodec(table_for_version(version))


def zero_value(layout: Any, named: dict[str, Any]) -> Any:
    if isinstance(layout, str):
        if layout in ("varint", "varlong", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"):
            return 0
        if layout in ("f32", "f64"):
            return 0.0
        if layout == "bool":
            return False
        if layout == "UUID":
            return ZERO_UUID
        if layout in ("void",):
            return None
        if layout in ("restBuffer",):
            return b""
        if layout in ("nbt", "optionalNbt", "anonymousNbt", "anonOptionalNbt"):
            return None
        if layout == "string":
            return ""
        if layout in named:
            return zero_value(named[layout], named)
        raise KeyError(f"no zero value for {layout}")
    kind, args = layout
    if kind == "container":
        out: dict[str, Any] = {}
        for field in args:
            value = zero_value(field["type"], named)
            if field.get("anon"):
                if isinstance(value, dict):
                    out.update(value)
            else:
                out[field["name"]] = value
        return out
    if kind == "option":
        return None
    if kind in ("array",):
        return []
    if kind == "pstring":
        return ""
    if kind == "buffer":
        return b"\x00" * args["count"] if isinstance(args.get("count"), int) else b""
    if kind == "mapper":
        return next(iter(args["mappings"].values()))
    if kind == "switch":
        if "default" in args:
            return zero_value(args["default"], named)
        return None
    if kind == "bitflags":
        return {"_value": 0}
    if kind == "bitfield":
        return {f["name"]: 0 for f in args}
    raise KeyError(f"no zero value for {kind}")


def build_packet(codec: VersionCodec, state: str, direction: str, name: str, **fields: Any) -> bytes:
    layout = codec.table.raw_layout(state, direction, name)
    if layout is None:
        raise KeyError(f"{codec.version} has no layout for {state}/{direction}/{name}")
    named = {k: codec.table._compiler.named[k] for k in codec.table._compiler.named}
    values = zero_value(layout, named)
    values.update(fields)
    return codec.encode(state, direction, name, values)


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
