"""Crafted terrains shared by the motion and reflex tests (1.18.2 ids, floor at y=0)."""
from __future__ import annotations

from engine.motion.worlds import WorldBuilder


def flat(size: int = 24, version: str = "1.18.2") -> WorldBuilder:
    """Stone floor at y=0 over [-size, size]^2; players stand at y=1."""
    world = WorldBuilder(version, x=(-size - 8, size + 8), y=(-16, 32), z=(-size - 8, size + 8))
    world.fill(-size, 0, -size, size, 0, size, "stone")
    return world


def wall() -> WorldBuilder:
    """A 3-high wall across x=5 from z=-8 to z=8: no way over it, only around."""
    return flat().fill(5, 1, -8, 5, 3, 8, "stone")


def staircase() -> WorldBuilder:
    """Full-block stairs rising east from x=3 to a landing at y=5, and slab steps going north."""
    world = flat()
    for i in range(4):
        world.fill(3 + i, 1, -1, 3 + i, 1 + i, 1, "stone")
    world.fill(7, 1, -1, 9, 4, 1, "stone")
    world.set(0, 1, -3, "stone_slab")          # bottom slab, top at 1.5
    world.set(0, 1, -4, "stone")
    world.set(0, 2, -5, "stone_slab")
    world.fill(0, 1, -6, 0, 2, -6, "stone")
    return world


def pit(depth: int) -> WorldBuilder:
    """A 3x3 pit ``depth`` deep centred on (4, 0, 0)."""
    return flat().fill(3, 1 - depth, -1, 5, 0, 1, "air").fill(3, -depth, -1, 5, -depth, 1, "stone")


def lava_moat() -> WorldBuilder:
    """An island (x 8..10, z -1..1) ringed by a one-wide lava moat (x 7..11, z -2..2)."""
    return flat().fill(7, 0, -2, 11, 0, 2, "lava").fill(8, 0, -1, 10, 0, 1, "stone")


def pool(depth: int = 3) -> WorldBuilder:
    """A water pool x 3..8, z -14..14, ``depth`` deep, its surface level with the floor top."""
    world = flat()
    world.fill(3, 1 - depth, -14, 8, 0, 14, "water")
    world.fill(3, -depth, -14, 8, -depth, 14, "stone")
    return world


def ladder_wall() -> WorldBuilder:
    """A 4-high wall at x=3 (z -8..8) with a ladder on its west face at z=0; landing on top."""
    world = flat().fill(3, 1, -8, 3, 4, 8, "stone").fill(4, 1, -8, 12, 4, 8, "stone")
    state = world.table.state_for("ladder")
    # Ladder facing west sits on the east side of its cell, against the wall at x=3.
    for y in range(1, 5):
        world.store.set_block(2, y, 0, state)
    return world
