"""proxy/codec/chunks/: chunk columns, block changes and unloads for every version family.

The encoder below is for tests only. It packs long arrays with plain Python integers
(an independent reference for the numpy unpacking), builds chunk data buffers the
way each format family lays them out, and wraps them in packets through the
version's own layout codec, so the outer fields are checked as well.
"""
from __future__ import annotations

import functools
import random
import struct
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proxy.codec.chunks import (
    FORMATS,
    BlockChanges,
    ChunkColumn,
    ChunkDecoder,
    ChunkError,
    ChunkFormat,
    ChunkUnload,
    chunk_format,
    longs_needed,
    uniform_state,
    unpack_longs,
)
from proxy.protocol.tables import TO_CLIENT, ProtocolTable, table_for_version
from proxy.protocol.wire import pack_varint
from proxy.protocol.versions import SUPPORTED

VERSIONS = [v.name for v in SUPPORTED]

# -- test-only encoder ------------------------------------------------------------------


def pack_longs(values: list[int], bits: int, spanning: bool) -> list[int]:
    """Reference packing with Python integers (unsigned 64-bit words)."""
    mask = (1 << bits) - 1
    if spanning:
        stream = 0
        for i, v in enumerate(values):
            stream |= (v & mask) << (i * bits)
        n = longs_needed(bits, len(values), True)
        return [(stream >> (64 * k)) & 0xFFFFFFFFFFFFFFFF for k in range(n)]
    per = 64 // bits
    words = []
    for start in range(0, len(values), per):
        word = 0
        for j, v in enumerate(values[start:start + per]):
            word |= (v & mask) << (j * bits)
        words.append(word)
    return words


def longs_bytes(words: list[int]) -> bytes:
    return b"".join(struct.pack(">Q", w) for w in words)


def bits_for(n: int) -> int:
    return max(1, (n - 1).bit_length())


def encode_palette_section(states: np.ndarray, fmt: ChunkFormat, sky: bool, direct_bits: int = 15) -> bytes:
    """One section of 1.9-1.17 chunk data."""
    out = bytearray()
    values = [int(v) for v in states]
    palette = sorted(set(values))
    if fmt.block_count:
        out += struct.pack(">h", sum(1 for v in values if v))
    if len(palette) <= 256:
        bits = max(4, bits_for(len(palette)))
        index = {s: i for i, s in enumerate(palette)}
        out.append(bits)
        out += pack_varint(len(palette)) + b"".join(pack_varint(s) for s in palette)
        packed = [index[v] for v in values]
    else:
        bits = direct_bits
        out.append(bits)
        if fmt.direct_palette_length:
            out += pack_varint(0)
        packed = values
    words = pack_longs(packed, bits, fmt.spanning)
    out += pack_varint(len(words)) + longs_bytes(words)
    if fmt.light_in_data:
        out += bytes([0xFF]) * (4096 if sky else 2048)
    return bytes(out)


def encode_container(values: list[int], fmt: ChunkFormat, indirect_max: int, min_bits: int, direct_bits: int) -> bytes:
    out = bytearray()
    palette = sorted(set(values))
    if len(palette) == 1:
        out.append(0)
        out += pack_varint(palette[0])
        if fmt.size_prefix:
            out += pack_varint(0)
        return bytes(out)
    if bits_for(len(palette)) <= indirect_max:
        bits = max(min_bits, bits_for(len(palette)))
        index = {s: i for i, s in enumerate(palette)}
        out.append(bits)
        out += pack_varint(len(palette)) + b"".join(pack_varint(s) for s in palette)
        packed = [index[v] for v in values]
    else:
        bits = direct_bits
        out.append(bits)
        packed = values
    words = pack_longs(packed, bits, False)
    if fmt.size_prefix:
        out += pack_varint(len(words))
    out += longs_bytes(words)
    return bytes(out)


def encode_container_section(states: np.ndarray, biomes: list[int], fmt: ChunkFormat) -> bytes:
    out = bytearray(struct.pack(">h", int(np.count_nonzero(states))))
    if fmt.fluid_count:
        out += struct.pack(">h", 0)
    out += encode_container([int(v) for v in states], fmt, 8, 4, 15)
    out += encode_container(biomes, fmt, 3, 1, 6)
    return bytes(out)


