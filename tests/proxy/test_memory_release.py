"""After the last player leaves, closed sessions are garbage and the proxy gives memory back."""
from __future__ import annotations

import gc
import platform
import weakref
from typing import Any

from twisted.internet.error import ConnectionDone
from twisted.python.failure import Failure

from proxy.operations import heap
from proxy.server import RELEASE_AFTER_SECONDS
from proxy.testing import Rig


def _leave(rig: Rig) -> None:
    assert rig.client is not None
    rig.client.proto.connectionLost(Failure(ConnectionDone()))
    rig.client = rig.upstream = None  # the test's own handles on the legs


def test_memory_is_released_once_the_last_player_has_left() -> None:
    calls: list[float] = []
    first = Rig("1.20.1", login_rate_limit_seconds=0)
    first.server.release_memory = lambda: calls.append(first.reactor.seconds())
    second = first.another()
    first.login("alice")
    second.login("bob", port=50001)
    _leave(first)
    first.reactor.advance(RELEASE_AFTER_SECONDS * 2)
    assert calls == []  # bob is still playing
    _leave(second)
    assert calls == []  # not while the closing connection is still on the stack
    first.reactor.advance(RELEASE_AFTER_SECONDS)
    assert len(calls) == 1
    first.reactor.advance(RELEASE_AFTER_SECONDS * 5)
    assert len(calls) == 1


def test_no_release_when_a_player_is_back_before_it_runs() -> None:
    calls: list[int] = []
    first = Rig("1.20.1", login_rate_limit_seconds=0)
    first.server.release_memory = lambda: calls.append(1)
    first.login("alice")
    _leave(first)
    again = first.another()
    again.login("alice", port=50001)
    first.reactor.advance(RELEASE_AFTER_SECONDS)
    assert calls == []  # someone is playing again: the heap is in use


def test_a_closed_session_and_its_connection_can_be_collected() -> None:
    rig = Rig("1.20.1", features={"world": True, "reflexes": True, "autopilot": True, "assistant": True})
    rig.login("alice")
    session = rig.bridge.session
    assert session is not None
    refs: list[weakref.ref[Any]] = [weakref.ref(session), weakref.ref(rig.bridge), weakref.ref(session.world)]
    del session
    _leave(rig)
    rig.reactor.advance(RELEASE_AFTER_SECONDS)
    gc.collect()
    assert [r() for r in refs] == [None, None, None]
    assert rig.server.closed_sessions  # what is kept is the summary


def test_release_trims_on_glibc_and_never_raises() -> None:
    trimmed = heap.release()
    on_glibc = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"
    assert trimmed is on_glibc


def test_mcagent_run_releases_memory_when_all_have_left() -> None:
    from twisted.internet.task import Clock

    from proxy.config import ProxyConfig
    from proxy.operations.cli import build_server

    config = ProxyConfig(features={"assistant": False}, autopilot={"log_dir": None})
    server = build_server(config, Clock())
    assert server.release_memory is heap.release
