"""Physics against vanilla numbers, and each checker rule on hand-written packets."""
from __future__ import annotations

import pytest

from engine.motion import physics as ph
from engine.motion.checker import Movement, MovementChecker, Rule, check_movements
from engine.motion.testing import drive_path
from engine.motion.astar import find_path
from engine.motion.goals import GoalBlock
from engine.world.snapshot import Vec3

from tests.engine.motion import terrains


def rules(violations) -> list[Rule]:  # type: ignore[no-untyped-def]
    return [v.rule for v in violations]


def test_jump_arc_follows_vanilla_velocity() -> None:
    t = terrains.flat().terrain()
    body = ph.Body(0.5, 1.0, 0.5, 0.0, True)
    heights = []
    body = ph.advance(t, body, ph.Controls(jump=True)).body
    heights.append(body.y)
    while not body.on_ground:
        body = ph.advance(t, body, ph.Controls()).body
        heights.append(body.y)
    rises = [round(b - a, 4) for a, b in zip([1.0] + heights, heights)]
    assert rises[:5] == [0.42, 0.3332, 0.2481, 0.1648, 0.0831]
    assert max(heights) == pytest.approx(2.2522, abs=1e-3)
    assert heights[-1] == 1.0 and len(heights) == 12


def test_falling_accelerates_and_lands_on_the_block_top() -> None:
    t = terrains.flat().terrain()
    body = ph.Body(0.5, 6.0, 0.5, 0.0, False)
    ys = []
    for _ in range(30):
        body = ph.advance(t, body, ph.Controls()).body
        ys.append(body.y)
        if body.on_ground:
            break
    # Released at rest: still for a tick, then vanilla's -0.0784, -0.1552, ...
    assert ys[0] == 6.0 and round(ys[0] - ys[1], 4) == 0.0784 and round(ys[1] - ys[2], 4) == 0.1552
    assert ys[-1] == 1.0 and body.vy < 0 and body.airborne_ticks == 0


def test_water_rise_settles_at_a_tenth_of_a_block_per_tick() -> None:
    t = terrains.pool(6).terrain()
    body = ph.Body(5.5, -5.0, 0.5, 0.0, True)
    ys = [body.y]
    for _ in range(30):
        body = ph.advance(t, body, ph.Controls(jump=True)).body
        ys.append(body.y)
    speeds = [b - a for a, b in zip(ys, ys[1:])]
    assert max(speeds) <= 0.1 + 1e-9
    assert speeds[20] == pytest.approx(0.1, abs=0.01)


def test_ladder_climbs_at_vanilla_speed() -> None:
    t = terrains.ladder_wall().terrain()
    body = ph.Body(2.5, 1.0, 0.5, 0.0, True)
    ys = [body.y]
    for _ in range(8):
        body = ph.advance(t, body, ph.Controls(jump=True)).body
        ys.append(body.y)
    speeds = [round(b - a, 4) for a, b in zip(ys, ys[1:])]
    assert speeds[0] == 0.0 and set(speeds[1:]) == {0.1176}


def test_step_up_onto_a_slab_without_jumping() -> None:
    t = terrains.staircase().terrain()
    body = ph.Body(0.5, 1.0, -1.5, 0.0, True)
    for _ in range(4):
        body = ph.advance(t, body, ph.Controls(0.0, -0.2)).body
    assert body.y == 1.5 and body.on_ground


def test_walls_stop_the_box() -> None:
    t = terrains.wall().terrain()
    body = ph.Body(4.5, 1.0, 0.5, 0.0, True)
    body = ph.advance(t, body, ph.Controls(0.216, 0.0)).body
    assert body.x == pytest.approx(4.7) and not ph.collides(t, body.x, body.y, body.z)


# --- the checker, rule by rule -----------------------------------------------------------------

def walk(n: int, dx: float, y: float = 1.0, start: int = 0) -> list[Movement]:
    return [Movement(start + i, 0.5 + dx * i, y, 0.5, True) for i in range(n)]


def test_legal_walking_and_sprinting_pass() -> None:
    t = terrains.flat().terrain()
    assert check_movements(t, walk(20, 0.216)) == []
    assert check_movements(t, walk(20, 0.281)) == []
    assert check_movements(t, walk(20, 0.216), max_speed=ph.WALK_SPEED) == []


def test_too_fast() -> None:
    t = terrains.flat().terrain()
    assert rules(check_movements(t, walk(5, 0.3))) == [Rule.TOO_FAST] * 4
    assert rules(check_movements(t, walk(5, 0.25), max_speed=ph.WALK_SPEED)) == [Rule.TOO_FAST] * 4
    # Skipped ticks share the distance.
    assert check_movements(t, [Movement(0, 0.5, 1, 0.5, True), Movement(3, 1.3, 1, 0.5, True)]) == []


