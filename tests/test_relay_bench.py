"""bench/relay.py with both legs encrypted, briefly: not a measurement (nothing here looks at
timing), a check that the encrypted paths relay the workloads byte for byte, that mcagent
still forwards them without decoding, and that the report says what ran and what did not.

The bench's own processes only (the scripted Python peers, the real proxy, the local account
services on 127.0.0.1); no Node peers, nothing leaves the machine. About 15 s.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _bench(*args: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "relay.py"), "--json", "--no-pin", "--rounds", "1",
                           "--warmup", "0.2", "--duration", "0.4", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def test_encrypted_legs_relay_the_workloads_on_mcagents_fast_path() -> None:
    report = _bench("--encrypt", "both", "--paths", "direct,quarry,mcagent", "--workloads", "small,chat")
    encryption = report["encryption"]
    assert encryption["mode"] == "both"
    assert encryption["paths"]["quarry"].startswith("skipped: ")  # it cannot run online mode here: said, not faked
    assert "both legs encrypted" in encryption["paths"]["mcagent"]
    for workload in ("small", "chat"):
        rows = report["throughput"][workload]["paths"]
        assert set(rows["quarry"]) == {"skipped"}
        for path in ("direct", "mcagent"):
            row = rows[path]
            assert "error" not in row, row
            # the sink decrypted exactly the stream the generator wrote (the peers compare bytes)
            assert row["verified"], row
            assert row["packets_per_s"] > 0
        row = rows["mcagent"]
        counted = row["mcagent_frames"]
        assert counted["connections"] == 1
        # Every flood frame in the window went through mcagent undecoded; it decoded only the
        # login's few play packets (the sync chat's answer).
        assert counted["fast"] >= round(row["packets_per_s"] * row["seconds"])
        assert counted["decoded"] <= 3, counted
    # Every login was checked at the local session server: the client joined before answering each
    # encryption request (the scripted server's on the direct path, mcagent's online mode on its path),
    # and mcagent joined as the account for its server leg, whose join the scripted server checked.
    assert encryption["session_joins"] == 2 * 1 + 2 * 2
