"""Simulator throughput and the engine's per-tick cost under the autopilot.

Usage:
    .venv/bin/python bench/autopilot.py                  # table
    .venv/bin/python bench/autopilot.py --json
    .venv/bin/python bench/autopilot.py --seeds 3 --ticks 5000 --clock cpu

What is measured, side by side in one run on the same seeds:

* **reflexes only**: the engine Session (world model, reflexes) on the simulator
  with the autopilot switched off — the peer every autopilot tick is compared to;
* **autopilot, node budget**: Session + Autopilot (mock provider) as the tests run
  it: path searches of at most 2,500 nodes, given 64 nodes a tick;
* **autopilot, unsliced searches**: the same with every search run to its end on
  the tick it starts (``plan_slice=None``), the engine as it was before slicing;
* **autopilot, 1.5 ms planning budget**: 64-node slices also cut at 1.5 ms by a
  monotonic clock, as a proxy runs it.

For each: simulator ticks per second (world + engine, the whole loop) and the
engine's own cost per tick (``Session.tick``, which runs the autopilot) as p50,
p99 and max, timed two ways: wall time (``perf_counter``), and this thread's CPU
time (``thread_time``), which leaves out the time other processes took the CPU
away (on a busy machine wall-time percentiles measure the neighbours too). The
goal is p99 < 2 ms, so one proxy can drive hundreds of players inside a 50 ms tick.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time
import types
from collections.abc import Callable, Iterator
from typing import Any

from engine.decision.autopilot import AutopilotConfig
from engine.decision.catalog import Choice
from engine.decision.providers import DecisionRequest
from engine.decision.state import DecisionState
from engine.motion.astar import SearchOptions
from engine.sim import episode
from engine.sim.episode import run_episode


class OffProvider:
    """Never decides: the autopilot idles, leaving the Session's reflexes and the world."""

    name = "off"

    def ask(self, state: DecisionState, legal: tuple[Choice, ...], now: float, seq: int) -> DecisionRequest:
        return DecisionRequest(seq, state.generation, state, legal, now, self.name)   # never done


@contextlib.contextmanager
def episode_clock(clock: str) -> Iterator[None]:
    """Time the episode's engine ticks with this thread's CPU clock (``cpu``) or wall time.

    ``run_episode`` times each tick with ``time.perf_counter``; for ``cpu`` its module
    sees a ``time`` whose ``perf_counter`` is ``thread_time`` for the duration."""
    if clock == "wall":
        yield
        return
    saved = getattr(episode, "time")
    setattr(episode, "time", types.SimpleNamespace(perf_counter=time.thread_time))
    try:
        yield
    finally:
        setattr(episode, "time", saved)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(name: str, seeds: int, ticks: int, clocks: tuple[str, ...],
            config_for: Callable[[int], AutopilotConfig] | None = None, **kw: Any) -> dict[str, Any]:
    row: dict[str, Any] = {"case": name}
    for clock in clocks:
        costs: list[float] = []
        wall = 0.0
        reached = 0
        for seed in range(seeds):
            config = config_for(seed) if config_for is not None else None
            started = time.perf_counter()
            with episode_clock(clock):
                r = run_episode(seed, ticks, measure=True, config=config, **kw)
            wall += time.perf_counter() - started
            costs += r.tick_costs
            reached += r.iron_pickaxe is not None
        row.setdefault("ticks_per_s", round(seeds * ticks / wall))
        row.setdefault("iron_pickaxe", f"{reached}/{seeds}")
        row[clock] = {"p50_ms": round(_pct(costs, 0.5) * 1e3, 3), "p99_ms": round(_pct(costs, 0.99) * 1e3, 3),
                      "max_ms": round(max(costs) * 1e3, 2), "mean_ms": round(statistics.fmean(costs) * 1e3, 3)}
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--ticks", type=int, default=10_000)
    parser.add_argument("--clock", choices=("wall", "cpu", "both"), default="both")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    clocks = ("wall", "cpu") if args.clock == "both" else (args.clock,)
    timed = SearchOptions(max_nodes=2500, time_budget=0.0015)
    rows = [
        measure("reflexes only", args.seeds, args.ticks, clocks, provider=OffProvider(),
                config_for=lambda seed: AutopilotConfig(seed=seed, request_timeout=float("inf"))),
        measure("autopilot, node budget", args.seeds, args.ticks, clocks),
        measure("autopilot, unsliced searches", args.seeds, args.ticks, clocks,
                config_for=lambda seed: AutopilotConfig(seed=seed, plan_slice=None)),
        measure("autopilot, 1.5 ms planning budget", args.seeds, args.ticks, clocks,
                config_for=lambda seed: AutopilotConfig(search=timed, seed=seed, clock=time.perf_counter)),
    ]
    for clock in clocks:
        base = rows[0][clock]["mean_ms"] or 1e-9
        for row in rows:
            row[clock]["mean_vs_reflexes_only"] = round(row[clock]["mean_ms"] / base, 2)
    if args.json:
        print(json.dumps({"seeds": args.seeds, "ticks": args.ticks, "rows": rows}))
        return 0
    print(f"{args.seeds} seeds x {args.ticks} ticks; engine tick cost in ms")
    head = "".join(f" {c + ' p50':>9s} {c + ' p99':>9s} {c + ' max':>9s} {'mean x':>6s}" for c in clocks)
    print(f"{'case':36s} {'ticks/s':>8s}{head} iron")
    for r in rows:
        cells = "".join(f" {r[c]['p50_ms']:9.3f} {r[c]['p99_ms']:9.3f} {r[c]['max_ms']:9.2f} "
                        f"{r[c]['mean_vs_reflexes_only']:6.2f}" for c in clocks)
        print(f"{r['case']:36s} {r['ticks_per_s']:8d}{cells} {r['iron_pickaxe']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
