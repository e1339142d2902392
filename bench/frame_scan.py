"""The fast path's frame scanner alone: CPU per frame of ``Framing.drain`` over a buffer of
frames nobody subscribed to, with the native scanner and with the pure-Python one.

    .venv/bin/python bench/frame_scan.py [--frames 20000] [--repeat 5]

Workloads: ``small`` (11-byte frames, compression on, below the threshold), ``compressed``
(~1 KB packets of letters deflated with dynamic Huffman blocks, whose tables
zlib must build before the first byte), ``mobs`` (entity movements with
players-only tables: the scanner peeks each entity id). Best of ``--repeat`` runs of
``time.process_time``; one JSON line per workload.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from proxy.protocol import frame_scan  # noqa: E402
from proxy.protocol.framing import Framing  # noqa: E402
from proxy.protocol.wire import pack_varint  # noqa: E402

THRESHOLD = 256
TABLE = bytes([0, 1, 0, 2] + [0] * 124)  # id 1 watched, id 3 an entity movement


def _frame(packet: bytes) -> bytes:
    if len(packet) >= THRESHOLD:
        body = pack_varint(len(packet)) + zlib.compress(packet)
    else:
        body = b"\x00" + packet
    return pack_varint(len(body)) + body


def workload(name: str, frames: int) -> bytes:
    rng = random.Random(7)
    if name == "small":
        return b"".join(_frame(b"\x02" + rng.randbytes(9)) for _ in range(frames))
    if name == "compressed":  # letters: deflate picks dynamic Huffman blocks, as for chunk data
        payloads = [_frame(b"\x02" + bytes(rng.choice(b"abcdefghij ") for _ in range(1000))) for _ in range(50)]
        return b"".join(payloads[i % 50] for i in range(frames))
    return b"".join(_frame(b"\x03" + pack_varint(1000 + i % 50) + bytes(30)) for i in range(frames))


def measure(data: bytes, frames: int, scan: frame_scan.ScanFn, repeat: int) -> float:
    best = float("inf")
    saved = frame_scan.scan
    frame_scan.scan = scan
    try:
        for _ in range(repeat):
            framing = Framing()
            framing.threshold = THRESHOLD
            framing.feed(data)
            started = time.process_time()
            items = framing.drain(TABLE, {5, 6})
            best = min(best, time.process_time() - started)
            assert len(items) == 1 and isinstance(items[0], bytes) and framing.frames_in == frames
    finally:
        frame_scan.scan = saved
    return best / frames * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for name in ("small", "compressed", "mobs"):
        data = workload(name, args.frames)
        row: dict[str, object] = {"workload": name, "frames": args.frames, "bytes": len(data)}
        python = measure(data, args.frames, frame_scan.scan_py, args.repeat)
        row["python_us_per_frame"] = round(python, 3)
        if frame_scan.native_scan is not None:
            native = measure(data, args.frames, frame_scan.native_scan, args.repeat)
            row["native_us_per_frame"] = round(native, 3)
            row["python_over_native"] = round(python / max(native, 1e-9), 1)
        print(json.dumps(row))


if __name__ == "__main__":
    main()
