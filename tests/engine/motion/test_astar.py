from __future__ import annotations

import itertools

import pytest

from engine.motion.astar import Move, PathStatus, SearchOptions, find_path, pack, unpack
from engine.motion.goals import GoalAway, GoalBlock, GoalFollow, GoalNear, GoalXZ, GoalY
from engine.motion.planner import PathPlanner
from engine.motion.testing import drive_path, navigate
from engine.world.snapshot import Vec3

from tests.engine.motion import terrains

START = Vec3(0.5, 1.0, 0.5)


def moves(path):  # type: ignore[no-untyped-def]
    return [s.move for s in path.steps]


def test_pack_round_trips_extreme_coordinates() -> None:
    for x, y, z in itertools.product((-30_000_000, -1, 0, 29_999_999), (-2048, -64, 0, 319, 2047), (-30_000_000, 5)):
        assert unpack(pack(x, y, z)) == (x, y, z)


def test_wall_detour_walks_around_and_the_drive_is_legal() -> None:
    world = terrains.wall()
    t = world.terrain()
    path = find_path(t, START, GoalBlock(10, 1, 0))
    assert path.status is PathStatus.FOUND
    assert all(abs(s.z) >= 9 or s.x != 5 for s in path.steps)
    assert max(abs(s.z) for s in path.steps) >= 9
    drive = drive_path(t, START, path)
    assert drive.violations == ()
    assert drive.outcome == "arrived"
    assert (drive.final.x, drive.final.y, drive.final.z) == (10.5, 1.0, 0.5)


def test_staircase_of_blocks_is_climbed_with_jumps() -> None:
    t = terrains.staircase().terrain()
    path = find_path(t, START, GoalBlock(8, 5, 0))
    assert path.status is PathStatus.FOUND
    assert moves(path).count(Move.JUMP) == 4
    drive = drive_path(t, START, path)
    assert drive.violations == ()
    assert drive.final == Vec3(8.5, 5.0, 0.5)


def test_slab_steps_are_walked_up_without_jumping() -> None:
    t = terrains.staircase().terrain()
    path = find_path(t, START, GoalBlock(0, 3, -6))
    assert path.status is PathStatus.FOUND
    assert Move.JUMP not in moves(path)
    assert [s.feet_y for s in path.steps[-4:]] == [1.5, 2.0, 2.5, 3.0]
    drive = drive_path(t, START, path)
    assert drive.violations == ()
    assert drive.final == Vec3(0.5, 3.0, -5.5)


def test_pit_three_deep_is_dropped_into_and_climbed_out_of_never() -> None:
    t = terrains.pit(3).terrain()
    into = find_path(t, START, GoalBlock(4, -2, 0))
    assert into.status is PathStatus.FOUND
    assert Move.DROP in moves(into)
    drive = drive_path(t, START, into)
    assert drive.violations == ()
    assert drive.final.y == -2.0
    out = find_path(t, Vec3(4.5, -2.0, 0.5), GoalBlock(0, 1, 0), SearchOptions(max_nodes=2000))
    assert out.status is PathStatus.NO_PATH


def test_deep_pit_is_walked_around_not_fallen_into() -> None:
    t = terrains.pit(5).terrain()
    path = find_path(t, START, GoalBlock(8, 1, 0))
    assert path.status is PathStatus.FOUND
    assert all(s.y == 1 for s in path.steps)
    assert drive_path(t, START, path).violations == ()
    assert find_path(t, START, GoalBlock(4, -4, 0), SearchOptions(max_nodes=3000)).status is PathStatus.NO_PATH


def test_lava_moat_is_never_crossed_and_lava_edges_cost_more() -> None:
    t = terrains.lava_moat().terrain()
    island = find_path(t, START, GoalBlock(9, 1, 0), SearchOptions(max_nodes=5000))
    assert island.status is PathStatus.NO_PATH
    for step in island.steps:
        assert not t.is_lava(step.x, step.y - 1, step.z) or t.feet_y(step.x, step.y, step.z) is not None
    # Bridge the moat: the path now crosses it, never over a lava cell.
    world = terrains.lava_moat().fill(7, 0, 0, 7, 0, 0, "stone")
    t = world.terrain()
    path = find_path(t, START, GoalBlock(9, 1, 0))
    assert path.status is PathStatus.FOUND
    assert any(s.x == 7 and s.z == 0 for s in path.steps)
    assert drive_path(t, START, path).violations == ()
    # Walking past the moat prefers to keep a block away from the lava.
    past = find_path(t, Vec3(4.5, 1.0, -5.5), GoalBlock(14, 1, -5))
    assert all(not t.is_lava(s.x, 0, s.z + 1) for s in past.steps)


def test_water_crossing_swims_and_climbs_out() -> None:
    t = terrains.pool(3).terrain()
    path = find_path(t, START, GoalBlock(11, 1, 0))
    assert path.status is PathStatus.FOUND
    assert Move.SWIM in moves(path)
    drive = drive_path(t, START, path)
    assert drive.violations == ()
    assert drive.final == Vec3(11.5, 1.0, 0.5)


