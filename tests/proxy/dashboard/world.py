"""A small world for the dashboard's tests: a flat column of blocks fed to a player's Session as events."""
from __future__ import annotations

import numpy as np

from engine import events as ev
from engine.session import Session
from engine.world.blocks import BlockTable

VERSION = "1.18.2"


def flat_section(table: BlockTable, ground: int, top: str, pool: tuple[int, int] | None = None,
                 lava: tuple[int, int] | None = None) -> np.ndarray:
    """A 16x16x16 section: stone up to ``ground - 1``, ``top`` at ``ground``, air above; a water
    cell at ``pool`` and a lava cell at ``lava`` (x, z inside the section) replace the top."""
    states = np.full((16, 16, 16), table.state_for("air"), dtype=np.uint16)  # [y, z, x]
    states[:ground] = table.state_for("stone")
    states[ground] = table.state_for(top)
    if pool is not None:
        states[ground, pool[1], pool[0]] = table.state_for("water")
    if lava is not None:
        states[ground, lava[1], lava[0]] = table.state_for("lava")
    return states.reshape(-1)


def feed_world(session: Session, x: float = 8.5, y: float = 69.0, z: float = 8.5) -> None:
    """Chunk (0, 0), section y 4 (blocks 64..79) with grass at 68, water at (3, 68, 5) and lava at
    (12, 68, 2); the player standing at (x, y, z)."""
    table = BlockTable.for_version(VERSION)
    section = flat_section(table, 4, "grass_block", pool=(3, 5), lava=(12, 2))
    session.handle(ev.ChunkColumnLoaded(0, 0, ((4, section),), True), 0.0)
    session.handle(ev.PositionSet(x, y, z, 90.0, 0.0, from_server=True), 0.0)
