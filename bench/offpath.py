"""The proxy's own work per read, in this process: Python calls per client read, server read
and tick, and CPU per player-second, with the reads shaped as the capacity bench's peers send
them (``capacity_replay``: every ``STEP`` seconds, what has come due, in one write).

How this works: one recorded player (``bench/data/capacity-VERSION.mcrec.xz``) logs in to a
``proxy.testing.Rig`` (the real ``ProxyServer`` and ``Connection`` on Twisted's memory
reactor) as in ``capacity_inprocess``; its play packets are then grouped per direction into
one read per ``STEP`` of the recording's clock, framed with the recorded threshold, and fed
to the legs in recorded order while the memory clock advances (the 20 Hz tick runs as it
would). ``--calls`` counts Python function calls (``sys.setprofile``: Python and C calls)
inside each client read, each server read and each tick: they do not move with the machine's
load, so a lever's effect shows exactly. Without it, the CPU time of the replay (best and
median of ``--repeat``) per player-second. The sockets and the reactor are not here: the
real process (``capacity.py run``) adds them, for the proxy and the raw relay alike.

    .venv/bin/python bench/offpath.py [--version 1.21.11] [--features off|all] [--calls] [--repeat 5]
"""
from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from proxy.connection import recording  # noqa: E402
from proxy.protocol.states import State  # noqa: E402
from proxy.testing import Rig, build_packet, frame, handshake_packet  # noqa: E402

STEP_MS = 20  # capacity_replay.STEP
FEATURES = {"all": {"assistant": True, "reflexes": True, "autopilot": True, "world": True},
            "off": {"assistant": False, "reflexes": False, "autopilot": False, "world": False}}


def reads(capture: recording.Capture) -> list[tuple[int, bool, bytes, int]]:
    """The play packets as (ms, to_client, bytes, frames): one read per direction and step."""
    threshold = int(capture.header["threshold"])
    play = [r for r in capture.records if r.state is State.PLAY]
    start = play[0].ms
    out: list[tuple[int, bool, bytes, int]] = []
    pending: dict[bool, tuple[int, list[bytes]]] = {}
    for r in play:
        step = (r.ms - start) // STEP_MS
        held = pending.get(r.to_client)
        if held is not None and held[0] != step:
            out.append(((held[0] + 1) * STEP_MS, r.to_client, b"".join(held[1]), len(held[1])))
            held = None
        if held is None:
            held = pending[r.to_client] = (step, [])
        held[1].append(frame(r.packet, threshold))
    for to_client, (step, parts) in pending.items():
        out.append(((step + 1) * STEP_MS, to_client, b"".join(parts), len(parts)))
    out.sort(key=lambda item: item[0])
    return out


def login(capture: recording.Capture, features: str) -> tuple[Rig, Any]:
    header = capture.header
    rig = Rig(str(header["version"]), features=FEATURES[features], login_rate_limit_seconds=0)
    codec = rig.codec
    threshold = int(header["threshold"])
    rig.connect_client()
    rig.client_send(handshake_packet(codec.protocol))
    rig.client_send(build_packet(codec, "login", "toServer", "login_start", username="Replayed"))
    upstream = rig.accept_upstream()
    rig.server_send(build_packet(codec, "login", "toClient", "compress", threshold=threshold))
    upstream.threshold = threshold
    assert rig.client is not None
    rig.client.threshold = threshold
    rig.server_send(build_packet(codec, "login", "toClient", "success", username="Replayed"))
    if codec.table.has_configuration:
        rig.client_send(build_packet(codec, "login", "toServer", "login_acknowledged"))
    for r in capture.records:
        if r.state is State.CONFIGURATION:
            (rig.server_send if r.to_client else rig.client_send)(r.packet)
    rig.server.start_ticking()
    return rig, upstream


