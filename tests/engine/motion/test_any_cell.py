"""``Terrain.any_cell`` (one section lookup for a box inside a section) answers as ``cell`` asked
of every cell of the box, and ``physics.touching`` built on it as the per-cell loop it replaced:
boxes inside a section, across section borders, at negative coordinates and over unloaded
sections (where a cell is unknown)."""
from __future__ import annotations

import itertools
import math
import random

from engine.motion import grid as g
from engine.motion import physics as ph
from engine.motion.grid import Terrain
from engine.motion.worlds import WorldBuilder

MASKS = (g.LAVA, g.FIRE, g.WATER, g.SHAPE, g.UNKNOWN, g.LAVA | g.FIRE)
NAMES = ("lava", "fire", "water", "stone", "oak_slab", "air", "air", "air")


def _world(blocks: list[tuple[int, int, int, str]]) -> WorldBuilder:
    # Loaded from -16 to 15 on every axis: boxes reaching x, z >= 16 or y >= 16 find unloaded sections.
    world = WorldBuilder("1.18.2", x=(-16, 16), y=(-16, 16), z=(-16, 16))
    for x, y, z, name in blocks:
        world.set(x, y, z, name)
    return world


def _each_cell(terrain: Terrain, x0: int, x1: int, y0: int, y1: int, z0: int, z1: int, mask: int) -> bool:
    return any(terrain.cell(x, y, z) & mask for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)
               for z in range(z0, z1 + 1))


def _dense(seed: int) -> WorldBuilder:
    """Every cell from -5 to 4 on each axis (around the section corner at 0) set at random."""
    rng = random.Random(seed)
    return _world([(x, y, z, rng.choice(NAMES)) for x in range(-5, 5) for y in range(-5, 5) for z in range(-5, 5)])


# Boxes around the corner (inside one section or across borders) and at the unloaded edge (16+).
STARTS = (-6, -5, -3, -2, 0, 1, 2, 13, 14, 15, 16)


def test_any_cell_is_cell_over_the_box() -> None:
    for seed in range(2):
        world = _dense(seed)
        terrain, by_cell = world.terrain(), world.terrain()
        for x, y, z in itertools.product(STARTS, repeat=3):
            for dx, dy, dz in ((0, 0, 0), (1, 2, 1), (1, 3, 2), (2, 1, 0), (3, 3, 3)):
                for mask in MASKS:
                    got = terrain.any_cell(x, x + dx, y, y + dy, z, z + dz, mask)
                    assert got == _each_cell(by_cell, x, x + dx, y, y + dy, z, z + dz, mask), (x, y, z, dx, dy, dz)


def _touching_cell_by_cell(terrain: Terrain, x: float, y: float, z: float, mask: int, grow: float) -> bool:
    """The loop ``physics.touching`` had before ``any_cell``."""
    x0, y0, z0, x1, y1, z1 = ph.body_box(x, y, z)
    for cx in range(math.floor(x0 - grow + ph.EPS), math.floor(x1 + grow - ph.EPS) + 1):
        for cz in range(math.floor(z0 - grow + ph.EPS), math.floor(z1 + grow - ph.EPS) + 1):
            for cy in range(math.floor(y0 - grow + ph.EPS), math.floor(y1 + grow - ph.EPS) + 1):
                if terrain.cell(cx, cy, cz) & mask:
                    return True
    return False


def test_touching_is_the_cell_by_cell_loop() -> None:
    rng = random.Random(7)
    world = _dense(7)
    terrain, by_cell = world.terrain(), world.terrain()
    for _ in range(3000):
        x, y, z = (rng.choice((rng.uniform(-6.0, 5.0), rng.uniform(14.0, 17.0), float(rng.randint(-5, 4))))
                   for _ in range(3))
        mask = rng.choice(MASKS)
        grow = rng.choice((0.0, 0.1))
        assert ph.touching(terrain, x, y, z, mask, grow) == _touching_cell_by_cell(by_cell, x, y, z, mask, grow)


def test_a_lava_cell_in_the_box_is_found_inside_a_section_and_across_a_border() -> None:
    world = _world([(3, 2, 3, "lava"), (16 - 1, 2, 0, "lava")])
    terrain = world.terrain()
    assert terrain.any_cell(2, 3, 1, 3, 2, 3, g.LAVA)
    assert not terrain.any_cell(4, 5, 1, 3, 2, 3, g.LAVA)
    assert terrain.any_cell(15, 16, 2, 2, 0, 0, g.LAVA)      # x 15..16 crosses into an unloaded section
    assert terrain.any_cell(16, 17, 2, 2, 0, 0, g.UNKNOWN)   # unloaded: unknown, as cell() says
    assert not terrain.any_cell(16, 17, 2, 2, 0, 0, g.LAVA)
