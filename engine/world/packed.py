"""Packed sections: a section of at most 256 states as a palette and bit-packed indices.

How this works: the distinct states of a section, sorted, are its palette; each
block keeps its palette index in 1, 2, 4 or 8 bits (the smallest power of two
that holds the palette, so a block never straddles a byte), ``8 // bits`` blocks
to a byte, the first in the low bits. Real terrain is mostly 4 bits: 2 KiB a
section instead of 8. A write of a state not in the palette grows it, and
repacks when the palette outgrows its width; a 257th state is refused (the
``BlockStore`` keeps such a section as a plain array).
"""
from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

SECTION_VOLUME = 4096
StateArray = npt.NDArray[np.unsignedinteger[Any]]
# Bits per block for a palette of a given size: powers of two, so blocks never straddle bytes.
_WIDTHS = ((2, 1), (4, 2), (16, 4), (256, 8))
# log2 of blocks per byte, by bits per block (1 -> 8 a byte, 2 -> 4, 4 -> 2, 8 -> 1).
_PER_BYTE_LOG = (0, 3, 2, 0, 1, 0, 0, 0, 0)


def _width(states: int) -> int:
    for most, bits in _WIDTHS:
        if states <= most:
            return bits
    raise ValueError(f"{states} states do not fit a packed section")


def _pack(indices: npt.NDArray[np.integer[Any]], bits: int) -> bytearray:
    """4096 palette indices, ``8 // bits`` to a byte, the first in the low bits."""
    per = 8 // bits
    shifts = np.arange(per, dtype=np.uint8) * bits
    grouped = indices.astype(np.uint8).reshape(SECTION_VOLUME // per, per) << shifts
    return bytearray(np.bitwise_or.reduce(grouped, axis=1).astype(np.uint8).tobytes())


class PackedSection:
    """A section of at most 256 states: a palette and the blocks' palette indices, bit-packed."""

    __slots__ = ("palette", "bits", "data")

    def __init__(self, palette: StateArray, indices: npt.NDArray[np.integer[Any]]) -> None:
        self.palette = palette
        self.bits = _width(len(palette))
        self.data = _pack(indices, self.bits)

    @staticmethod
    def of(flat: StateArray, dtype: type[np.unsignedinteger[Any]]) -> "PackedSection | None":
        """Pack 4096 state ids, or None if they hold more than 256 states."""
        # Sorted states, then each block's place among the distinct ones: about twice as
        # fast as np.unique(return_inverse=True), which sorts with an argsort.
        ordered = np.sort(flat, kind="stable")
        first = np.empty(SECTION_VOLUME, dtype=np.bool_)
        first[0] = True
        np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
        palette = ordered[first]
        if len(palette) > 256:
            return None
        return PackedSection(palette.astype(dtype), np.searchsorted(palette, flat))

    def indices(self) -> npt.NDArray[np.uint8]:
        bits = self.bits
        raw = np.frombuffer(self.data, dtype=np.uint8)
        if bits == 8:
            return raw.copy()
        shifts = np.arange(8 // bits, dtype=np.uint8) * bits
        unpacked = (raw[:, None] >> shifts) & ((1 << bits) - 1)
        out: npt.NDArray[np.uint8] = unpacked.reshape(SECTION_VOLUME).astype(np.uint8, copy=False)
        return out

    def decode(self) -> StateArray:
        states: StateArray = self.palette[self.indices()]
        return states

    def get(self, index: int) -> int:
        bits = self.bits
        per_log = _PER_BYTE_LOG[bits]
        shift = (index & ((1 << per_log) - 1)) * bits
        return int(self.palette[(self.data[index >> per_log] >> shift) & ((1 << bits) - 1)])

    def set(self, index: int, state: int) -> bool:
        """Write one block; False if the palette is full at 256 states (the caller unpacks)."""
        found = np.flatnonzero(self.palette == state)
        if found.size:
            slot_value = int(found[0])
        else:
            if len(self.palette) >= 256:
                return False
            slot_value = len(self.palette)
            grown = np.append(self.palette, np.array([state], dtype=self.palette.dtype))
            if _width(len(grown)) != self.bits:
                indices = self.indices()
                self.palette = grown
                self.bits = _width(len(grown))
                self.data = _pack(indices, self.bits)
            else:
                self.palette = grown
        bits = self.bits
        per_log = _PER_BYTE_LOG[bits]
        shift = (index & ((1 << per_log) - 1)) * bits
        at = index >> per_log
        self.data[at] = (self.data[at] & ~(((1 << bits) - 1) << shift) & 0xFF) | (slot_value << shift)
        return True

    @property
    def nbytes(self) -> int:
        return len(self.data) + int(self.palette.nbytes)
