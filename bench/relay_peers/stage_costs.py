"""Where mcagent's time per packet goes: its real code in one process, no sockets.

How this works: a ``ProxyServer`` on Twisted's memory reactor gets one player
logged in (the client and upstream legs are ``StringTransport``s), then the
relay benchmark's workload streams are fed to the bridge in 64 KiB reads, as
the reactor would deliver them. That is the bridge's full per-packet cost
without socket I/O. The same frames then go through the pieces on their own
(framing, packet id, decode, engine) to split the cost, and through small
prototypes of cheaper fast paths, to show what each change would buy. All
numbers are nanoseconds per packet (best of a few repeats), on this machine.

Run: python bench/relay_peers/stage_costs.py [--version 1.18.2] [--json]
Imports proxy/ and engine/ directly: if their APIs move, this script needs
updating; bench/relay.py does not depend on it.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
import zlib
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))
from mcwire import TO_CLIENT, TO_SERVER, load_version, read_varint, workload_stream  # noqa: E402
from mcwire import frame as wire_frame  # noqa: E402

from twisted.internet.address import IPv4Address  # noqa: E402
from twisted.internet.testing import MemoryReactorClock, StringTransport  # noqa: E402

from proxy.codec import translators  # noqa: E402
from proxy.config import ProxyConfig  # noqa: E402
from proxy.protocol.framing import Framing  # noqa: E402
from proxy.server import ProxyServer  # noqa: E402

READ = 1 << 16
THRESHOLD = 256


def chunks(stream_bytes: bytes, size: int = READ) -> list[bytes]:
    return [stream_bytes[i:i + size] for i in range(0, len(stream_bytes), size)]


def best_of(fn: Callable[[], int], repeats: int = 3) -> float:
    """ns per packet: fn() processes its input and returns how many packets it handled."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter_ns()
        n = fn()
        dt = time.perf_counter_ns() - t0
        best = min(best, dt / max(1, n))
    return best


class Rig:
    """One logged-in player on a memory reactor."""

    def __init__(self, version_name: str) -> None:
        self.v = load_version(version_name)
        self.reactor = MemoryReactorClock()
        self.server = ProxyServer(ProxyConfig(login_rate_limit_seconds=0.0, limits={"packets_per_second": 0, "packet_burst_per_second": 0}), self.reactor)
        self.leg = self.server.buildProtocol(IPv4Address("TCP", "127.0.0.1", 50000))
        self.bridge = self.leg.connection
        self.client_tx = StringTransport(peerAddress=IPv4Address("TCP", "127.0.0.1", 50000))
        self.leg.makeConnection(self.client_tx)
        self.leg.dataReceived(wire_frame(self.v.handshake("127.0.0.1", 25566), -1)
                              + wire_frame(self.v.login_start("benchbot"), -1))
        host, port, factory, _timeout, _bind = self.reactor.tcpClients.pop()
        self.upstream = factory.buildProtocol(IPv4Address("TCP", host, port))
        self.upstream_tx = StringTransport()
        self.upstream.makeConnection(self.upstream_tx)
        self.upstream.dataReceived(wire_frame(self.v.set_compression(THRESHOLD), -1)
                                   + wire_frame(self.v.login_success("benchbot"), THRESHOLD))
        if self.v.has_configuration:
            self.leg.dataReceived(wire_frame(bytes([self.v.pid("login", TO_SERVER, "login_acknowledged")]), THRESHOLD))
            self.upstream.dataReceived(wire_frame(bytes([self.v.pid("configuration", TO_CLIENT, "finish_configuration")]), THRESHOLD))
            self.leg.dataReceived(wire_frame(bytes([self.v.pid("configuration", TO_SERVER, "finish_configuration")]), THRESHOLD))
        self.client_tx.clear()
        self.upstream_tx.clear()
        if self.bridge.state != "play":
            raise RuntimeError(f"the rig did not reach play (state {self.bridge.state})")


def full_bridge(rig: Rig, data: list[bytes], frames: int, to_client: bool) -> float:
    receive = rig.upstream.dataReceived if to_client else rig.leg.dataReceived
    out = rig.client_tx if to_client else rig.upstream_tx

    def run() -> int:
        for chunk in data:
            receive(chunk)
            out.clear()
        return frames

    ns = best_of(run)
    # the bridge forwards every packet of these workloads unchanged (a read may end inside a frame)
    fed = 0
    for chunk in data[:4]:
        receive(chunk)
        fed += len(chunk)
    if not fed - 4096 < len(out.value()) <= fed:
        raise RuntimeError("the bridge did not forward the frames it was given")
    out.clear()
    return ns


