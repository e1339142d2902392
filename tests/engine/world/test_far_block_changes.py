"""Block changes far from the player allocate nothing: the store keeps only the kept radius."""
from __future__ import annotations

import numpy as np

from engine import events as ev
from engine.control import WORLD_RADIUS, Control


def test_twenty_thousand_far_block_changes_allocate_no_section() -> None:
    control = Control("1.18.2")
    control.moved(0.5, 64.0, 0.5)
    far = tuple((16 * (WORLD_RADIUS + 1 + i), 64, 16 * i, 1) for i in range(20_000))
    assert control.world_event(ev.BlocksChanged(far)) == []
    assert len(control.store) == 0
    near = ((16 * WORLD_RADIUS, 70, -16 * WORLD_RADIUS, 1),)
    assert control.world_event(ev.BlocksChanged(near)) == [near[0][:3]]
    assert control.store.get(*near[0][:3]) == 1


def test_before_the_first_position_only_loaded_sections_take_changes() -> None:
    control = Control("1.18.2")
    control.world_event(ev.ChunkColumnLoaded(0, 0, ((4, np.zeros(4096, dtype=np.uint16)),), True))
    changes = ((1, 65, 1, 1), (5000, 65, 5000, 1))
    assert control.world_event(ev.BlocksChanged(changes)) == [(1, 65, 1)]
    assert len(control.store) == 1
