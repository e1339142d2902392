from __future__ import annotations

from engine.actions import InjectMovement
from engine.motion.checker import Movement, MovementChecker
from engine.motion.driver import NavigatorDriver
from engine.motion.goals import GoalBlock
from engine.world.snapshot import PlayerState, Vec3, WorldSnapshot

from tests.engine.motion import terrains

SNAPSHOT = WorldSnapshot("Steve", None, PlayerState(None, 0, 0, False, None, None, None, None, None, None, None, 0, ()),
                         (), ())


def test_navigator_driver_walks_to_the_goal_with_legal_packets_and_finishes() -> None:
    t = terrains.wall().terrain()
    driver = NavigatorDriver(t, Vec3(0.5, 1.0, 0.5), GoalBlock(10, 1, 0))
    checker = MovementChecker(t)
    checker.feed(Movement(0, 0.5, 1.0, 0.5, True))
    tick = 0
    while driver.finished() is None and tick < 600:
        tick += 1
        actions = driver.step(SNAPSHOT, tick * 0.05)
        assert len(actions) == 1 and isinstance(actions[0], InjectMovement)
        a = actions[0]
        checker.feed(Movement(tick, a.x, a.y, a.z, a.on_ground))
    assert driver.finished() == "arrived"
    assert checker.violations == []
    assert driver.step(SNAPSHOT, 99.0) == []


def test_navigator_driver_reports_no_path() -> None:
    t = terrains.pit(5).terrain()
    driver = NavigatorDriver(t, Vec3(4.5, -4.0, 0.5), GoalBlock(0, 1, 0))
    for tick in range(20):
        driver.step(SNAPSHOT, tick * 0.05)
    assert driver.finished() == "no path"


def test_a_sprinting_driver_says_so_on_each_sprint_speed_step_and_walking_does_not() -> None:
    t = terrains.flat().terrain()
    for sprint in (True, False):
        driver = NavigatorDriver(t, Vec3(0.5, 1.0, 0.5), GoalBlock(12, 1, 0), sprint=sprint)
        moves = [a for tick in range(1, 40) for a in driver.step(SNAPSHOT, tick * 0.05)
                 if isinstance(a, InjectMovement)]
        steps = [b for a, b in zip(moves, moves[1:]) if abs(b.x - a.x) > 1e-9]
        assert steps and all(m.sprinting is sprint for m in steps)
