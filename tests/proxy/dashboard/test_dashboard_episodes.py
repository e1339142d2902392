"""Episodes for the replay page: found, read and checked; a bad file is named with its line."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.sim.cli import main as sim_main
from proxy.dashboard import episodes
from tests.proxy.dashboard.web_client import make


def _episode(folder: Path, decisions: list[object], events: object) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / episodes.DECISIONS).write_text("\n".join(json.dumps(d) for d in decisions) + "\n")
    (folder / episodes.EVENTS).write_text(json.dumps(events))
    return folder


def test_a_simulated_episode_replays_to_its_last_milestone(tmp_path: Path) -> None:
    assert sim_main(["--seeds", "1", "--ticks", "2500", "--log-dir", str(tmp_path)]) == 0
    assert episodes.find(tmp_path) == ["seed0"]
    episode = episodes.load(tmp_path / "seed0", "seed0")
    summary = json.loads((tmp_path / "seed0" / episodes.EVENTS).read_text())["summary"]
    reached = sorted(summary["milestones"], key=lambda name: summary["milestones"][name])
    assert episode.milestones_reached == tuple(reached) and reached
    assert episode.frames and all(a.tick <= b.tick for a, b in zip(episode.frames, episode.frames[1:]))
    milestones = [e for e in episode.timeline if e.kind == "milestone"]
    assert milestones[-1].tick <= episode.last_tick


def test_frames_and_timeline_from_hand_written_files(tmp_path: Path) -> None:
    folder = _episode(tmp_path / "p" / "ep1", [
        {"kind": "decision", "tick": 5, "decision": {"choice": "explore", "args": []},
         "state": {"pos": [1, 64, 2], "milestone": "wood", "health": 20.0, "food": 19}},
        {"kind": "outcome", "tick": 40, "outcome": "ok"},
        {"kind": "decision", "tick": 41, "decision": {"choice": "go_to", "args": [3, 64, 4]}, "state": {}},
    ], {"events": [{"kind": "watchdog", "tick": 30, "event": "reflex", "detail": "lava"},
                   {"kind": "milestone", "tick": 20, "name": "wood", "index": 1},
                   {"kind": "death", "tick": 50, "milestone": "wood"}]})
    episode = episodes.load(folder)
    assert [(f.tick, f.choice, f.outcome, f.milestone) for f in episode.frames] == [(5, "explore", "ok", "wood")]
    assert [(e.tick, e.kind, e.label) for e in episode.timeline] == [
        (20, "milestone", "1/9 wood"), (30, "reflex", "lava"), (50, "death", "working toward wood")]
    assert episode.last_tick == 50 and episode.milestones_reached == ("wood",)
    assert episodes.find(tmp_path) == ["p/ep1"]


@pytest.mark.parametrize("decisions, events, message", [
    (["not an object"], {"events": []}, "decision_log.jsonl line 1: a record must be a JSON object"),
    ([{"kind": "decision", "tick": 1, "state": {"pos": [1, "x", 2]}}], {"events": []},
     "decision_log.jsonl record 1 state.pos: expected a number"),
    ([], [1, 2], "episode_events.json: expected an object with an 'events' list"),
])
def test_a_bad_file_is_named(tmp_path: Path, decisions: list[object], events: object, message: str) -> None:
    folder = _episode(tmp_path / "bad", decisions, events)
    with pytest.raises(episodes.EpisodeError, match=message.replace("(", r"\(")):
        episodes.load(folder)


def test_broken_json_names_the_line(tmp_path: Path) -> None:
    folder = _episode(tmp_path / "bad", [], {"events": []})
    (folder / episodes.DECISIONS).write_text('{"kind": "decision"}\n{oops\n')
    with pytest.raises(episodes.EpisodeError, match="decision_log.jsonl line 2: not JSON"):
        episodes.load(folder)


def test_the_api_refuses_names_outside_the_folder_and_reports_bad_files(tmp_path: Path) -> None:
    _episode(tmp_path / "eps" / "good", [], {"events": [{"kind": "milestone", "tick": 3, "name": "wood", "index": 1}]})
    _episode(tmp_path / "eps" / "bad", [], [])
    client, _ = make(episodes=tmp_path / "eps")
    assert json.loads(client.get("/api/episodes").body) == {"episodes": ["bad", "good"]}
    good = client.get("/api/episode?name=good")
    assert good.status == 200 and json.loads(good.body)["milestones_reached"] == ["wood"]
    bad = client.get("/api/episode?name=bad")
    assert bad.status == 422 and "episode_events.json" in json.loads(bad.body)["error"]
    assert client.get("/api/episode?name=../..").status == 400
    assert client.get("/api/overview").status == 404      # no proxy: only replays
    assert client.get("/").status == 200 and b"replay.js" in client.get("/").body
