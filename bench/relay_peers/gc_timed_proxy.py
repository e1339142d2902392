"""``mcagent`` with every garbage collection timed, for ``bench/capacity.py run``.

    gc_timed_proxy.py OUT.json run --config ... --metrics ...

How this works: a ``gc.callbacks`` hook, installed before the proxy imports anything,
notes each collection's start and stop (``time.monotonic``: the same clock in every process
of the machine, so the bench can cut the measuring window out of them); the proxy then runs as
``python -m proxy.operations.cli`` would, from whatever tree is first on ``sys.path`` (the
bench's ``--proxy-tree`` puts a before tree there), so both trees are timed by this same
hook. At exit (the bench stops the proxy with SIGINT) ``OUT.json`` gets one
``[start, generation, seconds, cpu seconds]`` per collection: the pause on the wall clock (what
the players wait) and the thread's CPU time in it (what the collector did; on a busy machine
the rest is time the process was not scheduled). The hook's cost is four clock reads per
collection; collections run hundreds of times a second at most.
"""
from __future__ import annotations

import gc
import json
import runpy
import sys
import time
from pathlib import Path
from typing import Any


def main() -> None:
    out = Path(sys.argv[1])
    pauses: list[tuple[float, int, float, float]] = []
    began = [0.0, 0.0]

    def timed(phase: str, info: dict[str, Any]) -> None:
        now, cpu = time.monotonic(), time.thread_time()
        if phase == "start":
            began[:] = [now, cpu]
        else:
            pauses.append((began[0], int(info["generation"]), now - began[0], cpu - began[1]))

    gc.callbacks.append(timed)
    sys.argv = ["mcagent", *sys.argv[2:]]
    try:
        runpy.run_module("proxy.operations.cli", run_name="__main__", alter_sys=True)
    finally:
        gc.callbacks.remove(timed)
        out.write_text(json.dumps({"pauses": [[round(t, 4), g, round(d, 6), round(c, 6)] for t, g, d, c in pauses]}))


if __name__ == "__main__":
    main()
