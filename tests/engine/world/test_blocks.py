from __future__ import annotations

import numpy as np
import pytest

from engine.world.blocks import UNKNOWN_STATE, BlockFlag, BlockStore, BlockTable

REQUIRED = ("1.8.8", "1.12.2", "1.16.5", "1.18.2", "1.19.2", "1.20.4", "1.21.4")
F = BlockFlag


def test_every_required_version_has_a_table() -> None:
    assert set(REQUIRED) <= set(BlockTable.versions())


@pytest.mark.parametrize("version", REQUIRED)
def test_core_blocks_have_the_right_flags(version: str) -> None:
    t = BlockTable.for_version(version)
    modern = not version.startswith(("1.8", "1.12"))
    expect = {
        "stone": F.SOLID,
        "air": F.AIR,
        "water": F.WATER | F.LIQUID,
        "lava": F.LAVA | F.LIQUID,
        "fire": F.FIRE,
        "ladder": F.CLIMBABLE | F.SOLID,
        "cactus": F.DAMAGING | F.SOLID,
        ("cobweb" if modern else "web"): F.AVOID,
        "vine": F.CLIMBABLE,
    }
    if version != "1.8.8":   # magma arrived in 1.10
        expect["magma_block" if modern else "magma"] = F.DAMAGING | F.SOLID
    for name, flags in expect.items():
        assert t.flags(t.state_for(name)) == flags, name
        assert t.name(t.state_for(name)) == name
    assert t.top(t.state_for("stone")) == 1.0
    assert t.top(t.state_for("oak_fence" if modern else "fence")) == 1.5


def test_legacy_state_ids_are_block_id_shifted_by_four_plus_meta() -> None:
    t = BlockTable.for_version("1.8.8")
    assert t.state_for("stone") == 1 << 4
    assert t.name((1 << 4) | 3) == "stone"      # diorite is stone meta 3
    assert t.state_for("minecraft:water") == 9 << 4
    assert t.flags((8 << 4) | 7) & F.WATER       # flowing water, any level
    # stone_slab metas 0-7 are bottom halves, 8-15 top halves.
    assert t.top(44 << 4) == 0.5 and t.top((44 << 4) | 8) == 1.0
    t12 = BlockTable.for_version("1.12.2")
    assert t12.name(213 << 4) == "magma" and t12.flags(213 << 4) & F.DAMAGING


def test_modern_ranges_defaults_and_waterlogged_states() -> None:
    t = BlockTable.for_version("1.18.2")
    assert t.state_for("stone") == 1
    stairs = t.states_of("oak_stairs")
    assert t.state_for("oak_stairs") in stairs
    wet = [s for s in stairs if t.flags(s) & F.WATER]
    assert len(wet) == len(stairs) // 2           # waterlogged=true is every other state
    assert all(t.flags(s) & F.SOLID for s in stairs)
    assert not t.flags(t.state_for("oak_stairs")) & F.WATER   # default is not waterlogged
    assert t.top(t.state_for("oak_slab")) == 0.5
    assert t.flags(t.state_for("kelp")) & F.WATER
    assert t.flags(t.state_for("sweet_berry_bush")) == F.DAMAGING


def test_ids_outside_the_table_are_unknown_and_solid() -> None:
    t = BlockTable.for_version("1.21.4")
    assert t.flags(t.size) == F.UNKNOWN | F.SOLID
    assert t.flags(-1) & F.UNKNOWN
    assert t.name(t.size + 5) is None
    with pytest.raises(KeyError):
        t.state_for("no_such_block")
    with pytest.raises(KeyError):
        BlockTable.for_version("0.30c")


def test_tables_are_built_once() -> None:
    assert BlockTable.for_version("1.19.2") is BlockTable.for_version("1.19.2")


def test_section_round_trip_uses_chunk_order_y_z_x() -> None:
    store = BlockStore()
    states = np.arange(4096, dtype=np.uint16)
    store.set_section(2, -4, -1, states)      # blocks x 32..47, y -64..-49, z -16..-1
    assert store.get(32, -64, -16) == 0
    assert store.get(33, -64, -16) == 1                       # x varies fastest
    assert store.get(32, -64, -15) == 16                      # then z
    assert store.get(32, -63, -16) == 256                     # then y
    assert store.get(47, -49, -1) == 4095
    assert store.get(48, -64, -16) is None                    # next section: never sent
    assert store.get(32, -65, -16) is None


def test_set_block_unload_and_clear() -> None:
    store = BlockStore()
    store.fill_section(0, 0, 0, 0)
    store.fill_section(0, 1, 0, 0)
    store.fill_section(1, 0, 0, 0)
    r0 = store.revision
    store.set_block(3, 20, 5, 7)
    assert store.get(3, 20, 5) == 7 and store.revision == r0 + 1
    assert store.section_revision((0, 1, 0)) == store.revision
    # A change in a section no chunk filled keeps that block only.
    store.set_block(100, 5, 100, 9)
    assert store.get(100, 5, 100) == 9
    assert store.get(101, 5, 100) is None
    assert store.section((6, 0, 6))[0] == UNKNOWN_STATE  # type: ignore[index]
    store.unload_chunk(0, 0)
    assert store.get(3, 20, 5) is None and store.get(17, 0, 0) == 0
    assert len(store) == 2
    store.clear()
    assert len(store) == 0 and store.get(17, 0, 0) is None


def test_set_section_rejects_wrong_sizes_and_copies_its_input() -> None:
    store = BlockStore()
    with pytest.raises(ValueError):
        store.set_section(0, 0, 0, np.zeros(100))
    source = np.zeros((16, 16, 16), dtype=np.int64)
    store.set_section(0, 0, 0, source)
    source[0, 0, 0] = 5
    assert store.get(0, 0, 0) == 0
    assert store.memory_bytes() == 8192


def test_set_column_replaces_a_whole_column_or_patches_sections() -> None:
    store = BlockStore()
    store.fill_section(0, 0, 0, 1)
    store.fill_section(0, 5, 0, 1)
    store.set_column(0, 0, [(0, np.full(4096, 2)), (1, np.full(4096, 3))], replace=False)
    assert (store.get(0, 0, 0), store.get(0, 16, 0), store.get(0, 80, 0)) == (2, 3, 1)
    store.set_column(0, 0, [(-4, np.zeros(4096))], replace=True)
    assert store.get(0, 80, 0) is None and store.get(0, -64, 0) == 0 and len(store) == 1
