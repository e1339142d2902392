"""Terrain.sync forgets exactly the node tables a block change can alter (it keeps the rest)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.motion import grid
from engine.motion.grid import Terrain
from engine.motion.worlds import WorldBuilder, generate_terrain
from engine.world.blocks import JOURNAL_LENGTH

BLOCKS = ("air", "stone", "water", "lava", "oak_slab", "oak_fence", "ladder", "cobweb", "fire")


def assert_tables_fresh(world: WorldBuilder, terrain: Terrain) -> None:
    fresh = Terrain(world.store, world.table)
    for key in list(world.store.keys()):
        got, want = terrain.node_section(key), fresh.node_section(key)
        assert got.kinds == want.kinds, key
        assert got.penalties == want.penalties, key
        assert np.array_equal(np.frombuffer(got.feet), np.frombuffer(want.feet)), key


def floor_world() -> tuple[WorldBuilder, Terrain]:
    """Stone up to y=63 (the top row of section 3): players stand at y=64, in section 4; a bottom
    slab at (20, 63, 20) holds a node in section 3 whose head room reaches y=65."""
    world = WorldBuilder(x=(0, 48), y=(32, 96), z=(0, 48)).fill(0, 32, 0, 47, 63, 47, "stone")
    world.set(20, 63, 20, "oak_slab")
    terrain = world.terrain()
    for key in list(world.store.keys()):
        terrain.node_section(key)
    return world, terrain


@pytest.mark.parametrize("x,y,z,name", [
    (15, 63, 20, "air"),       # the floor under a node one section up
    (16, 64, 20, "lava"),      # lava beside a node across the x border (penalty)
    (15, 64, 20, "lava"),
    (20, 64, 16, "lava"),      # ... across the z border
    (20, 64, 15, "lava"),
    (20, 65, 20, "stone"),     # the head room of the slab node one section down
    (20, 64, 20, "stone"),
])
def test_a_change_on_a_section_border_reaches_the_neighbours_table(x: int, y: int, z: int, name: str) -> None:
    world, terrain = floor_world()
    world.set(x, y, z, name)
    terrain.sync()
    assert_tables_fresh(world, terrain)


def test_a_change_inside_a_section_keeps_the_neighbours_tables() -> None:
    world, terrain = floor_world()
    kept = terrain.node_section((0, 4, 0))
    world.set(24, 70, 24, "stone")                 # middle of section (1, 4, 1)
    terrain.sync()
    assert terrain.node_section((0, 4, 0)) is kept
    assert_tables_fresh(world, terrain)


# Mostly cells on or next to section borders, where a change reaches a neighbour's table.
XZ = st.one_of(st.sampled_from([0, 1, 14, 15, 16, 17, 30, 31, 32, 33, 46, 47]), st.integers(0, 47))
Y = st.one_of(st.sampled_from([46, 47, 48, 49, 50, 62, 63, 64, 65, 66, 67, 78, 79, 80]), st.integers(40, 90))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10), changes=st.lists(st.tuples(XZ, Y, XZ, st.sampled_from(BLOCKS)), min_size=1,
                                                 max_size=12))
def test_node_tables_after_block_changes_match_a_fresh_terrain(seed: int, changes: list[tuple[int, int, int, str]]
                                                               ) -> None:
    world = generate_terrain(seed, size=48, base=64)
    terrain = world.terrain()
    for key in list(world.store.keys()):
        terrain.node_section(key)
    for i, (x, y, z, name) in enumerate(changes):
        world.set(x, y, z, name)
        if i % 3 == 0:
            terrain.sync()          # several changes between syncs, as between ticks
    terrain.sync()
    assert_tables_fresh(world, terrain)


def assert_cells_fresh(world: WorldBuilder, terrain: Terrain, cells: list[tuple[int, int, int]]) -> None:
    fresh = Terrain(world.store, world.table)
    for x, y, z in cells:
        assert terrain.cell(x, y, z) == fresh.cell(x, y, z), (x, y, z)
        assert terrain.top(x, y, z) == fresh.top(x, y, z), (x, y, z)


def test_a_terrain_that_falls_behind_the_stores_journal_still_forgets_what_changed() -> None:
    world, terrain = floor_world()
    assert terrain.cell(20, 64, 20) == terrain.cell(21, 64, 21)
    world.set(20, 64, 20, "lava")
    world.set(40, 64, 40, "stone")
    for i in range(3 * JOURNAL_LENGTH):         # more changes than the journal keeps, in one section
        world.set(24 + i % 4, 70, 24, "stone" if i % 2 else "air")
    assert world.store.changed_since(0) is None
    terrain.sync()
    assert_tables_fresh(world, terrain)
    assert_cells_fresh(world, terrain, [(20, 64, 20), (40, 64, 40), (24, 70, 24), (25, 70, 24)])


def test_sections_loaded_and_unloaded_between_syncs_reach_the_terrain() -> None:
    world, terrain = floor_world()
    air = np.full(4096, world.air, dtype=np.uint16)
    world.store.unload_chunk(2, 2)
    world.store.set_section(3, 4, 0, air)        # a section no table has seen yet
    terrain.sync()
    assert not terrain.is_known(40, 64, 40)
    assert terrain.is_known(50, 64, 5)
    world.store.set_column(2, 2, [(sy, air) for sy in range(2, 6)], replace=True)
    terrain.sync()
    assert terrain.is_known(40, 64, 40) and terrain.is_passable(40, 63, 40)
    assert_tables_fresh(world, terrain)


def test_prefetch_builds_again_what_a_change_a_load_or_a_step_left_missing() -> None:
    world, _ = floor_world()
    terrain = world.terrain()
    at = (24.5, 64.0, 24.5)                      # section (1, 4, 1): all 27 around it are loaded
    while terrain.prefetch(*at, budget=27):
        pass
    assert terrain.prefetch(*at) == 0            # nothing left to build: the next calls do nothing
    world.set(24, 72, 24, "stone")               # drops the table of (1, 4, 1) alone
    assert terrain.prefetch(*at, budget=27) == 1
    assert_tables_fresh(world, terrain)
    world.store.unload_chunk(2, 2)
    terrain.sync()
    world.store.fill_section(2, 4, 2, world.air)  # a section comes (back): its table is missing
    assert terrain.prefetch(*at, budget=27) >= 1
    assert terrain.prefetch(*at) == 0
    assert (2, 4, 2) in terrain._nodes
    assert terrain.prefetch(24.5, 56.0, 24.5, budget=27) >= 1     # a section lower: its ring is new
    assert_tables_fresh(world, terrain)


def test_prefetch_notices_a_table_dropped_for_room(monkeypatch: pytest.MonkeyPatch) -> None:
    world, _ = floor_world()
    terrain = world.terrain()
    monkeypatch.setattr(grid, "NODE_TABLE_CAPACITY", 27)
    at = (24.5, 64.0, 24.5)
    while terrain.prefetch(*at, budget=27):
        pass
    terrain.node_section((0, 0, 0))              # the oldest of the 27 makes room for it
    assert terrain.prefetch(*at, budget=27) >= 1


def test_prefetch_builds_a_section_loaded_where_nothing_was() -> None:
    world, _ = floor_world()
    terrain = world.terrain()
    far = (200.5, 64.0, 200.5)                   # nothing loaded around: nothing to build
    assert terrain.prefetch(*far) == 0
    world.store.fill_section(12, 4, 12, world.air)
    assert terrain.prefetch(*far) == 1
