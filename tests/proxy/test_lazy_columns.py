"""Lazy chunk columns: checked on arrival, decoded by the block store on first read, with
the same blocks as decoding at once, on every version family's chunk format."""
from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.world.blocks import BlockStore
from proxy.codec.chunks import ChunkColumn, ChunkDecoder, ChunkError, LazyColumn, chunk_format
from proxy.protocol.tables import table_for_version
from proxy.testing import Rig, frame
from tests.proxy.test_chunks import (
    FUZZ_VERSIONS,
    VERSIONS,
    damaged_column,
    encode_column,
    max_state_of,
    packet,
    random_section,
)

def _one(updates: list[object]) -> object:
    assert len(updates) == 1
    return updates[0]


def _same_sections(eager: ChunkColumn, lazy: LazyColumn) -> None:
    decoded = lazy.decode()
    assert [sy for sy, _ in decoded] == [sy for sy, _ in eager.sections] == list(lazy.ys)
    for (_, a), (_, b) in zip(eager.sections, decoded):
        np.testing.assert_array_equal(a, b)
        assert a.dtype == b.dtype


def _column_packet(version: str, seed: int, full: bool = True) -> tuple[bytes, dict[int, np.ndarray]]:
    table = table_for_version(version)
    fmt = chunk_format(table.protocol)
    rng = random.Random(seed)
    top = max_state_of(table)
    count = fmt.default_height // 16
    chosen = sorted(rng.sample(range(count), 4))
    sections = {i: random_section(rng, kind, top) for i, kind in zip(chosen, ["few", "many", "uniform", "few"])}
    return encode_column(table, -3, 7, sections, full=full, height=fmt.default_height), sections


@pytest.mark.parametrize("version", VERSIONS)
def test_lazy_and_eager_columns_hold_the_same_blocks(version: str) -> None:
    table = table_for_version(version)
    raw, sections = _column_packet(version, 11)
    eager = _one(ChunkDecoder(table).decode("map_chunk", raw))
    lazy = _one(ChunkDecoder(table).decode("map_chunk", raw, lazy=True))
    assert isinstance(eager, ChunkColumn) and isinstance(lazy, LazyColumn)
    assert (lazy.cx, lazy.cz, lazy.full) == (eager.cx, eager.cz, eager.full) == (-3, 7, True)
    assert lazy.nbytes < len(raw)  # the chunk data only: not the packet, not its light arrays
    _same_sections(eager, lazy)
    # And through the block store: the same sections, blocks and bookkeeping.
    now, later = BlockStore(), BlockStore()
    now.set_column(eager.cx, eager.cz, eager.sections, replace=True)
    later.set_lazy_column(lazy.cx, lazy.cz, lazy, replace=True)
    assert later.lazy_columns == 1
    assert (later.revision, later.layout, len(later)) == (now.revision, now.layout, len(now))
    assert sorted(later.keys()) == sorted(now.keys())
    assert all(later.has_section(key) for key in now.keys())
    assert later.lazy_columns == 1  # none of that decoded it
    rng = random.Random(version)
    base = chunk_format(table.protocol).default_min_y
    for _ in range(50):
        x, z = -48 + rng.randrange(16), 112 + rng.randrange(16)
        y = base + rng.randrange(chunk_format(table.protocol).default_height)
        assert later.get(x, y, z) == now.get(x, y, z)
    assert later.lazy_columns == 0
    for key in now.keys():
        np.testing.assert_array_equal(later.section(key), now.section(key))  # type: ignore[arg-type]
    assert later.memory_bytes() == now.memory_bytes()
    assert sections  # the column carried blocks


@pytest.mark.parametrize("version", ["1.8.8", "1.9.4", "1.12.2", "1.13.2", "1.14.4", "1.16.5"])
def test_partial_columns_lazily_and_onto_a_lazy_column(version: str) -> None:
    table = table_for_version(version)
    full, _ = _column_packet(version, 12)
    part, sections = _column_packet(version, 13, full=False)
    eager = _one(ChunkDecoder(table).decode("map_chunk", part))
    lazy = _one(ChunkDecoder(table).decode("map_chunk", part, lazy=True))
    assert isinstance(eager, ChunkColumn) and isinstance(lazy, LazyColumn) and not lazy.full
    _same_sections(eager, lazy)
    now, later = BlockStore(), BlockStore()
    for store, use_lazy in ((now, False), (later, True)):
        for raw in (full, part):
            column = _one(ChunkDecoder(table).decode("map_chunk", raw, lazy=use_lazy))
            if isinstance(column, LazyColumn):
                store.set_lazy_column(column.cx, column.cz, column, replace=column.full)
            else:
                assert isinstance(column, ChunkColumn)
                store.set_column(column.cx, column.cz, column.sections, replace=column.full)
    assert later.lazy_columns == 0  # a partial column lands on the decoded full one
    assert sorted(later.keys()) == sorted(now.keys())
    for key in now.keys():
        np.testing.assert_array_equal(later.section(key), now.section(key))  # type: ignore[arg-type]
    assert sections


@pytest.mark.parametrize("version", ["1.9.4", "1.12.2", "1.13.2"])
@pytest.mark.parametrize("sky", [True, False])
def test_sky_light_guess_is_the_same_lazily(version: str, sky: bool) -> None:
    table = table_for_version(version)
    rng = random.Random(2)
    sections = {i: random_section(rng, "few", max_state_of(table)) for i in (0, 1, 5)}
    raw = encode_column(table, 1, 1, sections, sky=sky)
    for believed in (True, False):
        decoders = ChunkDecoder(table), ChunkDecoder(table)
        for decoder in decoders:
            decoder.set_dimension(0, 256, has_skylight=believed)
        eager = _one(decoders[0].decode("map_chunk", raw))
        lazy = _one(decoders[1].decode("map_chunk", raw, lazy=True))
        assert isinstance(eager, ChunkColumn) and isinstance(lazy, LazyColumn)
        _same_sections(eager, lazy)


