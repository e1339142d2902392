"""Memory is bounded: a closed session leaves a summary behind, never its bridge or world model."""
from __future__ import annotations

import gc
import weakref

from proxy.server import ClosedSession
from tests.proxy.harness import Rig


def test_a_closed_session_keeps_only_a_summary() -> None:
    rig = Rig("1.18.2", login_rate_limit_seconds=0)
    rig.login("alice")
    bridge = rig.bridge
    world = weakref.ref(bridge.session.world)
    gone = weakref.ref(bridge)
    bridge.disconnect("bye", "kicked_by_proxy")
    bridge.connectionLost(None)
    rig.reactor.advance(5)  # the close timer fires and is dropped
    (summary,) = rig.server.closed_sessions
    assert isinstance(summary, ClosedSession) and summary.player == "alice" and summary.category == "kicked_by_proxy"
    del bridge
    rig.client = rig.upstream = None
    gc.collect()
    assert gone() is None and world() is None
