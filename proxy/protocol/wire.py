"""Primitive wire types: VarInt/VarLong and fixed-width numbers.

Decoders take ``(data, pos)`` and return ``(value, new_pos)`` so a packet is
parsed in one pass over one buffer without re-slicing.
"""
from __future__ import annotations

import struct

from proxy.protocol.errors import PeerError

MAX_VARINT_BYTES = 5
MAX_VARLONG_BYTES = 10


def _read_var(data: bytes | bytearray | memoryview, pos: int, max_bytes: int, bits: int,
              name: str) -> tuple[int, int]:
    result = 0
    shift = 0
    end = len(data)
    for _ in range(max_bytes):
        if pos >= end:
            raise PeerError(f"truncated {name}")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            if result >= 1 << (bits - 1):
                result -= 1 << bits
            return result, pos
        shift += 7
    raise PeerError(f"{name} longer than {max_bytes} bytes")


def read_varint(data: bytes | bytearray | memoryview, pos: int) -> tuple[int, int]:
    # One byte (ids, lengths, small numbers: most VarInts) without the loop; the same answers.
    try:
        byte = data[pos]
    except IndexError:
        raise PeerError("truncated varint") from None
    if byte < 0x80:
        return byte, pos + 1
    return _read_var(data, pos, MAX_VARINT_BYTES, 32, "varint")


def read_varlong(data: bytes | bytearray | memoryview, pos: int) -> tuple[int, int]:
    return _read_var(data, pos, MAX_VARLONG_BYTES, 64, "varlong")


def _pack_var(value: int, mask: int) -> bytes:
    value &= mask
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def pack_varint(value: int) -> bytes:
    return _pack_var(value, 0xFFFFFFFF)


def pack_varlong(value: int) -> bytes:
    return _pack_var(value, 0xFFFFFFFFFFFFFFFF)


# Fixed-width numbers, big-endian, as the protocol sends them.
FIXED: dict[str, struct.Struct] = {
    "i8": struct.Struct(">b"),
    "u8": struct.Struct(">B"),
    "i16": struct.Struct(">h"),
    "u16": struct.Struct(">H"),
    "i32": struct.Struct(">i"),
    "u32": struct.Struct(">I"),
    "i64": struct.Struct(">q"),
    "u64": struct.Struct(">Q"),
    "f32": struct.Struct(">f"),
    "f64": struct.Struct(">d"),
}


def read_string(data: bytes | bytearray | memoryview, pos: int, limit: int = 262144) -> tuple[str, int]:
    length, pos = read_varint(data, pos)
    if length < 0 or length > limit:
        raise PeerError(f"string length {length} out of range")
    end = pos + length
    if end > len(data):
        raise PeerError(f"string length {length} out of range ({len(data) - pos} bytes left)")
    try:
        return bytes(data[pos:end]).decode("utf-8"), end
    except UnicodeDecodeError as exc:
        raise PeerError(f"invalid UTF-8 in string: {exc.reason}") from None


def pack_string(value: str) -> bytes:
    raw = value.encode("utf-8")
    return pack_varint(len(raw)) + raw
