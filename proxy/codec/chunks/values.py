"""What chunk decoding hands back: columns, block changes, unloads, the dimension.

State ids are global block-state ids of the connection's version; before 1.13 that
is ``block_id << 4 | meta``. A section is a 4096-entry array in the order chunk
packets use: index ``(y * 16 + z) * 16 + x``. Sections that hold a single state are
read-only broadcast views (``packed.uniform_state`` tells them apart); copy before
writing into one.
"""
from __future__ import annotations

from typing import Any, Callable, Union

import zlib

import attrs
import numpy as np
import numpy.typing as npt

from proxy.protocol.errors import PeerError

SECTION_VOLUME = 4096
Buffer = Union[bytes, bytearray, memoryview]
Fields = dict[str, Any]
Section = tuple[int, npt.NDArray[np.unsignedinteger[Any]]]
BlockChange = tuple[int, int, int, int]


class ChunkError(PeerError):
    """A chunk or block-change packet from the server that cannot be decoded."""


@attrs.frozen(eq=False)
class ChunkColumn:
    """One decoded column. ``full``: it replaces whatever the client had for the column
    (every section of the dimension is listed); otherwise only the listed sections
    change (pre-1.17 ``groundUp`` false)."""

    cx: int
    cz: int
    sections: tuple[Section, ...]
    full: bool

    def section(self, sy: int) -> npt.NDArray[np.unsignedinteger[Any]] | None:
        for y, states in self.sections:
            if y == sy:
                return states
        return None

    def block(self, x: int, y: int, z: int) -> int | None:
        """State at world (x, y, z) if this column carries its section."""
        states = self.section(y >> 4)
        if states is None:
            return None
        return int(states[((y & 15) << 8) | ((z & 15) << 4) | (x & 15)])


@attrs.frozen(eq=False)
class LazyColumn:
    """A column checked but not decoded: the chunk data's bytes (deflated at level 1, without
    the light arrays that follow it in the packet: raw, they weigh more than the store's
    packed sections, ~10 KB a column on 1.21) and how to decode them. ``ys``: the sections the
    column will hold. ``decode()`` gives the sections ``ChunkColumn`` would have held; for a
    packet whose damage only decoding finds (a palette index beyond its palette), no
    sections and ``error`` set: the column stays unknown, the connection goes on."""

    cx: int
    cz: int
    full: bool
    ys: tuple[int, ...]
    data: bytes
    _decode: Callable[[bytes], tuple[Section, ...]]
    error: list[str] = attrs.field(factory=list)

    @property
    def nbytes(self) -> int:
        return len(self.data)

    def decode(self) -> tuple[Section, ...]:
        try:
            return self._decode(zlib.decompress(self.data))
        except ChunkError as exc:
            self.error.append(str(exc))
            return ()

    def column(self) -> ChunkColumn:
        return ChunkColumn(self.cx, self.cz, self.decode(), self.full)


@attrs.frozen
class BlockChanges:
    changes: tuple[BlockChange, ...]


@attrs.frozen
class ChunkUnload:
    cx: int
    cz: int


WorldUpdate = Union[ChunkColumn, LazyColumn, BlockChanges, ChunkUnload]


@attrs.frozen
class Dimension:
    min_y: int
    height: int
    has_skylight: bool = True
    name: str | None = None
    known: bool = False  # False: defaults for the version, not read from the server
