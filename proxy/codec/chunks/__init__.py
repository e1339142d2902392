"""Chunk columns, block changes and chunk unloads, for every supported version.

* ``decoder``: ``ChunkDecoder``, one per connection: packets in, ``WorldUpdate`` values
  out; reads the outer ``map_chunk`` fields and follows the dimension.
* ``sections``: ``SectionReader``, the walker of the chunk data buffer (1.8 raw states,
  1.9-1.17 paletted sections, 1.18+ paletted containers).
* ``packed``: packed long arrays (numpy), varint arrays, palettes, uniform sections.
* ``formats``: ``ChunkFormat`` and ``FORMATS``, how the buffer changed by protocol;
  the vanilla dimension types.
* ``values``: what callers get back (``ChunkColumn``, ``LazyColumn``, ``BlockChanges``, ``ChunkUnload``,
  ``Dimension``) and ``ChunkError``.

Callers import from here.
"""
from __future__ import annotations

from proxy.codec.chunks.decoder import ChunkDecoder
from proxy.codec.chunks.formats import FORMATS, VANILLA_DIMENSIONS, ChunkFormat, chunk_format
from proxy.codec.chunks.packed import longs_needed, uniform_state, unpack_longs
from proxy.codec.chunks.sections import SectionReader
from proxy.codec.chunks.values import (
    SECTION_VOLUME,
    BlockChange,
    BlockChanges,
    Buffer,
    ChunkColumn,
    ChunkError,
    ChunkUnload,
    Dimension,
    Fields,
    LazyColumn,
    Section,
    WorldUpdate,
)

__all__ = [
    "FORMATS",
    "SECTION_VOLUME",
    "VANILLA_DIMENSIONS",
    "BlockChange",
    "BlockChanges",
    "Buffer",
    "ChunkColumn",
    "ChunkDecoder",
    "ChunkError",
    "ChunkFormat",
    "ChunkUnload",
    "Dimension",
    "Fields",
    "LazyColumn",
    "Section",
    "SectionReader",
    "WorldUpdate",
    "chunk_format",
    "longs_needed",
    "uniform_state",
    "unpack_longs",
]