def test_1_8_bulk_columns_lazily_keep_only_their_blocks() -> None:
    table = table_for_version("1.8.8")
    rng = random.Random(3)
    columns = [(0, 0, {0: random_section(rng, "few", 4096 * 16)}),
               (1, 0, {0: random_section(rng, "few", 4096 * 16), 3: random_section(rng, "many", 4096 * 16)}),
               (-5, 2, {})]
    data = bytearray()
    meta = []
    for cx, cz, sections in columns:
        indices = sorted(sections)
        data += b"".join(sections[i].astype("<u2").tobytes() for i in indices)
        data += bytes(2048 * len(indices) * 2) + bytes(256)
        meta.append({"x": cx, "z": cz, "bitMap": sum(1 << i for i in indices)})
    raw = packet(table, "map_chunk_bulk", {"skyLightSent": True, "meta": meta, "data": bytes(data)})
    eager = ChunkDecoder(table).decode("map_chunk_bulk", raw)
    lazy = ChunkDecoder(table).decode("map_chunk_bulk", raw, lazy=True)
    assert len(eager) == len(lazy) == 3
    for e, lz, (_, _, sections) in zip(eager, lazy, columns):
        assert isinstance(e, ChunkColumn) and isinstance(lz, LazyColumn)
        assert (lz.cx, lz.cz) == (e.cx, e.cz)
        assert lz.nbytes < 8192 * len(sections) or not sections  # no light, no biomes, deflated
        _same_sections(e, lz)


@settings(max_examples=300, deadline=None)
@given(version=st.sampled_from(FUZZ_VERSIONS), data=st.data())
def test_damaged_packets_lazily_fail_on_arrival_or_decode_to_nothing(version: str, data: st.DataObject) -> None:
    damaged = damaged_column(version, data)
    table = table_for_version(version)
    try:
        eager: list[object] | None = list(ChunkDecoder(table).decode("map_chunk", damaged))
    except ChunkError:
        eager = None
    try:
        lazy = ChunkDecoder(table).decode("map_chunk", damaged, lazy=True)
    except ChunkError:
        assert eager is None, "the walk refused a packet decoding accepts"
        return
    column = lazy[0]
    if not isinstance(column, LazyColumn):
        return  # 1.8's unload by an empty column
    if eager is None:
        # Only decoding finds this damage: the column decodes to nothing, the store
        # forgets it, readers see unknown blocks, nothing raises.
        assert column.decode() == () and column.error
        store = BlockStore()
        store.set_lazy_column(column.cx, column.cz, column, replace=True)
        assert store.get(column.cx * 16, 0, column.cz * 16) is None
        assert len(store) == 0 and store.lazy_columns == 0
    else:
        first = eager[0]
        assert isinstance(first, ChunkColumn)
        _same_sections(first, column)


def test_store_edits_unloads_and_clears_lazy_columns() -> None:
    table = table_for_version("1.20.1")
    raw, _ = _column_packet("1.20.1", 14)
    store = BlockStore()
    for cx in (0, 1, 2):
        lazy = _one(ChunkDecoder(table).decode("map_chunk", raw, lazy=True))
        assert isinstance(lazy, LazyColumn)
        store.set_lazy_column(cx, 0, lazy, replace=True)
    assert store.lazy_columns == 3
    store.set_block(1, 5, 1, 77)  # a block change decodes its column first
    assert store.lazy_columns == 2 and store.get(1, 5, 1) == 77
    store.unload_chunk(1, 0)
    assert store.lazy_columns == 1 and not store.has_section((1, 0, 0))
    layout = store.layout
    store.clear()
    assert store.lazy_columns == 0 and len(store) == 0 and store.layout > layout


def test_the_proxy_world_feed_keeps_columns_lazy_until_read() -> None:
    rig = Rig("1.20.1")
    rig.login()
    assert rig.upstream is not None and rig.bridge.session is not None
    raw, sections = _column_packet("1.20.1", 15)
    rig.upstream.proto.dataReceived(frame(raw, rig.upstream.threshold))
    for _ in range(5):
        rig.reactor.advance(0)
    store = rig.bridge.session.control.store
    assert store.lazy_columns == 1 and len(store) == 24
    lowest = min(sections)
    expected = sections[lowest]
    sy = (chunk_format(rig.codec.table.protocol).default_min_y >> 4) + lowest
    states = store.section((-3, sy, 7))
    assert states is not None and store.lazy_columns == 0
    np.testing.assert_array_equal(states, expected)


def test_lazy_columns_of_one_dimension_share_their_ys_and_decoder() -> None:
    """~450 columns a player: alike ys are one tuple and one decode function serves them all."""
    table = table_for_version("1.21.11")
    decoder = ChunkDecoder(table)
    raws = [_column_packet("1.21.11", 11)[0], _column_packet("1.21.11", 12)[0], _column_packet("1.21.11", 11)[0]]
    lazy = [_one(decoder.decode("map_chunk", raw, lazy=True)) for raw in raws]
    assert all(isinstance(c, LazyColumn) for c in lazy)
    first, second, third = (c for c in lazy if isinstance(c, LazyColumn))
    assert first.ys is second.ys is third.ys
    assert first._decode is second._decode is third._decode
    eager = [_one(ChunkDecoder(table).decode("map_chunk", raw)) for raw in raws]
    for column, lazy_column in zip(eager, (first, second, third)):
        assert isinstance(column, ChunkColumn)
        _same_sections(column, lazy_column)
