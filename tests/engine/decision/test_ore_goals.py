"""Redstone and coal: dug for below ground by ``MineOre`` (the level per ore), legal unseen with the
pickaxe each needs, and a coal goal played in the simulator's deep world."""
from __future__ import annotations

import json

import pytest

from engine.decision.catalog import ActionName, Choice
from engine.decision.executors import MineOre, make_executor
from engine.decision.executors.underground import COAL_LEVEL, DIAMOND_LEVEL
from engine.sim.cli import main


@pytest.mark.parametrize("version, family", [("1.20.4", "1.18"), ("1.16.5", "1.17")])
def test_redstone_is_dug_at_the_diamond_level_and_coal_at_its_own(version: str, family: str) -> None:
    red = make_executor(Choice(ActionName.MINE_BLOCK, ("redstone_ore",)), 700, 1, version)
    assert isinstance(red, MineOre) and red.level == DIAMOND_LEVEL[family] and red.kind == "redstone_ore"
    coal = make_executor(Choice(ActionName.MINE_BLOCK, ("coal_ore",)), 700, 1, version)
    assert isinstance(coal, MineOre) and coal.level == COAL_LEVEL[family]


def test_a_coal_goal_is_reached_in_the_deep_world(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--goal", "coal", "--seeds", "1", "--first-seed", "3", "--ticks", "3000", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["milestones"]["coal"]["reached"] == 1
    assert got["deaths"] == {} and got["violations"] == 0
