"""The autopilot on a birch forest: the real Session, finder and executors on the simulator."""
from __future__ import annotations

import numpy as np
import pytest

from engine.sim import episode
from engine.sim.episode import run_episode
from engine.sim.world import SimOptions, SimWorld


class BirchWorld(SimWorld):
    """The simulator's world with every oak trunk turned to birch."""

    def __init__(self, seed: int, options: SimOptions = SimOptions()) -> None:
        super().__init__(seed, options)
        oak, birch = self.table.state_for("oak_log"), self.table.state_for("birch_log")
        for key in list(self.store.keys()):
            array = self.store.section(key)
            if array is not None and (array == oak).any():
                self.store.set_section(*key, np.where(array == oak, birch, array))


def test_a_birch_forest_gives_the_wood_milestone_and_birch_planks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(episode, "SimWorld", BirchWorld)
    result = run_episode(1, 400)
    assert "wood" in result.milestones
    labels = [label for _, label in result.decided]
    assert "gather_wood" in labels
    assert "craft(birch_planks)" in labels
    assert not any("oak" in label for label in labels)
