"""Executors: each catalog action as a small per-tick state machine on engine.motion.

How this works: an executor is made for one ``Choice`` and stepped once per
tick with an ``ExecContext``; it returns this tick's actions (at most one
``InjectMovement``) and sets ``status`` when it ends: ``"ok"`` when its
success test holds (the inventory gained the item, the block appeared, the
food bar rose), otherwise a short failure reason. Moving is always a
``Navigator`` (our A* and the vanilla-legal stepper); digging is
StartDigging, the vanilla dig time for the held tool, FinishDigging; items are
brought into the hand with a hotbar selection or a number-key window swap.
``target`` names the block an executor went for, so the stuck watchdog can
blacklist it. ``resync`` moves the navigator's body to where a reflex or the
server left the player.

    every executor:  running ──success test──► ok
                        │ ──no target / no path / refused / timeout──► failed(reason)

Where they live: ``base`` (the context, the hand, ``Executor``, ``Walk`` and its goals),
``gathering`` (``Mine``, ``Collect``), ``making`` (``Craft``, ``Place``, ``Smelt``),
``living`` (``Eat``, ``Fight``, ``Follow``, ``Sleep``, ``Wait``), ``shelter`` (``Flee``: run, or
wall in to heal), ``farming`` (``Farm``: till and plant); ``EXECUTORS`` here maps
every catalog action to one of them.
"""
from __future__ import annotations

from collections.abc import Callable

from engine.decision.catalog import ActionName, Choice
from engine.decision.executors.base import (JOB_RANGE, MAX_PLANS, TABLE_RANGE, ExecContext, Executor, Pos, Walk,
                                            aside_goal, explore_goal, hold)
from engine.decision.executors.gathering import FALL_LIMIT, Collect, Mine, resting_cell
from engine.decision.executors.living import BED_RANGE, BED_REACH, WAKE_WAIT, Eat, Fight, Follow, Sleep, Wait
from engine.decision.executors.farming import Farm
from engine.decision.executors.making import Craft, Place, Smelt
from engine.decision.executors.shelter import Flee
from engine.decision.executors.underground import ORE_TIMEOUT, UNDERGROUND_KINDS, MineOre, family
from engine.motion.goals import GoalNear

__all__ = [
    "BED_RANGE", "BED_REACH", "EXECUTORS", "FALL_LIMIT", "JOB_RANGE", "MAX_PLANS", "TABLE_RANGE", "WAKE_WAIT",
    "Collect", "Craft", "Eat", "ExecContext", "Executor", "ExecutorFactory", "Farm", "Fight", "Flee", "Follow", "Mine", "Place",
    "Pos", "Sleep", "Smelt", "Wait", "Walk", "hold", "make_executor", "resting_cell", "step_aside",
]


def _go_to(choice: Choice, timeout: int, tick: int) -> Executor:
    x, y, z = (int(v) for v in choice.args)
    return Walk(choice, timeout, tick, lambda ctx: GoalNear(x, y, z, 1.5))


ExecutorFactory = Callable[[Choice, int, int], Executor]   # (choice, timeout, tick) -> executor

# One entry per autopilot action (``catalog.CATALOG``; a test checks both name the same actions).
EXECUTORS: dict[ActionName, ExecutorFactory] = {
    ActionName.GATHER_WOOD: lambda c, timeout, tick: Mine(c, timeout, tick, "log"),
    ActionName.MINE_BLOCK: lambda c, timeout, tick: Mine(c, timeout, tick, str(c.args[0])),
    ActionName.COLLECT_DROPS: lambda c, timeout, tick: Collect(c, timeout, tick),
    ActionName.CRAFT: lambda c, timeout, tick: Craft(c, timeout, tick, str(c.args[0])),
    ActionName.SMELT: lambda c, timeout, tick: Smelt(c, timeout, tick, str(c.args[0])),
    ActionName.PLACE_BLOCK: lambda c, timeout, tick: Place(c, timeout, tick, str(c.args[0])),
    ActionName.EAT: lambda c, timeout, tick: Eat(c, timeout, tick),
    ActionName.FLEE: lambda c, timeout, tick: Flee(c, timeout, tick),
    ActionName.FIGHT: lambda c, timeout, tick: Fight(c, timeout, tick, int(c.args[0])),
    ActionName.EXPLORE: lambda c, timeout, tick: Walk(c, timeout, tick, explore_goal, enough=16.0),
    ActionName.GO_TO: _go_to,
    ActionName.SLEEP: lambda c, timeout, tick: Sleep(c, timeout, tick),
    ActionName.FOLLOW: lambda c, timeout, tick: Follow(c, timeout, tick, str(c.args[0]) if c.args else None),
    ActionName.IDLE: lambda c, timeout, tick: Wait(c, timeout, tick),
    ActionName.FARM: lambda c, timeout, tick: Farm(c, timeout, tick, str(c.args[0])),
}


def make_executor(choice: Choice, timeout: int, tick: int, version: str | None = None) -> Executor:
    """``version``: the server's, for the level ``mine_block`` of an ore found only underground goes down to."""
    kind = str(choice.args[0]) if choice.action is ActionName.MINE_BLOCK and choice.args else ""
    if kind in UNDERGROUND_KINDS:
        return MineOre(choice, max(timeout, ORE_TIMEOUT), tick, kind, 1, UNDERGROUND_KINDS[kind][family(version)])
    factory = EXECUTORS.get(choice.action)
    if factory is None:
        raise ValueError(f"no executor for {choice.label()}")
    return factory(choice, timeout, tick)


def step_aside(tick: int) -> Executor:
    return Walk(Choice(ActionName.GO_TO, ()), 100, tick, aside_goal)
