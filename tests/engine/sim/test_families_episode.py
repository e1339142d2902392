"""The autopilot on a birch forest and on deepslate: the real Session, finder and executors on the simulator."""
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


class DeepslateBirchWorld(BirchWorld):
    """A birch forest over deepslate: stone is deepslate, iron ore deepslate iron ore."""

    def __init__(self, seed: int, options: SimOptions = SimOptions()) -> None:
        super().__init__(seed, options)
        st = self.table.state_for
        swaps = [(st("stone"), st("deepslate")), (st("iron_ore"), st("deepslate_iron_ore"))]
        for key in list(self.store.keys()):
            array = self.store.section(key)
            if array is not None:
                swapped = array.copy()
                for old, new in swaps:
                    swapped[array == old] = new
                self.store.set_section(*key, swapped)


def test_a_birch_forest_gives_the_wood_milestone_and_birch_planks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(episode, "SimWorld", BirchWorld)
    result = run_episode(1, 400)
    assert "wood" in result.milestones
    labels = [label for _, label in result.decided]
    assert "gather_wood" in labels
    assert "craft(birch_planks)" in labels
    assert not any("oak" in label for label in labels)


def test_a_birch_forest_gets_as_far_as_the_wooden_pickaxe(monkeypatch: pytest.MonkeyPatch) -> None:
    # Birch planks make sticks, the table and the pickaxe on a vanilla server (#planks); a server
    # that took only oak planks stopped the episode at the sticks.
    monkeypatch.setattr(episode, "SimWorld", BirchWorld)
    result = run_episode(1, 1500, stop_when_done=True)
    assert {"wood", "crafting_table", "wooden_pickaxe"} <= set(result.milestones), result.summary()
    labels = [label for _, label in result.decided]
    assert "craft(stick)" in labels and "craft(wooden_pickaxe)" in labels
    assert result.rejected.get("craft refused", 0) == 0, result.rejected


def test_a_birch_forest_over_deepslate_reaches_the_iron_pickaxe(monkeypatch: pytest.MonkeyPatch) -> None:
    # Cobbled deepslate makes the stone pickaxe and the furnace, raw iron from deepslate ore smelts.
    monkeypatch.setattr(episode, "SimWorld", DeepslateBirchWorld)
    result = run_episode(1, 6000, stop_when_done=True)
    assert result.iron_pickaxe is not None, result.summary()
    assert result.violations == 0 and not result.deaths
    assert result.rejected.get("craft refused", 0) == 0 and result.rejected.get("smelt refused", 0) == 0
