"""The motion model's compact forms lose nothing: top codes, single-precision feet, memoryviews."""
from __future__ import annotations

import gc
import weakref

import numpy as np

from engine.motion.cells import UNKNOWN_CELL, cell_classes, collision_tops, motion_table
from engine.motion.grid import Terrain
from engine.motion.nodes import build_section_nodes
from engine.world.blocks import UNKNOWN_STATE, BlockStore, BlockTable


def test_every_versions_collision_tops_survive_their_byte_codes_and_single_precision() -> None:
    for version in BlockTable.versions():
        table = BlockTable.for_version(version)
        motion = motion_table(table)
        tops = collision_tops(table)
        assert np.array_equal(motion.top_values[motion.top_codes], tops), version
        assert motion.top_list[motion.full_code] == 1.0
        # Feet heights are a top, a top minus one, or 0: all must read back from float32 unchanged.
        feet = np.concatenate([motion.top_values, motion.top_values - 1.0, [0.0]])
        assert np.array_equal(feet.astype(np.float32).astype(np.float64), feet), version
        assert motion_table(table) is motion      # once per table, not once per session


def test_terrain_answers_each_cell_as_the_block_table_says() -> None:
    table = BlockTable.for_version("1.21.11")
    rng = np.random.default_rng(7)
    states = rng.integers(0, table.size, size=4096).astype(np.uint16)
    states[:5] = (UNKNOWN_STATE, table.size, 0, table.state_for("oak_slab"), table.state_for("lava"))
    store = BlockStore()
    store.set_section(0, 4, 0, states)
    terrain = Terrain(store, table)
    classes, tops = cell_classes(table), collision_tops(table)
    index = np.minimum(states.astype(np.intp), len(classes) - 1)
    got_cells = [terrain.cell(i & 15, 64 + (i >> 8), (i >> 4) & 15) for i in range(4096)]
    got_tops = [terrain.top(i & 15, 64 + (i >> 8), (i >> 4) & 15) for i in range(4096)]
    assert got_cells == classes[index].tolist()
    assert got_tops == tops[index].tolist()
    assert got_cells[0] == got_cells[1] == UNKNOWN_CELL and got_tops[0] == 1.0
    assert terrain.cell(0, 0, 0) == UNKNOWN_CELL and terrain.top(0, 0, 0) == 1.0     # not loaded
    # A cached section costs its classes (2 bytes a cell) and top codes (1 byte), nothing more.
    assert sum(a.nbytes for a in terrain._class_arrays.values()) == 2 * 4096
    assert sum(a.nbytes for a in terrain._top_arrays.values()) == 4096


def test_node_feet_in_single_precision_equal_the_double_computation() -> None:
    motion = motion_table(BlockTable.for_version("1.20.1"))
    rng = np.random.default_rng(3)
    codes = rng.integers(0, len(motion.top_values), size=(20, 18, 18))
    classes = rng.choice(np.array([0, 1, 2, 3, 4], dtype=np.uint16), size=(20, 18, 18))
    tops = motion.top_values[codes]
    table = build_section_nodes(classes, tops)
    assert table.feet.typecode == "f" and len(table.feet) == 4096
    low = (classes[1:17, 1:17, 1:17] & 3) == 1
    expected = np.where(low, tops[1:17, 1:17, 1:17], np.where((classes[0:16, 1:17, 1:17] & 3) == 2,
                                                              tops[0:16, 1:17, 1:17] - 1.0, 0.0)).ravel()
    stand = np.frombuffer(table.kinds, dtype=np.uint8) & 1 != 0
    assert stand.any()
    assert np.array_equal(np.array(table.feet.tolist())[stand], expected[stand])


def test_sections_of_one_state_share_one_pair_of_arrays_across_terrains() -> None:
    table = BlockTable.for_version("1.21.11")
    air, stone = table.state_for("air"), table.state_for("stone")
    stores = [BlockStore(), BlockStore()]
    for store in stores:
        store.fill_section(0, 4, 0, stone)
        store.fill_section(1, 4, 0, stone)
        store.fill_section(0, 5, 0, air)
    first, second = (Terrain(store, table) for store in stores)
    assert first.cell(1, 70, 1) == second.cell(17, 70, 1) == cell_classes(table)[stone]
    assert first.top(1, 70, 1) == 1.0 and first.top(1, 85, 1) == 0.0
    assert first._class_arrays[(0, 4, 0)] is second._class_arrays[(1, 4, 0)]
    assert first._top_arrays[(0, 4, 0)] is second._top_arrays[(1, 4, 0)]
    assert first._class_arrays[(0, 5, 0)] is not first._class_arrays[(0, 4, 0)]
    shared = first._class_arrays[(0, 4, 0)]
    assert not shared.flags.writeable
    # Digging into a shared section gives that section arrays of its own; the others keep theirs.
    stores[0].set_block(2, 70, 2, air)
    first.sync()
    assert first.cell(2, 70, 2) == cell_classes(table)[air] and first.cell(3, 70, 2) == cell_classes(table)[stone]
    assert first._class_arrays[(0, 4, 0)] is not shared and (shared == cell_classes(table)[stone]).all()


def test_alike_node_tables_are_one_object_and_go_when_nobody_holds_them() -> None:
    table = BlockTable.for_version("1.21.11")
    stone = table.state_for("stone")
    store = BlockStore()
    for cx in range(4):
        for sy in range(3, 6):
            store.fill_section(cx, sy, 0, stone)
    store.set_block(16 * 2 + 5, 70, 5, table.state_for("air"))   # makes section (2, 4, 0) unlike the others
    terrain = Terrain(store, table)
    one, two, odd = terrain.node_section((1, 4, 0)), terrain.node_section((1, 4, 0)), terrain.node_section((2, 4, 0))
    other = Terrain(store, table).node_section((1, 4, 0))
    assert one is two is other
    assert odd is not one and odd != one
    held = weakref.ref(one)
    del terrain, one, two, other, odd
    gc.collect()
    assert held() is None
