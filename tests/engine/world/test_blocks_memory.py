"""Block store memory: single-state sections are shared, and writes never leak between them."""
from __future__ import annotations

import numpy as np

from engine.world.blocks import BlockStore


def test_uniform_sections_are_shared_and_copied_on_write() -> None:
    store = BlockStore()
    store.set_section(0, 0, 0, np.zeros(4096, dtype=np.uint16))
    store.set_section(1, 0, 0, np.zeros(4096, dtype=np.uint16))
    assert store.section((0, 0, 0)) is store.section((1, 0, 0))
    store.set_block(1, 2, 3, 7)
    assert store.get(1, 2, 3) == 7
    assert store.get(17, 2, 3) == 0  # the other column still reads the shared air
    assert store.section((0, 0, 0)) is not store.section((1, 0, 0))


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
