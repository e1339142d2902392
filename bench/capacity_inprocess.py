"""One recorded player through the proxy's whole pipeline in this process: CPU seconds per
player-second without sockets, scheduling or other processes, so levers can be compared
back to back on a busy machine (``bench/capacity.py`` measures the real process).

How this works: the capture's login is played into a ``proxy.testing.Rig`` (the real
``ProxyServer`` and ``Connection`` on Twisted's memory reactor, features as asked), its
recorded configuration included, then every play packet each way in recorded order, the
memory clock advanced to each packet's time so the engine ticks at 20 Hz as it would
(the reflexes, the assistant and the world model do their real work). The CPU time of the
play part (``time.process_time``) over the recording's length is the figure; ``--profile``
prints cProfile's top functions.

    .venv/bin/python bench/capacity_inprocess.py [--version 1.20.1] [--features all|off] [--repeat 3]
                                                 [--profile] [--leave N]

``--leave N`` measures memory instead: N players in at once, then all leave (RSS before,
loaded and after, and how many closed sessions are still held).

``--gc N`` times the garbage collector instead (``gc.callbacks``): N players replayed one after
another into one proxy, all kept, the collections by generation (count, total and longest
pause); ``--gc-policy`` runs them under ``proxy.operations.gc_policy`` as ``mcagent run`` does.
"""
from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import pstats
import sys
import time
import tracemalloc
import weakref
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

sys.path.insert(0, str(REPO / "bench"))

import heap_profile  # noqa: E402
from twisted.internet.error import ConnectionDone  # noqa: E402
from twisted.python.failure import Failure  # noqa: E402

from proxy.connection import recording  # noqa: E402
from proxy.operations import heap  # noqa: E402
from proxy.protocol.states import State  # noqa: E402
from proxy.server import RELEASE_AFTER_SECONDS  # noqa: E402
from proxy.testing import Rig, build_packet, frame, handshake_packet  # noqa: E402

FEATURES = {"all": {"assistant": True, "reflexes": True, "autopilot": True, "world": True},
            "off": {"assistant": False, "reflexes": False, "autopilot": False, "world": False}}


def replay(capture: recording.Capture, features: str, profile: cProfile.Profile | None = None,
           rig: Rig | None = None, name: str = "Replayed") -> dict[str, Any]:
    """One player's recorded session through ``rig`` (a new proxy if None); the player stays."""
    header = capture.header
    if rig is None:
        rig = Rig(str(header["version"]), features=FEATURES[features], login_rate_limit_seconds=0)
    codec = rig.codec
    threshold = int(header["threshold"])
    rig.connect_client()
    rig.client_send(handshake_packet(codec.protocol))
    rig.client_send(build_packet(codec, "login", "toServer", "login_start", username=name))
    upstream = rig.accept_upstream()
    rig.server_send(build_packet(codec, "login", "toClient", "compress", threshold=threshold))
    upstream.threshold = threshold
    assert rig.client is not None
    rig.client.threshold = threshold
    rig.server_send(build_packet(codec, "login", "toClient", "success", username=name))
    if codec.table.has_configuration:
        rig.client_send(build_packet(codec, "login", "toServer", "login_acknowledged"))
    play = [r for r in capture.records if r.state is State.PLAY]
    for r in capture.records:
        if r.state is State.CONFIGURATION:
            (rig.server_send if r.to_client else rig.client_send)(r.packet)
    start_ms = play[0].ms
    clock = rig.reactor
    # Framed (and compressed) before the clock starts: the server's and client's work, not the proxy's.
    framed = [(r, frame(r.packet, threshold)) for r in play]
    to_proxy = {True: upstream.proto.dataReceived, False: rig.client.proto.dataReceived}
    rig.server.start_ticking()  # as `mcagent run` does
    ticks_before = rig.server.ticks
    if profile is not None:
        profile.enable()
    cpu0 = time.process_time()
    t0 = clock.seconds()
    for r, data in framed:
        due = t0 + (r.ms - start_ms) / 1000 - clock.seconds()
        if due > 0:
            clock.advance(due)
        to_proxy[r.to_client](data)
        rig.client.transport.clear()
        upstream.transport.clear()
    clock.advance(0)
    cpu = time.process_time() - cpu0
    if profile is not None:
        profile.disable()
    seconds = (play[-1].ms - start_ms) / 1000
    assert not rig.bridge.states.closed, rig.bridge.close_reason
    return {"cpu_s": round(cpu, 3), "recording_s": round(seconds, 1), "packets": len(play),
            "cpu_ms_per_player_s": round(1000 * cpu / seconds, 3),
            "ticks": rig.server.ticks - ticks_before}


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def leave(capture: recording.Capture, features: str, players: int, trim: bool = True,
          trace: int = 0) -> dict[str, Any]:
    """``players`` sessions on one proxy, one after another, all kept; then every client leaves.
    RSS before the first login (after a warm-up player has come and gone and the memory it
    freed went back, so the version's tables and the process's imports are in the baseline),
    with all in, and after all left;
    ``sessions_alive`` counts the closed sessions something still holds. ``trace`` > 0 runs
    tracemalloc and adds the source lines that grew most, loaded against the baseline
    (``heap_loaded``) and after everyone left against the baseline (``heap_left``)."""
    warm = Rig(str(capture.header["version"]), features=FEATURES[features], login_rate_limit_seconds=0)
    replay(capture, features, rig=warm)
    _leave(warm)
    del warm
    heap.release()  # the baseline is an idle proxy whose warm-up player's memory went back
    if trace:
        tracemalloc.start(1)
    baseline = rss_mib()
    snap0 = tracemalloc.take_snapshot() if trace else None
    first = Rig(str(capture.header["version"]), features=FEATURES[features], login_rate_limit_seconds=0)
    # As `mcagent run` sets it (proxy.operations.cli.build_server); --no-trim measures without.
    took: list[float] = []

    def timed_release() -> None:
        t0 = time.perf_counter()
        heap.release()
        took.append(time.perf_counter() - t0)

    first.server.release_memory = timed_release if trim else None
    rigs = [first] + [first.another() for _ in range(players - 1)]
    for i, rig in enumerate(rigs):
        replay(capture, features, rig=rig, name=f"Replayed{i}")
    gc.collect()
    loaded = rss_mib()
    snap1 = tracemalloc.take_snapshot() if trace else None
    sessions = [weakref.ref(rig.bridge.session) for rig in rigs if rig.bridge.session is not None]
    for rig in rigs:
        _leave(rig)
    reactor = first.reactor
    del rigs, rig, first
    reactor.advance(RELEASE_AFTER_SECONDS)  # the server releases memory once all have left
    gc.collect()
    after = rss_mib()
    traced: dict[str, Any] = {}
    if snap0 is not None and snap1 is not None:
        snap2 = tracemalloc.take_snapshot()
        tracemalloc.stop()
        traced = {"heap_loaded": heap_profile.top(snap0, snap1, trace),
                  "heap_left": heap_profile.top(snap0, snap2, trace)}
    return {"players": players, "rss_baseline_mib": round(baseline, 1), "rss_loaded_mib": round(loaded, 1),
            "mib_per_player": round((loaded - baseline) / players, 2), "rss_after_leave_mib": round(after, 1),
            "left_over_mib": round(after - baseline, 1),
            "sessions_alive": sum(1 for ref in sessions if ref() is not None),
            "release_ms": [round(1000 * t, 1) for t in took], **traced}


