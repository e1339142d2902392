"""What ``mcagent`` prints once a port is open, and how a launcher reads the port back.

Every listener binds the port its config gives, 0 included (the OS picks a free one), and
prints the port it got (``proxy/operations/cli.py``, ``proxy/dashboard/service.py``). The
e2e harness and the benchmarks start the proxy on port 0 and read the real port from these
lines: a port picked by the launcher and bound later by the proxy could be taken in between.
"""
from __future__ import annotations

import re

ANNOUNCED = {"proxy": "mcagent: connect your Minecraft client to ", "metrics": "mcagent: metrics on http://",
             "console": "mcagent: console on ", "dashboard": "mcagent: dashboard on http://"}
_PORT = re.compile(r"[^\s/]+:(\d+)")


def announced_port(text: str, what: str = "proxy") -> int | None:
    """The port in ``what``'s announcement in ``text`` (a line or a whole log), or None if it is not there."""
    prefix = ANNOUNCED[what]
    at = text.find(prefix)
    if at < 0:
        return None
    found = _PORT.match(text, at + len(prefix))
    return int(found.group(1)) if found else None
