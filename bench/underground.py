"""The diamond pickaxe in the simulator: the iron ladder, then three diamonds mined underground.

Usage:
    .venv/bin/python bench/underground.py --first-seed 720000 --seeds 20 --difficulty normal,hard \\
        --settings plain,lava,water,mobs --underground 1.18 --jobs 2 [--anti-xray 0.05] [--json]

Each episode is ``mcagent sim --goal diamond_pickaxe`` (``run_episode`` with that goal, up to
``--ticks``, 48,000 by default: the issue's measure); the diamonds are the ``MineOre`` runs the
autopilot starts for ``mine_block diamond_ore``. Reported per setting and difficulty, with the JSON keys of
``mcagent sim``: ``milestones.iron_pickaxe`` / ``milestones.diamonds`` /
``milestones.diamond_pickaxe`` (``reached`` and ``median_tick``; ``diamonds``: the first diamond carried, the goal's ``diamond`` milestone), ``deaths`` by cause and
``violations`` (movement checker), and what the safety rules refused (``refusals``) and the
fake ores found (``fakes``, with ``--anti-xray``), and a lava or water episode's pushes (``pushes``:
``surface``, into the pool beside spawn; ``below``, a misstep into a fluid within reach underground), and the
health lost by cause over the episodes (``damage``: lava and fire over the pushes is a push's cost). ``--progress FILE`` appends one JSON line
per episode as it ends.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from engine.decision.autopilot import Autopilot
from engine.decision.executors.underground import MineOre
from engine.sim.episode import run_episode
from engine.sim.records import SimOptions

sys.path.insert(0, str(Path(__file__).resolve().parent))
from autopilot import play_all  # noqa: E402  (bench/autopilot.py, the sweep's runner)

MILESTONES = ("iron_pickaxe", "diamonds", "diamond_pickaxe")


def one(job: tuple[int, str, str, int, str, float]) -> dict[str, Any]:
    seed, setting, difficulty, ticks, family, anti_xray = job
    options = SimOptions(hazard=None if setting == "plain" else setting, difficulty=difficulty,
                         underground=family, anti_xray=anti_xray)
    mines: dict[int, MineOre] = {}

    def on_tick(t: int, autopilot: Autopilot) -> None:
        if isinstance(autopilot.executor, MineOre):
            mines[id(autopilot.executor)] = autopilot.executor

    damage: dict[str, float] = {}

    def on_end(world: Any) -> None:
        damage.update(world.damage_taken)

    e = run_episode(seed, ticks, options=options, on_tick=on_tick, stop_when_done=True, goal="diamond_pickaxe",
                    on_end=on_end)
    milestones = dict(e.milestones)
    if "diamond" in milestones:
        milestones["diamonds"] = milestones.pop("diamond")
    refusals: dict[str, int] = {}
    for mine in mines.values():
        for k, v in mine.refusals.items():
            refusals[k] = refusals.get(k, 0) + v
    return {"seed": seed, "setting": setting, "difficulty": difficulty, "milestones": milestones,
            "deaths": e.deaths, "violations": e.violations, "fakes": sum(len(m.fakes) for m in mines.values()),
            "refusals": refusals, "ticks": e.ticks, "pushes": e.pushes, "damage": damage}


def summarize(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    keys = sorted({(r["difficulty"], r["setting"]) for r in results})
    for difficulty, setting in keys:
        runs = sorted((r for r in results if (r["difficulty"], r["setting"]) == (difficulty, setting)),
                      key=lambda r: r["seed"])
        milestones = {}
        for name in MILESTONES:
            ticks = [r["milestones"][name] for r in runs if name in r["milestones"]]
            milestones[name] = {"reached": len(ticks), "median_tick": statistics.median(ticks) if ticks else None}
        deaths: dict[str, int] = {}
        refusals: dict[str, int] = {}
        pushes: dict[str, int] = {}
        damage: dict[str, float] = {}
        for r in runs:
            for k, v in r.get("damage", {}).items():
                damage[k] = round(damage.get(k, 0.0) + v, 1)
            for table, source in ((deaths, r["deaths"]), (refusals, r["refusals"]), (pushes, r.get("pushes", {}))):
                for k, v in source.items():
                    table[k] = table.get(k, 0) + v
        rows.append({"difficulty": difficulty, "setting": setting, "episodes": len(runs), "milestones": milestones,
                     "deaths": deaths, "violations": sum(r["violations"] for r in runs),
                     "fakes": sum(r["fakes"] for r in runs), "refusals": refusals, "pushes": pushes,
                     "damage": damage,
                     "failed_seeds": [r["seed"] for r in runs if "diamond_pickaxe" not in r["milestones"]
                                      or r["deaths"] or r["violations"]]})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/underground.py", description="the diamond pickaxe in the simulator")
    parser.add_argument("--first-seed", type=int, default=720_000)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--ticks", type=int, default=48_000)
    parser.add_argument("--difficulty", default="normal", help="comma-separated: easy,normal,hard")
    parser.add_argument("--settings", default="plain", help="comma-separated: plain,lava,water,mobs")
    parser.add_argument("--underground", choices=("1.18", "1.17"), default="1.18")
    parser.add_argument("--anti-xray", type=float, default=0.0, help="share of hidden rock sent as ore (Paper)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--progress", default=None, metavar="FILE")
    parser.add_argument("--json", action="store_true")
    a = parser.parse_args(argv if argv is not None else sys.argv[1:])
    work = [(seed, setting, d, a.ticks, a.underground, a.anti_xray) for seed in range(a.first_seed, a.first_seed + a.seeds)
            for d in a.difficulty.split(",") for setting in a.settings.split(",")]
    started = time.perf_counter()
    results = play_all(one, work, a.jobs, a.progress)
    report = {"first_seed": a.first_seed, "seeds": a.seeds, "ticks": a.ticks, "underground": a.underground,
              "anti_xray": a.anti_xray, "seconds": round(time.perf_counter() - started, 1), "rows": summarize(results)}
    if a.json:
        print(json.dumps(report, sort_keys=True))
        return 0
    print(f"{a.seeds} seeds from {a.first_seed}, up to {a.ticks} ticks, underground {a.underground}, "
          f"anti-xray {a.anti_xray}, {report['seconds']} s")
    for row in report["rows"]:
        m = row["milestones"]
        cells = "  ".join(f"{name} {m[name]['reached']}/{row['episodes']} (median {m[name]['median_tick']})"
                          for name in MILESTONES)
        print(f"{row['setting']:6s} {row['difficulty']:7s} {cells}  deaths {row['deaths'] or 0}  "
              f"violations {row['violations']}  fakes {row['fakes']}  pushes {row['pushes'] or 0}  "
              f"failed {row['failed_seeds'] or ''}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
