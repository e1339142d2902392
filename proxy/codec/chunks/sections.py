"""The block sections inside one chunk packet's data buffer, for each format family.

How this works. ``SectionReader`` walks the buffer from its start, one section at a
time, in the layout its ``ChunkFormat`` describes:

* 1.8 (``raw_sections``): 4096 little-endian u16 states per listed section, back to back.
* 1.9-1.17 (``paletted_sections``): per listed section an optional non-air count, the
  bits per entry, a palette (or none: direct states), a length-prefixed long array,
  then block and sky light before 1.14. Whether sky light is there is tried both ways
  and confirmed by where the sections end.
* 1.18+ (``containers``): every section of the dimension, each a block-state paletted
  container then a biome one (skipped); a single-value container becomes a uniform
  view. The section count, when the dimension is not known, names the height.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from proxy.codec.chunks.formats import MAX_SECTIONS, MIN_Y_BY_SECTIONS, ChunkFormat
from proxy.codec.chunks.packed import (
    longs_needed,
    paletted,
    read_longs,
    read_palette,
    skip_varints_at,
    uniform,
    unpack_longs,
    varint,
)
from proxy.codec.chunks.values import SECTION_VOLUME, Buffer, ChunkError, Dimension, Section

class SectionReader:
    """The block sections of one chunk packet's data, in one version's format: raw 1.8
    arrays, paletted sections (1.9-1.17) or paletted containers (1.18+)."""

    def __init__(self, fmt: ChunkFormat) -> None:
        self.format = fmt

    def raw_sections(self, data: Buffer, pos: int, indices: list[int]) -> tuple[list[npt.NDArray[np.uint16]], int]:
        end = pos + 8192 * len(indices)
        if end > len(data):
            raise ChunkError(f"truncated 1.8 chunk data ({len(data) - pos} bytes for {len(indices)} sections)")
        blocks = np.frombuffer(data, dtype="<u2", count=SECTION_VOLUME * len(indices), offset=pos)
        blocks = blocks.astype(np.uint16)
        return [blocks[k * SECTION_VOLUME:(k + 1) * SECTION_VOLUME] for k in range(len(indices))], end

    def paletted_sections(self, data: Buffer, indices: list[int], full: bool, dim: Dimension,
                          decode: bool = True) -> list[npt.NDArray[Any] | None]:
        """The listed sections' states; with ``decode`` False only the walk (every length and
        palette checked, no long array unpacked) and None for each: a lazy column's check."""
        fmt = self.format
        if not fmt.light_in_data:
            sections, _ = self._parse_sections(data, indices, False, decode)
            return sections
        # Sky light follows each section in dimensions that have it; the layout does
        # not say which, so prefer the dimension's answer, confirm it by where the
        # sections end, and try the other reading when they do not end where expected.
        expected = fmt.biome_bytes if full else 0
        best: tuple[int, list[npt.NDArray[Any] | None]] | None = None
        first_error: ChunkError | None = None
        for sky in (dim.has_skylight, not dim.has_skylight):
            try:
                sections, end = self._parse_sections(data, indices, sky, decode)
            except ChunkError as exc:
                first_error = first_error or exc
                continue
            rest = len(data) - end
            score = 0 if rest == expected else 1 if rest == 0 else 2
            if score == 0:
                return sections
            if best is None or score < best[0]:
                best = (score, sections)
        if best is None:
            assert first_error is not None
            raise first_error
        return best[1]

    def _parse_sections(self, data: Buffer, indices: list[int], sky: bool,
                        decode: bool = True) -> tuple[list[npt.NDArray[Any] | None], int]:
        fmt = self.format
        pos = 0
        out: list[npt.NDArray[Any] | None] = []
        light = (2048 + (2048 if sky else 0)) if fmt.light_in_data else 0
        for _ in indices:
            if fmt.block_count:
                pos += 2
            if pos >= len(data):
                raise ChunkError("truncated chunk section")
            bits = data[pos]
            pos += 1
            palette: list[int] | None
            if bits <= 8:
                palette, pos = read_palette(data, pos)
                bits = max(bits, 4)
            else:
                palette = None
                if fmt.direct_palette_length:
                    _, pos = varint(data, pos)
            n, pos = varint(data, pos)
            words, pos = read_longs(data, pos, n)
            if fmt.spanning and n != longs_needed(bits, SECTION_VOLUME, True) and n and n % 64 == 0:
                bits = n // 64  # the long count pins the width when values span longs
            if decode:
                out.append(paletted(unpack_longs(words, bits, SECTION_VOLUME, fmt.spanning), palette))
            else:
                _check_longs(n, bits, fmt.spanning)
                out.append(None)
            pos += light
            if pos > len(data):
                raise ChunkError("truncated chunk light data")
        return out, pos

    def containers(self, data: Buffer, dim: Dimension, decode: bool = True) -> tuple[Section, ...]:
        """1.18+: every section of the dimension, block states then biomes. With ``decode``
        False only the walk (lengths checked, no long array unpacked): the section ys of a
        lazy column, each with an empty array."""
        fmt = self.format
        expected = dim.height // 16
        pos = 0
        sections: list[npt.NDArray[Any]] = []
        while pos < len(data) and len(sections) < MAX_SECTIONS:
            try:
                pos += 4 if fmt.fluid_count else 2
                states, pos = self._container(data, pos, SECTION_VOLUME, 8, 4, decode, check=True)
                _, pos = self._container(data, pos, 64, 3, 1, False)
            except ChunkError:
                if dim.known and len(sections) >= expected:
                    break  # trailing bytes after the dimension's sections
                raise
            sections.append(_NOTHING if states is None else states)
        if pos > len(data):
            raise ChunkError("truncated chunk section")
        if dim.known and len(sections) >= expected:
            sections = sections[:expected]
            min_y = dim.min_y
        elif len(sections) == expected:
            min_y = dim.min_y
        else:
            min_y = MIN_Y_BY_SECTIONS.get(len(sections), dim.min_y)
        base = min_y >> 4
        return tuple((base + i, states) for i, states in enumerate(sections))

    def _container(self, data: Buffer, pos: int, entries: int, indirect_max: int, min_bits: int,
                   decode: bool, check: bool = False) -> tuple[npt.NDArray[Any] | None, int]:
        if pos >= len(data):
            raise ChunkError("truncated paletted container")
        bits = data[pos]
        pos += 1
        if bits > 32:  # no registry needs more; a value this size is a damaged packet
            raise ChunkError(f"{bits} bits per entry")
        prefixed = self.format.size_prefix
        if bits == 0:
            value, pos = varint(data, pos)
            if prefixed:
                n, pos = varint(data, pos)
                if n < 0 or pos + 8 * n > len(data):
                    raise ChunkError("truncated long array")
                pos += 8 * n
            return (uniform(value) if decode else None), pos
        palette: list[int] | None = None
        if bits <= indirect_max:
            if decode:
                palette, pos = read_palette(data, pos)
            else:
                n, pos = varint(data, pos)
                if n <= 0 or n > entries:
                    raise ChunkError(f"palette of {n} entries")
                pos = skip_varints_at(data, pos, n)
            bits = max(bits, min_bits)
        if prefixed:
            n, pos = varint(data, pos)
        else:
            n = longs_needed(bits, entries, False)
        if not decode:
            if n < 0 or pos + 8 * n > len(data):
                raise ChunkError("truncated long array")
            if check:  # what unpacking would find wrong with the array's length
                _check_longs(n, bits, False, entries)
            return None, pos + 8 * n
        words, pos = read_longs(data, pos, n)
        values = unpack_longs(words, bits, entries, False)
        if palette is not None and len(palette) == 1:
            return uniform(palette[0]), pos
        return paletted(values, palette), pos


_NOTHING: npt.NDArray[Any] = np.empty(0, dtype=np.uint16)


def _check_longs(n: int, bits: int, spanning: bool, entries: int = SECTION_VOLUME) -> None:
    # The checks ``unpack_longs`` makes, without unpacking: a walked section that passes
    # them decodes later unless its palette indices or states are damaged.
    if not 1 <= bits <= 64:
        raise ChunkError(f"{bits} bits per entry")
    if n < longs_needed(bits, entries, spanning):
        raise ChunkError(f"{n} longs hold fewer than {entries} entries of {bits} bits")