def outer_defaults(table: ProtocolTable, name: str, **given_fields: Any) -> dict[str, Any]:
    """Fields for every name in the packet's layout: the given ones, else neutral values."""
    layout = table.raw_layout("play", TO_CLIENT, name)
    fields: dict[str, Any] = {}
    for field in layout[1]:
        fname = field["name"]
        kind = field["type"]
        if fname in given_fields:
            fields[fname] = given_fields[fname]
        elif fname == "heightmaps":
            fields[fname] = [] if isinstance(kind, list) else {"MOTION_BLOCKING": [1, 2, 3]}
        elif fname == "biomes":
            fields[fname] = [1] * 1024
        elif kind == "bool":
            fields[fname] = fname in ("groundUp", "trustEdges")
        elif isinstance(kind, list) and kind[0] == "array":
            fields[fname] = []
        else:
            fields[fname] = 0
    return fields


def packet(table: ProtocolTable, name: str, fields: dict[str, Any]) -> bytes:
    pid = table.packet_id("play", TO_CLIENT, name)
    codec = table.codec("play", TO_CLIENT, name)
    assert pid is not None and codec is not None and codec.complete
    out = bytearray(pack_varint(pid))
    codec.encode(fields, out, [])
    return bytes(out)


def random_section(rng: random.Random, kind: str, max_state: int) -> np.ndarray:
    """A section of state ids: few, many (direct palette) or a mix of ids."""
    if kind == "uniform":
        return np.full(4096, rng.randrange(1, max_state), dtype=np.uint32)
    count = {"few": rng.choice([2, 3, 5, 16, 17, 40, 200]), "many": 600}[kind]
    states = np.array(rng.sample(range(max_state), count), dtype=np.uint32)
    return states[np.array([rng.randrange(count) for _ in range(4096)])]


def legacy_state(block: int, meta: int) -> int:
    return block << 4 | meta


