"""The generated protocol data matches the pinned minecraft-data package."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_generated_protocol_data_is_not_stale() -> None:
    pinned = json.loads((ROOT / "peers" / "package.json").read_text())["dependencies"]["minecraft-data"]
    data = json.loads((ROOT / "proxy" / "data" / "protocol.json").read_text())
    assert data["minecraft_data"] == pinned
    installed = ROOT / ".peers" / "node_modules" / "minecraft-data"
    assert installed.exists(), "run scripts/install-peers.sh"
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_protocol.py"), "--check"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_commit_is_rebased_unit_by_unit() -> None:
    """A commit's row with a ``base``: its unchanged units are the package's, its changes its own,
    the id mapping (``packet``) whole from the commit (scripts/minecraft_data.py)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from minecraft_data import rebased, rebased_protocol

    def proto(packet: object, **types: object) -> dict[str, object]:
        return {"types": {"varint": "native"}, "play": {"toClient": {"types": {"packet": packet, **types}},
                                                          "toServer": {"types": {}}}}

    old = proto("ids-old", packet_a="stale", packet_b="b", packet_gone="x")
    new = proto("ids-new", packet_a="stale", packet_b="b2", packet_new="n")
    onto = proto("ids-npm", packet_a="fixed", packet_b="b-npm", packet_gone="x", packet_npm="y")
    assert rebased_protocol(new, old, onto)["play"]["toClient"]["types"] == {
        "packet": "ids-new", "packet_a": "fixed", "packet_b": "b2", "packet_new": "n", "packet_npm": "y"}
    assert rebased([1, 2], [1, 2], [1, 3]) == [1, 3] and rebased([1, 4], [1, 2], [1, 3]) == [1, 4]
