"""Block store memory: single-state sections are shared, others are palette-packed, and every
form reads back exactly what was stored."""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

from engine.world.blocks import DECODED_CACHE, BlockStore, BlockTable


def test_uniform_sections_are_shared_and_copied_on_write() -> None:
    store = BlockStore()
    store.set_section(0, 0, 0, np.zeros(4096, dtype=np.uint16))
    store.set_section(1, 0, 0, np.zeros(4096, dtype=np.uint16))
    assert store.section((0, 0, 0)) is store.section((1, 0, 0))
    store.set_block(1, 2, 3, 7)
    assert store.get(1, 2, 3) == 7
    assert store.get(17, 2, 3) == 0  # the other column still reads the shared air
    assert store.section((0, 0, 0)) is not store.section((1, 0, 0))


def test_a_broadcast_section_is_stored_as_the_shared_uniform_one() -> None:
    """The decoder's single-state sections are stride-0 views; they are taken as uniform
    without a scan and store exactly what a full array of that state stores."""
    store = BlockStore()
    store.set_section(0, 0, 0, np.broadcast_to(np.uint16(7), (4096,)))
    store.set_section(1, 0, 0, np.full(4096, 7, dtype=np.uint16))
    assert store.section((0, 0, 0)) is store.section((1, 0, 0))
    assert store.get(3, 4, 5) == 7 and store.get(19, 4, 5) == 7
    store.set_block(3, 4, 5, 2)  # copied on write, the broadcast value untouched
    assert store.get(3, 4, 5) == 2 and store.get(19, 4, 5) == 7


def test_mixed_sections_are_private_copies() -> None:
    store = BlockStore()
    states = np.zeros(4096, dtype=np.uint16)
    states[5] = 9
    store.set_section(0, 0, 0, states)
    states[5] = 1
    assert store.get(5, 0, 0) == 9


def test_keep_near_forgets_far_columns() -> None:
    store = BlockStore()
    for cx in range(-12, 13):
        store.set_section(cx, 0, 0, np.zeros(4096, dtype=np.uint16))
    store.keep_near(0, 0, 8)
    assert store.get(8 * 16, 0, 0) == 0
    assert store.get(9 * 16, 0, 0) is None
    assert store.get(-9 * 16, 0, 0) is None


def _terrain_section(rng: np.random.Generator) -> npt.NDArray[np.uint16]:
    """A typical surface section of a real world: stone with ore and gravel pockets, dirt,
    grass on top, air above, a few plants and water: about a dozen states."""
    table = BlockTable.for_version("1.18.2")
    cube = np.full((16, 16, 16), table.state_for("air"), dtype=np.uint16)
    ground = rng.integers(6, 11, size=(16, 16))
    for z in range(16):
        for x in range(16):
            top = int(ground[z, x])
            cube[:top - 3, z, x] = table.state_for("stone")
            cube[top - 3:top, z, x] = table.state_for("dirt")
            cube[top, z, x] = table.state_for("grass_block")
    for name in ("coal_ore", "iron_ore", "gravel", "andesite", "granite", "diorite", "copper_ore"):
        y, z, x = rng.integers(0, 5, size=3)
        cube[y:y + 2, z:z + 3, x:x + 2] = table.state_for(name)
    cube[12, 3:6, 3:6] = table.state_for("water")
    cube[11, 8, 8] = table.state_for("oak_log")
    cube[11, 9, 9] = table.state_for("grass")
    return cube.reshape(4096)


def test_a_typical_terrain_section_holds_at_most_a_quarter_of_a_plain_array() -> None:
    rng = np.random.default_rng(7)
    store = BlockStore()
    for i in range(16):
        store.set_section(i, 4, 0, _terrain_section(rng))
    for i in range(16):
        # Up to 16 states: 4 bits a block, 2 KiB, plus the palette. A plain uint16 array is 8 KiB.
        assert store.section_bytes((i, 4, 0)) <= 2 * 1024 + 64
    assert store.memory_bytes() <= 16 * (2 * 1024 + 64) + DECODED_CACHE * 8192


