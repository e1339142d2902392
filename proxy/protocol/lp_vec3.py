"""lpVec3: the low-precision vector minecraft-data lists as a native type from 1.21.9 on.

How this works: a vector is sent as one zero byte when every component is (nearly) zero.
Otherwise a scale ``s`` = ceil(largest |component|) is chosen and each component divided
by it lands in [-1, 1], quantized to 15 bits (0..32766). The 48-bit word holds, from the
low bit: the scale's two low bits, a continuation flag (bit 2), then x, y, z at bits 3, 18
and 33. It goes out as its low byte, the next byte, then the upper 32 bits big-endian;
when the scale needs more than two bits (s > 3), the flag is set and ``s // 4`` follows as
a VarInt. Used by use_entity's interaction point (26.1+) and entity velocities. The
format is vanilla's; the bit layout was read from minecraft-data's type list and checked
against node-minecraft-protocol 1.68.0's parser in tests/proxy/test_lp_vec3.py.
"""
from __future__ import annotations

import math
from typing import Any

from proxy.protocol.errors import PeerError
from proxy.protocol.layout_codec import Buffer, Codec, Stack
from proxy.protocol.wire import pack_varint, read_varint

_STEPS = 32766.0  # the largest quantized value: 15 bits, one short of 0x7fff
_SMALLEST = 3.051944088384301e-5  # below this on every axis the vector is sent as zero
_LARGEST = 1.7179869183e10  # components are clamped to this (vanilla's bound)
_MAX_SCALE_EXTRA = 1 << 32  # the VarInt continuation cannot name a larger scale than this


def _clamp(value: float) -> float:
    if math.isnan(value):
        return 0.0
    return max(-_LARGEST, min(value, _LARGEST))


def _quantize(unit: float) -> int:
    # Java's Math.round: halves go up, so floor(v + 0.5), not Python's round-half-even.
    return int(math.floor((unit * 0.5 + 0.5) * _STEPS + 0.5))


def _dequantize(word: int, shift: int) -> float:
    quantized = min((word >> shift) & 0x7FFF, int(_STEPS))
    return quantized * 2.0 / _STEPS - 1.0


def encode(x: float, y: float, z: float) -> bytes:
    x, y, z = _clamp(x), _clamp(y), _clamp(z)
    largest = max(abs(x), abs(y), abs(z))
    if largest < _SMALLEST:
        return b"\x00"
    scale = math.ceil(largest)
    extended = scale > 3
    markers = (scale & 3) | 4 if extended else scale
    word = markers | _quantize(x / scale) << 3 | _quantize(y / scale) << 18 | _quantize(z / scale) << 33
    out = bytes((word & 0xFF, word >> 8 & 0xFF)) + (word >> 16 & 0xFFFFFFFF).to_bytes(4, "big")
    return out + pack_varint(scale >> 2) if extended else out


def decode(data: Buffer, pos: int) -> tuple[tuple[float, float, float], int]:
    if pos >= len(data):
        raise PeerError("truncated lpVec3")
    first = data[pos]
    if first == 0:
        return (0.0, 0.0, 0.0), pos + 1
    if pos + 6 > len(data):
        raise PeerError("truncated lpVec3")
    word = first | data[pos + 1] << 8 | int.from_bytes(bytes(data[pos + 2:pos + 6]), "big") << 16
    scale = first & 3
    pos += 6
    if first & 4:
        extra, pos = read_varint(data, pos)
        if not 0 <= extra < _MAX_SCALE_EXTRA:
            raise PeerError(f"lpVec3 scale {extra} out of range")
        scale += extra * 4
    return (_dequantize(word, 3) * scale, _dequantize(word, 18) * scale, _dequantize(word, 33) * scale), pos


def _dec(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
    (x, y, z), pos = decode(data, pos)
    return {"x": x, "y": y, "z": z}, pos


def _enc(value: Any, out: bytearray, stack: Stack) -> None:
    if not isinstance(value, dict):
        raise PeerError(f"lpVec3 wants x, y, z, got {type(value).__name__}")
    out += encode(float(value.get("x", 0.0)), float(value.get("y", 0.0)), float(value.get("z", 0.0)))


CODEC = Codec(_dec, _enc)
