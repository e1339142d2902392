"""Path planning and reflex decision latency, side by side with mineflayer-pathfinder.

Usage:
    .venv/bin/python bench/pathfinding.py             # table
    .venv/bin/python bench/pathfinding.py --json      # one JSON object on stdout
    .venv/bin/python bench/pathfinding.py --seeds 3 --no-peer

What is measured:

* **Planning.** Seeded landscapes from ``engine.motion.worlds.generate_terrain``
  (128 x 128 blocks: hills, three-high walls, pits, lava and water pools), two
  cases each, start and goal about 100 blocks apart. Our ``find_path`` runs on a
  warm ``Terrain`` (its section cache is per session, kept between plans) and on
  a cold one; best of three. mineflayer-pathfinder 2.4.5 (from ``.peers``) runs
  the same worlds through ``bench/pathfinding_peer.js``: the same block-state
  ids, a stand-in bot whose ``blockAt`` builds a prismarine-block per call the
  way mineflayer's world does, movements restricted to ours (no digging, no
  placing, no parkour, drops up to 3); best of three, after two warm-up passes
  over all cases in the same process (JIT).
  The two searches differ in move sets and costs, so visited-node counts differ;
  compare time per path first, nodes per second second.
* **Reflex latency.** ``ReflexEngine.decide`` per tick on crafted scenarios
  (lava pool, point-blank zombie, drowning, starving, nothing happening), as p50
  and p99 over every tick, and separately over the ticks a reflex fired on
  (those plan a path).

Needs Node 20 and ``scripts/install-peers.sh`` for the peer half; ``--no-peer``
runs ours only.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import attrs
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.events import SlotItem  # noqa: E402
from engine.motion.astar import SearchOptions, find_path  # noqa: E402
from engine.motion.goals import GoalBlock  # noqa: E402
from engine.motion.grid import Terrain  # noqa: E402
from engine.motion.worlds import WorldBuilder, generate_terrain  # noqa: E402
from engine.reflex.engine import ReflexEngine  # noqa: E402
from engine.reflex.inputs import Mob, ReflexInputs  # noqa: E402
from engine.world.snapshot import Vec3  # noqa: E402
from proxy.operations import node_peers  # noqa: E402

VERSION = "1.18.2"
SIZE = 128
BASE = 64
PAIRS = (((10, 10), (110, 12)), ((12, 100), (84, 30)))


def stand_y(t: Terrain, x: int, z: int) -> int | None:
    for y in range(BASE + 20, BASE - 16, -1):
        if t.is_standable(x, y, z) and not t.is_hazard(x, y - 1, z) and not t.is_water(x, y, z):
            return y
    return None


def pick(t: Terrain, x: int, z: int) -> tuple[int, int, int] | None:
    # Nearest dry standable column around (x, z).
    for r in range(0, 6):
        for dx in range(-r, r + 1):
            for dz in range(-r, r + 1):
                y = stand_y(t, x + dx, z + dz)
                if y is not None:
                    return x + dx, y, z + dz
    return None


@attrs.frozen
class Case:
    seed: int
    start: tuple[int, int, int]
    goal: tuple[int, int, int]


def ours(world: WorldBuilder, case: Case, repeat: int) -> dict[str, float | int | str]:
    options = SearchOptions(max_nodes=1_000_000)
    feet = world.terrain().feet_y(*case.start)
    assert feet is not None
    start = Vec3(case.start[0] + 0.5, feet, case.start[2] + 0.5)
    goal = GoalBlock(*case.goal)
    cold_t = world.terrain()
    t0 = time.perf_counter()
    path = find_path(cold_t, start, goal, options)
    cold = time.perf_counter() - t0
    warm = math.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        path = find_path(cold_t, start, goal, options)
        warm = min(warm, time.perf_counter() - t0)
    return {"ms": warm * 1000, "cold_ms": cold * 1000, "visited": path.expanded, "status": path.status.value,
            "steps": len(path.steps) - 1, "cost": path.cost}


def dump_world(world: WorldBuilder, folder: Path, seed: int) -> tuple[str, list[int], list[int]]:
    x0, y0, z0 = -8, BASE - 24, -8
    sx, sy, sz = SIZE + 16, 64, SIZE + 16
    out = np.full((sx, sy, sz), world.air, dtype="<u2")
    for (cx, sy_, cz) in world.store.keys():
        section = world.store.section((cx, sy_, cz))
        assert section is not None
        cube = section.reshape(16, 16, 16)           # (y, z, x)
        for ly in range(16):
            y = sy_ * 16 + ly - y0
            if not 0 <= y < sy:
                continue
            xs = slice(cx * 16 - x0, cx * 16 - x0 + 16)
            zs = slice(cz * 16 - z0, cz * 16 - z0 + 16)
            if xs.start < 0 or zs.start < 0 or xs.stop > sx or zs.stop > sz:
                continue
            out[xs, y, zs] = cube[ly].T                 # (z, x) -> (x, z)
    path = folder / f"world{seed}.bin"
    path.write_bytes(out.tobytes())
    return str(path), [x0, y0, z0], [sx, sy, sz]


def peer(cases: list[tuple[Case, str, list[int], list[int]]], folder: Path) -> list[dict[str, object]] | str:
    try:
        node = node_peers.node_executable()
    except node_peers.PeersNotInstalled as exc:
        return str(exc)
    peers = node_peers.install_root()
    if not (peers / "node_modules" / "mineflayer-pathfinder").is_dir():
        return f"mineflayer-pathfinder not installed under {peers} (scripts/install-peers.sh)"
    spec = {"version": VERSION, "repeat": 3, "cases": [
        {"world": w, "origin": o, "size": s, "start": list(c.start), "goal": list(c.goal)} for c, w, o, s in cases]}
    spec_path = folder / "cases.json"
    spec_path.write_text(json.dumps(dict(spec, warmup=2)))
    env = dict(os.environ, MCAGENT_PEERS_DIR=str(peers))
    done = subprocess.run([node, str(ROOT / "bench" / "pathfinding_peer.js"), str(spec_path)],
                          check=True, capture_output=True, text=True, env=env)
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


# --- reflex latency ----------------------------------------------------------------------------------

def reflex_scenarios() -> list[tuple[str, WorldBuilder, ReflexInputs]]:
    def flat() -> WorldBuilder:
        return WorldBuilder(VERSION, x=(-40, 40), y=(-16, 32), z=(-40, 40)).fill(-32, 0, -32, 32, 0, 32, "stone")

    lava = flat().fill(-2, 0, -2, 2, 0, 2, "lava").fill(-2, -1, -2, 2, -1, 2, "stone")
    pool = flat().fill(3, -7, -14, 8, 0, 14, "water").fill(3, -8, -14, 8, -8, 14, "stone")
    inventory: list[SlotItem | None] = [None] * 46
    inventory[38] = SlotItem("bread", 3)
    here = Vec3(0.5, 1.0, 0.5)
    return [
        ("lava", lava, ReflexInputs(Vec3(0.5, 0.0, 0.5), True)),
        ("hostile", flat(), ReflexInputs(here, True, hostile_mobs=(Mob(1, "zombie", Vec3(2.5, 1.0, 0.5)),))),
        ("drowning", pool, ReflexInputs(Vec3(5.5, -7.0, 0.5), True, air=60)),
        ("starving", flat(), ReflexInputs(here, True, food=3, inventory=tuple(inventory))),
        ("nothing", flat(), ReflexInputs(here, True, food=20, air=300)),
    ]


def reflex_latency(runs: int) -> dict[str, dict[str, float]]:
    """Per-tick ``decide`` time. Warm: the session's terrain has its node tables around the
    player (``Terrain.prefetch`` once a tick keeps them so); cold: a fresh terrain, first tick."""
    results: dict[str, dict[str, float]] = {}
    for name, world, inputs in reflex_scenarios():
        every: list[float] = []
        firing: list[float] = []
        cold_first: list[float] = []
        warm_terrain = world.terrain()
        p = inputs.position
        while warm_terrain.prefetch(p.x, p.y, p.z, budget=27):
            pass
        for run in range(runs + 3):
            engine = ReflexEngine(clock=time.perf_counter)
            cold = run < 3
            t = world.terrain() if cold else warm_terrain
            current = inputs
            for tick in range(120):
                t0 = time.perf_counter()
                d = engine.decide(current, t, tick * 0.05, autopilot=True)
                dt = time.perf_counter() - t0
                if cold:
                    if tick == 0:
                        cold_first.append(dt)
                    break
                every.append(dt)
                if d.started:
                    firing.append(dt)
                if d.move is not None:
                    current = attrs.evolve(current, position=d.move.position, on_ground=d.move.on_ground)
        q = statistics.quantiles(every, n=100)
        row = {"p50_ms": q[49] * 1000, "p99_ms": q[98] * 1000, "max_ms": max(every) * 1000, "ticks": len(every),
               "cold_first_ms": statistics.median(cold_first) * 1000}
        if firing:
            row["fire_p50_ms"] = statistics.median(firing) * 1000
            row["fire_max_ms"] = max(firing) * 1000
        results[name] = row
    return results


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--reflex-runs", type=int, default=20)
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    rows: list[dict[str, object]] = []
    peer_cases: list[tuple[Case, str, list[int], list[int]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for seed in range(1, args.seeds + 1):
            world = generate_terrain(seed, SIZE, VERSION, base=BASE)
            t = world.terrain()
            dumped = None
            for (sx, sz), (gx, gz) in PAIRS:
                start, goal = pick(t, sx, sz), pick(t, gx, gz)
                if start is None or goal is None:
                    continue
                case = Case(seed, start, goal)
                mine = ours(world, case, args.repeat)
                rows.append({"seed": seed, "start": start, "goal": goal,
                             "distance": round(math.dist(start, goal), 1), "ours": mine})
                if dumped is None:
                    dumped = dump_world(world, folder, seed)
                peer_cases.append((case, *dumped))
        theirs: list[dict[str, object]] | str = "skipped (--no-peer)"
        if not args.no_peer:
            try:
                theirs = peer(peer_cases, folder)
            except subprocess.CalledProcessError as error:
                theirs = f"peer failed: {error.stderr.decode(errors='replace')[-400:] if error.stderr else error}"
    if isinstance(theirs, list):
        for row, result in zip(rows, theirs):
            row["peer"] = result
    reflex = reflex_latency(args.reflex_runs)

    if args.json:
        print(json.dumps({"planning": rows, "peer": theirs if isinstance(theirs, str) else "ok", "reflex": reflex}))
        return 0
    print(f"Path planning, {SIZE}x{SIZE} generated terrain, start-goal about 100 blocks (best of {args.repeat}):")
    header = f"{'seed':>4} {'dist':>6} | {'ours ms':>8} {'cold ms':>8} {'nodes':>7} {'knodes/s':>8} {'status':>8}"
    if isinstance(theirs, list):
        header += f" | {'peer ms':>8} {'nodes':>7} {'knodes/s':>8} {'status':>8} | {'time ratio':>10}"
    print(header)
    ratios = []
    for row in rows:
        o = row["ours"]
        assert isinstance(o, dict)
        line = (f"{row['seed']:>4} {row['distance']:>6} | {o['ms']:>8.1f} {o['cold_ms']:>8.1f} {o['visited']:>7} "
                f"{o['visited'] / o['ms']:>8.1f} {o['status']:>8}")
        p = row.get("peer")
        if isinstance(p, dict):
            ratio = o["ms"] / p["ms"]
            ratios.append(ratio)
            line += (f" | {p['ms']:>8.1f} {p['visited']:>7} {p['visited'] / p['ms']:>8.1f} {p['status']:>8} | "
                     f"{ratio:>9.2f}x")
        print(line)
    if ratios:
        print(f"ours/peer planning time: median {statistics.median(ratios):.2f}x "
              f"(below 1 means ours is faster), range {min(ratios):.2f}x-{max(ratios):.2f}x")
    elif isinstance(theirs, str):
        print(f"mineflayer-pathfinder: {theirs}")
    print()
    print(f"Reflex decide() per tick, warm terrain ({args.reflex_runs} runs x 120 ticks per scenario; "
          "fire = the tick a reflex took over; cold = that tick on a fresh terrain):")
    print(f"{'scenario':>10} | {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} | {'fire p50':>8} {'fire max':>8} | "
          f"{'cold':>7}")
    for name, r in reflex.items():
        fire = (f"{r['fire_p50_ms']:>8.3f} {r['fire_max_ms']:>8.3f}" if "fire_p50_ms" in r else f"{'-':>8} {'-':>8}")
        print(f"{name:>10} | {r['p50_ms']:>7.3f} {r['p99_ms']:>7.3f} {r['max_ms']:>7.3f} | {fire} | "
              f"{r['cold_first_ms']:>7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
