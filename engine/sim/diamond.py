"""A simulated episode toward the diamond pickaxe: the autopilot's iron ladder, then ``DiamondPickaxe``.

How this works: ``run_episode`` plays the ladder as ever; from the last milestone on, whenever
the autopilot has no task (between its own decisions: it still eats, hunts, flees and fights
when it chooses to), the diamond task is handed to it, until the diamond pickaxe is in the
inventory. The world reaches below the surface (``SimOptions.underground``, 1.18 unless
given), where the diamonds are. This is the minimal goal extension issue 24 allows while the
``!get`` planner's ``--goal`` is not on this branch; it reports as ``mcagent sim`` does, with
``diamonds`` and ``diamond_pickaxe`` added to the milestones.
"""
from __future__ import annotations

import attrs

from engine.decision.autopilot import Autopilot
from engine.decision.catalog import ActionName, Choice
from engine.decision.executors.diamond import DIAMONDS, DiamondPickaxe
from engine.sim.episode import EpisodeResult, run_episode
from engine.sim.records import SimOptions
from engine.sim.strata import DIAMOND_LEVEL

LAST = 8                    # the ladder's index of its last milestone (the iron pickaxe)


@attrs.frozen
class DiamondResult:
    episode: EpisodeResult
    diamonds: int | None                # tick three diamonds were first carried
    diamond_pickaxe: int | None
    fakes: int                          # ores found to be rock (anti-xray)
    refusals: dict[str, int]            # what the safety rules refused to dig or step on

    def milestones(self) -> dict[str, int]:
        out = dict(self.episode.milestones)
        if self.diamonds is not None:
            out["diamonds"] = self.diamonds
        if self.diamond_pickaxe is not None:
            out["diamond_pickaxe"] = self.diamond_pickaxe
        return out


def run_diamond_episode(seed: int, ticks: int = 48_000, options: SimOptions = SimOptions(underground="1.18")
                        ) -> DiamondResult:
    family = options.underground or "1.18"
    if options.underground is None:
        options = attrs.evolve(options, underground=family)
    level = DIAMOND_LEVEL[family]
    seen: dict[str, int] = {}
    tasks: list[DiamondPickaxe] = []
    ended: dict[int, int] = {}

    def on_tick(t: int, autopilot: Autopilot) -> None:
        task = tasks[-1] if tasks else None
        if task is not None and task.diamonds >= DIAMONDS and "diamonds" not in seen:
            seen["diamonds"] = t
        if task is not None and task.status == "ok" and "diamond_pickaxe" not in seen:
            seen["diamond_pickaxe"] = t
        if "diamond_pickaxe" in seen or autopilot.executor is not None or autopilot.ladder.stage < LAST:
            return
        if task is not None and task.status not in (None, "ok") and ended.setdefault(id(task), t) == t:
            return          # it gave up (hungry, a step failing): the autopilot decides once (eat, hunt)
        task = DiamondPickaxe(Choice(ActionName.MINE_BLOCK, ("diamond_ore",)), ticks, t, level)
        tasks.append(task)
        autopilot.executor = task

    result = run_episode(seed, ticks, options=options, on_tick=on_tick, stop_when_done=True)
    refusals: dict[str, int] = {}
    fakes = 0
    for task in tasks:
        for mine in task.mines:
            fakes += len(mine.fakes)
            for k, v in mine.refusals.items():
                refusals[k] = refusals.get(k, 0) + v
    return DiamondResult(result, seen.get("diamonds"), seen.get("diamond_pickaxe"), fakes, refusals)
