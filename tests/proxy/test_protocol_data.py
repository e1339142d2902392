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
