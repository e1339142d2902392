"""``mcagent`` under tracemalloc, for ``bench/capacity.py run --heap DIR``.

    traced_proxy.py DIR [--no-trace] run --config ... --metrics ...

How this works: tracemalloc starts (one frame per trace) before the proxy imports
anything, then the proxy runs as ``python -m proxy.operations.cli`` would. Each SIGUSR1
writes the next snapshot, ``DIR/heap-K.snapshot`` (K = 0, 1, ...), with
``DIR/heap-K.json`` beside it: RSS, Python's allocated blocks and glibc's own account of
its heap (``mallinfo2``: bytes in use, bytes free but kept), which tells live objects
from memory the allocator holds. The JSON is written last, so its presence means the pair
is complete. Python runs the handler between bytecodes on the reactor's thread.
``--no-trace``: no tracemalloc, only the figures, with pymalloc's own (its arenas: Python
reports them only when no tracing hook sits on its allocator).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import runpy
import signal
import sys
import tracemalloc
from pathlib import Path
from types import FrameType


class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def mallinfo() -> dict[str, int]:
    """glibc's heap account (bytes), or nothing off glibc or before 2.33."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        call = libc.mallinfo2
    except (OSError, AttributeError):
        return {}
    call.restype = MallInfo2
    info = call()
    return {"heap_bytes": info.arena, "mmapped_bytes": info.hblkhd, "in_use_bytes": info.uordblks,
            "free_kept_bytes": info.fordblks, "top_releasable_bytes": info.keepcost}


def pymalloc(path: Path) -> dict[str, int]:
    """``sys._debugmallocstats()`` (written to fd 2 by C) into ``path``; its arena counts."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(path, "wb") as f:
            os.dup2(f.fileno(), 2)
            sys._debugmallocstats()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
    found: dict[str, int] = {}
    for line in path.read_text(errors="replace").splitlines():
        for key, label in (("pymalloc_arenas", "# arenas allocated current"),
                           ("pymalloc_arena_bytes", "# bytes in allocated blocks"),
                           ("pymalloc_free_pool_bytes", "# bytes in available blocks")):
            if line.startswith(label):
                found[key] = int(line.split("=")[-1].strip().replace(",", ""))
    return found


def rss_bytes() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def main() -> None:
    out = Path(sys.argv[1])
    trace = sys.argv[2] != "--no-trace"
    out.mkdir(parents=True, exist_ok=True)
    taken = [0]

    def snapshot(signum: int, frame: FrameType | None) -> None:
        k = taken[0]
        taken[0] += 1
        info = {"rss_bytes": rss_bytes(), "allocated_blocks": sys.getallocatedblocks(), **mallinfo()}
        if trace:
            tracemalloc.take_snapshot().dump(str(out / f"heap-{k}.snapshot"))
            info["traced_bytes"], info["traced_peak_bytes"] = tracemalloc.get_traced_memory()
        info.update(pymalloc(out / f"heap-{k}.pymalloc.txt"))
        (out / f"heap-{k}.json").write_text(json.dumps(info))

    if trace:
        tracemalloc.start(1)
    signal.signal(signal.SIGUSR1, snapshot)
    sys.argv = ["mcagent", *sys.argv[2 if trace else 3:]]
    runpy.run_module("proxy.operations.cli", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
