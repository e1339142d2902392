"""A short simulated episode underground: from the surface of a 1.18 world with an iron pickaxe,
``MineOre`` stairs down and mines a diamond, with no death, no movement violation and no dig refused;
the autopilot's own tasks are replaced by it as the diamond goal's episode does."""
from __future__ import annotations

from engine.decision.autopilot import Autopilot
from engine.decision.catalog import ActionName, Choice
from engine.decision.executors import make_executor
from engine.decision.executors.underground import MineOre
from engine.sim.episode import run_episode
from engine.sim.records import SimOptions
from engine.decision.executors.underground import DIAMOND_LEVEL


def test_mine_ore_brings_a_diamond_up_from_a_1_18_world_safely() -> None:
    options = SimOptions(underground="1.18", start_items=(("iron_pickaxe", 1), ("torch", 32)), mobs=False)
    runs: list[MineOre] = []

    def on_tick(t: int, autopilot: Autopilot) -> None:
        ex = autopilot.executor
        if runs and runs[-1].status == "ok":
            if ex is None:       # done: stand still (the autopilot would climb out of the stairwell)
                autopilot.executor = make_executor(Choice(ActionName.IDLE), 10_000, t)
            return
        if ex is None or not isinstance(ex, MineOre):
            if ex is not None:
                ex.cancel("replaced")
            runs.append(MineOre(Choice(ActionName.MINE_BLOCK, ("diamond_ore",)), 6000, t, "diamond_ore", 1,
                                DIAMOND_LEVEL["1.18"]))
            autopilot.executor = runs[-1]

    result = run_episode(2, 1500, options=options, on_tick=on_tick)
    assert runs and runs[-1].status == "ok", [(r.status, r.refusals) for r in runs]
    assert not result.deaths and result.violations == 0
    assert not result.rejected, result.rejected