def framing_only(data: list[bytes], frames: int, with_id: bool) -> float:
    def run() -> int:
        f = Framing()
        f.threshold = THRESHOLD
        n = 0
        for chunk in data:
            f.feed(chunk)
            while True:
                fr = f.next_frame()
                if fr is None:
                    break
                if with_id:
                    fr.packet_id
                n += 1
        return n
    return best_of(run)


def chat_pieces(rig: Rig, data: list[bytes], frames: int) -> dict[str, float]:
    """Split the chat cost: framing + id, decode, events, session."""
    bridge = rig.bridge
    codec = bridge.codec
    session = bridge.session
    frames_list = []
    f = Framing()
    f.threshold = THRESHOLD
    for chunk in data:
        f.feed(chunk)
        while (fr := f.next_frame()) is not None:
            frames_list.append(fr)
    name = codec.subscribed[TO_SERVER][frames_list[0].packet_id]
    packets = [fr.packet for fr in frames_list]
    decoded = [codec.decode("play", TO_SERVER, name, p) for p in packets]
    events = [e for d in decoded for e in translators.events(codec, TO_SERVER, name, d)]
    out: dict[str, float] = {}
    out["decode"] = best_of(lambda: sum(1 for p in packets if codec.decode("play", TO_SERVER, name, p) is not None))
    out["events"] = best_of(lambda: sum(len(translators.events(codec, TO_SERVER, name, d)) for d in decoded))
    now = 0.0
    out["session.handle"] = best_of(lambda: sum(len(session.handle(e, now)) + 1 for e in events) and len(events))
    return out


# -- prototypes of a cheaper fast path ----------------------------------------------------------
def scan_runs(buf: bytes, subscribed: frozenset[int], threshold: int) -> tuple[int, list[tuple[int, int]], int]:
    """Walk the frames in ``buf`` without making objects; return (frames, runs to forward, rest offset).

    A run is (start, end) of consecutive frames nobody subscribed to: one transport.write each.
    Compressed frames get their id from the first inflated bytes.
    """
    pos = 0
    end = len(buf)
    run_start = 0
    runs: list[tuple[int, int]] = []
    frames = 0
    while pos < end:
        b = buf[pos]
        if b < 0x80:
            length, body = b, pos + 1
        else:
            try:
                length, body = read_varint(buf, pos, end)
            except Exception:
                break
        nxt = body + length
        if nxt > end:
            break
        if threshold >= 0:
            if buf[body] == 0:  # uncompressed
                pid = buf[body + 1]
                if pid >= 0x80:
                    pid, _ = read_varint(buf, body + 1)
            else:
                _, start = read_varint(buf, body)
                pid, _ = read_varint(zlib.decompressobj().decompress(buf[start:start + 64], 5), 0)
        else:
            pid = buf[body]
            if pid >= 0x80:
                pid, _ = read_varint(buf, body)
        if pid in subscribed:
            if run_start < pos:
                runs.append((run_start, pos))
            run_start = nxt  # the subscribed frame itself is handled on its own
        frames += 1
        pos = nxt
    if run_start < pos:
        runs.append((run_start, pos))
    return frames, runs, pos


def prototype_scan(data: list[bytes], subscribed: frozenset[int]) -> float:
    def run() -> int:
        carry = b""
        n = 0
        sink: list[memoryview] = []
        for chunk in data:
            buf = carry + chunk if carry else chunk
            frames, runs, rest = scan_runs(buf, subscribed, THRESHOLD)
            view = memoryview(buf)
            for a, b in runs:
                sink.append(view[a:b])
            sink.clear()
            carry = buf[rest:]
            n += frames
        return n
    return best_of(run)


