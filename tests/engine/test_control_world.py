"""The player's block world in Control: which columns are kept as the server sends them."""
from __future__ import annotations

import numpy as np

from engine import events as ev
from engine.control import Control


def _column(cx: int, cz: int) -> ev.ChunkColumnLoaded:
    stone = np.full(4096, 1, dtype=np.uint16)
    return ev.ChunkColumnLoaded(cx, cz, ((0, stone),), True)


def test_a_column_at_vanillas_default_view_distance_is_kept_for_when_the_player_walks_there() -> None:
    # A server sends each column once, as it comes into view (vanilla's default: 10 chunks);
    # one dropped on arrival would be a hole for good once the player walked toward it.
    control = Control("1.18.2")
    control.moved(8.0, 64.0, 8.0)
    for cx in range(-10, 11):
        control.world_event(_column(cx, 0))
    assert control.store.get(10 * 16 + 3, 2, 5) is not None and control.store.get(-10 * 16 + 3, 2, 5) is not None
    far = control.world_event(_column(40, 0))          # a stray column far beyond any view distance
    assert far == [] and control.store.get(40 * 16, 2, 0) is None