def test_too_far_in_one_packet() -> None:
    t = terrains.flat().terrain()
    packets = [Movement(0, 0.5, 1, 0.5, True), Movement(50, 11.0, 1, 0.5, True)]
    assert rules(check_movements(t, packets)) == [Rule.TOO_FAR]


def test_flying_up_is_caught_and_a_real_jump_is_not() -> None:
    t = terrains.flat().terrain()
    up = [Movement(i, 0.5, 1.0 + 0.2 * i, 0.5, i == 0) for i in range(5)]
    assert Rule.ROSE_TOO_FAST in rules(check_movements(t, up))
    assert rules(check_movements(t, [Movement(0, 0.5, 1.0, 0.5, True), Movement(1, 0.5, 1.5, 0.5, False)])) \
        == [Rule.ROSE_TOO_FAST]
    body, packets = ph.Body(0.5, 1.0, 0.5, 0.0, True), [Movement(0, 0.5, 1.0, 0.5, True)]
    for i in range(1, 14):
        body = ph.advance(t, body, ph.Controls(jump=i == 1)).body
        packets.append(Movement(i, body.x, body.y, body.z, body.on_ground))
    assert check_movements(t, packets) == []


def test_hovering_eighty_ticks_is_caught() -> None:
    t = terrains.flat().terrain()
    packets = [Movement(0, 0.5, 1.0, 0.5, True)] + [Movement(i, 0.5, 1.0, 0.5, False) for i in range(1, 81)]
    # Standing still with onGround false is what vanilla counts as floating: flagged at 80.
    found = check_movements(t, packets)
    assert rules(found) == [Rule.AIRBORNE_TOO_LONG] and found[0].tick == 80


def test_on_ground_lie() -> None:
    t = terrains.flat().terrain()
    packets = [Movement(0, 0.5, 1.0, 0.5, True), Movement(1, 0.5, 0.9216, 0.5, True)]
    assert Rule.ON_GROUND_LIE in rules(check_movements(t, [Movement(0, 0.5, 3.0, 0.5, True)]))
    assert Rule.ON_GROUND_LIE in rules(check_movements(t, packets))
    # Standing half over an edge is still standing.
    edge = terrains.pit(5).terrain()
    assert check_movements(edge, [Movement(0, 2.75, 1.0, 0.5, True)]) == []


def test_inside_and_through_blocks() -> None:
    t = terrains.wall().terrain()
    assert Rule.INSIDE_BLOCK in rules(check_movements(t, [Movement(0, 5.5, 1.0, 0.5, True)]))
    # 4.5 -> 6.5 in one packet crosses the wall (and is too fast too).
    found = rules(check_movements(t, [Movement(0, 4.5, 1.0, 0.5, True), Movement(10, 6.5, 1.0, 0.5, True)]))
    assert Rule.THROUGH_BLOCK in found and Rule.INSIDE_BLOCK not in found


def test_unknown_blocks_prove_nothing() -> None:
    t = terrains.flat(8).terrain()
    # Beyond the built sections everything is unknown: no lie, no collision can be proven.
    assert check_movements(t, [Movement(0, 500.5, 70.0, 0.5, True)]) == []


def test_teleport_resets_the_reference_position() -> None:
    t = terrains.flat().terrain()
    checker = MovementChecker(t)
    checker.feed(Movement(0, 0.5, 1.0, 0.5, True))
    checker.teleport(20.5, 1.0, 0.5, tick=1)
    assert checker.feed(Movement(2, 20.6, 1.0, 0.5, True)) == []


@pytest.mark.parametrize("sprint", [False, True])
def test_stepper_never_exceeds_walk_or_sprint_speed(sprint: bool) -> None:
    t = terrains.flat(40).terrain()
    path = find_path(t, Vec3(0.5, 1.0, 0.5), GoalBlock(30, 1, 17))
    drive = drive_path(t, Vec3(0.5, 1.0, 0.5), path, sprint=sprint)
    limit = ph.SPRINT_SPEED if sprint else ph.WALK_SPEED
    xs = [(0.5, 0.5)] + [(p.x, p.z) for p in drive.packets]
    speeds = [((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5 for a, b in zip(xs, xs[1:])]
    assert max(speeds) <= limit + 1e-9
    assert max(speeds) > limit - 1e-3
    assert drive.violations == ()
