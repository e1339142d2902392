"""Capacity: players per core and memory per player, from a recorded real session.

    .venv/bin/python bench/capacity.py record [--versions 1.20.1,1.21.11] [--seconds 150]
    .venv/bin/python bench/capacity.py run --players 50 [--features all|relay] [--version 1.20.1]
                                           [--window 30] [--ramp 20] [--json] [--profile DIR] [--heap DIR]

``record`` (needs the Node peers) plays a mineflayer player through the real proxy with
``MCAGENT_RECORD_DIR`` set and keeps the capture in ``bench/data/`` (capacity_record.py).
``run`` needs no peers: ``capacity_replay.py`` replays the capture for N players at once
(one replay server, N replay clients, each player's stream shifted to its own start)
through each path in turn, on loopback:

- ``direct``: the clients connect to the replay server (what the load generator does alone;
  the baseline the chat round trip's added latency is measured from),
- ``raw``: ``relay_peers/raw_relay.py``, a Twisted byte relay (the ceiling),
- ``off``: the real proxy process with its features off (world, reflexes, assistant, autopilot),
- ``all``: the real proxy with the world model, reflexes, assistant and autopilot on for every player.

``--features relay`` runs direct, raw and off; ``all`` (default) adds the full proxy. The relay
runs pinned to CPU 1 and the replay process to CPU 0 (``sched_setaffinity``, as taskset).
How this works, per path: the relay starts, one warm-up player plays 8 s and leaves, the
relay's RSS then is the baseline; N players join over ``--ramp`` seconds, and after
``--settle`` more the measuring window of ``--window`` seconds starts, at whose ends the
relay's CPU time (/proc), its engine ticks (metrics endpoint) and its RSS are read; the
players leave and, once the proxy has closed every connection and run its memory release,
the RSS is read again when settled. The machine's load average is
reported: on a shared machine the figures are noisy. Every garbage collection of the proxy
is timed (``relay_peers/gc_timed_proxy.py``): ``gc`` in each row has, by generation, the
count, total and longest pause in the window and since the first join.
``--proxy-tree DIR`` runs the proxy from another checkout (a before tree), timed the same way.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(1, str(REPO))

from relay import HTTP, Line, cpu_seconds, pin, stop  # noqa: E402

from proxy.operations.announcements import announced_port  # noqa: E402
from proxy.server import RELEASE_AFTER_SECONDS  # noqa: E402

RELAY_CPU, LOAD_CPU = 1, 0
FEATURES = {"all": {"assistant": True, "reflexes": True, "autopilot": True, "world": True},
            "off": {"assistant": False, "reflexes": False, "autopilot": False, "world": False}}
PATHS = {"all": ("direct", "raw", "off", "all"), "relay": ("direct", "raw", "off")}
TICKS = re.compile(r"^mcagent_ticks(?:_total)? (\S+)$", re.MULTILINE)
OPEN = re.compile(r"^mcagent_open_connections (\S+)$", re.MULTILINE)
MIB = 1024 * 1024


def log(*parts: Any) -> None:
    print(*parts, file=sys.stderr, flush=True)


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def settled_rss(pid: int, timeout: float = 30.0) -> int:
    deadline = time.monotonic() + timeout
    last = rss_bytes(pid)
    while time.monotonic() < deadline:
        time.sleep(2.0)
        now = rss_bytes(pid)
        if abs(now - last) <= max(last // 200, 256 * 1024):
            return now
        last = now
    return last


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


class Relay:
    """The process between the replay clients and the replay server (none for ``direct``)."""

    def __init__(self, path: str, upstream: int, players: int, workdir: Path, profile: Path | None,
                 heap: Path | None = None, trace: bool = True, tree: Path = REPO) -> None:
        self.path = path
        self.heap = heap
        self.gc_file: Path | None = None
        self.heap_marks = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = upstream
        self.metrics: str | None = None
        if path == "direct":
            return
        if path == "raw":
            self.proc = subprocess.Popen([sys.executable, str(HERE / "relay_peers" / "raw_relay.py"), "--upstream",
                                          f"127.0.0.1:{upstream}"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            pin(self.proc.pid, RELAY_CPU)
            line = Line(self.proc).next(20)
            if not line or line.get("event") != "listening":
                raise RuntimeError(f"raw relay did not start: {line}")
            self.port = int(line["port"])
            return
        config = {"listen": {"host": "127.0.0.1", "port": 0},
                  "upstream": {"host": "127.0.0.1", "port": upstream},
                  "online_mode": False, "login_rate_limit_seconds": 0, "max_players": players + 10,
                  "limits": {"connections_per_ip": 0, "packets_per_second": 0, "packet_burst_per_second": 0},
                  "features": FEATURES[path], "autopilot": {"log_dir": None}}
        config_file = workdir / f"proxy-{path}.json"
        config_file.write_text(json.dumps(config))
        run = ["run", "--config", str(config_file), "--metrics", "127.0.0.1:0"]
        self.gc_file = workdir / f"gc-{path}.json"
        cmd = [sys.executable, str(HERE / "relay_peers" / "gc_timed_proxy.py"), str(self.gc_file), *run]
        if heap is not None:
            self.gc_file = None
            cmd = [sys.executable, str(HERE / "relay_peers" / "traced_proxy.py"), str(heap),
                   *([] if trace else ["--no-trace"]), *run]
        elif profile is not None:
            profile.mkdir(parents=True, exist_ok=True)
            self.gc_file = None
            cmd = [sys.executable, "-m", "cProfile", "-o", str(profile / f"{path}.prof"), "-m",
                   "proxy.operations.cli", *run]
        self.logfile = workdir / f"proxy-{path}.log"
        env = {k: v for k, v in os.environ.items() if not k.startswith("MCAGENT_")}
        env["PYTHONPATH"] = os.pathsep.join([str(tree), *filter(None, [env.get("PYTHONPATH")])])
        with open(self.logfile, "wb") as out:
            self.proc = subprocess.Popen(cmd, cwd=tree, stdout=out, stderr=subprocess.STDOUT, env=env)
        pin(self.proc.pid, RELAY_CPU)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            text = self.logfile.read_text(errors="replace")
            port, metrics = announced_port(text, "proxy"), announced_port(text, "metrics")
            if port is not None and metrics is not None:
                self.port = port
                self.metrics = f"http://127.0.0.1:{metrics}/metrics"
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError("mcagent did not start: " + self.logfile.read_text(errors="replace")[-800:])

    @property
    def pid(self) -> int | None:
        return None if self.proc is None else self.proc.pid

    def ticks(self) -> float | None:
        if self.metrics is None:
            return None
        try:
            with HTTP.open(self.metrics, timeout=30) as answer:
                found = TICKS.search(answer.read().decode())
        except OSError:  # a proxy too busy to answer its metrics in time: no tick figure
            return None
        return None if found is None else float(found[1])

    def wait_idle(self, timeout: float = 120.0) -> None:
        """Until the proxy has closed every connection and had time to release memory (it does
        RELEASE_AFTER_SECONDS after the last player left): a busy proxy closes late, and RSS
        read before its release says nothing about what it keeps."""
        if self.metrics is None:
            return
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with HTTP.open(self.metrics, timeout=30) as answer:
                    found = OPEN.search(answer.read().decode())
            except OSError:
                found = None
            if found is not None and float(found[1]) == 0:
                time.sleep(RELEASE_AFTER_SECONDS + 1.0)
                try:  # answered after the release's timer came due: the reactor has run it
                    HTTP.open(self.metrics, timeout=30).close()
                except OSError:
                    pass
                return
            time.sleep(0.5)

    def heap_mark(self) -> dict[str, Any] | None:
        """Have the traced proxy dump a heap snapshot (``--heap``); its RSS and malloc figures."""
        if self.heap is None or self.proc is None:
            return None
        done = self.heap / f"heap-{self.heap_marks}.json"
        self.heap_marks += 1
        self.proc.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + 300
        while not done.exists():
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"no heap snapshot {done}")
            time.sleep(0.5)
        figures: dict[str, Any] = json.loads(done.read_text())
        return figures

    def stop(self) -> None:
        if self.proc is not None and self.path in ("off", "all"):
            self.proc.send_signal(2)  # SIGINT: cProfile writes its file on a clean exit
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                pass
        stop(self.proc)


def measure(path: str, args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    data = Path(args.data or HERE / "data" / f"capacity-{args.version}.mcrec.xz")
    gen = subprocess.Popen([sys.executable, str(HERE / "capacity_replay.py"), str(data)], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=open(workdir / f"replay-{path}.log", "wb"), cwd=REPO)
    pin(gen.pid, LOAD_CPU)
    lines = Line(gen)
    relay: Relay | None = None
    pauses: list[list[float]] | None = None
    try:
        hello = lines.next(60)
        if not hello or hello.get("event") != "listening":
            raise RuntimeError(f"replay did not start: {hello}")
        profile = Path(args.profile) / f"{args.version}-{args.players}" if args.profile and path in ("off", "all") else None
        heap = Path(args.heap) / f"{args.version}-{args.players}-{path}" if args.heap and path in ("off", "all") else None
        relay = Relay(path, int(hello["port"]), args.players, workdir, profile, heap, args.heap_lines > 0,
                      Path(args.proxy_tree).resolve() if args.proxy_tree else REPO)

        def send(**cmd: Any) -> None:
            assert gen.stdin is not None
            gen.stdin.write((json.dumps(cmd) + "\n").encode())
            gen.stdin.flush()

        def expect(event: str, timeout: float) -> dict[str, Any]:
            got = lines.next(timeout)
            if not got or got.get("event") != event:
                raise RuntimeError(f"{path}: expected {event}, got {got}")
            return got

        send(cmd="warmup", port=relay.port, seconds=8)
        expect("warm_done", 60)
        pid = relay.pid
        baseline = settled_rss(pid) if pid else None
        marks = [relay.heap_mark()]
        joins = time.monotonic()
        send(cmd="run", port=relay.port, players=args.players, ramp=args.ramp, settle=args.settle, window=args.window)
        start = expect("window_start", args.ramp + args.settle + 120)
        # CPU first (at the window's edge), then the ticks, each with its own time: a busy
        # proxy may answer its metrics endpoint late.
        cpu0, t0 = cpu_seconds(pid), time.monotonic()
        ticks0, tt0 = relay.ticks(), time.monotonic()
        end = expect("window_end", args.window + 120)
        cpu1, t1 = cpu_seconds(pid), time.monotonic()
        marks.append(relay.heap_mark())  # at once: the players leave now (--heap: no tick figure)
        ticks1, tt1 = relay.ticks(), time.monotonic()
        loaded = rss_bytes(pid) if pid else None
        expect("left", 60)
        relay.wait_idle()
        after = settled_rss(pid) if pid else None
        marks.append(relay.heap_mark())
    finally:
        if relay is not None:
            relay.stop()
            if relay.gc_file is not None and relay.gc_file.exists():
                pauses = json.loads(relay.gc_file.read_text())["pauses"]
        if gen.stdin is not None:
            gen.stdin.close()
        stop(gen)
    seconds = t1 - t0
    players = int(start["playing"])
    cpu = None if cpu0 is None or cpu1 is None else (cpu1 - cpu0) / seconds
    rtt = [float(x) for x in end["rtt_ms"]]
    row: dict[str, Any] = {
        "path": path, "players": players, "window_s": round(seconds, 1),
        "cpu_core_share": None if cpu is None else round(cpu, 4),
        "cpu_ms_per_player_s": None if cpu is None or not players else round(1000 * cpu / players, 3),
        "players_per_core": None if not cpu else int(players / cpu),
        "tick_hz": None if ticks0 is None or ticks1 is None else round((ticks1 - ticks0) / (tt1 - tt0), 2),
        "chat_rtt_ms_p50": percentile(rtt, 0.5), "chat_rtt_ms_p99": percentile(rtt, 0.99), "chat_rtts": len(rtt),
        "delivered": round(end["received_bytes"] / end["due_bytes"], 4) if end["due_bytes"] else None,
        "behind_bytes_at_end": end["behind_bytes"],
        "throughput_mib_s": round(end["received_bytes"] / seconds / MIB, 2),
    }
    if baseline is not None and loaded is not None and after is not None:
        row.update(rss_baseline_mib=round(baseline / MIB, 1), rss_loaded_mib=round(loaded / MIB, 1),
                   rss_per_player_mib=round((loaded - baseline) / MIB / max(players, 1), 2),
                   rss_after_leave_mib=round(after / MIB, 1), left_over_mib=round((after - baseline) / MIB, 1))
    if pauses is not None:
        row.update(gc_row(pauses, joins, t0, t1))
    if heap is not None:
        row["heap"] = heap_report(heap, [m or {} for m in marks], args.heap_lines)
    return row


def gc_pauses(pauses: list[list[float]], start: float, end: float) -> dict[str, dict[str, float]]:
    """The collections that began between ``start`` and ``end`` (monotonic seconds), by
    generation: how many, their total and longest pause, how many held the process over
    50 ms (a chat round trip's whole budget), and the most CPU time one took (``max_cpu_ms``:
    a longest pause far above it was the process waiting for its core, not the collector)."""
    out: dict[str, dict[str, float]] = {}
    for generation in (0, 1, 2):
        took = [p for p in pauses if p[1] == generation and start <= p[0] <= end]
        walls = [p[2] for p in took]
        out[str(generation)] = {"count": len(took), "total_ms": round(1000 * sum(walls), 1),
                                "max_ms": round(1000 * max(walls, default=0.0), 1),
                                "over_50ms": sum(1 for d in walls if d > 0.05),
                                "max_cpu_ms": round(1000 * max((p[3] for p in took if len(p) > 3), default=0.0), 1)}
    return out


def gc_row(pauses: list[list[float]], joins: float, start: float, end: float) -> dict[str, Any]:
    """A path's garbage-collection figures: by generation in the measuring window, from the
    first join to the window's end and after it (the players leaving, the idle release), and
    the window's headline figures."""
    window = gc_pauses(pauses, start, end)
    return {"gc": {"window": window, "players_in": gc_pauses(pauses, joins, end),
                   "leaving": gc_pauses(pauses, end, float("inf"))},
            "gc_max_pause_ms": max(g["max_ms"] for g in window.values()),
            "gc_full_collections": window["2"]["count"], "gc_full_max_ms": window["2"]["max_ms"]}


