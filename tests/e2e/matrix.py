"""Which versions the proxy's e2e scenarios run on, beyond each test's own list.

The versions players run in late 2026 (issue 12): 1.20.1 (flying-squid + mineflayer
4.25), and 1.21.5 -> 26.1 (the world server, peers/world.js, + mineflayer 4.39). A
version the proxy's table does not accept yet is skipped with that reason, so the
scenarios turn on by themselves as the table grows.
"""
from __future__ import annotations

from typing import Any

import pytest

from proxy.protocol import versions

NEW_VERSIONS = ["1.20.1", "1.21.5", "1.21.8", "1.21.11", "26.1"]
# versions.json's verification for rows proven through the world server (peers/world.js).
END_TO_END_WORLD = "end-to-end-world"


def proxy_accepts(version: str) -> bool:
    """Whether the proxy's version table lets a ``version`` client in."""
    for row in versions.SUPPORTED:
        releases = getattr(row, "releases", (row.name,))
        if version in releases or version == row.name:
            return bool(getattr(row, "accepted", True))
    return False


def proxied(*names: str) -> list[Any]:
    """pytest params for ``names``, skipped where the proxy does not accept the version."""
    return [pytest.param(v, id=v, marks=pytest.mark.skipif(not proxy_accepts(v), reason=f"the proxy refuses {v}"))
            for v in names]
