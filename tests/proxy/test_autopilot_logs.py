"""The proxy's autopilot logs explain a run: each decision line carries the state it was made on,
episode_events.json carries the watchdog's transitions (as the simulator's does), one folder per
episode, and no key in either file."""
from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from twisted.internet.task import Clock

from engine import events as ev
from engine.actions import Action
from engine.session import Session, SessionConfig
from engine.sim.episode import TICK
from engine.sim.world import VERSION, SimOptions, SimWorld
from engine.llm.client import ClientSettings, ModelClient
from engine.llm.secrets import Secret
from proxy.agent.autopilot_host import AutopilotHost
from proxy.agent.model_service import ModelService
from proxy.config import ProxyConfig

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
