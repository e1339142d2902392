"""Network NBT: just enough to read tags into Python values and write text components.

Reading keeps values and drops tag types (callers only inspect them); writing
infers tag types from Python values, which is all a chat component needs.
"""
from __future__ import annotations

import struct
from typing import Any

from proxy.protocol.errors import PeerError

_FIXED = {1: struct.Struct(">b"), 2: struct.Struct(">h"), 3: struct.Struct(">i"),
          4: struct.Struct(">q"), 5: struct.Struct(">f"), 6: struct.Struct(">d")}
MAX_DEPTH = 512


def _need(data: bytes | bytearray | memoryview, pos: int, n: int) -> None:
    if pos + n > len(data):
        raise PeerError("truncated NBT")


def _read_name(data: bytes | bytearray | memoryview, pos: int) -> tuple[str, int]:
    _need(data, pos, 2)
    (n,) = struct.unpack_from(">H", data, pos)
    pos += 2
    _need(data, pos, n)
    return bytes(data[pos:pos + n]).decode("utf-8", "replace"), pos + n


def _read_payload(data: bytes | bytearray | memoryview, pos: int, tag: int, depth: int) -> tuple[Any, int]:
    if depth > MAX_DEPTH:
        raise PeerError("NBT nested too deep")
    fixed = _FIXED.get(tag)
    if fixed is not None:
        _need(data, pos, fixed.size)
        return fixed.unpack_from(data, pos)[0], pos + fixed.size
    if tag == 8:
        return _read_name(data, pos)
    if tag in (7, 11, 12):
        _need(data, pos, 4)
        (n,) = struct.unpack_from(">i", data, pos)
        pos += 4
        size = {7: 1, 11: 4, 12: 8}[tag]
        if n < 0:
            raise PeerError("negative NBT array length")
        _need(data, pos, n * size)
        fmt = {7: "b", 11: "i", 12: "q"}[tag]
        return list(struct.unpack_from(f">{n}{fmt}", data, pos)), pos + n * size
    if tag == 9:
        _need(data, pos, 5)
        inner = data[pos]
        (n,) = struct.unpack_from(">i", data, pos + 1)
        pos += 5
        # Every element takes at least one byte: a longer list than the bytes left is a lie.
        if n > len(data) - pos:
            raise PeerError(f"NBT list of {n} elements in {len(data) - pos} bytes")
        items = []
        for _ in range(max(n, 0)):
            value, pos = _read_payload(data, pos, inner, depth + 1)
            items.append(value)
        return items, pos
    if tag == 10:
        out: dict[str, Any] = {}
        while True:
            _need(data, pos, 1)
            inner = data[pos]
            pos += 1
            if inner == 0:
                return out, pos
            name, pos = _read_name(data, pos)
            out[name], pos = _read_payload(data, pos, inner, depth + 1)
    raise PeerError(f"unknown NBT tag {tag}")


def read_nbt(data: bytes | bytearray | memoryview, pos: int, named_root: bool = True) -> tuple[Any, int]:
    """Read one root tag; ``named_root`` is False for network NBT (1.20.2+)."""
    _need(data, pos, 1)
    tag = data[pos]
    pos += 1
    if tag == 0:
        return None, pos
    if named_root:
        _, pos = _read_name(data, pos)
    return _read_payload(data, pos, tag, 0)


def _tag_of(value: Any) -> int:
    if isinstance(value, bool):
        return 1
    if isinstance(value, int):
        return 3
    if isinstance(value, float):
        return 6
    if isinstance(value, str):
        return 8
    if isinstance(value, list):
        return 9
    if isinstance(value, dict):
        return 10
    raise TypeError(f"cannot write {type(value).__name__} as NBT")


def _write_payload(out: bytearray, value: Any) -> None:
    tag = _tag_of(value)
    if tag == 1:
        out += struct.pack(">b", int(value))
    elif tag in _FIXED:
        out += _FIXED[tag].pack(value)
    elif tag == 8:
        raw = value.encode("utf-8")
        out += struct.pack(">H", len(raw)) + raw
    elif tag == 9:
        inner = _tag_of(value[0]) if value else 0
        out += struct.pack(">bi", inner, len(value))
        for item in value:
            if _tag_of(item) != inner:
                raise TypeError("NBT lists hold one tag type")
            _write_payload(out, item)
    else:
        for key, item in value.items():
            raw = key.encode("utf-8")
            out += bytes([_tag_of(item)]) + struct.pack(">H", len(raw)) + raw
            _write_payload(out, item)
        out.append(0)


def write_nbt(value: Any, named_root: bool = True) -> bytes:
    if value is None:
        return b"\x00"
    out = bytearray([_tag_of(value)])
    if named_root:
        out += b"\x00\x00"
    _write_payload(out, value)
    return bytes(out)
