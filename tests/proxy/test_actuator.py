"""The proxy executes every action the engine can emit, through one table."""
from __future__ import annotations

import types
import typing

import attrs
import pytest

from engine.decision import acts
from engine.sim import world as sim_world
from proxy.actuator import HANDLERS, UnknownAction
from proxy.testing import Rig


def _members(union: object) -> set[type]:
    out: set[type] = set()
    for arg in typing.get_args(union):
        if isinstance(arg, types.UnionType) or typing.get_origin(arg) is typing.Union:
            out |= _members(arg)
        else:
            out.add(arg)
    return out


def test_the_proxy_and_the_simulator_execute_the_same_vocabulary() -> None:
    vocabulary = _members(acts.AgentAction)
    assert set(HANDLERS) == vocabulary  # every engine action, and nothing else
    simulated = set(sim_world._HANDLERS)
    # What the simulator executes, the proxy executes too; the rest acts on chat, the
    # proxy or the model, which the simulated world has no part in.
    assert simulated <= vocabulary
    proxy_only = {t.__name__ for t in vocabulary - simulated}
    assert proxy_only == {"ReplyToPlayer", "ForwardChat", "MeasurePing", "Kick", "AdminCommand", "AskModel",
                          "SetControl", "SwingArm"}


def test_an_action_without_a_handler_raises() -> None:
    @attrs.frozen
    class Teleport:
        x: float

    rig = Rig("1.18.2")
    rig.login()
    with pytest.raises(UnknownAction, match="Teleport"):
        rig.bridge.perform([Teleport(1.0)])
