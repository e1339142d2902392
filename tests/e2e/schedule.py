"""The order tests run in: the longest end-to-end tests first, so the xdist workers end together.

pytest-xdist (``--dist load``) hands tests out in collection order. In that order the ladder
(two minutes on its own) could start last and leave one worker running alone while the others
idle; with the longest first, whatever is left at the end is short. A test's cost is its
measured wall time (setup + call + teardown) from ``durations.json`` next to this file; an
e2e test not in it yet (a new one) counts as ``NEW_E2E_SECONDS``. The other tests keep their
order, after the e2e ones: thousands of short tests that fill the workers' last gaps.

Refresh the figures from a run with ``--durations=0`` (its report, saved to a file)::

    .venv/bin/python -m pytest -q -p no:cacheprovider -n 4 -m e2e --durations=0 > report.txt
    .venv/bin/python -m tests.e2e.schedule report.txt
"""
from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

DURATIONS = Path(__file__).resolve().parent / "durations.json"
NEW_E2E_SECONDS = 10.0       # about an e2e test's median: a new test is neither first nor last
_LINE = re.compile(r"^(?P<seconds>\d+(?:\.\d+)?)s (?:setup|call|teardown)\s+(?P<nodeid>\S.*?)\s*$")


class _Item(Protocol):
    nodeid: str


def load(path: Path = DURATIONS) -> dict[str, float]:
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return {}
    return {str(k): float(v) for k, v in data.items()}


def longest_first(items: Sequence[_Item], is_e2e: Sequence[bool], seconds: dict[str, float]) -> list[_Item]:
    """The e2e items by decreasing cost (a stable sort: equal costs keep their order), then the rest
    in their order."""
    e2e = [item for item, flag in zip(items, is_e2e) if flag]
    rest = [item for item, flag in zip(items, is_e2e) if not flag]
    e2e.sort(key=lambda item: -seconds.get(item.nodeid, NEW_E2E_SECONDS))
    return e2e + rest


def parse_report(text: str) -> dict[str, float]:
    """Each test's setup + call + teardown seconds from pytest's ``--durations=0`` lines."""
    total: dict[str, float] = {}
    for line in text.splitlines():
        m = _LINE.match(line.strip())
        if m:
            total[m["nodeid"]] = total.get(m["nodeid"], 0.0) + float(m["seconds"])
    return total


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tests.e2e.schedule REPORT.txt  (pytest's --durations=0 output)", file=sys.stderr)
        return 2
    measured = {k: round(v, 1) for k, v in parse_report(Path(argv[0]).read_text()).items()
                if k.startswith("tests/e2e/")}
    if not measured:
        print(f"{argv[0]}: no --durations lines for tests/e2e", file=sys.stderr)
        return 1
    DURATIONS.write_text(json.dumps(dict(sorted(measured.items())), indent=0) + "\n")
    print(f"{DURATIONS}: {len(measured)} tests, {sum(measured.values()):.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
