"""The proxy's autopilot logs explain a run: each decision line carries the state it was made on,
episode_events.json carries the watchdog's transitions (as the simulator's does), one folder per
episode, and no key in either file."""
from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import attrs
from twisted.internet.task import Clock

from engine import events as ev
from engine.actions import Action
from engine.session import Session, SessionConfig
from engine.sim.episode import TICK
from engine.pilot import EpisodeRecord
from engine.sim.world import VERSION, SimOptions, SimWorld
from engine.llm.client import ClientSettings, ModelClient
from engine.llm.secrets import Secret
from proxy.agent.autopilot_host import AutopilotHost
from proxy.agent.model_service import ModelService
from proxy.config import ProxyConfig
from tests.proxy.dashboard.web_client import ADMIN_TOKEN, make

KEY = "sk-test-0123456789abcdef"


def _host(folder: Path) -> AutopilotHost:
    config = ProxyConfig(autopilot={"log_dir": str(folder)})
    clock = Clock()  # a reactor without a thread pool: the host writes at once
    # The runtime is not used here: only the client's key, which must never reach a log.
    service = ModelService(SimpleNamespace(llm=None), ModelClient(ClientSettings(api_key=Secret(KEY))), clock)
    return AutopilotHost(config, clock, clock, service)


class _Run:
    def __init__(self, host: AutopilotHost) -> None:
        self.world = SimWorld(3, SimOptions(hazard="lava", push_every=200))
        self.session = Session("Steve", SessionConfig(version=VERSION), pilot=host.settings("Steve"))
        for event in self.world.join_events():
            self.session.handle(event, 0.0)
        self.t = 0

    def episode(self, ticks: int) -> None:
        session, world = self.session, self.world
        session.handle(ev.ChatTyped("!autopilot on"), self.t * TICK)
        early: list[Action] = []
        for _ in range(ticks):
            self.t += 1
            now = self.t * TICK
            for event in world.tick(self.t):
                early += session.handle(event, now)
            sent = early + session.tick(now)
            early = []
            for event in world.apply(sent, self.t):
                early += session.handle(event, now)
        session.handle(ev.ChatTyped("!autopilot off"), self.t * TICK)


def test_the_proxys_episode_files_carry_the_state_of_each_decision_and_the_watchdogs_transitions(
        tmp_path: Path) -> None:
    host = _host(tmp_path)
    _Run(host).episode(400)                # pushed into lava at tick 220: the lava reflex fires
    episodes = list((tmp_path / "Steve").iterdir())
    assert len(episodes) == 1 and host.records_written >= 1
    folder = episodes[0]
    decisions = [json.loads(line) for line in (folder / "decision_log.jsonl").read_text().splitlines()]
    made = [d for d in decisions if d["kind"] == "decision"]
    assert made
    for d in made:
        state = d["state"]                # the JSON the provider saw, readable as it is
        assert isinstance(state, dict) and len(state["pos"]) == 3 and "inventory" in state and "health" in state
        assert len(d["state_digest"]) == 16 and d["legal"] and d["decision"]["choice"]
    events = json.loads((folder / "episode_events.json").read_text())["events"]
    watchdog = [e for e in events if e["kind"] == "watchdog"]
    assert {"reflex", "danger_cleared", "kill_switch"} <= {e["event"] for e in watchdog}
    assert all({"from", "to", "tick", "t"} <= set(e) for e in watchdog)
    for name in ("decision_log.jsonl", "episode_events.json"):
        assert KEY not in (folder / name).read_text()


def test_each_episode_gets_its_own_files(tmp_path: Path) -> None:
    run = _Run(_host(tmp_path))
    run.episode(30)
    run.episode(30)
    assert len(list((tmp_path / "Steve").iterdir())) == 2


def test_the_proxys_final_record_carries_the_ground_of_the_players_world_model(tmp_path: Path) -> None:
    host = _host(tmp_path)
    run = _Run(host)
    run.episode(200)
    (folder,) = (tmp_path / "Steve").iterdir()
    record = json.loads((folder / "terrain.json").read_text())
    assert record["format"] == "mcagent-terrain/1" and record["version"] == VERSION
    size, x0, z0 = record["size"], record["x0"], record["z0"]
    assert len(record["blocks"]) == len(record["tops"]) == size * size
    # Every known column names the block the simulated server fed the session at its top; the
    # session's own store (the live map's) is what the record read, so the two agree.
    server, seen = run.world, run.session.control.store
    known = 0
    for i, (block, top) in enumerate(zip(record["blocks"], record["tops"])):
        x, z = x0 + i % size, z0 + i // size
        if block < 0:
            assert top is None and all(not seen.has_section((x >> 4, sy, z >> 4)) for sy in range(-4, 20))
            continue
        name = record["names"][block]
        if name != "air":
            known += 1
            assert server.table.name(server.store.get(x, top, z) or 0) == name
            assert seen.get(x, top, z) == server.store.get(x, top, z)
    assert known > size  # the ground under the track is there, not a bare grid
    # The replay page gets it as map kinds.
    client, _ = make(None, episodes=tmp_path)
    name = f"Steve/{folder.name}"
    response = client.get(f"/api/episode?name={name}", token=ADMIN_TOKEN)
    assert response.status == 200
    ground = json.loads(response.body)["terrain"]
    assert ground is not None and ground["size"] == size and len(ground["kinds"]) == size * size


def test_only_the_final_record_carries_terrain_and_a_missing_or_bad_one_still_replays(tmp_path: Path) -> None:
    written: list[EpisodeRecord] = []
    host = _host(tmp_path)
    keep = host.keep
    settings = host.settings("Steve")
    run = _Run(host)
    run.session = Session("Steve", SessionConfig(version=VERSION),
                          pilot=attrs.evolve(settings, sink=lambda r: (written.append(r), keep(r))))
    for event in run.world.join_events():
        run.session.handle(event, 0.0)
    run.episode(40)
    assert written and written[-1].final and written[-1].terrain is not None
    assert all(r.terrain is None for r in written if not r.final)
    (folder,) = (tmp_path / "Steve").iterdir()
    client, _ = make(None, episodes=tmp_path)
    url = f"/api/episode?name=Steve/{folder.name}"
    (folder / "terrain.json").unlink()          # an episode from before: a bare grid, no error
    response = client.get(url, token=ADMIN_TOKEN)
    assert response.status == 200 and json.loads(response.body)["terrain"] is None
    (folder / "terrain.json").write_text("{")    # a broken file: named, not a crash
    response = client.get(url, token=ADMIN_TOKEN)
    assert response.status != 200 and b"terrain.json" in response.body
