"""Terrain's per-section caches stay bounded, and evicting never changes an answer."""
from __future__ import annotations

import pytest

from engine.motion import grid
from engine.motion.worlds import generate_terrain


def test_section_caches_stay_within_their_capacity_and_answer_as_an_unbounded_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    world = generate_terrain(4, size=96)
    reference = world.terrain()
    cells = [(x, y, z) for x in range(0, 96, 5) for z in range(0, 96, 7) for y in range(50, 80, 3)]
    expected = [(reference.cell(*c), reference.top(*c), reference.is_standable(*c)) for c in cells]
    tables = [reference.node_section(k) for k in sorted(world.store.keys())[:40]]
    monkeypatch.setattr(grid, "SECTION_CACHE_CAPACITY", 12)
    monkeypatch.setattr(grid, "NODE_TABLE_CAPACITY", 8)
    bounded = world.terrain()
    bounded.prefetch(40.5, 65.0, 40.5, budget=0)        # the player is here: keep what is near
    assert [(bounded.cell(*c), bounded.top(*c), bounded.is_standable(*c)) for c in cells] == expected
    assert len(bounded._class_arrays) <= 12 and len(bounded._cells) <= 12 and len(bounded._heights) <= 12
    for key, table in zip(sorted(world.store.keys())[:40], tables):
        assert bounded.node_section(key) == table
        assert len(bounded._nodes) <= 8
    # An evicted section that changes still drops the node tables around it.
    first = sorted(world.store.keys())[0]
    world.store.set_block(first[0] * 16, first[1] * 16, first[2] * 16, world.state("lava"))
    bounded.sync()
    reference.sync()
    assert bounded.node_section(first) == reference.node_section(first)