def test_packed_sections_read_back_exactly_through_get_and_section() -> None:
    rng = np.random.default_rng(3)
    for states in (2, 3, 4, 5, 16, 17, 100, 256, 257, 900):
        palette = rng.choice(20_000, size=states, replace=False).astype(np.uint16)
        flat = palette[rng.integers(0, states, size=4096)]
        flat[:states] = palette            # every state present at least once
        store = BlockStore()
        store.set_section(1, -2, 3, flat)
        section = store.section((1, -2, 3))
        assert section is not None and np.array_equal(section, flat)
        assert states > 256 or not section.flags.writeable   # a decode is shared: read-only
        assert [store.get(16 + (i & 15), -32 + (i >> 8), 48 + ((i >> 4) & 15)) for i in range(4096)] == flat.tolist()
        expected = 8192 if states > 256 else 4096 * {2: 1, 4: 2, 16: 4}.get(
            next(m for m in (2, 4, 16, 256) if states <= m), 8) // 8 + 2 * states
        assert store.section_bytes((1, -2, 3)) == expected


def test_block_changes_grow_the_palette_and_read_identically() -> None:
    rng = np.random.default_rng(11)
    store = BlockStore()
    reference = np.zeros(4096, dtype=np.uint16)
    reference[100] = 5
    store.set_section(0, 0, 0, reference)
    for step in range(3000):
        i = int(rng.integers(0, 4096))
        state = int(rng.integers(0, 40 if step < 2000 else 400))
        store.set_block(i & 15, i >> 8, (i >> 4) & 15, state)
        reference[i] = state
        if step % 97 == 0:
            assert np.array_equal(store.section((0, 0, 0)), reference)   # type: ignore[arg-type]
    assert np.array_equal(store.section((0, 0, 0)), reference)   # type: ignore[arg-type]
    assert all(store.get(i & 15, i >> 8, (i >> 4) & 15) == int(reference[i]) for i in range(4096))


def test_a_block_change_in_an_unsent_section_keeps_the_rest_unknown_and_small() -> None:
    store = BlockStore()
    store.set_block(100, 70, -5, 9)
    assert store.get(100, 70, -5) == 9 and store.get(101, 70, -5) is None
    assert store.section_bytes((6, 4, -1)) <= 600


def test_decoded_sections_are_a_bounded_cache_and_follow_changes() -> None:
    rng = np.random.default_rng(5)
    store = BlockStore()
    for i in range(3 * DECODED_CACHE):
        store.set_section(i, 0, 0, _terrain_section(rng))
        store.section((i, 0, 0))
    assert store.memory_bytes() <= 3 * DECODED_CACHE * (2 * 1024 + 64) + DECODED_CACHE * 8192
    before = store.section((0, 0, 0))
    store.set_block(1, 1, 1, 4321)
    after = store.section((0, 0, 0))
    assert before is not None and after is not None
    assert int(after[(1 << 8) | (1 << 4) | 1]) == 4321 and int(before[(1 << 8) | (1 << 4) | 1]) != 4321


class _Column:
    ys = tuple(range(-4, 20))
    nbytes = 0

    def decode(self) -> list[tuple[int, npt.NDArray[np.uint16]]]:
        return [(sy, np.zeros(4096, dtype=np.uint16)) for sy in self.ys]


def test_bookkeeping_is_per_column_and_forgets_unloaded_columns() -> None:
    """~450 columns of 24 sections per player: their ys are one shared set and a column's
    load one revision, not a set, a key tuple and an int per section."""
    store = BlockStore()
    for cx in range(30):
        for cz in range(15):
            store.set_lazy_column(cx, cz, _Column(), replace=True)
    assert len(store) == 450 * 24
    assert len(store._ys_forms) == 1 and len({id(ys) for ys in store._columns.values()}) == 1
    assert len(store._column_revisions) == 450 and not store._section_revisions
    store.set_block(5, 5, 5, 3)                      # a section touched on its own keeps its own
    edited = store.revision
    assert store._section_revisions == {(0, 0): {0: edited}}
    store.keep_near(0, 0, 2)
    assert len(store._column_revisions) == 9 and store._section_revisions == {(0, 0): {0: edited}}
    store.clear()
    assert not store._column_revisions and not store._section_revisions and not store._columns
