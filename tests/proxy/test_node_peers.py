"""The demo, the benches and the e2e drivers find the pinned Node and the right server in one place."""
from __future__ import annotations

from pathlib import Path

import pytest

from proxy.operations import cli, node_peers


def test_flying_squid_serves_up_to_1_21_4_and_the_world_server_after() -> None:
    assert node_peers.server_script("1.8.8").name == "server.js"
    assert node_peers.server_script("1.21.4").name == "server.js"
    assert node_peers.server_script("1.21.5").name == "world.js"
    assert node_peers.server_script("26.1").name == "world.js"
    assert node_peers.version_key("1.21.11") > node_peers.version_key("1.21.4")


def test_missing_peers_name_the_install_script(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCAGENT_PEERS_DIR", str(tmp_path))
    with pytest.raises(node_peers.PeersNotInstalled, match="install-peers.sh"):
        node_peers.node_executable()
    with pytest.raises(node_peers.PeersNotInstalled, match=str(tmp_path / "next" / "node_modules")):
        node_peers.modules_for("1.21.11")
    with pytest.raises(node_peers.PeersNotInstalled, match=str(tmp_path / "node_modules")):
        node_peers.modules_for("1.18.2")


def test_dev_refuses_a_version_the_proxy_does_not_accept(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["dev", "--version", "1.99", "--no-console"]) == 2
    assert "does not accept 1.99" in capsys.readouterr().err


def test_dev_without_peers_says_how_to_install_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("MCAGENT_PEERS_DIR", str(tmp_path))
    assert cli.main(["dev", "--version", "1.21.11", "--no-console"]) == 2
    assert "install-peers.sh" in capsys.readouterr().err
