"""The buffer primitives of chunk data: packed long arrays, varint arrays and palettes.

Packed long arrays are unpacked with numpy: one gather-and-shift over 4096 entries
per section instead of a Python loop (``unpack_longs``). Sections that hold a single
state are shared read-only broadcast views (``uniform``; ``uniform_state`` reads one).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from proxy.codec.chunks.values import SECTION_VOLUME, Buffer, ChunkError, Fields
from proxy.protocol.errors import PeerError
from proxy.protocol.wire import read_varint

_LONG = np.dtype(">u8")


@lru_cache(maxsize=None)
def _spanning_index(bits: int, count: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    start = np.arange(count, dtype=np.int64) * bits
    word = (start >> 6).astype(np.intp)
    offset = (start & 63).astype(np.uint64)
    return word, offset, np.uint64(63) - offset


@lru_cache(maxsize=None)
def _packed_shifts(bits: int) -> npt.NDArray[np.uint64]:
    return (np.arange(64 // bits, dtype=np.uint64) * np.uint64(bits))


def longs_needed(bits: int, count: int, spanning: bool) -> int:
    """How many longs hold ``count`` values of ``bits`` bits."""
    if bits <= 0:
        return 0
    if spanning:
        return (count * bits + 63) // 64
    per_long = 64 // bits
    return (count + per_long - 1) // per_long


def unpack_longs(words: npt.NDArray[np.uint64], bits: int, count: int, spanning: bool) -> npt.NDArray[np.uint64]:
    """Unpack ``count`` values of ``bits`` bits from native uint64 ``words``.

    ``spanning`` (before 1.16): value i occupies bits ``i*bits ..`` of the array read
    as one little-endian bit stream, so it may straddle two longs. Otherwise (1.16+)
    each long holds ``64 // bits`` values from its low bits up and the rest is padding.
    """
    if not 1 <= bits <= 64:
        raise ChunkError(f"{bits} bits per entry")
    need = longs_needed(bits, count, spanning)
    if len(words) < need:
        raise ChunkError(f"{len(words)} longs hold fewer than {count} entries of {bits} bits")
    mask = np.uint64((1 << bits) - 1)
    if spanning:
        word, offset, rest = _spanning_index(bits, count)
        padded = np.zeros(need + 1, dtype=np.uint64)
        padded[:need] = words[:need]
        low = padded[word] >> offset
        # The high part comes from the next long; shifting in two steps keeps every
        # shift below 64 (offset 0 then contributes nothing, as it should).
        high = (padded[word + 1] << np.uint64(1)) << rest
        return (low | high) & mask
    shifts = _packed_shifts(bits)
    values = (words[:need, None] >> shifts[None, :]) & mask
    return values.reshape(-1)[:count]


def read_longs(data: Buffer, pos: int, n: int) -> tuple[npt.NDArray[np.uint64], int]:
    end = pos + 8 * n
    if n < 0 or end > len(data):
        raise ChunkError(f"truncated long array ({n} longs)")
    return np.frombuffer(data, dtype=_LONG, count=n, offset=pos).astype(np.uint64), end


def varint(data: Buffer, pos: int) -> tuple[int, int]:
    try:
        return read_varint(data, pos)
    except PeerError as exc:
        raise ChunkError(str(exc)) from None


@lru_cache(maxsize=4096)
def uniform(state: int) -> npt.NDArray[np.unsignedinteger[Any]]:
    # Read-only broadcast views: shared between columns, never written through.
    if state < 0:
        raise ChunkError(f"negative block state {state}")
    dtype = np.uint16 if state < 65536 else np.uint32
    return np.broadcast_to(np.array(state, dtype=dtype), (SECTION_VOLUME,))


def uniform_state(states: npt.NDArray[Any] | None) -> int | None:
    """The one state of a single-state section as the decoder returns it (a stride-0
    view), else None. Cheap: it does not scan the array."""
    if states is not None and states.ndim == 1 and states.strides == (0,):
        return int(states[0])
    return None


def paletted(values: npt.NDArray[np.uint64], palette: list[int] | None) -> npt.NDArray[np.unsignedinteger[Any]]:
    if palette is None:
        top = int(values.max()) if len(values) else 0
        if top >= 1 << 31:
            raise ChunkError(f"block state {top} out of range")
        return values.astype(np.uint16 if top < 65536 else np.uint32)
    if not palette:
        raise ChunkError("empty palette")
    if min(palette) < 0:
        raise ChunkError("negative state in palette")
    lookup = np.array(palette, dtype=np.uint16 if max(palette) < 65536 else np.uint32)
    try:
        return lookup.take(values)  # type: ignore[return-value]
    except IndexError:
        raise ChunkError(f"palette index {int(values.max())} beyond a palette of {len(lookup)}") from None


def _read_varints(data: Buffer, pos: int, n: int) -> tuple[list[int], int]:
    """``n`` consecutive varints (inlined: palettes are the hot loop of chunk decoding)."""
    out: list[int] = []
    append = out.append
    try:
        for _ in range(n):
            byte = data[pos]
            pos += 1
            if byte < 0x80:
                append(byte)
                continue
            value = byte & 0x7F
            shift = 7
            while True:
                byte = data[pos]
                pos += 1
                value |= (byte & 0x7F) << shift
                if byte < 0x80:
                    break
                shift += 7
                if shift > 28:
                    raise ChunkError("varint longer than 5 bytes")
            append(value - (1 << 32) if value >= 1 << 31 else value)
    except IndexError:
        raise ChunkError("truncated varint array") from None
    return out, pos


def skip_varints_at(data: Buffer, pos: int, n: int) -> int:
    seen = 0
    end = len(data)
    while seen < n:
        if pos >= end:
            raise ChunkError("truncated varint array")
        if data[pos] < 0x80:
            seen += 1
        pos += 1
    return pos


def read_palette(data: Buffer, pos: int) -> tuple[list[int], int]:
    n, pos = varint(data, pos)
    if n <= 0 or n > SECTION_VOLUME:
        raise ChunkError(f"palette of {n} entries")
    return _read_varints(data, pos, n)



def skip_varints(data: Buffer, pos: int, fields: Fields) -> tuple[Any, int]:
    """Skip a varint-counted array of varints (1.16.2-1.17 biomes) without decoding it."""
    n, pos = varint(data, pos)
    if n < 0 or n > SECTION_VOLUME * 4:
        raise ChunkError(f"{n} biome entries")
    if n == 0:
        return None, pos
    window = np.frombuffer(data, dtype=np.uint8, count=min(len(data) - pos, 5 * n), offset=pos)
    ends = np.flatnonzero(window < 0x80)
    if len(ends) < n:
        raise ChunkError("truncated biome array")
    return None, pos + int(ends[n - 1]) + 1
