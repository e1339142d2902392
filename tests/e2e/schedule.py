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
    """The e2e items, longest first, then the rest in their order.

    The tests of one module keep their order (some share a module-scoped peer, and a test may
    rely on what the one before it did): the k-th test of a module is placed by the k-th
    longest cost of that module, a stable sort does the rest."""
    e2e = [item for item, flag in zip(items, is_e2e) if flag]
    rest = [item for item, flag in zip(items, is_e2e) if not flag]
    modules: dict[str, list[_Item]] = {}
    for item in e2e:
        modules.setdefault(item.nodeid.split("::")[0], []).append(item)
    key: dict[int, float] = {}
    for members in modules.values():
        costs = sorted((seconds.get(item.nodeid, NEW_E2E_SECONDS) for item in members), reverse=True)
        key.update({id(item): cost for item, cost in zip(members, costs)})
    e2e.sort(key=lambda item: -key[id(item)])
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
