"""The ports ``mcagent run`` opens: port 0 picks a free one and the real one is printed (the test
harness reads it there, never racing another process for a port picked in advance), and a port
that cannot be opened ends the process at once with exit code 1 and a one-line reason."""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any, Callable

import pytest
from twisted.internet.error import CannotListenError, ReactorNotRunning
from twisted.python.failure import Failure

from proxy.config import ConfigError, ProxyConfig, parse_address
from proxy.operations.listen_failure import listen_error, stop_soon
from tests.e2e.peers import refusing_port
from tests.e2e.proxy_process import ROOT, ProxyProcess, announced_port

TOKEN = "console-token-for-tests"


class FakeReactor:
    """Twisted's start and stop rules (twisted.internet.base.ReactorBase): ``callWhenRunning``
    calls at once while running, else at start; ``stop`` raises unless the reactor runs and
    was not already asked to stop (it keeps running until its loop ends)."""

    def __init__(self) -> None:
        self.running = False
        self._stopped = True
        self.stops = 0
        self._hooks: list[Callable[[], object]] = []

    def callWhenRunning(self, hook: Callable[[], object]) -> None:
        if self.running:
            hook()
        else:
            self._hooks.append(hook)

    def start(self) -> None:
        self.running, self._stopped = True, False
        for hook in self._hooks:
            hook()

    def stop(self) -> None:
        if self._stopped:
            raise ReactorNotRunning("Can't stop reactor that isn't running.")
        self._stopped = True
        self.stops += 1


def test_a_stop_asked_before_the_reactor_runs_happens_when_it_starts() -> None:
    reactor = FakeReactor()
    stop_soon(reactor)  # a listen Deferred failing during set-up: no ReactorNotRunning
    assert reactor.stops == 0
    reactor.start()
    assert reactor.stops == 1


def test_a_stop_asked_while_running_is_at_once_and_twice_is_harmless() -> None:
    reactor = FakeReactor()
    reactor.start()
    stop_soon(reactor)
    assert reactor.stops == 1
    stop_soon(reactor)  # a signal while the stop is under way: the reactor refuses, quietly
    assert reactor.stops == 1


def test_the_reason_names_the_socket_error_once() -> None:
    failure = Failure(CannotListenError("127.0.0.1", 25566, OSError(98, "Address already in use")))
    assert listen_error(failure) == "[Errno 98] Address already in use"


def test_port_zero_is_accepted_where_something_listens_and_nowhere_else() -> None:
    config = ProxyConfig.model_validate({"listen": {"port": 0}, "console": {"port": 0}, "dashboard": {"port": 0}})
    assert (config.listen.port, config.console.port, config.dashboard.port) == (0, 0, 0)
    with pytest.raises(ValueError, match="upstream"):
        ProxyConfig.model_validate({"upstream": {"port": 0}})
    assert parse_address("127.0.0.1:0", listen=True).port == 0
    with pytest.raises(ConfigError, match="from 1 to 65535"):
        parse_address("127.0.0.1:0")  # --upstream, --connect: port 0 names nothing


@pytest.mark.parametrize("line, what, port", [
    ("mcagent: connect your Minecraft client to 127.0.0.1:40123", "proxy", 40123),
    ("\x1b[2Kmcagent: connect your Minecraft client to 127.0.0.1:7\r", "proxy", 7),
    ("mcagent: metrics on http://127.0.0.1:9100/metrics", "metrics", 9100),
    ("mcagent: console on 127.0.0.1:5000", "console", 5000),
    ("mcagent: dashboard on http://127.0.0.1:8080/", "dashboard", 8080),
    ("mcagent: metrics on http://127.0.0.1:9100/metrics", "proxy", None),
    ("mcagent listening on 127.0.0.1:40123, relaying to 127.0.0.1:25565", "proxy", None),
])
def test_announcements_give_the_port(line: str, what: str, port: int | None) -> None:
    assert announced_port(line, what) == port


def _run(config: dict[str, Any], tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "proxy.json"
    path.write_text(json.dumps(config))
    # The timeout is the test's ordinary bound, not a measurement: before the fix the process never exited.
    return subprocess.run([sys.executable, "-m", "proxy.operations.cli", "run", "--no-console", "--config",
                           str(path), *args], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)


def test_a_taken_listen_port_exits_with_code_1_and_the_reason(tmp_path: Path) -> None:
    with socket.socket() as taken, refusing_port() as upstream:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = _run({"listen": {"host": "127.0.0.1", "port": port},
                       "upstream": {"host": "127.0.0.1", "port": upstream}}, tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"mcagent: cannot listen on 127.0.0.1:{port}: [Errno 98] Address already in use" in result.stderr
    assert "ReactorNotRunning" not in result.stdout + result.stderr
    assert "connect your Minecraft client" not in result.stdout


def test_a_bad_metrics_address_is_a_clear_error(tmp_path: Path) -> None:
    result = _run({}, tmp_path, "--metrics", "127.0.0.1:http")
    assert result.returncode == 2
    assert "mcagent: --metrics: bad address '127.0.0.1:http'" in result.stderr
    assert "Traceback" not in result.stderr


def _serves(port: int) -> bool:
    with socket.create_connection(("127.0.0.1", port), timeout=5):
        return True


@pytest.fixture
def proxies() -> Any:
    started: list[ProxyProcess] = []

    def make(*args: Any, **kwargs: Any) -> ProxyProcess:
        started.append(ProxyProcess(*args, **kwargs))
        return started[-1]

    yield make
    for proxy in started:
        proxy.close()


def test_the_harness_lets_the_proxy_pick_every_port_and_reads_them_back(
        proxies: Callable[..., ProxyProcess]) -> None:
    with refusing_port() as upstream:
        proxy = proxies(upstream, ("--metrics", "127.0.0.1:0", "--no-console"), console={"port": 0, "token": TOKEN})
        written = json.loads(proxy.config_path.read_text())
        assert written["listen"]["port"] == 0 and written["console"]["port"] == 0  # nothing picked in advance
        assert proxy.port > 0 and _serves(proxy.port)
        assert _serves(proxy.port_of("console"))
        health = urllib.request.urlopen(f"http://127.0.0.1:{proxy.port_of('metrics')}/healthz", timeout=5)
        assert health.status == 200


def test_metrics_on_a_taken_port_is_logged_and_the_proxy_serves_on(proxies: Callable[..., ProxyProcess]) -> None:
    with socket.socket() as taken, refusing_port() as upstream:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        proxy = proxies(upstream, ("--metrics", f"127.0.0.1:{port}", "--no-console"))
        line = proxy.wait_log("metrics cannot listen")
        assert f"127.0.0.1:{port}: [Errno 98] Address already in use" in line
        assert _serves(proxy.port)
        assert "Unhandled error" not in proxy.log_text()


def test_console_attach_to_port_zero_asks_for_the_printed_port(tmp_path: Path) -> None:
    path = tmp_path / "proxy.json"
    path.write_text(json.dumps({"console": {"port": 0, "token": TOKEN}}))
    result = subprocess.run([sys.executable, "-m", "proxy.operations.cli", "console", "--config", str(path)],
                            cwd=ROOT, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert result.returncode == 2 and "console.port is 0" in result.stderr and "--connect" in result.stderr
