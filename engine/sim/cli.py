"""``mcagent sim``: run simulated episodes and print what the autopilot achieved.

    mcagent sim --seeds 20 --ticks 10000 --provider mock [--json]
    mcagent sim --seeds 1 --provider replay --replay-log runs/seed0/decision_log.jsonl
    mcagent sim --seeds 5 --hazard lava|water|mobs [--start-bread 5] [--difficulty normal]
    mcagent sim --goal "16 torch" --seeds 5 --ticks 12000 --json
    mcagent sim --goal diamond_pickaxe --seeds 10 --first-seed 760000 --ticks 48000 --json
    mcagent sim export --seed N --out world.json   (the world for peers/world.js --world)

Prints, per milestone, how many episodes reached it and the median tick; deaths
by cause; watchdog events; reflexes fired; movement-checker violations; with
``--json`` one JSON object instead. ``--log-dir`` writes each episode's
``decision_log.jsonl``, ``episode_events.json`` and ``terrain.json`` (the ground under the track,
for the dashboard's replay) under ``<dir>/seed<N>/``.
``--start-bread`` is the loaves the player spawns (and respawns) with;
``--difficulty`` sets how far starving hurts (easy 10, normal 1, hard death).
An episode is the autopilot's: it ends when the autopilot hands control back, fed,
with the iron pickaxe made, or at ``--ticks``; ``--after-done`` plays the rest
of the ticks with the player idle (reflexes still on, nobody to respawn them).
``--goal`` plays ``!autopilot on <goal>`` (``!get``): the milestones are the plan's items, the
goal last (``milestones.<item>.reached``); a goal the planner finds out of reach is not played
and the report says why (``out_of_reach``), with the goal reached 0 times.
``--underground auto`` (the default) turns the deep world on (caves, deepslate, ores at
vanilla's 1.18 levels: ``SimOptions.underground``) when the goal's plan digs an ore found only
below ground (``--goal diamond_pickaxe``), and leaves the classic world otherwise; ``off``,
``1.18`` or ``1.17`` choose it.
The api provider reads ``MCAGENT_LLM_BASE_URL``, ``MCAGENT_LLM_MODEL`` and
``MCAGENT_LLM_API_KEY`` and paces the episode in real time (a model answers in
wall-clock time).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from engine.decision.executors.underground import UNDERGROUND_KINDS
from engine.decision.goals import goal_ladder, parse_goal, resolve
from engine.decision.knowledge import KINDS
from engine.decision.ladder import NAMES
from engine.decision.logs import EpisodeLog
from engine.decision.provider_names import PROVIDERS
from engine.decision.providers import ApiProvider, MockProvider, Provider, ReplayProvider
from engine.llm.runner import AsyncioRunner
from engine.sim.episode import TICK, EpisodeResult, run_episode
from engine.planning.planner import OutOfReach
from engine.sim.world import VERSION, SimOptions, SimWorld
from engine.world import terrain_record as terrain
from engine.world.terrain_record import terrain_record


def milestone_names(goal: str | None) -> tuple[str, ...] | str:
    """The milestones of ``goal`` (None: the ladder's nine), or why the planner says it is out of reach."""
    if goal is None:
        return NAMES
    parsed = parse_goal(goal)
    if isinstance(parsed, str):
        return parsed
    plan = resolve(parsed, {}, frozenset(), VERSION)
    if isinstance(plan, OutOfReach):
        return plan.reason
    return goal_ladder(parsed, plan).names


def underground_for(goal: str | None, choice: str = "auto") -> str | None:
    """The deep world to play ``goal`` in: ``choice`` unless "auto"; auto: 1.18's when the goal's
    plan gathers from a block found only below ground (diamond ore), else none."""
    if choice != "auto":
        return None if choice == "off" else choice
    parsed = parse_goal(goal) if goal is not None else None
    if parsed is None or isinstance(parsed, str):
        return None
    plan = resolve(parsed, {}, frozenset(), VERSION)
    if isinstance(plan, OutOfReach):
        return None
    deep = {b for kind in UNDERGROUND_KINDS for b in KINDS[kind]}
    return "1.18" if any(s.kind == "gather" and s.source in deep for s in plan.steps) else None


def aggregate(results: Sequence[EpisodeResult], names: Sequence[str] = NAMES) -> dict[str, Any]:
    milestones: dict[str, Any] = {}
    for name in names:
        ticks = [r.milestones[name] for r in results if name in r.milestones]
        milestones[name] = {"reached": len(ticks), "median_tick": statistics.median(ticks) if ticks else None}
    deaths: dict[str, int] = {}
    watchdog: dict[str, int] = {}
    reflexes: dict[str, int] = {}
    rules: dict[str, int] = {}
    for r in results:
        for table, source in ((deaths, r.deaths), (watchdog, r.watchdog), (reflexes, r.reflexes),
                              (rules, r.violation_rules)):
            for k, v in source.items():
                table[k] = table.get(k, 0) + v
    return {
        "episodes": len(results), "milestones": milestones, "deaths": deaths, "watchdog": watchdog,
        "reflexes": reflexes, "violations": sum(r.violations for r in results), "violation_rules": rules,
        "decisions": sum(r.decisions for r in results), "stale_discarded": sum(r.stale for r in results),
        "fallbacks": sum(r.fallbacks for r in results),
        "seconds": round(sum(r.seconds for r in results), 2),
        "per_seed": [r.summary() for r in results],
    }


def _runner() -> AsyncioRunner:
    """The model runner of ``--provider api``: the service named by the environment, on a worker thread."""
    from engine.llm.client import ClientSettings, ModelClient
    from engine.llm.secrets import Secret

    settings = ClientSettings(base_url=os.environ.get("MCAGENT_LLM_BASE_URL", "http://127.0.0.1:8000/v1"),
                              model=os.environ.get("MCAGENT_LLM_MODEL", "deepseek-chat"),
                              api_key=Secret(os.environ.get("MCAGENT_LLM_API_KEY", "none")), timeout=5.0)
    return AsyncioRunner(ModelClient(settings), time.monotonic)


def _provider(args: argparse.Namespace, seed: int, runner: AsyncioRunner | None) -> Provider:
    if args.provider == "replay":
        path = args.replay_log or os.path.join(args.log_dir or ".", f"seed{seed}", "decision_log.jsonl")
        return ReplayProvider.from_file(path)
    if runner is not None:
        return ApiProvider(runner, clock=time.monotonic)
    return MockProvider()


def main(argv: Sequence[str] | None = None) -> int:
    if argv is not None and list(argv[:1]) == ["export"]:
        from engine.sim.export import main as export_main
        return export_main(list(argv[1:]))
    parser = argparse.ArgumentParser(prog="mcagent sim", description="headless autopilot episodes")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--ticks", type=int, default=10_000)
    parser.add_argument("--provider", choices=PROVIDERS, default="mock")
    parser.add_argument("--replay-log", default=None)
    parser.add_argument("--hazard", choices=("lava", "water", "mobs"), default=None)
    parser.add_argument("--start-bread", type=int, default=SimOptions().start_bread)
    parser.add_argument("--difficulty", choices=("easy", "normal", "hard"), default=SimOptions().difficulty)
    parser.add_argument("--after-done", action="store_true",
                        help="keep the world running after the autopilot finished, the player idle")
    parser.add_argument("--goal", default=None, help='what to get instead of the iron pickaxe: "16 torch", "shield"')
    parser.add_argument("--underground", choices=("auto", "off", "1.18", "1.17"), default="auto",
                        help="the deep world (caves, deepslate, ores); auto: on when the goal digs diamonds")
    parser.add_argument("--log-dir", default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not 0 <= args.start_bread <= 64:
        parser.error("--start-bread takes 0 to 64 (one stack in one slot)")
    options = SimOptions(hazard=args.hazard, start_bread=args.start_bread, difficulty=args.difficulty,
                         underground=underground_for(args.goal, args.underground))
    names = milestone_names(args.goal)
    if isinstance(names, str):
        parsed = parse_goal(args.goal)
        item = parsed.item if not isinstance(parsed, str) else args.goal
        report = aggregate([], (item,))
        report["out_of_reach"] = names
        print(json.dumps(report, sort_keys=True) if args.json else f"{args.goal}: out of reach: {names}")
        return 0
    results: list[EpisodeResult] = []
    runner = _runner() if args.provider == "api" else None
    try:
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            log = EpisodeLog()
            ends: list[SimWorld] = []
            keep: dict[str, Any] = {"on_end": ends.append} if args.log_dir else {}   # the world, for the terrain record
            provider = _provider(args, seed, runner)
            if runner is not None:
                start = time.monotonic()

                def pace(t: int, start: float = start) -> None:
                    delay = start + t * TICK - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)

                result = run_episode(seed, args.ticks, provider, options, log, models=runner,
                                     clock=time.monotonic, pace=pace, stop_when_done=not args.after_done,
                                     goal=args.goal, **keep)
            else:
                result = run_episode(seed, args.ticks, provider, options, log, stop_when_done=not args.after_done,
                                     goal=args.goal, **keep)
            results.append(result)
            if args.log_dir:
                folder = os.path.join(args.log_dir, f"seed{seed}")
                log.write(folder, result.summary())
                terrain.write(folder, terrain_record(ends[0].store, ends[0].table, log.decisions))  # the replay's map under the track
    finally:
        if runner is not None:
            runner.close()
    report = aggregate(results, names)
    if args.json:
        print(json.dumps(report, sort_keys=True))
        return 0
    out = sys.stdout
    out.write(f"{report['episodes']} episodes of up to {args.ticks} ticks, provider {args.provider}"
              f"{', hazard ' + args.hazard if args.hazard else ''} ({report['seconds']} s)\n")
    for name, row in report["milestones"].items():
        median = "-" if row["median_tick"] is None else f"{row['median_tick']:.0f}"
        out.write(f"  {name:15s} reached {row['reached']:3d}/{report['episodes']}  median tick {median}\n")
    out.write(f"deaths by cause: {report['deaths'] or 'none'}\n")
    out.write(f"watchdog events: {report['watchdog'] or 'none'}\n")
    out.write(f"reflexes fired: {report['reflexes'] or 'none'}\n")
    out.write(f"movement-checker violations: {report['violations']} {report['violation_rules'] or ''}\n")
    out.write(f"decisions {report['decisions']}, stale discarded {report['stale_discarded']}, "
              f"heuristic fallbacks {report['fallbacks']}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
