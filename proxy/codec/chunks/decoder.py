"""The per-connection chunk decoder: packets in, ``WorldUpdate`` values out.

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

How this works. The outer packet fields (x, z, bitmask, heightmaps) come from the
version's minecraft-data layout; only the fields up to ``chunkData`` are read (the
light arrays after it would cost tens of thousands of calls per column in the
generic layout codec). The chunk data buffer itself goes to ``sections.SectionReader``;
this module places its sections in the column (air for those a full column leaves
out of its bitmask).

Lazily (``decode(..., lazy=True)``, what the proxy's world feed asks for) a column is walked,
not decoded: every length and palette size is checked as decoding would, no long array is
unpacked, and a ``LazyColumn`` keeps a copy of the chunk data (without the light arrays)
and the dimension it was sent in; the block store decodes it when something first reads
one of its sections, with the same result as decoding it at once.
"""
from __future__ import annotations

import zlib
from typing import Any, Callable

from proxy.codec.chunks.formats import MAX_SECTIONS, VANILLA_DIMENSIONS, chunk_format
from proxy.codec.chunks.packed import read_longs, skip_varints, uniform, varint
from proxy.codec.chunks.sections import SectionReader
from proxy.codec.chunks.values import (
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
from proxy.protocol import nbt
from proxy.protocol.errors import LayoutError, PeerError
from proxy.protocol.layout import LayoutCompiler
from proxy.protocol.tables import TO_CLIENT, ProtocolTable

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
        # Shared by the lazy columns (~450 a player): one ys tuple per distinct ys and one
        # decode function per dimension, not a tuple and a closure each.
        self._ys_forms: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._container_decoders: dict[Dimension, Callable[[bytes], tuple[Section, ...]]] = {}

    # -- dimension -------------------------------------------------------------------
    def set_dimension(self, min_y: int, height: int, has_skylight: bool = True, name: str | None = None) -> None:
        if height <= 0 or height % 16 or min_y % 16 or height // 16 > MAX_SECTIONS:
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
    def decode(self, packet_name: str, packet: Buffer | Fields, lazy: bool = False) -> list[WorldUpdate]:
        """``lazy``: a column comes back as a ``LazyColumn`` (checked, its data kept, not decoded)."""
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
            return [self._column(fields, lazy)]
        if packet_name == "map_chunk_bulk":
            return list(self._bulk(self._fields(packet_name, packet), lazy))
        raise KeyError(f"not a chunk packet: {packet_name}")

    # -- chunk columns ---------------------------------------------------------------
    def decode_chunk(self, packet_name: str, packet: Buffer | Fields) -> ChunkColumn | list[ChunkColumn]:
        """A ``map_chunk`` column, or the columns of a 1.8 ``map_chunk_bulk``.

        A 1.8 ``map_chunk`` that unloads (ground-up with no sections) yields ``[]``;
        ``decode_unload`` gives its coordinates.
        """
        if packet_name == "map_chunk_bulk":
            return [c for c in self._bulk(self._fields(packet_name, packet)) if isinstance(c, ChunkColumn)]
        if packet_name != "map_chunk":
            raise KeyError(f"not a chunk column packet: {packet_name}")
        fields = self._map_chunk_fields(packet)
        if self._legacy_unload(fields) is not None:
            return []
        column = self._column(fields)
        assert isinstance(column, ChunkColumn)
        return column

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
        _, pos = varint(packet, 0)
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
        _, pos = varint(packet, 0)
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
                    n, pos = varint(data, pos)
                    words, pos = read_longs(data, pos, n)
                    return [int(w) for w in words], pos
                return longs
            if inner == "varint":
                return skip_varints
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

    def _column(self, fields: Fields, lazy: bool = False) -> ChunkColumn | LazyColumn:
        fmt = self.format
        reader = self.sections
        dim = self.dimension
        cx, cz = int(fields["x"]), int(fields["z"])
        data = fields["chunkData"]
        full = bool(fields.get("groundUp", True))
        if fmt.containers:
            if not lazy:
                return ChunkColumn(cx, cz, reader.containers(data, dim), True)
            ys = self._ys(tuple(y for y, _ in reader.containers(data, dim, decode=False)))
            decode = self._container_decoders.get(dim)
            if decode is None:
                decode = self._container_decoders[dim] = lambda kept: reader.containers(kept, dim)
            return LazyColumn(cx, cz, True, ys, _kept(data), decode)
        mask = fields.get("bitMap", 0)
        if isinstance(mask, (list, tuple)):  # 1.17: a BitSet as longs
            mask = sum((int(w) & 0xFFFFFFFFFFFFFFFF) << (64 * i) for i, w in enumerate(mask))
        count = dim.height // 16 if fmt.dimension_mask else 16
        indices = [i for i in range(count) if int(mask) >> i & 1]
        base = dim.min_y >> 4 if fmt.dimension_mask else 0

        def sections(kept: Buffer) -> tuple[Section, ...]:
            if fmt.raw_u16:
                found: list[Any] = list(reader.raw_sections(kept, 0, indices)[0])
            else:
                found = list(reader.paletted_sections(kept, indices, full, dim))
            listed = dict(zip((base + i for i in indices), found))
            if full:
                return tuple((base + i, listed.get(base + i, _AIR_SECTION)) for i in range(count))
            return tuple(listed.items())

        if not lazy:
            return ChunkColumn(cx, cz, sections(data), full)
        if fmt.raw_u16:
            data = data[:_raw_length(data, 0, len(indices))]
        else:
            reader.paletted_sections(data, indices, full, dim, decode=False)
        ys = self._ys(tuple(base + i for i in (range(count) if full else indices)))
        return LazyColumn(cx, cz, full, ys, _kept(data), sections)

    def _ys(self, ys: tuple[int, ...]) -> tuple[int, ...]:
        return self._ys_forms.setdefault(ys, ys)

    def _bulk(self, fields: Fields, lazy: bool = False) -> list[ChunkColumn | LazyColumn]:
        data = fields["data"]
        sky = bool(fields.get("skyLightSent", True))
        reader = self.sections
        pos = 0
        columns: list[ChunkColumn | LazyColumn] = []
        for meta in fields.get("meta") or []:
            indices = [i for i in range(16) if int(meta["bitMap"]) >> i & 1]
            start, end = pos, _raw_length(data, pos, len(indices))
            pos = end + len(indices) * (2048 + (2048 if sky else 0)) + 256
            if pos > len(data):
                raise ChunkError("truncated map_chunk_bulk data")

            def sections(kept: Buffer, indices: list[int] = indices) -> tuple[Section, ...]:
                listed = dict(zip(indices, reader.raw_sections(kept, 0, indices)[0]))
                return tuple((i, listed.get(i, _AIR_SECTION)) for i in range(16))

            cx, cz = int(meta["x"]), int(meta["z"])
            if lazy:
                columns.append(LazyColumn(cx, cz, True, tuple(range(16)), _kept(data[start:end]), sections))
            else:
                columns.append(ChunkColumn(cx, cz, sections(data[start:end]), True))
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


def _kept(data: Buffer) -> bytes:
    # Level 1: a column is deflated in tens of microseconds, to a fraction of its size.
    return zlib.compress(data, 1)


def _raw_length(data: Buffer, pos: int, count: int) -> int:
    """Where ``count`` 1.8 sections starting at ``pos`` end (checked against the buffer)."""
    end = pos + 8192 * count
    if end > len(data):
        raise ChunkError(f"truncated 1.8 chunk data ({len(data) - pos} bytes for {count} sections)")
    return end


_AIR_SECTION = uniform(0)