def test_ladder_is_climbed_to_the_top_of_a_wall() -> None:
    t = terrains.ladder_wall().terrain()
    path = find_path(t, START, GoalBlock(6, 5, 0))
    assert path.status is PathStatus.FOUND
    assert Move.CLIMB in moves(path)
    drive = drive_path(t, START, path)
    assert drive.violations == ()
    assert drive.final == Vec3(6.5, 5.0, 0.5)
    down = find_path(t, Vec3(6.5, 5.0, 0.5), GoalBlock(0, 1, 0))
    assert down.status is PathStatus.FOUND
    assert drive_path(t, Vec3(6.5, 5.0, 0.5), down).violations == ()


def test_node_budget_returns_the_best_partial_path() -> None:
    t = terrains.flat(40).terrain()
    path = find_path(t, START, GoalBlock(35, 1, 0), SearchOptions(max_nodes=10))
    assert path.status is PathStatus.PARTIAL
    assert path.expanded == 10
    assert 1 < len(path.steps) and path.end.x > 0
    assert drive_path(t, START, path).violations == ()


def test_time_budget_reads_the_callers_clock() -> None:
    t = terrains.wall().terrain()
    ticks = itertools.count()
    clock = lambda: next(ticks) * 0.001  # noqa: E731 - each reading advances 1 ms
    path = find_path(t, START, GoalBlock(10, 1, 0), SearchOptions(time_budget=0.002), clock)
    assert path.status is PathStatus.PARTIAL
    # Read at the start (0 ms), then every 8 expansions: 1 ms at 8, 2 ms at 16.
    assert path.expanded == 16


@pytest.mark.parametrize("goal,check", [
    (GoalXZ(6, 6), lambda s: (s.x, s.z) == (6, 6)),
    (GoalY(3), lambda s: s.y == 3),
    (GoalNear(10, 1, 0, 3), lambda s: (s.x - 10) ** 2 + s.z ** 2 <= 9),
    (GoalAway(0.5, 0.5, 8), lambda s: ((s.x + 0.5 - 0.5) ** 2 + (s.z + 0.5 - 0.5) ** 2) ** 0.5 >= 8),
])
def test_goals(goal, check) -> None:  # type: ignore[no-untyped-def]
    t = terrains.staircase().terrain()
    path = find_path(t, START, goal)
    assert path.status is PathStatus.FOUND
    assert check(path.end)
    assert drive_path(t, START, path).violations == ()


def test_follow_goal_re_plans_when_the_target_moves() -> None:
    t = terrains.flat().terrain()
    target = [Vec3(10.5, 1.0, 0.5)]
    goal = GoalFollow(lambda: target[0], radius=2.0)

    def move_target(nav, checker) -> None:  # type: ignore[no-untyped-def]
        target[0] = Vec3(-10.5, 1.0, 8.5)

    drive = navigate(t, START, goal, events={30: move_target})
    assert drive.violations == ()
    assert drive.outcome == "arrived"
    assert drive.final.distance_to(Vec3(-10.5, 1.0, 8.5)) <= 3.0


def test_planner_replans_when_a_block_lands_on_the_path() -> None:
    world = terrains.flat()
    t = world.terrain()
    planner = PathPlanner(t, GoalBlock(10, 1, 0))
    first = planner.plan(START)
    assert all(s.z == 0 for s in first.steps)
    assert not planner.block_changed(0, 1, 12)
    world.fill(5, 1, -3, 5, 2, 3, "stone")
    assert planner.block_changed(5, 1, 0)
    again = planner.update(START)
    assert again is not None and again.status is PathStatus.FOUND
    assert all(not (s.x == 5 and -3 <= s.z <= 3) for s in again.steps)
    assert planner.update(START) is None


def test_navigator_detours_around_a_wall_built_mid_walk() -> None:
    world = terrains.flat()
    t = world.terrain()

    def build(nav, checker) -> None:  # type: ignore[no-untyped-def]
        world.fill(6, 1, -4, 6, 3, 4, "stone")
        for z in range(-4, 5):
            nav.block_changed(6, 1, z)

    drive = navigate(t, START, GoalBlock(10, 1, 0), events={10: build})
    assert drive.violations == ()
    assert drive.outcome == "arrived"
    assert drive.final == Vec3(10.5, 1.0, 0.5)


def test_server_teleport_resets_the_stepper_and_re_plans() -> None:
    t = terrains.flat().terrain()

    def teleport(nav, checker) -> None:  # type: ignore[no-untyped-def]
        nav.teleport(Vec3(-5.5, 1.0, -5.5))
        checker.teleport(-5.5, 1.0, -5.5, tick=19)

    drive = navigate(t, START, GoalBlock(10, 1, 0), events={20: teleport})
    assert drive.violations == ()
    assert drive.outcome == "arrived"
    assert drive.final == Vec3(10.5, 1.0, 0.5)
    assert drive.packets[19].x < -5.0
