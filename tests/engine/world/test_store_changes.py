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


class FakeColumn:
    """A column not decoded yet, as ``LazyColumn`` offers it; ``lose`` sections fail to decode."""

    def __init__(self, ys: tuple[int, ...], state: int, lose: tuple[int, ...] = ()) -> None:
        self.ys, self.state, self.lose = ys, state, lose

    @property
    def nbytes(self) -> int:
        return 100

    def decode(self) -> list[tuple[int, np.ndarray]]:
        return [(sy, np.full(4096, self.state, dtype=np.uint16)) for sy in self.ys if sy not in self.lose]


_OPS = st.one_of(
    st.tuples(st.just("lazy"), st.integers(0, 2), st.integers(0, 1), st.integers(1, 4), st.integers(0, 3)),
    st.tuples(st.just("column"), st.integers(0, 2), st.integers(0, 1), st.integers(1, 4), st.booleans()),
    st.tuples(st.just("block"), st.integers(0, 47), st.integers(-16, 79), st.integers(0, 31), st.integers(1, 9)),
    st.tuples(st.just("section"), st.integers(0, 2), st.integers(-1, 4), st.integers(0, 1), st.integers(1, 9)),
    st.tuples(st.just("read"), st.integers(0, 47), st.integers(-16, 79), st.integers(0, 31), st.just(0)),
    st.tuples(st.just("unload"), st.integers(0, 2), st.integers(0, 1), st.just(0), st.just(0)),
    st.tuples(st.just("clear"), st.just(0), st.just(0), st.just(0), st.just(0)),
)


def _apply(store: BlockStore, op: tuple[str, int, int, int, int | bool]) -> None:
    kind, a, b, c, d = op
    if kind == "lazy":
        ys = tuple(range(-1, int(c)))
        store.set_lazy_column(a, b, FakeColumn(ys, c, lose=(0,) if d == 3 else ()), replace=True)
    elif kind == "column":
        store.set_column(a, b, [(sy, np.full(4096, c, dtype=np.uint16)) for sy in range(0, c)], replace=bool(d))
    elif kind == "block":
        store.set_block(a, b, c, int(d))
    elif kind == "section":
        store.fill_section(a, b, c, int(d))
    elif kind == "read":
        store.get(a, b, c)          # may decode a lazy column, which changes nothing it holds
    elif kind == "unload":
        store.unload_chunk(a, b)
    else:
        store.clear()


KEYS = [(cx, sy, cz) for cx in range(0, 3) for sy in range(-1, 5) for cz in range(0, 2)]


def _contents(store: BlockStore) -> dict[tuple[int, int, int], bytes | None]:
    out: dict[tuple[int, int, int], bytes | None] = {}
    for key in KEYS:
        section = store.section(key) if store.has_section(key) else None
        out[key] = None if section is None else section.tobytes()
    return out


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(_OPS, max_size=6), min_size=2, max_size=8))
def test_a_section_whose_blocks_changed_never_reads_a_revision_it_read_before(
        rounds: list[list[tuple[str, int, int, int, int | bool]]]) -> None:
    """What every view trusts (``Terrain``, ``BlockFinder``): a section whose contents (or
    loadedness) differ from an earlier look has a revision unlike the one read then, whether
    its column came whole (one stamp for the column), lazily, in parts, or went away; and a
    section the journal does not name has kept its revision."""
    store = BlockStore()
    looks: list[tuple[dict[tuple[int, int, int], int], dict[tuple[int, int, int], bytes | None]]] = []
    seen = store.revision
    before = {k: store.section_revision(k) for k in KEYS}
    for ops in rounds:
        for op in ops:
            _apply(store, op)
        touched = store.changed_since(seen)
        now = {k: store.section_revision(k) for k in KEYS}
        if touched is not None:
            assert all(now[k] == before[k] for k in KEYS if k not in touched)
        seen, before = store.revision, now
        looks.append((now, _contents(store)))
    for key in KEYS:
        for revisions, contents in looks:
            for later_revisions, later_contents in looks:
                if later_contents[key] != contents[key]:
                    assert later_revisions[key] != revisions[key], key
