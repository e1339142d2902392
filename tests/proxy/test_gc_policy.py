"""The proxy's garbage-collection policy: freezing what is long-lived, thawing when players
leave, and a left player's state still collectable under it."""
from __future__ import annotations

import gc
import weakref
from typing import Any, Callable

from twisted.internet.error import ConnectionDone
from twisted.internet.task import Clock
from twisted.python.failure import Failure

from proxy.operations import gc_policy
from proxy.operations.gc_policy import CHECK_SECONDS, THAW_DELAY_SECONDS, GcPolicy
from proxy.server import RELEASE_AFTER_SECONDS
from proxy.testing import Rig

ALL = {"world": True, "reflexes": True, "autopilot": True, "assistant": True}


class FakeCollector:
    """Records what the policy asks of the collector, in order."""

    def __init__(self) -> None:
        self.callbacks: list[Callable[[str, dict[str, Any]], None]] = []
        self.calls: list[str] = []
        self.threshold = (700, 10, 10)

    def collect(self, generation: int = 2) -> int:
        self.calls.append("collect")
        for cb in list(self.callbacks):  # as the real collector reports its own collections
            cb("start", {"generation": generation})
            cb("stop", {"generation": generation, "collected": 0, "uncollectable": 0})
        return 0

    def freeze(self) -> None:
        self.calls.append("freeze")

    def unfreeze(self) -> None:
        self.calls.append("unfreeze")

    def get_threshold(self) -> tuple[int, int, int]:
        return self.threshold

    def set_threshold(self, threshold0: int, threshold1: int = 10, threshold2: int = 10) -> None:
        self.threshold = (threshold0, threshold1, threshold2)

    def automatic(self, generation: int) -> None:
        """A collection the interpreter started on its own."""
        for cb in list(self.callbacks):
            cb("start", {"generation": generation})
            cb("stop", {"generation": generation, "collected": 0, "uncollectable": 0})


def _policy(**kw: Any) -> tuple[GcPolicy, FakeCollector, Clock, list[str]]:
    fake, clock, trims = FakeCollector(), Clock(), []
    policy = GcPolicy(clock, fake, lambda: trims.append("trim") is None, **kw)
    return policy, fake, clock, trims


def test_start_collects_then_freezes_and_raises_the_young_threshold() -> None:
    policy, fake, _, _ = _policy(young_threshold=5000)
    policy.start()
    assert fake.calls == ["collect", "freeze"]
    assert fake.threshold == (5000, 10, 10)
    assert len(fake.callbacks) == 1
    policy.start()  # twice is once
    assert fake.calls == ["collect", "freeze"] and len(fake.callbacks) == 1


def test_stop_unfreezes_and_restores_the_thresholds() -> None:
    policy, fake, clock, _ = _policy()
    policy.start()
    policy.stop()
    assert fake.calls[-1] == "unfreeze"
    assert fake.threshold == (700, 10, 10) and fake.callbacks == []
    assert clock.getDelayedCalls() == []  # the check stopped too


def test_survivors_of_an_automatic_full_collection_are_frozen_at_the_next_check() -> None:
    policy, fake, clock, _ = _policy()
    policy.start()
    fake.calls.clear()
    fake.automatic(0)
    fake.automatic(1)
    clock.advance(CHECK_SECONDS)
    assert fake.calls == []  # young collections freeze nothing
    fake.automatic(2)
    fake.automatic(2)
    assert fake.calls == []  # never inside the collector's call
    clock.advance(CHECK_SECONDS)
    assert fake.calls == ["freeze"]  # two full collections before the check: one freeze
    clock.advance(CHECK_SECONDS * 3)
    assert fake.calls == ["freeze"]  # nothing new: nothing more


def test_a_collection_in_another_thread_only_raises_the_flag() -> None:
    import threading

    policy, fake, clock, _ = _policy()
    policy.start()
    fake.calls.clear()
    worker = threading.Thread(target=fake.automatic, args=(2,))
    worker.start()
    worker.join()
    assert fake.calls == [] and clock.getDelayedCalls() and len(clock.getDelayedCalls()) == 1  # only the check
    clock.advance(CHECK_SECONDS)
    assert fake.calls == ["freeze"]


