import pytest

from engine.watchdog.machine import TRANSITIONS, Watchdog, WatchdogMisuse, WEvent, WState
from engine.world.snapshot import Vec3

HERE = Vec3(0.5, 64.0, 0.5)


def test_stuck_45_seconds_without_movement_or_inventory_change_while_an_action_runs() -> None:
    w = Watchdog()
    assert not w.observe(0, 0.0, HERE, (), running=True)
    assert not w.observe(880, 44.0, HERE, (), running=True)
    assert w.observe(900, 45.0, HERE, (), running=True)
    assert w.state is WState.STUCK
    w.recovering(900, 45.0, "blacklisted (1, 2, 3)")
    assert w.state is WState.CLEARING_PATH
    w.observe(910, 45.5, Vec3(3.5, 64.0, 0.5), (), running=True)
    assert w.state is WState.HEALTHY
    assert [t.event for t in w.transitions] == ["stuck", "recover", "movement_resumed"]


def test_inventory_change_or_no_action_is_not_stuck() -> None:
    w = Watchdog()
    w.observe(0, 0.0, HERE, (), running=True)
    assert not w.observe(600, 30.0, HERE, (("oak_log", 1),), running=True)
    assert not w.observe(1300, 65.0, HERE, (("oak_log", 1),), running=False)
    assert w.state is WState.HEALTHY


def test_same_action_failing_three_times_is_suppressed_for_60_seconds() -> None:
    w = Watchdog()
    assert not w.outcome("mine_block(stone)", False, 1, 1.0)
    assert not w.outcome("mine_block(stone)", False, 2, 2.0)
    assert w.outcome("mine_block(stone)", False, 3, 3.0)
    assert w.state is WState.HEALTHY
    assert "mine_block(stone)" in w.suppressed_now(62.0)
    assert "mine_block(stone)" not in w.suppressed_now(63.0)
    assert [t.after for t in w.transitions] == ["action_loop_detected", "blacklisting_action", "healthy"]


def test_a_success_resets_the_failure_count() -> None:
    w = Watchdog()
    w.outcome("explore", False, 1, 1.0)
    w.outcome("explore", False, 2, 2.0)
    w.outcome("explore", True, 3, 3.0)
    assert not w.outcome("explore", False, 4, 4.0)


def test_death_respawn_and_kill_switch() -> None:
    w = Watchdog()
    w.reflex(True, 1, 0.05, "lava")
    w.died(2, 0.1, "lava")
    assert w.state is WState.DEAD
    w.respawn_clicked(3, 0.15)
    w.respawned(4, 0.2)
    assert w.state is WState.HEALTHY
    w.kill(5, 0.25)
    assert w.state is WState.DISABLED
    w.died(6, 0.3)           # ignored while disabled
    assert w.state is WState.DISABLED
    w.enable(7, 0.35)
    assert w.state is WState.HEALTHY


def test_transitions_outside_the_table_are_misuse() -> None:
    w = Watchdog()
    with pytest.raises(WatchdogMisuse):
        w.recovering(1, 0.0, "not stuck")
    assert (WState.DISABLED, WEvent.KILL) in TRANSITIONS
