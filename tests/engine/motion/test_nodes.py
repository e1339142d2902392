"""The vectorised node tables agree with the rules written out cell by cell."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.motion import grid as g
from engine.motion.astar import CLIMB, LAVA_CELL, FIRE_CELL, STAND, SWIM, SearchOptions, _node_reader
from engine.motion.grid import Terrain
from engine.motion.nodes import CACTUS_NEAR, DAMAGE_COST, FIRE_NEAR, LAVA_NEAR

from tests.engine.motion.test_properties import SIDE, TOPS, build

_CARDINAL = ((1, 0), (-1, 0), (0, 1), (0, -1))


def reference_node(t: Terrain, options: SearchOptions, x: int, y: int, z: int) -> tuple[int, float, float] | None:
    """The per-cell rules, written out one cell at a time (the first A* did this)."""
    cell = t.cell
    here = cell(x, y, z)
    if here & (g.UNKNOWN | g.AVOID):
        return None
    shape = here & g.SHAPE
    below = cell(x, y - 1, z)
    kind = 0
    if shape == g.LOW:
        feet = y + t.top(x, y, z)
        kind = STAND
        first = y + 1
    elif shape == g.EMPTY:
        if below & g.SHAPE == g.TALL:
            return None
        first = y
        if below & g.SHAPE == g.FLOOR and not below & g.UNKNOWN:
            feet = y - 1 + t.top(x, y - 1, z)
            kind = STAND
        else:
            feet = float(y)
        if here & g.WATER or (here & g.LAVA and options.allow_lava):
            kind |= SWIM
        if here & g.CLIMB:
            kind |= CLIMB
        if not kind:
            return None
    else:
        return None
    touched = here
    for cy in range(first, g.body_top_cell(feet) + 1):
        c = cell(x, cy, z)
        if c & (g.SHAPE | g.UNKNOWN | g.AVOID):
            return None
        touched |= c
    penalty = 0.0
    if touched & g.LAVA:
        if not options.allow_lava:
            return None
        penalty += LAVA_CELL
    if touched & g.FIRE:
        if not options.allow_fire:
            return None
        penalty += FIRE_CELL
    if touched & g.DAMAGE or (kind & STAND and shape == g.EMPTY and below & g.DAMAGE):
        penalty += DAMAGE_COST
    for dx, dz in _CARDINAL:
        around = cell(x + dx, y, z + dz) | cell(x + dx, y + 1, z + dz)
        if (around | cell(x + dx, y - 1, z + dz)) & g.LAVA:
            penalty += LAVA_NEAR
        if around & g.FIRE:
            penalty += FIRE_NEAR
        if around & g.DAMAGE and around & g.SHAPE:
            penalty += CACTUS_NEAR
    return kind, feet, penalty


EXTRA = ("cactus", "fire", "magma_block", "oak_fence", "cobweb", "white_carpet", "ladder", "campfire")


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.lists(st.integers(0, 3), min_size=SIDE * SIDE, max_size=SIDE * SIDE).map(tuple),
       st.lists(st.sampled_from(TOPS + EXTRA), min_size=SIDE * SIDE, max_size=SIDE * SIDE).map(tuple))
def test_tables_match_the_reference(heights: tuple[int, ...], tops: tuple[str, ...]) -> None:
    world = build(heights, tuple(t if t in TOPS else "stone" for t in tops))
    for i, name in enumerate(tops):
        if name in EXTRA:
            x, z = divmod(i, SIDE)
            world.set(x, heights[i], z, name)
    t = world.terrain()
    for options in (SearchOptions(), SearchOptions(allow_lava=True, allow_fire=True)):
        read = _node_reader(t, options)
        for x in range(-2, SIDE + 2):
            for z in range(-2, SIDE + 2):
                for y in range(-3, 7):
                    assert read(x, y, z) == reference_node(t, options, x, y, z), (x, y, z, options)