def encode_column(table: ProtocolTable, cx: int, cz: int, sections: dict[int, np.ndarray], *,
                  sky: bool = True, full: bool = True, min_y: int = 0, height: int = 256) -> bytes:
    """A map_chunk packet carrying ``sections`` (index from the dimension's bottom)."""
    fmt = chunk_format(table.protocol)
    indices = sorted(sections)
    if fmt.containers:
        data = bytearray()
        for i in range(height // 16):
            states = sections.get(i, np.zeros(4096, dtype=np.uint32))
            data += encode_container_section(states, [1] * 60 + [2] * 4, fmt)
        return packet(table, "map_chunk", outer_defaults(table, "map_chunk", x=cx, z=cz, chunkData=bytes(data)))
    if fmt.raw_u16:
        data = b"".join(sections[i].astype("<u2").tobytes() for i in indices)
        data += bytes(2048 * len(indices) * (2 if sky else 1)) + (bytes(256) if full else b"")
    else:
        direct_bits = 13 if fmt.direct_palette_length else 15
        data = b"".join(encode_palette_section(sections[i], fmt, sky, direct_bits) for i in indices)
        if full:
            data += bytes(fmt.biome_bytes)
    mask: Any = sum(1 << i for i in indices)
    if fmt.family == "1.17":
        mask = [(mask >> (64 * k)) & 0xFFFFFFFFFFFFFFFF for k in range((height // 16 + 63) // 64)]
        mask = [w - (1 << 64) if w >= 1 << 63 else w for w in mask]
    fields = outer_defaults(table, "map_chunk", x=cx, z=cz, groundUp=full, bitMap=mask, chunkData=data)
    return packet(table, "map_chunk", fields)


def max_state_of(table: ProtocolTable) -> int:
    # Block ids below 512 with their meta fit the 13 bits of 1.9-1.12's global palette.
    return 1 << 13 if table.protocol < 393 else 20000


# -- packed long arrays -----------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(data=st.data(), bits=st.integers(1, 32), spanning=st.booleans(), count=st.integers(1, 200))
def test_unpack_longs_matches_reference_packing(data: st.DataObject, bits: int, spanning: bool, count: int) -> None:
    values = data.draw(st.lists(st.integers(0, (1 << bits) - 1), min_size=count, max_size=count))
    words = np.array(pack_longs(values, bits, spanning), dtype=np.uint64)
    assert len(words) == longs_needed(bits, count, spanning)
    assert unpack_longs(words, bits, count, spanning).tolist() == values


@settings(max_examples=60, deadline=None)
@given(bits=st.integers(1, 20), spanning=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_unpack_full_sections(bits: int, spanning: bool, seed: int) -> None:
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 1 << bits, size=4096).tolist()
    words = np.array(pack_longs(values, bits, spanning), dtype=np.uint64)
    assert unpack_longs(words, bits, 4096, spanning).tolist() == values


def test_spanning_and_padded_layouts_differ() -> None:
    # 5 bits: 64 is not a multiple, so spanning packs 12.8 values per long and the
    # padded layout 12 per long with 4 bits of padding.
    values = list(range(26))
    assert longs_needed(5, 26, True) == 3 and longs_needed(5, 26, False) == 3
    spanning = np.array(pack_longs(values, 5, True), dtype=np.uint64)
    padded = np.array(pack_longs(values, 5, False), dtype=np.uint64)
    assert spanning.tolist() != padded.tolist()
    assert unpack_longs(spanning, 5, 26, True).tolist() == values
    assert unpack_longs(padded, 5, 26, False).tolist() == values


def test_too_few_longs_is_a_chunk_error() -> None:
    with pytest.raises(ChunkError):
        unpack_longs(np.zeros(10, dtype=np.uint64), 4, 4096, False)


# -- formats ----------------------------------------------------------------------------


def test_every_supported_version_has_a_chunk_format() -> None:
    families = {v: chunk_format(table_for_version(v).protocol).family for v in VERSIONS}
    assert families["1.8.8"] == "1.8"
    assert families["1.12.2"] == "1.9"
    assert families["1.13.2"] == "1.13"
    assert families["1.16.5"] == "1.16"
    assert families["1.17.1"] == "1.17"
    assert families["1.18.2"] == families["1.21.4"] == "1.18"
    assert families["26.1"] == "26.1"
    assert [f.since for f in FORMATS] == sorted(f.since for f in FORMATS)


# -- chunk columns, every version -------------------------------------------------------


@pytest.mark.parametrize("version", VERSIONS)
def test_column_round_trip(version: str) -> None:
    table = table_for_version(version)
    fmt = chunk_format(table.protocol)
    rng = random.Random(version)
    top = max_state_of(table)
    kinds = ["few", "many", "uniform", "few"] if not fmt.raw_u16 else ["few", "few", "uniform", "many"]
    height = fmt.default_height
    count = height // 16
    chosen = sorted(rng.sample(range(count), 4))
    sections = {i: random_section(rng, kind, top) for i, kind in zip(chosen, kinds)}
    raw = encode_column(table, -3, 7, sections, height=height)
    decoder = ChunkDecoder(table)
    column = decoder.decode_chunk("map_chunk", raw)
    assert isinstance(column, ChunkColumn)
    assert (column.cx, column.cz, column.full) == (-3, 7, True)
    base = fmt.default_min_y >> 4
    ys = [sy for sy, _ in column.sections]
    assert ys == list(range(base, base + count)), "a full column lists every section of the dimension"
    for sy, states in column.sections:
        assert states.shape == (4096,)
        assert states.dtype in (np.uint16, np.uint32)
        expected = sections.get(sy - base)
        if expected is None:
            assert uniform_state(states) == 0
        else:
            np.testing.assert_array_equal(states, expected)
    # The same packet given as decoded fields (what VersionCodec.decode returns).
    codec = table.codec("play", TO_CLIENT, "map_chunk")
    assert codec is not None
    fields, _ = codec.decode(raw, len(pack_varint(table.packet_id("play", TO_CLIENT, "map_chunk") or 0)), [])
    again = decoder.decode_chunk("map_chunk", fields)
    assert isinstance(again, ChunkColumn)
    assert [sy for sy, _ in again.sections] == ys
    for (_, a), (_, b) in zip(column.sections, again.sections):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("version", ["1.8.8", "1.9.4", "1.12.2", "1.13.2", "1.14.4", "1.16.5"])
def test_partial_column_lists_only_sent_sections(version: str) -> None:
    table = table_for_version(version)
    rng = random.Random(1)
    sections = {2: random_section(rng, "few", max_state_of(table)), 9: random_section(rng, "few", max_state_of(table))}
    column = ChunkDecoder(table).decode_chunk("map_chunk", encode_column(table, 0, 0, sections, full=False))
    assert isinstance(column, ChunkColumn) and not column.full
    assert [sy for sy, _ in column.sections] == [2, 9]
    np.testing.assert_array_equal(column.sections[1][1], sections[9])


@pytest.mark.parametrize("version", ["1.9.4", "1.12.2", "1.13.2"])
@pytest.mark.parametrize("sky", [True, False])
@pytest.mark.parametrize("believed", [True, False])
def test_sky_light_presence_is_confirmed_by_the_data(version: str, sky: bool, believed: bool) -> None:
    # Before 1.14 each section carries sky light in dimensions that have it; a decoder
    # told the wrong dimension still reads the column right.
    table = table_for_version(version)
    rng = random.Random(2)
    sections = {i: random_section(rng, "few", max_state_of(table)) for i in (0, 1, 5)}
    decoder = ChunkDecoder(table)
    decoder.set_dimension(0, 256, has_skylight=believed)
    for full in (True, False):
        column = decoder.decode_chunk("map_chunk", encode_column(table, 1, 1, sections, sky=sky, full=full))
        assert isinstance(column, ChunkColumn)
        for i, states in sections.items():
            np.testing.assert_array_equal(column.section(i), states)


def test_legacy_states_are_block_id_and_meta() -> None:
    table = table_for_version("1.12.2")
    states = np.full(4096, legacy_state(2, 0), dtype=np.uint32)  # grass
    states[0] = legacy_state(7, 0)  # bedrock at (0, 0, 0)
    states[(3 * 16 + 4) * 16 + 5] = legacy_state(35, 14)  # red wool at x=5, y=3, z=4
    column = ChunkDecoder(table).decode_chunk("map_chunk", encode_column(table, 2, -1, {0: states}))
    assert isinstance(column, ChunkColumn)
    assert column.block(32, 0, -16) == 7 << 4
    assert column.block(32 + 5, 3, -16 + 4) == 35 << 4 | 14
    assert column.block(32 + 1, 1, -16) == 2 << 4


def test_1_8_unload_by_empty_column_and_bulk() -> None:
    table = table_for_version("1.8.8")
    decoder = ChunkDecoder(table)
    unload = packet(table, "map_chunk", {"x": 4, "z": -9, "groundUp": True, "bitMap": 0, "chunkData": b""})
    assert decoder.decode_chunk("map_chunk", unload) == []
    assert decoder.decode_unload("map_chunk", unload) == (4, -9)
    assert decoder.decode("map_chunk", unload) == [ChunkUnload(4, -9)]
    rng = random.Random(3)
    columns = [
        (0, 0, {0: random_section(rng, "few", 4096 * 16)}),
        (1, 0, {0: random_section(rng, "few", 4096 * 16), 3: random_section(rng, "many", 4096 * 16)}),
        (-5, 2, {}),
    ]
    for sky in (True, False):
        data = bytearray()
        meta = []
        for cx, cz, sections in columns:
            indices = sorted(sections)
            data += b"".join(sections[i].astype("<u2").tobytes() for i in indices)
            data += bytes(2048 * len(indices) * (2 if sky else 1)) + bytes(256)
            meta.append({"x": cx, "z": cz, "bitMap": sum(1 << i for i in indices)})
        raw = packet(table, "map_chunk_bulk", {"skyLightSent": sky, "meta": meta, "data": bytes(data)})
        decoded = decoder.decode_chunk("map_chunk_bulk", raw)
        assert isinstance(decoded, list) and len(decoded) == 3
        for column, (cx, cz, sections) in zip(decoded, columns):
            assert (column.cx, column.cz, column.full) == (cx, cz, True)
            assert len(column.sections) == 16
            for sy, states in column.sections:
                if sy in sections:
                    np.testing.assert_array_equal(states, sections[sy])
                else:
                    assert uniform_state(states) == 0
        assert [(c.cx, c.cz) for c in decoder.decode("map_chunk_bulk", raw)] == [(0, 0), (1, 0), (-5, 2)]


def test_1_17_bitset_over_sixteen_sections() -> None:
    table = table_for_version("1.17.1")
    decoder = ChunkDecoder(table)
    decoder.set_dimension(-64, 384)
    rng = random.Random(4)
    sections = {0: random_section(rng, "few", 20000), 17: random_section(rng, "many", 20000),
                23: random_section(rng, "few", 20000)}
    column = decoder.decode_chunk("map_chunk", encode_column(table, 0, 0, sections, min_y=-64, height=384))
    assert isinstance(column, ChunkColumn)
    assert [sy for sy, _ in column.sections] == list(range(-4, 20))
    np.testing.assert_array_equal(column.section(-4), sections[0])
    np.testing.assert_array_equal(column.section(13), sections[17])
    np.testing.assert_array_equal(column.section(19), sections[23])


@pytest.mark.parametrize("version", ["1.18.2", "1.20.4", "1.21.4", "26.1"])
def test_1_18_plus_height_from_dimension_or_section_count(version: str) -> None:
    table = table_for_version(version)
    rng = random.Random(5)
    nether = {0: random_section(rng, "few", 20000), 15: random_section(rng, "uniform", 20000)}
    raw = encode_column(table, 3, 3, nether, height=256)
    told = ChunkDecoder(table)
    told.set_dimension(0, 256, has_skylight=False)
    guessed = ChunkDecoder(table)  # still at the overworld defaults: 16 sections mean 0..256
    for decoder in (told, guessed):
        column = decoder.decode_chunk("map_chunk", raw)
        assert isinstance(column, ChunkColumn)
        assert [sy for sy, _ in column.sections] == list(range(16))
        np.testing.assert_array_equal(column.section(0), nether[0])
        assert uniform_state(column.section(15)) == int(nether[15][0])
        assert uniform_state(column.section(7)) == 0


def test_1_18_single_value_sections_are_views_and_blocks_read_back() -> None:
    table = table_for_version("1.18.2")
    states = np.zeros(4096, dtype=np.uint32)
    states[:256] = 33  # bedrock layer at the bottom of section 4 (y = 0)
    column = ChunkDecoder(table).decode_chunk("map_chunk", encode_column(table, 0, 0, {4: states}, height=384))
    assert isinstance(column, ChunkColumn)
    assert column.block(3, 0, 9) == 33 and column.block(3, 1, 9) == 0
    assert column.block(0, -64, 0) == 0
    air = column.section(-4)
    assert air is not None and uniform_state(air) == 0 and not air.flags.writeable
    assert uniform_state(column.section(0)) is None


def test_truncated_chunk_data_is_a_chunk_error() -> None:
    for version in ("1.8.8", "1.12.2", "1.16.5", "1.18.2"):
        table = table_for_version(version)
        rng = random.Random(6)
        raw = encode_column(table, 0, 0, {0: random_section(rng, "few", 4000)})
        with pytest.raises(ChunkError):
            ChunkDecoder(table).decode_chunk("map_chunk", raw[: len(raw) // 2])


def test_palette_index_beyond_palette_is_a_chunk_error() -> None:
    table = table_for_version("1.16.5")
    fmt = chunk_format(table.protocol)
    body = struct.pack(">h", 4096) + bytes([4]) + pack_varint(2) + pack_varint(1) + pack_varint(9)
    words = pack_longs([5] * 4096, 4, fmt.spanning)
    body += pack_varint(len(words)) + longs_bytes(words)
    raw = packet(table, "map_chunk", outer_defaults(table, "map_chunk", x=0, z=0, groundUp=True, bitMap=1,
                                                      chunkData=body))
    with pytest.raises(ChunkError):
        ChunkDecoder(table).decode_chunk("map_chunk", raw)


FUZZ_VERSIONS = ["1.8.8", "1.12.2", "1.13.2", "1.14.4", "1.16.5", "1.17.1", "1.18.2", "26.1"]


@functools.cache
def valid_column(version: str) -> bytes:
    rng = random.Random(7)
    table = table_for_version(version)
    fmt = chunk_format(table.protocol)
    sections = {0: random_section(rng, "few", max_state_of(table)), 2: random_section(rng, "many", max_state_of(table))}
    return encode_column(table, 1, 2, sections, height=fmt.default_height)


def damaged_column(version: str, data: st.DataObject) -> bytes:
    """A valid column with one to six bytes overwritten, perhaps cut short."""
    raw = bytearray(valid_column(version))
    for _ in range(data.draw(st.integers(1, 6))):
        at = data.draw(st.integers(1, len(raw) - 1))
        raw[at] = data.draw(st.integers(0, 255))
    cut = data.draw(st.one_of(st.none(), st.integers(1, len(raw))))
    damaged = bytes(raw if cut is None else raw[:cut])
    return damaged


@settings(max_examples=300, deadline=None)
@given(version=st.sampled_from(FUZZ_VERSIONS), data=st.data())
def test_damaged_chunk_packets_only_raise_chunk_errors(version: str, data: st.DataObject) -> None:
    damaged = damaged_column(version, data)
    decoder = ChunkDecoder(table_for_version(version))
    if data.draw(st.booleans()):
        decoder.set_dimension(0, 256, has_skylight=data.draw(st.booleans()))
    try:
        result = decoder.decode("map_chunk", damaged)
    except ChunkError:
        return
    for update in result:
        if isinstance(update, ChunkColumn):
            for _, states in update.sections:
                assert states.shape == (4096,)


# -- block changes and unloads ----------------------------------------------------------


@pytest.mark.parametrize("version", VERSIONS)
def test_block_change_round_trip(version: str) -> None:
    table = table_for_version(version)
    decoder = ChunkDecoder(table)
    for x, y, z in ((5, 70, -3), (-33554432, -2048, 33554431), (1000, -64, -1000)):
        if table.protocol < 757 and y < 0:
            continue
        raw = packet(table, "block_change", {"location": {"x": x, "y": y, "z": z}, "type": 1234})
        assert decoder.decode_block_change("block_change", raw) == [(x, y, z, 1234)]
        assert decoder.decode("block_change", raw) == [BlockChanges(((x, y, z, 1234),))]


def test_position_bit_order_changed_in_1_14() -> None:
    # The same 8 bytes mean different places before and after 1.14 (x|y|z vs x|z|y).
    raw_pos = (5 & 0x3FFFFFF) << 38 | (70 & 0xFFF) << 26 | (-3 & 0x3FFFFFF)
    for version, expected in (("1.13.2", (5, 70, -3)), ("1.14.4", None)):
        table = table_for_version(version)
        pid = table.packet_id("play", TO_CLIENT, "block_change") or 0
        raw = pack_varint(pid) + struct.pack(">Q", raw_pos) + pack_varint(1)
        (x, y, z, state), = ChunkDecoder(table).decode_block_change("block_change", raw)
        if expected:
            assert (x, y, z) == expected
        else:
            assert (x, y, z) != (5, 70, -3)


@pytest.mark.parametrize("version", VERSIONS)
def test_multi_block_change_round_trip(version: str) -> None:
    table = table_for_version(version)
    decoder = ChunkDecoder(table)
    cx, sy, cz = -2, 4, 3
    changes = [(cx * 16 + 0, sy * 16 + 0, cz * 16 + 15, 17), (cx * 16 + 15, sy * 16 + 9, cz * 16 + 2, 4095)]
    layout_names = [f["name"] for f in table.raw_layout("play", TO_CLIENT, "multi_block_change")[1]]
    if "chunkCoordinates" in layout_names:
        records = [state << 12 | (x & 15) << 8 | (z & 15) << 4 | (y & 15) for x, y, z, state in changes]
        fields = outer_defaults(table, "multi_block_change", chunkCoordinates={"x": cx, "z": cz, "y": sy},
                                records=records)
    else:
        fields = {"chunkX": cx, "chunkZ": cz,
                  "records": [{"horizontalPos": (x & 15) << 4 | (z & 15), "y": y, "blockId": state}
                              for x, y, z, state in changes]}
    raw = packet(table, "multi_block_change", fields)
    assert decoder.decode_block_change("multi_block_change", raw) == changes
    if table.protocol >= 757:  # sections below zero
        fields_low = dict(fields)
        if "chunkCoordinates" in fields_low:
            fields_low["chunkCoordinates"] = {"x": cx, "z": cz, "y": -4}
            got = decoder.decode_block_change("multi_block_change", packet(table, "multi_block_change", fields_low))
            assert [c[1] for c in got] == [-64, -64 + 9]


@pytest.mark.parametrize("version", [v for v in VERSIONS if v != "1.8.8"])
def test_unload_round_trip(version: str) -> None:
    table = table_for_version(version)
    raw = packet(table, "unload_chunk", {"chunkX": -7, "chunkZ": 12})
    decoder = ChunkDecoder(table)
    assert decoder.decode_unload("unload_chunk", raw) == (-7, 12)
    assert decoder.decode("unload_chunk", raw) == [ChunkUnload(-7, 12)]
    assert decoder.decode_unload("unload_chunk", {"chunkX": 1, "chunkZ": 2}) == (1, 2)


# -- dimensions -------------------------------------------------------------------------


def test_dimension_defaults() -> None:
    assert ChunkDecoder(table_for_version("1.17.1")).dimension.min_y == 0
    d = ChunkDecoder(table_for_version("1.18.2")).dimension
    assert (d.min_y, d.height, d.known) == (-64, 384, False)


def test_dimension_from_legacy_login_and_respawn() -> None:
    decoder = ChunkDecoder(table_for_version("1.12.2"))
    assert decoder.note_dimension("login", {"dimension": 0}).has_skylight
    nether = decoder.note_dimension("respawn", {"dimension": -1})
    assert (nether.min_y, nether.height, nether.has_skylight) == (0, 256, False)


def test_dimension_from_type_nbt() -> None:
    decoder = ChunkDecoder(table_for_version("1.18.2"))
    d = decoder.note_dimension("login", {"dimension": {"min_y": -32, "height": 320, "has_skylight": 1},
                                         "worldName": "minecraft:custom"})
    assert (d.min_y, d.height, d.has_skylight, d.known) == (-32, 320, True, True)
    old = ChunkDecoder(table_for_version("1.16.5"))
    assert old.note_dimension("login", {"dimension": {"has_skylight": 0}}).height == 256


def test_dimension_from_login_codec_then_respawn_by_name() -> None:
    decoder = ChunkDecoder(table_for_version("1.19.4"))
    codec = {"minecraft:dimension_type": {"type": "minecraft:dimension_type", "value": [
        {"name": "minecraft:overworld", "id": 0, "element": {"min_y": -64, "height": 384, "has_skylight": 1}},
        {"name": "mod:deep", "id": 1, "element": {"min_y": -256, "height": 512, "has_skylight": 0}},
    ]}}
    d = decoder.note_dimension("login", {"dimensionCodec": codec, "worldType": "minecraft:overworld"})
    assert (d.min_y, d.height) == (-64, 384)
    d = decoder.note_dimension("respawn", {"dimension": "mod:deep"})
    assert (d.min_y, d.height, d.has_skylight) == (-256, 512, False)


def test_dimension_from_configuration_registry() -> None:
    decoder = ChunkDecoder(table_for_version("1.21.4"))
    decoder.note_registry({"id": "minecraft:dimension_type", "entries": [
        {"key": "minecraft:overworld", "value": None},  # known pack: the client has it
        {"key": "mod:short", "value": {"min_y": 0, "height": 128}},
    ]})
    d = decoder.note_dimension("login", {"worldState": {"dimension": 1, "name": "mod:short_world"}})
    assert (d.min_y, d.height, d.name) == (0, 128, "mod:short")
    d = decoder.note_dimension("respawn", {"worldState": {"dimension": 0, "name": "minecraft:overworld"}})
    assert (d.min_y, d.height) == (-64, 384)
    old = ChunkDecoder(table_for_version("1.20.4"))
    old.note_registry({"codec": {"minecraft:dimension_type": {"value": [
        {"name": "minecraft:the_nether", "id": 0, "element": {"min_y": 0, "height": 256, "has_skylight": 0}}]}}})
    assert old.note_dimension("respawn", {"dimension": "minecraft:the_nether"}).height == 256


def test_unknown_dimension_name_falls_back_to_defaults() -> None:
    decoder = ChunkDecoder(table_for_version("1.20.4"))
    d = decoder.note_dimension("login", {"worldType": "mod:unknown"})
    assert (d.min_y, d.height, d.known) == (-64, 384, False)
    d = decoder.note_dimension("respawn", {"dimension": "minecraft:the_end"})
    assert (d.min_y, d.height, d.known) == (0, 256, True)


def test_set_dimension_rejects_partial_sections() -> None:
    decoder = ChunkDecoder(table_for_version("1.18.2"))
    with pytest.raises(ChunkError):
        decoder.set_dimension(-60, 384)
    # From the server, a bad dimension type falls back to the defaults instead.
    d = decoder.note_dimension("login", {"dimension": {"min_y": -60, "height": 0}, "worldName": "x:y"})
    assert (d.min_y, d.height, d.known, d.name) == (-64, 384, False, "x:y")
