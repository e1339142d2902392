"""The proxy executes every action the engine can emit, through one table."""
from __future__ import annotations

import attrs
import pytest

from engine.actions import ACTIONS
from engine.sim import world as sim_world
from proxy.connection.actuator import HANDLERS, UnknownAction
from proxy.testing import Rig


def test_the_proxy_and_the_simulator_execute_the_same_vocabulary() -> None:
    vocabulary = set(ACTIONS)
    assert set(HANDLERS) == vocabulary  # every engine action, and nothing else
    assert set(sim_world._HANDLERS) == vocabulary
    assert "AskModel" not in {t.__name__ for t in vocabulary}  # model calls go through the Session's runner


def test_an_action_without_a_handler_raises() -> None:
    @attrs.frozen
    class Teleport:
        x: float

    rig = Rig("1.18.2")
    rig.login()
    with pytest.raises(UnknownAction, match="Teleport"):
        rig.bridge.perform([Teleport(1.0)])


def test_a_new_action_is_one_type_plus_a_handler_in_each_executor(monkeypatch: pytest.MonkeyPatch) -> None:
    """What adding an action to engine.actions takes: until each executor has its entry, the
    vocabulary check above names the gap; with the two entries, both carry it out."""

    @attrs.frozen
    class Wave:
        times: int

    vocabulary = set(ACTIONS) | {Wave}  # as if Wave were in engine.actions.Action
    assert vocabulary - set(HANDLERS) == {Wave}
    assert vocabulary - set(sim_world._HANDLERS) == {Wave}

    proxy_ran: list[object] = []
    sim_ran: list[object] = []
    monkeypatch.setitem(HANDLERS, Wave, lambda actuator, action: proxy_ran.append(action))
    monkeypatch.setitem(sim_world._HANDLERS, Wave, lambda world, action, t, out: sim_ran.append(action))
    assert vocabulary == set(HANDLERS) == set(sim_world._HANDLERS)
    rig = Rig("1.18.2")
    rig.login()
    rig.bridge.perform([Wave(2)])
    sim_world.SimWorld(0).apply([Wave(2)], 1)
    assert proxy_ran == sim_ran == [Wave(2)]
