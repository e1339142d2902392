"""The terrain view: questions at integer coordinates, and staying current with the store."""
from __future__ import annotations

import numpy as np

from engine.motion.astar import PathStatus, SearchOptions, find_path
from engine.motion.goals import GoalBlock
from engine.motion.worlds import WorldBuilder
from engine.world.snapshot import Vec3

from tests.engine.motion import terrains


def test_questions_at_integer_coordinates() -> None:
    world = terrains.staircase().set(2, 1, 2, "lava").set(-2, 1, 2, "oak_fence").set(-3, 1, 3, "cactus")
    t = world.terrain()
    assert t.is_passable(0, 1, 0) and not t.is_passable(3, 1, 0)
    assert t.is_standable(0, 1, 0) and t.feet_y(0, 1, 0) == 1.0
    assert not t.is_standable(0, 2, 0)                       # mid-air
    assert t.feet_y(0, 1, -3) == 1.5 and t.is_standable(0, 1, -3)   # on a bottom slab, in its cell
    assert not t.is_passable(-2, 2, 2)                       # the fence reaches into the cell above it
    assert not t.is_standable(-2, 2, 2)
    assert t.is_hazard(2, 1, 2) and t.is_lava(2, 1, 2) and t.is_hazard(-3, 1, 3)
    assert not t.is_known(500, 1, 0) and not t.is_standable(500, 1, 0)


def test_block_changes_reach_the_node_tables_of_neighbouring_sections() -> None:
    world = terrains.flat()
    t = world.terrain()
    # Standing at (15, 1, 0): the floor block is in this section; a wall right across the
    # section border at x=16 changes this node's neighbourhood.
    assert find_path(t, Vec3(15.5, 1.0, 0.5), GoalBlock(17, 1, 0)).steps[1].x == 16
    world.fill(16, 1, -24, 16, 3, 24, "stone")
    path = find_path(t, Vec3(15.5, 1.0, 0.5), GoalBlock(17, 1, 0), SearchOptions(max_nodes=3000))
    assert path.status is PathStatus.NO_PATH
    world.fill(16, 1, 0, 16, 2, 0, "air")
    assert find_path(t, Vec3(15.5, 1.0, 0.5), GoalBlock(17, 1, 0)).status is PathStatus.FOUND


def test_a_section_loaded_after_a_search_saw_it_unknown_is_used() -> None:
    world = WorldBuilder(x=(0, 16), y=(0, 16), z=(0, 16)).fill(0, 0, 0, 15, 0, 15, "stone")
    t = world.terrain()
    beyond = find_path(t, Vec3(8.5, 1.0, 8.5), GoalBlock(20, 1, 8), SearchOptions(max_nodes=2000))
    assert beyond.status is PathStatus.NO_PATH
    states = np.full(4096, world.air, dtype=np.uint16)
    states.reshape(16, 16, 16)[0] = world.state("stone")     # y=0 layer of the next section east
    world.store.set_section(1, 0, 0, states)
    assert find_path(t, Vec3(8.5, 1.0, 8.5), GoalBlock(20, 1, 8)).status is PathStatus.FOUND


def test_prefetch_builds_tables_around_the_player_a_few_at_a_time() -> None:
    world = terrains.flat()
    t = world.terrain()
    assert t.prefetch(0.5, 1.0, 0.5, budget=2) == 2
    built = 2
    while (n := t.prefetch(0.5, 1.0, 0.5, budget=5)):
        built += n
    loaded = sum(1 for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1)
                 if world.store.section((dx, dy, dz)) is not None)
    assert built == loaded and t.prefetch(0.5, 1.0, 0.5) == 0


def test_every_required_version_builds_a_walkable_world() -> None:
    for version in ("1.8.8", "1.12.2", "1.16.5", "1.18.2", "1.19.2", "1.20.4", "1.21.4"):
        world = terrains.flat(8, version).fill(3, 1, -8, 3, 1, 8, "stone")
        t = world.terrain()
        path = find_path(t, Vec3(0.5, 1.0, 0.5), GoalBlock(6, 1, 0))
        assert path.status is PathStatus.FOUND, version
