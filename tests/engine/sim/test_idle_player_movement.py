"""Invariant 6 after the autopilot hands control back: the reflexes still drive an idle player.

``mcagent sim --hazard mobs`` once flagged two episodes once the iron pickaxe was
made: seed 0, a flight that let go at the top of a jump (the body floated 81
ticks, nobody moving it); seed 18, a jump 132 ticks after the idle player's last
packet, which the checker counted as 132 ticks in the air and a rise spread over
the gap. ``tests/engine/reflex/test_release_at_rest.py`` and
``tests/engine/motion/test_checker_gaps.py`` pin each cause on crafted cases; these
replay the episodes past the ticks where they happened.
"""
from __future__ import annotations

import pytest

from engine.sim.episode import run_episode
from engine.sim.world import SimOptions


@pytest.mark.parametrize("seed,ticks", [(0, 6700), (18, 6700)])
def test_reflexes_driving_an_idle_player_among_mobs_stay_vanilla_legal(seed: int, ticks: int) -> None:
    result = run_episode(seed, ticks, options=SimOptions(hazard="mobs"))
    assert result.iron_pickaxe is not None and result.iron_pickaxe < ticks - 300, result.summary()
    assert result.reflexes.get("hostile", 0) > 0
    assert result.violations == 0, result.violation_rules
