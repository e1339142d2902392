"""What BlockStore tells its views about changes: the journal of touched sections, the layout
counter (loads and unloads only) and the sections in a box; views trust these to stay fresh."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.world.blocks import JOURNAL_LENGTH, BlockStore


def column(store: BlockStore, cx: int, cz: int, sections: range = range(0, 4)) -> None:
    store.set_column(cx, cz, ((sy, np.full(4096, 1, dtype=np.uint16)) for sy in sections), replace=True)


def test_layout_counts_loads_and_unloads_but_not_block_changes() -> None:
    store = BlockStore()
    column(store, 0, 0)
    layout = store.layout
    store.set_block(3, 5, 3, 7)                      # an edit in a loaded section
    store.fill_section(0, 1, 0, 2)                   # a loaded section sent again
    assert store.layout == layout
    store.set_block(100, 5, 3, 7)                    # a change in a section never sent: now loaded (in part)
    assert store.layout > layout
    layout = store.layout
    store.fill_section(1, 0, 1, 2)
    assert store.layout > layout
    layout = store.layout
    store.unload_chunk(1, 1)
    assert store.layout > layout
    layout = store.layout
    store.unload_chunk(5, 5)                         # nothing there: nothing changes
    assert store.layout == layout
    store.clear()
    assert store.layout > layout and len(store) == 0


def test_changed_since_lists_the_sections_touched_in_order() -> None:
    store = BlockStore()
    column(store, 0, 0, range(0, 2))
    seen = store.revision
    assert store.changed_since(seen) == []
    store.set_block(1, 1, 1, 5)
    store.set_block(1, 20, 1, 5)
    store.set_block(2, 2, 2, 5)
    store.unload_chunk(0, 0)
    touched = store.changed_since(seen)
    assert touched is not None and touched[:3] == [(0, 0, 0), (0, 1, 0), (0, 0, 0)]
    assert sorted(touched[3:]) == [(0, 0, 0), (0, 1, 0)]
    assert store.changed_since(store.revision) == []


def test_a_view_too_far_behind_is_told_to_look_at_everything() -> None:
    store = BlockStore()
    column(store, 0, 0)
    seen = store.revision
    for i in range(3 * JOURNAL_LENGTH):
        store.set_block(i % 16, 0, 0, 5)
    assert store.changed_since(seen) is None
    recent = store.revision - JOURNAL_LENGTH
    assert store.changed_since(recent) == [(0, 0, 0)] * JOURNAL_LENGTH


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-4, 4), st.integers(-3, 6), st.integers(-4, 4), st.booleans()), max_size=60),
       st.tuples(st.integers(-3, 3), st.integers(-2, 5), st.integers(-3, 3)), st.integers(0, 3))
def test_keys_near_is_every_loaded_section_in_the_box(ops: list[tuple[int, int, int, bool]],
                                                      centre: tuple[int, int, int], radius: int) -> None:
    store = BlockStore()
    for cx, sy, cz, load in ops:
        if load:
            store.fill_section(cx, sy, cz, 1)
        else:
            store.unload_chunk(cx, cz)
    cx, sy, cz = centre
    want = sorted(k for k in store.keys()
                  if max(abs(k[0] - cx), abs(k[1] - sy), abs(k[2] - cz)) <= radius)
    assert sorted(store.keys_near(cx, sy, cz, radius)) == want
