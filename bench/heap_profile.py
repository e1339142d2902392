"""tracemalloc snapshots compared by source line, for the capacity benches' heap profiles.

``capacity_inprocess.py --leave N --trace LINES`` compares snapshots of its own process;
``capacity.py run --heap DIR`` has the proxy (``relay_peers/traced_proxy.py``) dump them
and compares the files here.
"""
from __future__ import annotations

import linecache
import tracemalloc
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
_NOISE = (tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen importlib._bootstrap*"),
          tracemalloc.Filter(False, "<unknown>"))


def top(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot, lines: int) -> list[str]:
    """The ``lines`` source lines whose live allocations grew most from ``before`` to ``after``."""
    keep = list(_NOISE)
    diff = after.filter_traces(keep).compare_to(before.filter_traces(keep), "lineno")
    return [f"{d.size_diff / 1024:+10.0f} KiB {d.count_diff:+8d} blocks  {where(d.traceback[0])}"
            for d in diff[:lines]]


def where(frame: tracemalloc.Frame) -> str:
    """``path:line  source`` with the repository or site-packages prefix cut."""
    name = frame.filename
    for root in (str(REPO) + "/", "site-packages/"):
        if root in name:
            name = name.split(root, 1)[1]
    return f"{name}:{frame.lineno}  {linecache.getline(frame.filename, frame.lineno).strip()[:70]}"
