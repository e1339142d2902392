"""The proxy executes every action the engine can emit, through one table."""
from __future__ import annotations

import attrs
import pytest

from engine.actions import ACTIONS
from engine.sim import world as sim_world
from proxy.actuator import HANDLERS, UnknownAction
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