def heap_report(folder: Path, marks: list[dict[str, Any]], lines: int) -> dict[str, Any]:
    """The snapshots of ``--heap`` compared: what grew by source line with everyone in and after
    they left, and the process's RSS and glibc's heap account at the three marks."""
    import tracemalloc

    import heap_profile

    report: dict[str, Any] = {"marks": dict(zip(("baseline", "loaded", "left"), marks)), "loaded": [], "left": []}
    if lines > 0:
        snaps = [tracemalloc.Snapshot.load(str(folder / f"heap-{k}.snapshot")) for k in range(3)]
        report.update(loaded=heap_profile.top(snaps[0], snaps[1], lines), left=heap_profile.top(snaps[0], snaps[2], lines))
    return report


def run(args: argparse.Namespace) -> dict[str, Any]:
    paths = args.paths.split(",") if args.paths else PATHS[args.features]
    result: dict[str, Any] = {"version": args.version, "players": args.players, "cpus": os.cpu_count(),
                              "load_average_before": [round(x, 2) for x in os.getloadavg()], "rows": []}
    with tempfile.TemporaryDirectory(prefix="mcagent-capacity-") as tmp:
        for path in paths:
            log(f"{path}: {args.players} players, window {args.window:g} s ...")
            row = measure(path, args, Path(tmp))
            log("  " + json.dumps(row))
            result["rows"].append(row)
    result["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    rows = {r["path"]: r for r in result["rows"]}
    direct = rows.get("direct", {}).get("chat_rtt_ms_p50")
    for row in result["rows"]:
        for q in ("p50", "p99"):
            base = rows.get("direct", {}).get(f"chat_rtt_ms_{q}")
            value = row.get(f"chat_rtt_ms_{q}")
            if base is not None and value is not None and row["path"] != "direct":
                row[f"chat_added_ms_{q}"] = round(value - base, 3)
    if "raw" in rows and rows["raw"].get("cpu_core_share"):
        for row in result["rows"]:
            if row.get("cpu_core_share") and row["path"] not in ("direct", "raw"):
                row["cpu_vs_raw"] = round(row["cpu_core_share"] / rows["raw"]["cpu_core_share"], 2)
    result["direct_chat_p50_ms"] = direct
    return result


def table(result: dict[str, Any]) -> str:
    cols = [("path", "path"), ("players", "N"), ("cpu_ms_per_player_s", "CPU ms/player·s"),
            ("players_per_core", "players/core"), ("cpu_vs_raw", "×raw"), ("tick_hz", "ticks Hz"),
            ("chat_added_ms_p50", "chat +p50 ms"), ("chat_added_ms_p99", "chat +p99 ms"),
            ("delivered", "delivered"), ("rss_per_player_mib", "MiB/player"), ("left_over_mib", "left over MiB"),
            ("gc_full_collections", "full gcs"), ("gc_max_pause_ms", "gc max ms")]
    lines = [f"Minecraft {result['version']}, {result['players']} players, load average "
             f"{result['load_average_before']} -> {result['load_average_after']} on {result['cpus']} CPUs",
             "| " + " | ".join(h for _, h in cols) + " |", "|" + "---|" * len(cols)]
    for row in result["rows"]:
        lines.append("| " + " | ".join("" if row.get(k) is None else str(row[k]) for k, _ in cols) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="record real sessions at the proxy into bench/data/ (needs the Node peers)")
    rec.add_argument("--versions", default="1.20.1,1.21.11")
    rec.add_argument("--seconds", type=float, default=150.0)
    r = sub.add_parser("run", help="replay N players through each path and report")
    r.add_argument("--players", type=int, default=20)
    r.add_argument("--features", choices=sorted(PATHS), default="all")
    r.add_argument("--paths", help="comma-separated subset of direct,raw,off,all (overrides --features)")
    r.add_argument("--version", default="1.20.1")
    r.add_argument("--data", help="a capture file (default bench/data/capacity-VERSION.mcrec.xz)")
    r.add_argument("--ramp", type=float, default=20.0, help="seconds over which the players join")
    r.add_argument("--settle", type=float, default=10.0, help="seconds after the last join before the window")
    r.add_argument("--window", type=float, default=30.0)
    r.add_argument("--profile", help="cProfile the full proxy into this directory")
    r.add_argument("--heap", help="run the proxy under tracemalloc, snapshots in this directory; "
                   "prints what grew by source line (its figures include tracemalloc's own cost)")
    r.add_argument("--heap-lines", type=int, default=25,
                   help="with --heap: lines to show; 0: no tracemalloc, only RSS, glibc's and pymalloc's figures")
    r.add_argument("--proxy-tree", help="run the proxy from this checkout (a before tree; default: this one)")
    r.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.command == "record":
        from capacity_record import record

        for version in args.versions.split(","):
            record(version, args.seconds, log)
        return 0
    result = run(args)
    print(json.dumps(result) if args.json else table(result))
    for row in result["rows"]:
        if "heap" in row and not args.json:
            heap = row["heap"]
            for mark, figures in heap["marks"].items():
                print(f"{row['path']} {mark}: " + ", ".join(f"{k} {v / MIB:.1f} MiB" for k, v in figures.items()
                                                            if k.endswith("bytes")) + f", {figures.get('pymalloc_arenas')} pymalloc arenas")
            for key in ("loaded", "left"):
                print(f"{row['path']}: tracemalloc, {key} against the baseline, by line:")
                print("\n".join(heap[key]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