def test_the_policys_own_collection_schedules_no_freeze() -> None:
    policy, fake, clock, _ = _policy()
    policy.start()
    policy.release()
    fake.calls.clear()
    clock.advance(CHECK_SECONDS)
    assert fake.calls == []


def test_a_thaw_waits_for_enough_departures() -> None:
    policy, fake, clock, _ = _policy(thaw_after=3, thaw_share=0.25)
    policy.start()
    fake.calls.clear()
    for _ in range(2):
        policy.session_closed(playing=4)
    clock.advance(THAW_DELAY_SECONDS)
    assert fake.calls == []
    policy.session_closed(playing=4)
    assert fake.calls == []  # not while the closing connection is on the stack
    clock.advance(THAW_DELAY_SECONDS)
    assert fake.calls == ["unfreeze", "collect", "freeze"]
    assert policy.departed == 0 and policy.thaws == 1


def test_with_many_playing_a_quarter_of_them_must_leave_first() -> None:
    policy, fake, clock, _ = _policy(thaw_after=3, thaw_share=0.25)
    policy.start()
    fake.calls.clear()
    for _ in range(9):
        policy.session_closed(playing=40)
    clock.advance(THAW_DELAY_SECONDS)
    assert fake.calls == []  # 9 of 40: fewer than a quarter
    policy.session_closed(playing=39)
    clock.advance(THAW_DELAY_SECONDS)
    assert fake.calls == ["unfreeze", "collect", "freeze"]


def test_release_when_idle_thaws_collects_and_trims() -> None:
    policy, fake, _, trims = _policy()
    policy.start()
    fake.calls.clear()
    assert policy.release() is True
    assert fake.calls == ["unfreeze", "collect", "freeze"] and trims == ["trim"]


def test_not_started_the_policy_neither_freezes_nor_thaws() -> None:
    policy, fake, clock, trims = _policy(thaw_after=1)
    policy.session_closed(playing=0)
    clock.advance(THAW_DELAY_SECONDS)
    policy.release()
    assert fake.calls == ["collect"] and trims == ["trim"]


def test_the_real_collector_freezes_and_lets_go() -> None:
    policy = GcPolicy(Clock())
    policy.start()
    try:
        assert gc.get_freeze_count() > 0
    finally:
        policy.stop()
    assert gc.get_freeze_count() == 0


def _leave(rig: Rig) -> None:
    assert rig.client is not None
    rig.client.proto.connectionLost(Failure(ConnectionDone()))
    rig.client = rig.upstream = None


def _watched(rig: Rig) -> list[weakref.ref[Any]]:
    session = rig.bridge.session
    assert session is not None
    return [weakref.ref(session), weakref.ref(rig.bridge), weakref.ref(session.world)]


def test_the_server_tells_the_hook_who_is_still_playing() -> None:
    first = Rig("1.20.1", login_rate_limit_seconds=0)
    told: list[int] = []
    first.server.session_closed_hook = told.append
    second = first.another()
    first.login("alice")
    second.login("bob", port=50001)
    _leave(first)
    _leave(second)
    assert told == [1, 0]


def test_a_left_players_frozen_state_is_collected_once_the_proxy_is_idle() -> None:
    rig = Rig("1.20.1", features=ALL, login_rate_limit_seconds=0)
    policy = gc_policy.install(rig.server, rig.reactor)
    try:
        rig.login("alice")
        policy._freeze_survivors()  # as after a full collection with alice in: her state is frozen
        refs = _watched(rig)
        _leave(rig)
        rig.reactor.advance(RELEASE_AFTER_SECONDS)  # the server's idle release: the policy thaws
        gc.collect()
        assert [r() for r in refs] == [None, None, None]
    finally:
        policy.stop()


def test_a_left_players_frozen_state_is_collected_while_others_play() -> None:
    first = Rig("1.20.1", features=ALL, login_rate_limit_seconds=0)
    policy = gc_policy.install(first.server, first.reactor)
    policy.thaw_after = 1
    try:
        second = first.another()
        first.login("alice")
        second.login("bob", port=50001)
        policy._freeze_survivors()
        refs = _watched(first)
        _leave(first)
        first.reactor.advance(THAW_DELAY_SECONDS)
        assert policy.thaws == 1
        gc.collect()
        assert [r() for r in refs] == [None, None, None]
        assert second.bridge.session is not None  # bob plays on
    finally:
        policy.stop()
