"""Simulator throughput and the engine's per-tick cost under the autopilot.

Usage:
    .venv/bin/python bench/autopilot.py                  # table
    .venv/bin/python bench/autopilot.py --json
    .venv/bin/python bench/autopilot.py --seeds 3 --ticks 5000

What is measured, side by side in one run on the same seeds:

* **reflexes only**: the engine Session (world model, reflexes) on the simulator
  with the autopilot switched off — the peer every autopilot tick is compared to;
* **autopilot, node budget**: Session + Autopilot (mock provider) with the
  deterministic planning budget (2,500 nodes), as the tests run it;
* **autopilot, time budget**: the same with the planner bounded to 1.5 ms per
  search by a monotonic clock, as a proxy would run it.

For each: simulator ticks per second (world + engine, the whole loop) and the
engine's own cost per tick (``Session.tick`` + ``Autopilot.tick``) as p50, p99
and max. The goal is p99 < 2 ms, so one proxy can drive hundreds of players
inside a 50 ms tick.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from engine.decision.autopilot import AutopilotConfig
from engine.decision.catalog import Choice
from engine.decision.providers import DecisionRequest
from engine.decision.state import DecisionState
from engine.motion.astar import SearchOptions
from engine.sim.episode import run_episode


class OffProvider:
    """Never decides: the autopilot idles, leaving the Session's reflexes and the world."""

    name = "off"

    def ask(self, state: DecisionState, legal: tuple[Choice, ...], now: float, seq: int) -> DecisionRequest:
        return DecisionRequest(seq, state.generation, state, legal, now, self.name)   # never done


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(name: str, seeds: int, ticks: int, **kw: Any) -> dict[str, Any]:
    costs: list[float] = []
    wall = 0.0
    reached = 0
    config_for = kw.pop("config_for", None)
    for seed in range(seeds):
        config = config_for(seed) if config_for is not None else None
        started = time.perf_counter()
        r = run_episode(seed, ticks, measure=True, config=config, **kw)
        wall += time.perf_counter() - started
        costs += r.tick_costs
        reached += r.iron_pickaxe is not None
    return {"case": name, "ticks_per_s": round(seeds * ticks / wall), "p50_ms": round(_pct(costs, 0.5) * 1e3, 3),
            "p99_ms": round(_pct(costs, 0.99) * 1e3, 3), "max_ms": round(max(costs) * 1e3, 2),
            "mean_ms": round(statistics.fmean(costs) * 1e3, 3), "iron_pickaxe": f"{reached}/{seeds}"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--ticks", type=int, default=10_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = [
        measure("reflexes only", args.seeds, args.ticks, provider=OffProvider(),
                config_for=lambda seed: AutopilotConfig(seed=seed, request_timeout=float("inf"))),
        measure("autopilot, node budget", args.seeds, args.ticks),
    ]
    timed = SearchOptions(max_nodes=2500, time_budget=0.0015)
    rows.append(measure("autopilot, 1.5 ms planning budget", args.seeds, args.ticks,
                        config_for=lambda seed: AutopilotConfig(search=timed, seed=seed, clock=time.perf_counter)))
    base = rows[0]["mean_ms"] or 1e-9
    for row in rows:
        row["mean_vs_reflexes_only"] = round(row["mean_ms"] / base, 2)
    if args.json:
        print(json.dumps({"seeds": args.seeds, "ticks": args.ticks, "rows": rows}))
        return 0
    print(f"{args.seeds} seeds x {args.ticks} ticks")
    print(f"{'case':36s} {'ticks/s':>8s} {'p50 ms':>8s} {'p99 ms':>8s} {'max ms':>8s} {'mean x':>7s} iron")
    for r in rows:
        print(f"{r['case']:36s} {r['ticks_per_s']:8d} {r['p50_ms']:8.3f} {r['p99_ms']:8.3f} {r['max_ms']:8.2f} "
              f"{r['mean_vs_reflexes_only']:7.2f} {r['iron_pickaxe']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
