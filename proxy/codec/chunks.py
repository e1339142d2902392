"""Decode chunk columns, block changes and chunk unloads, for every supported version.

Pure: no Twisted, no quarry. One ``ChunkDecoder`` per connection, built from the
client's ``ProtocolTable``; the proxy hands it the packets it subscribed to (as the
raw packet, id included, or as fields ``VersionCodec.decode`` produced) and gets back
plain values for the block store. Hand ``map_chunk`` over raw: its fields from the
generic layout codec include the light arrays, decoded byte by byte (about 30x slower
than the whole column decode here). Damaged packets raise ``ChunkError`` (a
``PeerError``) and nothing else.

* ``decode_chunk("map_chunk" | "map_chunk_bulk", packet)`` -> ``ChunkColumn`` (a list
  of them for 1.8's ``map_chunk_bulk``; an empty list for 1.8's unload-by-empty-chunk).
* ``decode_block_change("block_change" | "multi_block_change", packet)`` ->
  ``[(x, y, z, state), ...]`` in world coordinates.
* ``decode_unload("unload_chunk" | 1.8 "map_chunk", packet)`` -> ``(cx, cz)`` or None.
* ``decode(name, packet)`` dispatches to the three and returns a list of
  ``ChunkColumn``/``BlockChanges``/``ChunkUnload``.
* ``note_dimension("login" | "respawn", fields)`` and ``note_registry(fields)``
  (configuration ``registry_data``) keep the dimension's ``min_y``/``height`` (1.17+)
  and sky light (before 1.14), which the chunk data layout depends on.

State ids are global block-state ids of the connection's version; before 1.13 that
is ``block_id << 4 | meta``. A section is a 4096-entry array in the order chunk
packets use: index ``(y * 16 + z) * 16 + x``.

How this works. The outer packet fields (x, z, bitmask, heightmaps) come from the
version's minecraft-data layout; only the fields up to ``chunkData`` are read (the
light arrays after it would cost tens of thousands of calls per column in the
generic layout codec). The chunk data buffer is parsed here. Its layout is not in
minecraft-data, so ``FORMATS`` below is the one table of how it changed, by protocol
number. Packed long arrays are unpacked with numpy: one gather-and-shift over 4096
entries per section instead of a Python loop (``unpack_longs``).

Sections that hold a single state (single-value palettes of 1.18+, and sections a
full column leaves out of its bitmask, which are air) are read-only broadcast views
(``uniform_state(array)`` returns their state); copy before writing into one.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Union

import attrs
import numpy as np
import numpy.typing as npt

from proxy.protocol import nbt
from proxy.protocol.errors import LayoutError, PeerError
from proxy.protocol.layout import LayoutCompiler
from proxy.protocol.tables import TO_CLIENT, ProtocolTable
from proxy.protocol.wire import read_varint

SECTION_VOLUME = 4096
Buffer = Union[bytes, bytearray, memoryview]
Fields = dict[str, Any]
Section = tuple[int, npt.NDArray[np.unsignedinteger[Any]]]
BlockChange = tuple[int, int, int, int]

CHUNK_PACKETS: tuple[str, ...] = ("map_chunk", "map_chunk_bulk", "block_change", "multi_block_change", "unload_chunk")
DIMENSION_PACKETS: tuple[str, ...] = ("login", "respawn")

_LONG = np.dtype(">u8")
_MAX_SECTIONS = 256  # 4096 blocks of height: more than any dimension type allows


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


@attrs.frozen
class BlockChanges:
    changes: tuple[BlockChange, ...]


@attrs.frozen
class ChunkUnload:
    cx: int
    cz: int


WorldUpdate = Union[ChunkColumn, BlockChanges, ChunkUnload]


@attrs.frozen
class Dimension:
    min_y: int
    height: int
    has_skylight: bool = True
    name: str | None = None
    known: bool = False  # False: defaults for the version, not read from the server


@attrs.frozen
class ChunkFormat:
    """How the chunk data buffer is laid out (from ``since`` protocol on)."""

    since: int
    family: str
    raw_u16: bool = False          # 1.8: 4096 little-endian u16 (id << 4 | meta) per section
    spanning: bool = True          # a packed value may straddle two longs (before 1.16)
    direct_palette_length: bool = False  # a dummy palette length 0 precedes direct data (1.9-1.12)
    light_in_data: bool = False    # block light (+ sky light) follow each section (before 1.14)
    block_count: bool = False      # a short non-air count opens each section (1.14+)
    biome_bytes: int = 0           # biomes after the sections of a full column
    containers: bool = False       # 1.18+: every section, block then biome paletted containers
    size_prefix: bool = True       # long arrays carry their length (before 1.21.5)
    fluid_count: bool = False      # a second short (fluid count) after the block count (26.1)
    dimension_mask: bool = False   # the bitmask covers the dimension's sections from min_y (1.17)
    default_min_y: int = 0
    default_height: int = 256


FORMATS: tuple[ChunkFormat, ...] = (
    ChunkFormat(47, "1.8", raw_u16=True, biome_bytes=256),
    ChunkFormat(107, "1.9", direct_palette_length=True, light_in_data=True, biome_bytes=256),
    ChunkFormat(393, "1.13", light_in_data=True, biome_bytes=1024),
    ChunkFormat(477, "1.14", block_count=True, biome_bytes=1024),
    ChunkFormat(573, "1.15", block_count=True),
    ChunkFormat(735, "1.16", block_count=True, spanning=False),
    ChunkFormat(755, "1.17", block_count=True, spanning=False, dimension_mask=True),
    ChunkFormat(757, "1.18", block_count=True, spanning=False, containers=True, default_min_y=-64,
                default_height=384),
    ChunkFormat(770, "1.21.5", block_count=True, spanning=False, containers=True, size_prefix=False,
                default_min_y=-64, default_height=384),
    ChunkFormat(775, "26.1", block_count=True, spanning=False, containers=True, size_prefix=False,
                fluid_count=True, default_min_y=-64, default_height=384),
)

# Vanilla dimension types, for servers whose registry we did not see (1.20.2+ sends it
# during configuration, and may leave out entries the client knows).
VANILLA_DIMENSIONS: dict[str, tuple[int, int, bool]] = {
    "minecraft:overworld": (-64, 384, True),
    "minecraft:overworld_caves": (-64, 384, True),
    "minecraft:the_nether": (0, 256, False),
    "minecraft:the_end": (0, 256, False),
}
# A 1.18+ column carries every section, so its section count names the height.
_MIN_Y_BY_SECTIONS = {24: -64, 16: 0}


def chunk_format(protocol: int) -> ChunkFormat:
    found = None
    for fmt in FORMATS:
        if protocol >= fmt.since:
            found = fmt
    if found is None:
        raise LayoutError(f"no chunk format for protocol {protocol}")
    return found


# -- packed long arrays ---------------------------------------------------------------

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


def _read_longs(data: Buffer, pos: int, n: int) -> tuple[npt.NDArray[np.uint64], int]:
    end = pos + 8 * n
    if n < 0 or end > len(data):
        raise ChunkError(f"truncated long array ({n} longs)")
    return np.frombuffer(data, dtype=_LONG, count=n, offset=pos).astype(np.uint64), end


def _varint(data: Buffer, pos: int) -> tuple[int, int]:
    try:
        return read_varint(data, pos)
    except PeerError as exc:
        raise ChunkError(str(exc)) from None


@lru_cache(maxsize=4096)
def _uniform(state: int) -> npt.NDArray[np.unsignedinteger[Any]]:
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


def _paletted(values: npt.NDArray[np.uint64], palette: list[int] | None) -> npt.NDArray[np.unsignedinteger[Any]]:
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


def _skip_varints_at(data: Buffer, pos: int, n: int) -> int:
    seen = 0
    end = len(data)
    while seen < n:
        if pos >= end:
            raise ChunkError("truncated varint array")
        if data[pos] < 0x80:
            seen += 1
        pos += 1
    return pos


def _read_palette(data: Buffer, pos: int) -> tuple[list[int], int]:
    n, pos = _varint(data, pos)
    if n <= 0 or n > SECTION_VOLUME:
        raise ChunkError(f"palette of {n} entries")
    return _read_varints(data, pos, n)


# -- the decoder ----------------------------------------------------------------------

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

    def paletted_sections(self, data: Buffer, indices: list[int], full: bool, dim: Dimension) -> list[npt.NDArray[Any]]:
        fmt = self.format
        if not fmt.light_in_data:
            sections, _ = self._parse_sections(data, indices, False)
            return sections
        # Sky light follows each section in dimensions that have it; the layout does
        # not say which, so prefer the dimension's answer, confirm it by where the
        # sections end, and try the other reading when they do not end where expected.
        expected = fmt.biome_bytes if full else 0
        best: tuple[int, list[npt.NDArray[Any]]] | None = None
        first_error: ChunkError | None = None
        for sky in (dim.has_skylight, not dim.has_skylight):
            try:
                sections, end = self._parse_sections(data, indices, sky)
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

    def _parse_sections(self, data: Buffer, indices: list[int], sky: bool) -> tuple[list[npt.NDArray[Any]], int]:
        fmt = self.format
        pos = 0
        out = []
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
                palette, pos = _read_palette(data, pos)
                bits = max(bits, 4)
            else:
                palette = None
                if fmt.direct_palette_length:
                    _, pos = _varint(data, pos)
            n, pos = _varint(data, pos)
            words, pos = _read_longs(data, pos, n)
            if fmt.spanning and n != longs_needed(bits, SECTION_VOLUME, True) and n and n % 64 == 0:
                bits = n // 64  # the long count pins the width when values span longs
            out.append(_paletted(unpack_longs(words, bits, SECTION_VOLUME, fmt.spanning), palette))
            pos += light
            if pos > len(data):
                raise ChunkError("truncated chunk light data")
        return out, pos

    def containers(self, data: Buffer, dim: Dimension) -> tuple[Section, ...]:
        """1.18+: every section of the dimension, block states then biomes."""
        fmt = self.format
        expected = dim.height // 16
        pos = 0
        sections: list[npt.NDArray[Any]] = []
        while pos < len(data) and len(sections) < _MAX_SECTIONS:
            try:
                pos += 4 if fmt.fluid_count else 2
                states, pos = self._container(data, pos, SECTION_VOLUME, 8, 4, True)
                _, pos = self._container(data, pos, 64, 3, 1, False)
            except ChunkError:
                if dim.known and len(sections) >= expected:
                    break  # trailing bytes after the dimension's sections
                raise
            assert states is not None
            sections.append(states)
        if pos > len(data):
            raise ChunkError("truncated chunk section")
        if dim.known and len(sections) >= expected:
            sections = sections[:expected]
            min_y = dim.min_y
        elif len(sections) == expected:
            min_y = dim.min_y
        else:
            min_y = _MIN_Y_BY_SECTIONS.get(len(sections), dim.min_y)
        base = min_y >> 4
        return tuple((base + i, states) for i, states in enumerate(sections))

    def _container(self, data: Buffer, pos: int, entries: int, indirect_max: int, min_bits: int,
                   decode: bool) -> tuple[npt.NDArray[Any] | None, int]:
        if pos >= len(data):
            raise ChunkError("truncated paletted container")
        bits = data[pos]
        pos += 1
        if bits > 32:  # no registry needs more; a value this size is a damaged packet
            raise ChunkError(f"{bits} bits per entry")
        prefixed = self.format.size_prefix
        if bits == 0:
            value, pos = _varint(data, pos)
            if prefixed:
                n, pos = _varint(data, pos)
                if n < 0 or pos + 8 * n > len(data):
                    raise ChunkError("truncated long array")
                pos += 8 * n
            return (_uniform(value) if decode else None), pos
        palette: list[int] | None = None
        if bits <= indirect_max:
            if decode:
                palette, pos = _read_palette(data, pos)
            else:
                n, pos = _varint(data, pos)
                if n <= 0 or n > entries:
                    raise ChunkError(f"palette of {n} entries")
                pos = _skip_varints_at(data, pos, n)
            bits = max(bits, min_bits)
        if prefixed:
            n, pos = _varint(data, pos)
        else:
            n = longs_needed(bits, entries, False)
        if not decode:
            if n < 0 or pos + 8 * n > len(data):
                raise ChunkError("truncated long array")
            return None, pos + 8 * n
        words, pos = _read_longs(data, pos, n)
        values = unpack_longs(words, bits, entries, False)
        if palette is not None and len(palette) == 1:
            return _uniform(palette[0]), pos
        return _paletted(values, palette), pos


class ChunkDecoder:
    """Per-connection chunk decoding for one protocol version."""

    def __init__(self, table: ProtocolTable, dimension: Dimension | None = None) -> None:
        self.table = table
        self.format = chunk_format(table.protocol)
        self.dimension = dimension or Dimension(self.format.default_min_y, self.format.default_height)
        # dimension type name -> (min_y, height, has_skylight), and the registry order
        # (1.20.5+ names the dimension type by its index in the registry).
        self._dimension_types: dict[str, tuple[int, int, bool]] = {}
        self._dimension_order: list[str] = []
        self._outer = self._outer_reader()
        self.sections = SectionReader(self.format)

    # -- dimension -------------------------------------------------------------------
    def set_dimension(self, min_y: int, height: int, has_skylight: bool = True, name: str | None = None) -> None:
        if height <= 0 or height % 16 or min_y % 16 or height // 16 > _MAX_SECTIONS:
            raise ChunkError(f"dimension min_y={min_y} height={height} is not whole sections")
        self.dimension = Dimension(min_y, height, has_skylight, name, known=True)

    def note_registry(self, fields: Fields) -> None:
        """Configuration ``registry_data`` (1.20.2+): remember the dimension types."""
        if "codec" in fields:  # 1.20.2-1.20.4: every registry in one NBT compound
            self._note_codec(fields["codec"])
            return
        if str(fields.get("id", "")).removeprefix("minecraft:") != "dimension_type":
            return
        order = []
        for entry in fields.get("entries") or []:
            key = str(entry.get("key"))
            if ":" not in key:
                key = "minecraft:" + key
            order.append(key)
            value = entry.get("value")
            if isinstance(value, dict):
                self._dimension_types[key] = self._type_values(value, key)
        self._dimension_order = order

    def _note_codec(self, codec: Any) -> None:
        if not isinstance(codec, dict):
            return
        registry = codec.get("minecraft:dimension_type")
        if not isinstance(registry, dict):
            return
        order = []
        for entry in registry.get("value") or []:
            if isinstance(entry, dict) and isinstance(entry.get("element"), dict):
                name = str(entry.get("name"))
                order.append(name)
                self._dimension_types[name] = self._type_values(entry["element"], name)
        self._dimension_order = order

    def _type_values(self, element: dict[str, Any], name: str | None) -> tuple[int, int, bool]:
        vanilla = VANILLA_DIMENSIONS.get(name or "")
        min_y = element.get("min_y", vanilla[0] if vanilla else self.format.default_min_y)
        height = element.get("height", vanilla[1] if vanilla else self.format.default_height)
        sky = element.get("has_skylight", vanilla[2] if vanilla else True)
        if self.format.since < 755:  # before 1.17 every dimension is 0..256
            min_y, height = 0, 256
        return int(min_y), int(height), bool(sky)

    def note_dimension(self, packet_name: str, fields: Fields) -> Dimension:
        """Set the dimension from a ``login`` or ``respawn`` packet's fields and return it.

        Reads what the version carries: a dimension number (before 1.16), the dimension
        type NBT (1.16.2-1.18.2), a dimension type name looked up in the registry from
        login (1.19-1.20.1) or configuration (1.20.2+, ``note_registry``), or the
        registry index (1.20.5+). Falls back to vanilla values by dimension name, then
        to the version's overworld (min_y -64, height 384 from 1.18; 0 and 256 before),
        with ``known`` False. Never raises: the login must go on whatever the server sent.
        The proxy should clear its block store when the returned ``name`` changes.
        """
        if packet_name == "login" and "dimensionCodec" in fields:
            self._note_codec(fields["dimensionCodec"])
        spawn = fields.get("worldState")
        state: Fields = spawn if isinstance(spawn, dict) else fields
        raw = state.get("dimension", state.get("worldType"))
        if packet_name == "login" and "worldType" in state:
            raw = state["worldType"]
        name: str | None = None
        values: tuple[int, int, bool] | None = None
        if isinstance(raw, dict):  # dimension type NBT (1.16.2-1.18.2)
            name = str(state.get("worldName") or "") or None
            values = self._type_values(raw, name)
        elif isinstance(raw, str):
            name = raw
            values = self._dimension_types.get(name)
        elif isinstance(raw, int) and isinstance(state.get("name"), str):  # 1.20.5+: registry index
            if 0 <= raw < len(self._dimension_order):
                name = self._dimension_order[raw]
                values = self._dimension_types.get(name)
            if values is None:
                name = state["name"]
        elif isinstance(raw, int):  # before 1.16: -1 nether, 0 overworld, 1 end
            name = {-1: "minecraft:the_nether", 0: "minecraft:overworld", 1: "minecraft:the_end"}.get(raw)
            values = (0, 256, raw == 0)
        if values is None and name in VANILLA_DIMENSIONS:
            values = self._type_values({}, name)
        if values is not None:
            try:
                self.set_dimension(values[0], values[1], values[2], name)
                return self.dimension
            except ChunkError:
                pass  # not whole sections: no vanilla client accepts it either; use defaults
        self.dimension = Dimension(self.format.default_min_y, self.format.default_height, True, name)
        return self.dimension

    # -- dispatch --------------------------------------------------------------------
    def decode(self, packet_name: str, packet: Buffer | Fields) -> list[WorldUpdate]:
        if packet_name == "unload_chunk":
            fields = self._fields(packet_name, packet)
            return [ChunkUnload(int(fields["chunkX"]), int(fields["chunkZ"]))]
        if packet_name in ("block_change", "multi_block_change"):
            return [BlockChanges(tuple(self.decode_block_change(packet_name, packet)))]
        if packet_name == "map_chunk":
            fields = self._map_chunk_fields(packet)
            unload = self._legacy_unload(fields)
            if unload is not None:
                return [ChunkUnload(*unload)]
            return [self._column(fields)]
        if packet_name == "map_chunk_bulk":
            return list(self._bulk(self._fields(packet_name, packet)))
        raise KeyError(f"not a chunk packet: {packet_name}")

    # -- chunk columns ---------------------------------------------------------------
    def decode_chunk(self, packet_name: str, packet: Buffer | Fields) -> ChunkColumn | list[ChunkColumn]:
        """A ``map_chunk`` column, or the columns of a 1.8 ``map_chunk_bulk``.

        A 1.8 ``map_chunk`` that unloads (ground-up with no sections) yields ``[]``;
        ``decode_unload`` gives its coordinates.
        """
        if packet_name == "map_chunk_bulk":
            return self._bulk(self._fields(packet_name, packet))
        if packet_name != "map_chunk":
            raise KeyError(f"not a chunk column packet: {packet_name}")
        fields = self._map_chunk_fields(packet)
        if self._legacy_unload(fields) is not None:
            return []
        return self._column(fields)

    def decode_unload(self, packet_name: str, packet: Buffer | Fields) -> tuple[int, int] | None:
        """``(cx, cz)`` of an ``unload_chunk``, or of a 1.8 ``map_chunk`` that unloads
        (None for a 1.8 ``map_chunk`` that loads)."""
        if packet_name == "unload_chunk":
            fields = self._fields(packet_name, packet)
            return int(fields["chunkX"]), int(fields["chunkZ"])
        if packet_name == "map_chunk":
            return self._legacy_unload(self._map_chunk_fields(packet))
        raise KeyError(f"not an unload packet: {packet_name}")

    def _legacy_unload(self, fields: Fields) -> tuple[int, int] | None:
        # 1.8 has no unload packet: a ground-up column with no sections unloads.
        if self.format.raw_u16 and fields.get("groundUp") and not fields.get("bitMap"):
            return int(fields["x"]), int(fields["z"])
        return None

    def _fields(self, packet_name: str, packet: Buffer | Fields) -> Fields:
        if isinstance(packet, dict):
            return packet
        codec = self.table.codec("play", TO_CLIENT, packet_name)
        if codec is None:
            raise ChunkError(f"{self.table.version} has no layout for {packet_name}")
        _, pos = _varint(packet, 0)
        try:
            fields, _ = codec.decode(packet, pos, [])
        except ChunkError:
            raise
        except PeerError as exc:
            raise ChunkError(f"{packet_name}: {exc}") from None
        if not isinstance(fields, dict):
            raise ChunkError(f"{packet_name} did not decode to fields")
        return fields

    def _map_chunk_fields(self, packet: Buffer | Fields) -> Fields:
        if isinstance(packet, dict):
            return packet
        _, pos = _varint(packet, 0)
        fields: Fields = {}
        try:
            for name, reader in self._outer:
                fields[name], pos = reader(packet, pos, fields)
        except ChunkError:
            raise
        except PeerError as exc:  # NBT heightmaps
            raise ChunkError(f"map_chunk: {exc}") from None
        return fields

    def _outer_reader(self) -> list[tuple[str, Callable[[Buffer, int, Fields], tuple[Any, int]]]]:
        """Readers for the ``map_chunk`` fields up to ``chunkData``, from the layout."""
        layout = self.table.raw_layout("play", TO_CLIENT, "map_chunk")
        if not (isinstance(layout, list) and layout and layout[0] == "container"):
            return []
        readers = []
        compiler = LayoutCompiler({"ByteArray": ["buffer", {"countType": "varint"}]})
        for field in layout[1]:
            name = field.get("name")
            readers.append((name, self._field_reader(field["type"], compiler)))
            if name == "chunkData":
                return readers
        raise LayoutError(f"{self.table.version}: map_chunk has no chunkData field")

    def _field_reader(self, kind: Any, compiler: LayoutCompiler) -> Callable[[Buffer, int, Fields], tuple[Any, int]]:
        # Fast readers for the shapes minecraft-data uses; anything else goes through
        # the generic layout compiler.
        if kind in ("nbt", "anonymousNbt"):
            named = kind == "nbt"
            return lambda data, pos, fields: nbt.read_nbt(data, pos, named_root=named)
        if isinstance(kind, list) and kind[0] == "array" and kind[1].get("countType") == "varint":
            inner = kind[1].get("type")
            if inner == "i64":
                def longs(data: Buffer, pos: int, fields: Fields) -> tuple[Any, int]:
                    n, pos = _varint(data, pos)
                    words, pos = _read_longs(data, pos, n)
                    return [int(w) for w in words], pos
                return longs
            if inner == "varint":
                return _skip_varints
        if isinstance(kind, list) and kind[0] == "switch":
            path = kind[1]["compareTo"]
            cases = {str(k): self._field_reader(v, compiler) for k, v in kind[1].get("fields", {}).items()}
            default = self._field_reader(kind[1]["default"], compiler) if "default" in kind[1] else None

            def switch(data: Buffer, pos: int, fields: Fields) -> tuple[Any, int]:
                key = fields.get(path)
                reader = cases.get("true" if key is True else "false" if key is False else str(key), default)
                return (None, pos) if reader is None else reader(data, pos, fields)
            return switch
        if isinstance(kind, list) and kind[0] == "array" and kind[1].get("count") == 1024 and kind[1].get("type") == "i32":
            def biomes(data: Buffer, pos: int, fields: Fields) -> tuple[Any, int]:
                if pos + 4096 > len(data):
                    raise ChunkError("truncated biomes")
                return None, pos + 4096
            return biomes
        codec = compiler.compile(kind)

        def generic(data: Buffer, pos: int, fields: Fields) -> tuple[Any, int]:
            try:
                return codec.decode(data, pos, [fields])
            except ChunkError:
                raise
            except PeerError as exc:
                raise ChunkError(f"map_chunk: {exc}") from None
        return generic

    def _column(self, fields: Fields) -> ChunkColumn:
        fmt = self.format
        cx, cz = int(fields["x"]), int(fields["z"])
        data = fields["chunkData"]
        full = bool(fields.get("groundUp", True))
        if fmt.containers:
            return ChunkColumn(cx, cz, self.sections.containers(data, self.dimension), True)
        mask = fields.get("bitMap", 0)
        if isinstance(mask, (list, tuple)):  # 1.17: a BitSet as longs
            mask = sum((int(w) & 0xFFFFFFFFFFFFFFFF) << (64 * i) for i, w in enumerate(mask))
        count = self.dimension.height // 16 if fmt.dimension_mask else 16
        indices = [i for i in range(count) if int(mask) >> i & 1]
        base = self.dimension.min_y >> 4 if fmt.dimension_mask else 0
        if fmt.raw_u16:
            sections = self.sections.raw_sections(data, 0, indices)[0]
        else:
            sections = self.sections.paletted_sections(data, indices, full, self.dimension)
        listed = dict(zip((base + i for i in indices), sections))
        if full:
            out = tuple((base + i, listed.get(base + i, _AIR_SECTION)) for i in range(count))
        else:
            out = tuple(listed.items())
        return ChunkColumn(cx, cz, out, full)

    def _bulk(self, fields: Fields) -> list[ChunkColumn]:
        data = fields["data"]
        sky = bool(fields.get("skyLightSent", True))
        pos = 0
        columns = []
        for meta in fields.get("meta") or []:
            indices = [i for i in range(16) if int(meta["bitMap"]) >> i & 1]
            sections, pos = self.sections.raw_sections(data, pos, indices)
            pos += len(indices) * (2048 + (2048 if sky else 0)) + 256
            if pos > len(data):
                raise ChunkError("truncated map_chunk_bulk data")
            listed = dict(zip(indices, sections))
            out = tuple((i, listed.get(i, _AIR_SECTION)) for i in range(16))
            columns.append(ChunkColumn(int(meta["x"]), int(meta["z"]), out, True))
        return columns

    # -- block changes ---------------------------------------------------------------
    def decode_block_change(self, packet_name: str, packet: Buffer | Fields) -> list[BlockChange]:
        """World ``(x, y, z, state)`` of a ``block_change`` or ``multi_block_change``."""
        fields = self._fields(packet_name, packet)
        if packet_name == "block_change":
            loc = fields["location"]
            return [(int(loc["x"]), int(loc["y"]), int(loc["z"]), int(fields["type"]))]
        if packet_name != "multi_block_change":
            raise KeyError(f"not a block change packet: {packet_name}")
        if "chunkCoordinates" in fields:  # 1.16.2+: a section and packed records
            sec = fields["chunkCoordinates"]
            bx, by, bz = int(sec["x"]) << 4, int(sec["y"]) << 4, int(sec["z"]) << 4
            out = []
            for record in fields["records"]:
                record = int(record)
                out.append((bx + (record >> 8 & 15), by + (record & 15), bz + (record >> 4 & 15), record >> 12))
            return out
        bx, bz = int(fields["chunkX"]) << 4, int(fields["chunkZ"]) << 4
        return [(bx + (r["horizontalPos"] >> 4 & 15), int(r["y"]), bz + (r["horizontalPos"] & 15), int(r["blockId"]))
                for r in fields["records"]]


def _skip_varints(data: Buffer, pos: int, fields: Fields) -> tuple[Any, int]:
    """Skip a varint-counted array of varints (1.16.2-1.17 biomes) without decoding it."""
    n, pos = _varint(data, pos)
    if n < 0 or n > SECTION_VOLUME * 4:
        raise ChunkError(f"{n} biome entries")
    if n == 0:
        return None, pos
    window = np.frombuffer(data, dtype=np.uint8, count=min(len(data) - pos, 5 * n), offset=pos)
    ends = np.flatnonzero(window < 0x80)
    if len(ends) < n:
        raise ChunkError("truncated biome array")
    return None, pos + int(ends[n - 1]) + 1


_AIR_SECTION = _uniform(0)

