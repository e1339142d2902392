"""Opening the dashboard from the config: off by default, loopback unless allowed, never without the admin token."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from twisted.internet.testing import MemoryReactorClock

from proxy.config import ConfigError, ProxyConfig, load
from proxy.dashboard.auth import Scope
from proxy.dashboard.service import start
from proxy.operations.login_throttle import LoginThrottle
from proxy.testing import Rig

CONSOLE = "console-token-abcdef"
VIEWER = "viewer-token-abcdef"


def _start(token: str | None = CONSOLE, **dashboard: object) -> tuple[object, MemoryReactorClock, list[str | None]]:
    reactor = MemoryReactorClock()
    config = ProxyConfig(dashboard=dashboard, autopilot={"log_dir": None})
    secrets: list[str | None] = []
    announced: list[str] = []
    resource = start(config, Rig().server, reactor, token, announced.append, secrets.append,
                     LoginThrottle(reactor, lambda host, failures, locked: None))
    return resource, reactor, secrets


def test_off_by_default() -> None:
    resource, reactor, _ = _start()
    assert resource is None and reactor.tcpServers == []


def test_not_opened_without_the_console_token_or_beyond_loopback() -> None:
    resource, reactor, _ = _start(None, port=0)
    assert resource is None and reactor.tcpServers == []
    resource, reactor, _ = _start(port=0, host="0.0.0.0")
    assert resource is None and reactor.tcpServers == []
    resource, reactor, _ = _start(port=0, host="0.0.0.0", allow_remote=True)
    assert resource is not None and reactor.tcpServers[0][3] == "0.0.0.0"


def test_opened_on_loopback_with_both_tokens_and_the_viewer_token_redacted() -> None:
    resource, reactor, secrets = _start(port=0, viewer_token=VIEWER)
    assert resource is not None
    port, _site, _backlog, interface = reactor.tcpServers[0]
    assert (port, interface) == (0, "127.0.0.1")
    assert secrets == [VIEWER]
    auth = resource.auth  # type: ignore[attr-defined]
    assert auth.check("127.0.0.1", f"Bearer {CONSOLE}", None).scope is Scope.ADMIN
    assert auth.check("127.0.0.1", f"Bearer {VIEWER}", None).scope is Scope.VIEW


def test_a_short_viewer_token_is_refused_without_being_shown(tmp_path: Path) -> None:
    path = tmp_path / "proxy.json"
    path.write_text(json.dumps({"dashboard": {"port": 8080, "viewer_token": "short-tok"}}))
    with pytest.raises(ConfigError) as caught:
        load(path)
    assert "dashboard.viewer_token" in str(caught.value) and "short-tok" not in str(caught.value)


def test_replay_view_refuses_a_missing_folder_and_a_remote_address(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from proxy.operations.cli import main

    assert main(["replay-view", str(tmp_path / "absent")]) == 2
    assert "absent: not a folder" in capsys.readouterr().err
    assert main(["replay-view", str(tmp_path), "--listen", "0.0.0.0:8000"]) == 2
    assert "expected a loopback HOST:PORT" in capsys.readouterr().err
