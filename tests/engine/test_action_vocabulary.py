"""One action vocabulary: what the engine emits, the simulator executes, entry by entry."""
from __future__ import annotations

import pytest

from engine import actions
from engine.sim.world import _HANDLERS, SimWorld


def test_the_simulator_has_an_entry_for_every_action() -> None:
    assert set(_HANDLERS) == set(actions.ACTIONS)


def test_an_action_without_an_entry_is_an_error_not_a_silent_drop() -> None:
    world = SimWorld(0)
    with pytest.raises(TypeError, match="no handler for object"):
        world.apply([object()], 1)


def test_movement_is_one_type_from_the_stepper_to_the_executor() -> None:
    from engine.motion.stepper import Stepper

    assert not hasattr(actions, "MoveCommand")
    assert Stepper.tick.__annotations__["return"] in ("InjectMovement", actions.InjectMovement)