def replay(capture: recording.Capture, features: str, plan: list[tuple[int, bool, bytes, int]],
           around: Callable[[str, Callable[[], None]], None] | None = None,
           writes: Counter[str] | None = None) -> float:
    """Feed ``plan`` through a fresh proxy; the CPU seconds it took. ``around(side, call)``, if
    given, runs each read and tick itself (to count what happens inside); ``writes`` counts the
    writes to each leg's transport."""
    rig, upstream = login(capture, features)
    assert rig.client is not None
    clock = rig.reactor
    if around is not None:  # the proxy's tick itself, without the memory clock's own work
        tick = rig.server.tick
        rig.server._tick.f = lambda: around("tick", tick)

    to_proxy = {True: upstream.proto.dataReceived, False: rig.client.proto.dataReceived}
    if writes is not None:
        for name, transport in (("to_client", rig.client.transport), ("to_server", upstream.transport)):
            transport.write = _counted(transport.write, writes, name)
    client_out, server_out = rig.client.transport, upstream.transport
    t0 = clock.seconds()
    cpu0 = time.process_time()
    for ms, to_client, data, _ in plan:
        due = t0 + ms / 1000 - clock.seconds()
        if due > 0:
            clock.advance(due)
        if around is None:
            to_proxy[to_client](data)
        else:
            around("server" if to_client else "client", lambda: to_proxy[to_client](data))
        client_out.clear()
        server_out.clear()
    cpu = time.process_time() - cpu0
    assert not rig.bridge.states.closed, rig.bridge.close_reason
    return cpu


def _counted(write: Callable[[bytes], None], counter: Counter[str], name: str) -> Callable[[bytes], None]:
    def counted(data: bytes) -> None:
        counter[name] += 1
        write(data)
    return counted


def count_calls(capture: recording.Capture, features: str, plan: list[tuple[int, bool, bytes, int]]) -> dict[str, Any]:
    counts: Counter[str] = Counter()
    runs: Counter[str] = Counter()
    side = ["none"]

    def profiler(frame: Any, event: str, arg: Any) -> None:
        if event == "call" or event == "c_call":
            counts[side[0]] += 1

    def around(name: str, call: Callable[[], None]) -> None:
        side[0] = name
        runs[name] += 1
        sys.setprofile(profiler)
        try:
            call()
        finally:
            sys.setprofile(None)
            side[0] = "none"

    collections = [g["collections"] for g in gc.get_stats()]
    replay(capture, features, plan, around)
    collections = [g["collections"] - before for g, before in zip(gc.get_stats(), collections)]
    writes: Counter[str] = Counter()
    replay(capture, features, plan, writes=writes)  # again, unprofiled: the writes to each leg
    frames = {"client": sum(n for _, to_client, _, n in plan if not to_client),
              "server": sum(n for _, to_client, _, n in plan if to_client)}
    out: dict[str, Any] = {}
    for name in ("client", "server"):
        out[name] = {"reads": runs[name], "frames": frames[name],
                     "calls_per_read": round(counts[name] / max(runs[name], 1), 2),
                     "calls_per_frame": round(counts[name] / max(frames[name], 1), 2)}
    # Writes (each a send() in the real process) per read: the client's reads go to the server.
    out["client"]["writes_per_read"] = round(writes["to_server"] / max(runs["client"], 1), 3)
    out["server"]["writes_per_read"] = round(writes["to_client"] / max(runs["server"], 1), 3)
    out["tick"] = {"ticks": runs["tick"], "calls_per_tick": round(counts["tick"] / max(runs["tick"], 1), 2)}
    # The collector runs a young collection per gen0 threshold (700) of new container objects
    # net of those freed: a coarse, deterministic count of what the replay allocates and keeps.
    out["gc_collections"] = collections
    out["calls_per_frame"] = round((counts["client"] + counts["server"] + counts["tick"])
                                   / max(frames["client"] + frames["server"], 1), 2)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", default="1.21.11")
    parser.add_argument("--features", choices=sorted(FEATURES), default="off")
    parser.add_argument("--calls", action="store_true", help="count Python calls per read and tick (deterministic)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    path = REPO / "bench" / "data" / f"capacity-{args.version}.mcrec.xz"
    capture = recording.decode(path.read_bytes(), str(path))
    plan = reads(capture)
    seconds = plan[-1][0] / 1000
    result: dict[str, Any] = {"version": args.version, "features": args.features, "recording_s": seconds}
    if args.calls:
        result.update(count_calls(capture, args.features, plan))
    else:
        replay(capture, args.features, plan)  # warm-up: imports, tables, caches
        runs = [replay(capture, args.features, plan) for _ in range(args.repeat)]
        result.update(cpu_s=[round(c, 4) for c in runs],
                      best_ms_per_player_s=round(1000 * min(runs) / seconds, 4),
                      median_ms_per_player_s=round(1000 * statistics.median(runs) / seconds, 4))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