def compressed_id_costs(data: list[bytes]) -> dict[str, float]:
    f = Framing()
    f.threshold = THRESHOLD
    raws = []
    for chunk in data:
        f.feed(chunk)
        while (fr := f.next_frame()) is not None:
            if fr.compressed:
                raws.append((fr.raw, fr.start))
    out = {}
    out["decompressobj, whole frame (as Frame.packet_id)"] = best_of(
        lambda: sum(1 for raw, s in raws if zlib.decompressobj().decompress(raw[s:], 5)))
    out["decompressobj, first 64 bytes"] = best_of(
        lambda: sum(1 for raw, s in raws if zlib.decompressobj().decompress(raw[s:s + 64], 5)))
    out["full zlib.decompress (quarry)"] = best_of(lambda: sum(1 for raw, s in raws if zlib.decompress(raw[s:])))
    return out


def chat_precheck(data: list[bytes], chat_id: int, prefixes: tuple[bytes, ...]) -> float:
    """Prototype: decide 'ordinary chat, forward as is' from the message's first bytes only."""
    def run() -> int:
        n = 0
        forwarded = 0
        for chunk in data:
            pos = 0
            end = len(chunk)
            while pos < end:
                b = chunk[pos]
                if b < 0x80:
                    length, body = b, pos + 1
                else:
                    try:
                        length, body = read_varint(chunk, pos, end)
                    except Exception:
                        break
                nxt = body + length
                if nxt > end:
                    break
                # data-length 0, packet id, then the message string: its length VarInt, then UTF-8
                if chunk[body] == 0 and chunk[body + 1] == chat_id:
                    _, text = read_varint(chunk, body + 2)
                    if not chunk.startswith(prefixes, text):
                        forwarded += 1
                n += 1
                pos = nxt
        return n
    return best_of(run)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--version", default="1.18.2")
    parser.add_argument("--megabytes", type=float, default=4.0, help="stream bytes per workload")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    v = load_version(args.version)
    report: dict[str, Any] = {"version": v.name, "python": sys.version.split()[0], "ns_per_packet": {}}
    for workload in ("small", "big", "chat"):
        stream = workload_stream(workload, v, THRESHOLD)
        reps = max(1, int(args.megabytes * 1e6 // len(stream.period)))
        blob = stream.period * reps
        data = chunks(blob)
        frames = stream.frames * reps
        rig = Rig(v.name)
        to_client = stream.direction == TO_CLIENT
        row: dict[str, float] = {}
        row["bridge, whole path without sockets"] = full_bridge(rig, data, frames, to_client)
        row["  Framing.feed + next_frame"] = framing_only(data, frames, with_id=False)
        row["  ... + Frame.packet_id"] = framing_only(data, frames, with_id=True)
        if workload == "chat":
            for key, value in chat_pieces(rig, data, frames).items():
                row["  " + key] = value
            prefixes = (b"!", b"@ai ", b"/", b"@AI ", b"@Ai ", b"@aI ")
            row["prototype: scan + chat prefix check, no objects"] = chat_precheck(data, v.chat_id(TO_SERVER), prefixes)
        else:
            subscribed = frozenset(rig.bridge.codec.subscribed[TO_CLIENT])
            row["prototype: scan frames, forward runs, no objects"] = prototype_scan(data, subscribed)
        if workload == "big":
            for key, value in compressed_id_costs(data).items():
                row["  id of a compressed frame: " + key] = value
        report["ns_per_packet"][workload] = {"packet": stream.packet, "costs": row}
    # one chat round trip, as in the latency workload: client chat up, server chat message down
    rig = Rig(v.name)
    ups = [wire_frame(v.chat_up(f"ping {i:06d} how is the build going"), THRESHOLD) for i in range(2000)]
    downs = [wire_frame(v.chat_down(f"ping {i:06d} how is the build going"), THRESHOLD) for i in range(2000)]

    def round_trips() -> int:
        for up, down in zip(ups, downs):
            rig.leg.dataReceived(up)
            rig.upstream.dataReceived(down)
        rig.client_tx.clear()
        rig.upstream_tx.clear()
        return len(ups)

    report["ns_per_packet"]["echo"] = {"packet": "one chat up + one chat message down (per round trip)",
                                       "costs": {"bridge, both packets without sockets": best_of(round_trips)}}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"mcagent per-packet costs, Minecraft {v.name}, Python {report['python']}, pid {os.getpid()} "
          f"(ns per packet, best of 3, no sockets)")
    for workload, entry in report["ns_per_packet"].items():
        print(f"\n{workload}: {entry['packet']}")
        for key, value in entry["costs"].items():
            print(f"  {key:<62} {value:>9,.0f} ns  ({1e9 / value:>12,.0f} packets/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
