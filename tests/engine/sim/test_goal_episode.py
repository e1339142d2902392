"""``mcagent sim --goal``: a goal played from a fresh spawn, reported with the ladder's JSON keys."""
from __future__ import annotations

import json

import pytest

from engine.sim.cli import main


def report(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(list(argv)) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


def test_sim_goal_reports_the_goals_milestones(capsys: pytest.CaptureFixture[str]) -> None:
    got = report(capsys, "--goal", "4 torch", "--seeds", "1", "--first-seed", "3", "--ticks", "6000", "--json")
    milestones = got["milestones"]
    assert isinstance(milestones, dict)
    assert set(milestones) == {"oak_log", "oak_planks", "stick", "crafting_table", "wooden_pickaxe",
                                "cobblestone", "furnace", "charcoal", "torch"}
    assert milestones["torch"]["reached"] == 1
    assert got["deaths"] == {} and got["violations"] == 0
    assert "out_of_reach" not in got


def test_sim_goal_out_of_reach_is_not_played(capsys: pytest.CaptureFixture[str]) -> None:
    got = report(capsys, "--goal", "bow", "--seeds", "5", "--json")
    assert got["episodes"] == 0
    assert got["milestones"] == {"bow": {"reached": 0, "median_tick": None}}
    assert got["out_of_reach"] == ("needs string: needs a block: string comes from the block cobweb, tripwire, "
                                   "which the autopilot does not gather; or from spider, cave_spider, which it "
                                   "does not hunt")