def gc_pauses(capture: recording.Capture, features: str, players: int, policy: bool) -> dict[str, Any]:
    """``players`` sessions replayed one after another into one proxy, all kept; every
    collection meanwhile timed, by generation."""
    from proxy.operations.gc_policy import GcPolicy

    limits = {"connections_per_ip": 0, "packets_per_second": 0, "packet_burst_per_second": 0}
    first = Rig(str(capture.header["version"]), features=FEATURES[features], login_rate_limit_seconds=0,
                limits=limits, max_players=players + 10)
    took: dict[int, list[float]] = {0: [], 1: [], 2: []}
    began = [0.0]

    def timed(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
        else:
            took[int(info["generation"])].append(time.perf_counter() - began[0])

    gc_policy = GcPolicy(first.reactor) if policy else None
    if gc_policy is not None:
        gc_policy.start()
    gc.callbacks.append(timed)
    try:
        rigs = [first] + [first.another() for _ in range(players - 1)]
        for i, rig in enumerate(rigs):
            replay(capture, features, rig=rig, name=f"Replayed{i}")
    finally:
        gc.callbacks.remove(timed)
        if gc_policy is not None:
            gc_policy.stop()
    return {"players": players, "policy": policy, "rss_mib": round(rss_mib(), 1),
            "gc": {str(g): {"count": len(d), "total_ms": round(1000 * sum(d), 1),
                            "max_ms": round(1000 * max(d, default=0.0), 1)} for g, d in took.items()}}


def _leave(rig: Rig) -> None:
    """The client closes its connection, as a player quitting does."""
    assert rig.client is not None
    rig.client.proto.connectionLost(Failure(ConnectionDone()))
    rig.reactor.advance(0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", default="1.20.1")
    parser.add_argument("--features", choices=sorted(FEATURES), default="all")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--leave", type=int, metavar="N",
                        help="memory instead of CPU: N players in, then all leave (RSS before, loaded, after)")
    parser.add_argument("--no-trim", dest="trim", action="store_false",
                        help="with --leave: the server does not release memory when the last player leaves")
    parser.add_argument("--trace", type=int, default=0, metavar="LINES",
                        help="with --leave: tracemalloc, the LINES source lines that grew most (RSS then includes its cost)")
    parser.add_argument("--gc", type=int, metavar="N",
                        help="time the garbage collector instead: N players replayed into one proxy, all kept")
    parser.add_argument("--gc-policy", action="store_true", help="with --gc: under the proxy's gc policy")
    args = parser.parse_args()
    path = REPO / "bench" / "data" / f"capacity-{args.version}.mcrec.xz"
    capture = recording.decode(path.read_bytes(), str(path))
    if args.gc:
        print(json.dumps({"version": args.version, "features": args.features,
                          **gc_pauses(capture, args.features, args.gc, args.gc_policy)}))
        return 0
    if args.leave:
        found = leave(capture, args.features, args.leave, args.trim, args.trace)
        heaps = {k: found.pop(k) for k in ("heap_loaded", "heap_left") if k in found}
        print(json.dumps({"version": args.version, "features": args.features, "trim": args.trim, **found}))
        for key, rows in heaps.items():
            print(f"{key} (tracemalloc, by line, against the baseline):")
            print("\n".join(rows))
        return 0
    runs = [replay(capture, args.features) for _ in range(args.repeat)]
    best = min(runs, key=lambda r: float(r["cpu_s"]))
    result: dict[str, Any] = {"version": args.version, "features": args.features, "best": best,
                              "runs_cpu_s": [r["cpu_s"] for r in runs]}
    if args.profile:
        prof = cProfile.Profile()
        replay(capture, args.features, prof)
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(15)
        result["profile"] = out.getvalue()
    print(json.dumps({k: v for k, v in result.items() if k != "profile"}))
    if "profile" in result:
        print(result["profile"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
