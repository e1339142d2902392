"""Resident memory of the proxy per player, with real peers, and what is left after they leave.

How this works: a flying-squid server (superflat, the given view distance) and the
real proxy process start on loopback. A first mineflayer bot joins and leaves: the
proxy's one-time costs (version tables, block tables, imports) are paid then, and
the RSS after it is the baseline. Then N bots join through the proxy, each receives
the chunks of its view distance, and the proxy's RSS is read from /proc once it has
settled; (RSS with N players - baseline) / N is the cost of one player. Finally the
bots leave and the RSS is read again: what a session leaves behind.

    .venv/bin/python bench/memory.py [--players 4] [--view-distance 10] [--version 1.18.2]
                                     [--terrain] [--json]

Without ``--terrain`` the world is superflat: most sections are one block state
(shared, no memory each), so this measures the proxy's own per-session state plus a
light world. ``--terrain`` has flying-squid generate hills, water, caves and ores
(its ``diamond_square`` generator, fixed seed): every column then holds several
sections of many states, which is what a real server sends.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.e2e.peers import Bot, SquidServer  # noqa: E402
from tests.e2e.proxy_process import ProxyProcess  # noqa: E402

KIB = 1024


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def settled_rss(pid: int, timeout: float = 60.0, window: float = 4.0) -> int:
    """The RSS once it stops growing by more than 1 % over ``window`` seconds."""
    deadline = time.monotonic() + timeout
    last = rss_kib(pid)
    while time.monotonic() < deadline:
        time.sleep(window)
        now = rss_kib(pid)
        if abs(now - last) <= max(last // 100, 256):
            return now
        last = now
    return last


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--view-distance", type=int, default=10)
    parser.add_argument("--version", default="1.18.2")
    parser.add_argument("--terrain", action="store_true", help="varied terrain (diamond_square), not superflat")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    server = SquidServer().start(version=args.version, view_distance=args.view_distance,
                                 max_players=args.players + 5, timeout=60,
                                 generation="diamond_square" if args.terrain else "superflat")
    proxy = ProxyProcess(server.port, autopilot={"log_dir": None}, max_players=args.players + 5)
    pid = proxy.proc.pid
    bots: list[Bot] = []
    try:
        started = settled_rss(pid)
        warm = Bot().connect(port=proxy.port, username="warmup", version=args.version, timeout=60)
        settled_rss(pid)
        warm.quit()
        baseline = settled_rss(pid)
        for i in range(args.players):
            bots.append(Bot().connect(port=proxy.port, username=f"mem{i}", version=args.version, timeout=60))
        loaded = settled_rss(pid, timeout=120)
        for bot in bots:
            bot.quit()
        bots.clear()
        time.sleep(3)
        after = settled_rss(pid)
    finally:
        for bot in bots:
            bot.close()
        proxy.close()
        server.close()
    per_player = (loaded - baseline) / args.players
    result = {
        "world": "terrain" if args.terrain else "superflat", "version": args.version, "view_distance": args.view_distance, "players": args.players,
        "rss_start_mib": round(started / KIB, 1), "rss_baseline_mib": round(baseline / KIB, 1),
        "rss_loaded_mib": round(loaded / KIB, 1), "rss_after_leaving_mib": round(after / KIB, 1),
        "per_player_mib": round(per_player / KIB, 2),
        "left_behind_mib": round((after - baseline) / KIB, 1),
    }
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"proxy RSS, {args.players} players on {args.version} at view distance {args.view_distance} "
          f"({result['world']}, flying-squid):")
    print(f"  at start {result['rss_start_mib']} MiB, after a first player came and left "
          f"{result['rss_baseline_mib']} MiB (baseline)")
    print(f"  with {args.players} players {result['rss_loaded_mib']} MiB: "
          f"{result['per_player_mib']} MiB per player")
    print(f"  after they left {result['rss_after_leaving_mib']} MiB ({result['left_behind_mib']:+} MiB vs baseline)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
