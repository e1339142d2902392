"""BlockFinder keeps section orders until sections load or unload and per-section finds until a
section changes: what it answers must always be what a fresh finder would answer."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.decision.perception import BlockFinder, Query
from engine.motion.worlds import WorldBuilder
from engine.world.snapshot import Vec3

AT = Vec3(8.5, 1.0, 8.5)


def meadow() -> WorldBuilder:
    """A stone floor at y=0 over chunks (-1..1, -1..1), air up to y=31; no tree."""
    world = WorldBuilder(x=(-16, 32), y=(-16, 32), z=(-16, 32))
    world.fill(-16, 0, -16, 31, 0, 31, "stone")
    return world


def column_with_a_tree(world: WorldBuilder, cx: int, cz: int) -> list[tuple[int, np.ndarray]]:
    """The sections of a chunk column: air, a stone floor at y=0, a log trunk at its (3, 1..4, 3)."""
    air, stone, log = world.air, world.state("stone"), world.state("oak_log")
    sections = []
    for sy in (-1, 0, 1):
        cube = np.full((16, 16, 16), air, dtype=np.uint16)      # [y, z, x]
        if sy == -1:
            cube[:] = stone
        if sy == 0:
            cube[0] = stone
            cube[1:5, 3, 3] = log
        sections.append((sy, cube.reshape(4096)))
    return sections


TREE = [(35, y, 3) for y in range(1, 5)]


def logs(finder: BlockFinder, at: Vec3 = AT) -> list[tuple[int, int, int]]:
    return [pos for _, pos in finder.nearest("log", at, radius=48.0, limit=8)]


def test_a_column_loaded_after_a_search_is_seen_and_forgotten_when_unloaded() -> None:
    world = meadow()
    finder = BlockFinder(world.terrain())
    assert logs(finder) == []                        # the empty answer and the section order are cached
    world.store.set_column(2, 0, column_with_a_tree(world, 2, 0), replace=True)
    assert logs(finder) == TREE
    world.store.unload_chunk(2, 0)
    assert logs(finder) == []
    world.store.set_column(2, 0, column_with_a_tree(world, 2, 0), replace=True)
    assert logs(finder) == TREE
    world.store.clear()
    assert logs(finder) == []


def test_a_log_placed_or_dug_in_a_loaded_section_is_seen_at_once() -> None:
    world = meadow()
    finder = BlockFinder(world.terrain())
    assert logs(finder) == []
    layout = world.store.layout
    world.set(12, 1, 8, "oak_log")                   # no section comes or goes: only blocks change
    assert world.store.layout == layout
    assert logs(finder) == [(12, 1, 8)]
    world.set(12, 1, 8, "air")
    assert logs(finder) == []


def test_a_block_change_in_a_section_never_sent_is_seen() -> None:
    world = meadow()
    finder = BlockFinder(world.terrain())
    assert logs(finder) == []
    world.store.fill_section(2, 0, 0, world.state("stone"))
    world.set(40, 16, 8, "oak_log")                  # section (2, 1, 0) was never sent: it becomes known in part
    world.set(40, 17, 8, "air")
    assert [pos for _, pos in finder.nearest("log", AT, radius=48.0, exposed=False)] == [(40, 16, 8)]


CHANGES = st.lists(st.one_of(
    st.tuples(st.just("load"), st.integers(-2, 3), st.integers(-2, 3)),
    st.tuples(st.just("unload"), st.integers(-2, 3), st.integers(-2, 3)),
    st.tuples(st.just("log"), st.integers(-32, 63), st.integers(1, 6), st.integers(-32, 63)),
    st.tuples(st.just("dig"), st.integers(-32, 63), st.integers(1, 6), st.integers(-32, 63)),
    st.tuples(st.just("search"), st.integers(-20, 50), st.integers(1, 4), st.integers(-20, 50)),
), min_size=1, max_size=25)


@settings(max_examples=40, deadline=None)
@given(CHANGES)
def test_after_any_loads_unloads_and_changes_a_finder_answers_as_a_fresh_one(changes: list[tuple[object, ...]]
                                                                             ) -> None:
    world = meadow()
    terrain = world.terrain()
    finder = BlockFinder(terrain)
    at = AT
    for change in changes:
        match change:
            case ("load", int(cx), int(cz)):
                world.store.set_column(cx, cz, column_with_a_tree(world, cx, cz), replace=True)
            case ("unload", int(cx), int(cz)):
                world.store.unload_chunk(cx, cz)
            case ("log", int(x), int(y), int(z)):
                world.set(x, y, z, "oak_log")
            case ("dig", int(x), int(y), int(z)):
                world.set(x, y, z, "air")
            case ("search", int(x), int(y), int(z)):
                at = Vec3(x + 0.5, float(y), z + 0.5)
        queries = (Query("log", 40.0, limit=3), Query("stone", 24.0), Query("log", 64.0, exposed=False, limit=2))
        fresh = BlockFinder(world.terrain())
        assert finder.search(queries, at) == fresh.search(queries, at), change
