"""The capacity bench's replay (bench/capacity_replay.py) on the recorded sessions in bench/data/:
its framing gives back the recorded packets, and a replay client logs in to the replay server
(configuration included on 1.21.11), plays and gets its chat answered. No timing is checked.
"""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from proxy.connection import recording
from proxy.protocol.framing import Framing
from proxy.protocol.states import State

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import capacity_replay as replay  # noqa: E402

VERSIONS = ["1.20.1", "1.21.11"]


def _capture(version: str) -> recording.Capture:
    path = BENCH / "data" / f"capacity-{version}.mcrec.xz"
    return recording.decode(path.read_bytes(), str(path))


@pytest.mark.parametrize("version", VERSIONS)
def test_replay_frames_give_back_the_recorded_packets(version: str) -> None:
    capture = _capture(version)
    script = replay.Script(capture)
    for to_client, stream in ((True, script.s2c), (False, script.c2s)):
        framing = Framing()
        framing.threshold = script.threshold
        framing.feed(stream.blob)
        want = [r.packet for r in capture.records if r.to_client is to_client and r.state is State.PLAY]
        assert [f.packet for f in framing.frames()] == want
        assert framing.pending == 0
        assert stream.due_ms == sorted(stream.due_ms)
        assert stream.upto(stream.due_ms[-1], 0) == len(want)


@pytest.mark.parametrize("version", VERSIONS)
def test_a_replay_client_logs_in_plays_and_gets_its_chat_answered(version: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replay, "PING_SECONDS", 0.05)
    script = replay.Script(_capture(version))
    first = script.s2c.end(script.s2c.upto(500, 0))  # what the server sent in the first half second of play
    assert first > 10_000  # the join and the first chunks

    async def session() -> tuple[replay.ClientPeer, replay.Hub]:
        hub = replay.Hub(script)
        loop = asyncio.get_running_loop()
        server = await loop.create_server(lambda: replay.ServerPeer(script, hub), "127.0.0.1", 0)
        ticker = asyncio.ensure_future(hub.ticker())
        client = await hub.join(server.sockets[0].getsockname()[1], "tester")
        for _ in range(400):
            if client.playing_since is not None and hub.rtts and client.received >= first:
                break
            await asyncio.sleep(0.025)
        hub.leave_all()
        ticker.cancel()
        server.close()
        return client, hub

    client, hub = asyncio.run(session())
    assert client.playing_since is not None, "the replay client never reached play"
    assert hub.rtts, "no chat round trip was answered"
    assert client.received >= first  # the recorded chunks arrive


def test_the_gc_figures_cut_the_window_out_of_the_pauses() -> None:
    import capacity

    # [start, generation, seconds, cpu seconds]: before the joins, while joining, in the window, after.
    pauses = [[1.0, 2, 0.9, 0.9], [5.0, 2, 0.2, 0.2], [5.5, 0, 0.001, 0.001], [10.0, 1, 0.004, 0.004],
              [11.0, 2, 0.06, 0.02], [12.0, 2, 0.03, 0.025], [13.0, 0, 0.002, 0.002], [20.0, 2, 1.5, 1.5]]
    row = capacity.gc_row(pauses, joins=4.0, start=9.0, end=15.0)
    window = row["gc"]["window"]
    assert set(window) == {"0", "1", "2"}
    assert window["2"] == {"count": 2, "total_ms": 90.0, "max_ms": 60.0, "over_50ms": 1, "max_cpu_ms": 25.0}
    assert window["0"]["count"] == 1 and window["1"]["max_ms"] == 4.0
    assert row["gc"]["players_in"]["2"]["count"] == 3  # the 200 ms one while joining too
    assert row["gc"]["leaving"]["2"] == {"count": 1, "total_ms": 1500.0, "max_ms": 1500.0, "over_50ms": 1,
                                         "max_cpu_ms": 1500.0}
    assert (row["gc_max_pause_ms"], row["gc_full_collections"], row["gc_full_max_ms"]) == (60.0, 2, 60.0)


def test_the_timed_proxy_writes_each_collection(tmp_path: Path) -> None:
    import json
    import subprocess

    out = tmp_path / "gc.json"
    done = subprocess.run([sys.executable, str(BENCH / "relay_peers" / "gc_timed_proxy.py"), str(out),
                           "run", "--config", str(tmp_path / "missing.json")],
                          capture_output=True, timeout=120, cwd=BENCH.parent)
    assert done.returncode != 0  # no such config: the proxy says so and stops
    pauses = json.loads(out.read_text())["pauses"]
    assert pauses, "importing the proxy runs young collections"
    assert all(len(p) == 4 and p[1] in (0, 1, 2) and p[2] >= 0 and p[3] >= 0 for p in pauses)


def test_the_in_process_gc_timing_reports_each_generation_and_lets_go_of_the_policy() -> None:
    import gc

    import capacity_inprocess

    hooks = list(gc.callbacks)
    found = capacity_inprocess.gc_pauses(_capture("1.20.1"), "off", 1, policy=True)
    assert found["players"] == 1 and found["policy"] is True
    assert set(found["gc"]) == {"0", "1", "2"}
    assert all(set(g) == {"count", "total_ms", "max_ms"} for g in found["gc"].values())
    assert found["gc"]["0"]["count"] > 0  # a recorded session allocates enough for young collections
    assert gc.get_freeze_count() == 0 and gc.callbacks == hooks  # the timing hook and the policy are gone
