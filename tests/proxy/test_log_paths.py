"""Episode logs stay under the log root whatever a player is called, and players never see
the server's paths or the proxy's exception names."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from twisted.internet.testing import MemoryReactorClock

from engine.decision.logs import episode_folder, folder_name
from engine.pilot import EpisodeRecord
from proxy.agent.autopilot_host import AutopilotHost
from proxy.config import ProxyConfig


def _host(root: Path, **autopilot: object) -> AutopilotHost:
    reactor = MemoryReactorClock()
    config = ProxyConfig(autopilot={"log_dir": str(root), **autopilot})
    return AutopilotHost(config, reactor, reactor, None)


def _record(player: str) -> EpisodeRecord:
    return EpisodeRecord(player, 1, 0.0, True, ({"kind": "decision"},), ({"kind": "start"},), {"ok": True})


@pytest.mark.parametrize("player", [".", "..", "../..", "a/../../b", "§4Notch", "", "Notch"])
def test_episode_logs_are_written_inside_a_folder_of_their_own(tmp_path: Path, player: str) -> None:
    root = tmp_path / "logs" / "autopilot"
    host = _host(root)
    host.write(_record(player))
    assert host.records_written == 1
    written = [Path(d) for d, _, files in os.walk(tmp_path) if "decision_log.jsonl" in files]
    assert len(written) == 1
    (folder,) = written
    assert folder.parent.parent == root  # root/<player folder>/<episode>
    assert folder.parent.name not in (".", "..") and "." not in folder.parent.name


def test_plain_names_keep_their_folder_and_unsafe_ones_do_not_collide() -> None:
    assert folder_name("Notch_2") == "Notch_2"
    assert folder_name("a.b") != folder_name("a_b") and folder_name(".") != folder_name("..")
    for name, leaf in (("..", ".."), (".", "."), ("x", "../..")):
        assert os.path.dirname(os.path.dirname(episode_folder("/tmp/root", name, leaf))) == os.path.realpath("/tmp/root")


def test_an_unreadable_replay_log_does_not_show_its_path_or_the_error_type(tmp_path: Path) -> None:
    host = _host(tmp_path, replay_log=str(tmp_path / "secret-dir" / "decisions.jsonl"))
    answer = host.settings("alice").providers["replay"](None)  # a factory gets the session's model runner
    assert isinstance(answer, str)
    assert "secret-dir" not in answer and "Error" not in answer and str(tmp_path) not in answer
