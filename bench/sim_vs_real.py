"""The simulator's fidelity: the same seeds in ``mcagent sim`` and end to end (issue 22).

Usage:
    .venv/bin/python bench/sim_vs_real.py --seeds 10 [--first-seed 0] [--version 26.1] [--json]

For each seed the simulator's world is exported (``mcagent sim export``), the survival-rules
test server (``peers/world.js --rules survival --world FILE``) loads it, and a mineflayer
player who stands still hands over to the autopilot through the real proxy; the same seed
runs in the simulator with the same options (no bread: food comes from the cows). Printed:
the ticks of every milestone side by side, and every disagreement: a milestone reached on
one side only, a death, a dig the server refused or delayed, a click it resynced, a run that
hit the deadline. The goal (issue 22): every seed that reaches the iron pickaxe in the
simulator reaches it end to end, and the median ticks to it end to end are within 1.25x of
the simulator's. Ticks are the autopilot's own (the episode log's ``tick``: the engine's
20 Hz tick counted from ``!autopilot on``), on both sides.
Needs the peers (``scripts/bootstrap.sh``); runs one seed at a time, about two minutes each.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.decision.ladder import NAMES  # noqa: E402
from tests.e2e.ladder import PLAYER, LadderRun, export_world, join, real_ladder, sim_ladder, start_server  # noqa: E402
from tests.e2e.peers import PeerPool  # noqa: E402
from tests.e2e.proxy_process import ProxyProcess  # noqa: E402

GOAL_RATIO = 1.25


def one_seed(seed: int, version: str, ticks: int, deadline_s: float, folder: Path) -> tuple[LadderRun, LadderRun]:
    sim = sim_ladder(seed, ticks)
    world = export_world(seed, folder)
    log_dir = folder / f"logs-{seed}"
    with PeerPool() as pool:
        server = start_server(pool, version, world)
        assert server.port is not None
        proxy = ProxyProcess(server.port, autopilot={"log_dir": str(log_dir)})
        try:
            bot = join(pool, proxy, version)
            server.wait_login(PLAYER)
            real = real_ladder(seed, server, proxy, bot, log_dir, deadline_s)
        finally:
            proxy.close()
    return sim, real


def disagreements(sim: LadderRun, real: LadderRun) -> list[str]:
    out = [f"{name}: reached only in the {'simulator' if name in sim.milestones else 'real run'}"
           for name in NAMES if (name in sim.milestones) != (name in real.milestones)]
    out += [f"real death: {cause}" for cause in real.deaths]
    out += [f"sim death: {cause}" for cause in sim.deaths]
    out += [f"server {kind} x{n}" for kind, n in real.trouble.items()]
    out += [f"sim rejected {kind} x{n}" for kind, n in sim.trouble.items()]
    if real.ended == "deadline":
        out.append("real run hit the deadline")
    return out


def report(pairs: list[tuple[LadderRun, LadderRun]], version: str) -> dict[str, Any]:
    sim_ticks = [s.iron_pickaxe for s, _ in pairs if s.iron_pickaxe is not None]
    real_ticks = [r.iron_pickaxe for _, r in pairs if r.iron_pickaxe is not None]
    both = [(s.iron_pickaxe, r.iron_pickaxe) for s, r in pairs if s.iron_pickaxe is not None]
    kept = sum(1 for _, r in both if r is not None)
    sim_median = statistics.median(sim_ticks) if sim_ticks else None
    real_median = statistics.median(real_ticks) if real_ticks else None
    ratio = None if not (sim_median and real_median) else round(real_median / sim_median, 3)
    return {
        "version": version,
        "seeds": [s.seed for s, _ in pairs],
        "sim_reached": len(sim_ticks),
        "real_reached": len(real_ticks),
        "sim_reached_and_real_too": kept,
        "sim_median_iron_pickaxe": sim_median,
        "real_median_iron_pickaxe": real_median,
        "median_ratio": ratio,
        "goal_met": bool(both) and kept == len(both) and ratio is not None and ratio <= GOAL_RATIO,
        "runs": [{"sim": s.as_json(), "real": r.as_json(), "disagreements": disagreements(s, r)} for s, r in pairs],
    }


def table(result: dict[str, Any]) -> str:
    lines = [f"version {result['version']}, seeds {result['seeds'][0]}..{result['seeds'][-1]}",
             "seed  " + " ".join(f"{n[:13]:>13s}" for n in NAMES)]
    for run in result["runs"]:
        sim, real = run["sim"], run["real"]
        cells = []
        for name in NAMES:
            a, b = sim["milestones"].get(name), real["milestones"].get(name)
            cells.append(f"{'-' if a is None else a:>6}/{'-' if b is None else b:<6}")
        lines.append(f"{sim['seed']:>4}  " + " ".join(cells))
        lines += [f"        {d}" for d in run["disagreements"]]
    lines.append(f"iron pickaxe: sim {result['sim_reached']}/{len(result['seeds'])}, "
                 f"real {result['real_reached']}/{len(result['seeds'])}, "
                 f"sim's kept end to end {result['sim_reached_and_real_too']}/{result['sim_reached']}; "
                 f"median ticks sim {result['sim_median_iron_pickaxe']} real {result['real_median_iron_pickaxe']} "
                 f"ratio {result['median_ratio']} (goal <= {GOAL_RATIO}): {'met' if result['goal_met'] else 'NOT met'}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--version", default="26.1")
    parser.add_argument("--ticks", type=int, default=10_000, help="the simulator's episode limit")
    parser.add_argument("--deadline", type=float, default=420.0, help="seconds for one real ladder")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    pairs = []
    with tempfile.TemporaryDirectory(prefix="mcagent-fidelity-") as tmp:
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            pairs.append(one_seed(seed, args.version, args.ticks, args.deadline, Path(tmp)))
            s, r = pairs[-1]
            print(f"seed {seed}: sim {s.iron_pickaxe} real {r.iron_pickaxe} ({r.seconds:.0f} s, {r.ended})",
                  file=sys.stderr)
    result = report(pairs, args.version)
    print(json.dumps(result, sort_keys=True) if args.json else table(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
