"""Operating the proxy as an owner would: console, metrics, reload, graceful stop."""
from __future__ import annotations

import json
import os
import pty
import select
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.e2e.proxy_process import ROOT

TOKEN = "console-token-for-tests"
ADMIN_SECRET = "admin-secret-for-tests"


def _console(port: int, token: str, *lines: str) -> list[str]:
    """Send the token and commands; return every line the console answered."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        stream = sock.makefile("rwb")
        out = [stream.readline().decode().rstrip()]
        for line in (token, *lines):
            stream.write(line.encode() + b"\n")
            stream.flush()
            while True:
                raw = stream.readline()
                if not raw:
                    return out
                text = raw.decode().rstrip("\r\n")
                if text == "\x1e":
                    break
                out.append(text)
        return out


def test_tcp_console_refuses_a_wrong_token_and_answers_the_right_one(squid_factory, bot_factory, proxy_factory) -> None:
    server = squid_factory("1.18.2")
    proxy = proxy_factory(server.port, console={"port": 0, "token": TOKEN})
    console_port = proxy.port_of("console")
    assert _console(console_port, "not-the-token")[-1] == "denied: wrong token"
    bot_factory(proxy.port, username="erin", version="1.18.2")
    lines = _console(console_port, TOKEN, "sessions", "status")
    assert any("erin" in line and "1.18.2" in line for line in lines)
    assert any(line.startswith("uptime") for line in lines)
    assert TOKEN not in "\n".join(_console(console_port, TOKEN, "dump")[2:])


def test_the_console_token_and_admin_secret_never_reach_the_log(squid_factory, bot_factory, proxy_factory) -> None:
    # Invariant 8 against the real process: both secrets are used (a wrong and a right console
    # login, a wrong and a right admin login in game), then the whole log is searched.
    server = squid_factory("1.18.2")
    proxy = proxy_factory(server.port, console={"port": 0, "token": TOKEN}, admins=["gina"],
                          admin_secret=ADMIN_SECRET)
    console_port = proxy.port_of("console")
    assert _console(console_port, "not-the-token")[-1] == "denied: wrong token"
    bot = bot_factory(proxy.port, username="gina", version="1.18.2")
    bot.chat("!admin login not-the-secret")
    bot.wait_chat("refused")
    bot.chat(f"!admin login {ADMIN_SECRET}")
    bot.wait_chat("accepted")
    assert any("gina" in line for line in _console(console_port, TOKEN, "sessions"))
    bot.chat("after the secrets")
    server.wait_chat("after the secrets", player="gina")
    log = proxy.log_text()
    assert "gina" in log  # the log is the real one, with this session in it
    assert TOKEN not in log and ADMIN_SECRET not in log
    assert ADMIN_SECRET not in "\n".join(server.chats())  # swallowed, never forwarded


def test_reload_with_a_broken_file_keeps_serving(squid_factory, bot_factory, proxy_factory) -> None:
    server = squid_factory("1.18.2")
    proxy = proxy_factory(server.port, console={"port": 0, "token": TOKEN})
    console_port = proxy.port_of("console")
    good = json.loads(proxy.config_path.read_text())
    proxy.rewrite_config(json.dumps({**good, "max_players": "lots"}))
    lines = _console(console_port, TOKEN, "reload")
    assert any("reload failed" in line for line in lines)
    assert any("max_players" in line and "lots" in line for line in lines)
    bot = bot_factory(proxy.port, username="frank", version="1.18.2")
    bot.chat("still serving")
    server.wait_chat("still serving", player="frank")
    proxy.rewrite_config(json.dumps({**good, "max_players": 7}))
    assert any(line.startswith("reloaded") for line in _console(console_port, TOKEN, "reload"))


def test_metrics_show_the_bots_traffic(squid_factory, bot_factory, proxy_factory) -> None:
    server = squid_factory("1.18.2")
    proxy = proxy_factory(server.port, extra_args=("--metrics", "127.0.0.1:0"))
    metrics_port = proxy.port_of("metrics")
    bots = [bot_factory(proxy.port, username=f"m{i}", version="1.18.2") for i in range(2)]
    for bot in bots:
        bot.chat("!help")
        bot.wait_chat("[mcagent]")
    text = urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=5).read().decode()
    values = {line.split(" ")[0]: float(line.split(" ")[1]) for line in text.splitlines()
              if line and not line.startswith("#")}
    assert values["mcagent_connected_players"] == 2
    assert values['mcagent_packets_total{direction="client_to_server"}'] > 10
    assert values['mcagent_bytes_total{direction="server_to_client"}'] > 1000
    assert values["mcagent_swallowed_chat_total"] >= 2
    assert urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/healthz", timeout=5).status == 200


def test_sigterm_during_play_tells_players_and_exits_zero(squid_factory, bot_factory, proxy_factory) -> None:
    server = squid_factory("1.18.2")
    proxy = proxy_factory(server.port)
    bot = bot_factory(proxy.port, username="gina", version="1.18.2")
    server.wait_login("gina")
    started = time.monotonic()
    proxy.proc.send_signal(signal.SIGTERM)
    kicked = bot.wait_kicked(timeout=5)
    assert "shutting down" in kicked["reason"]
    assert proxy.proc.wait(5) == 0
    assert time.monotonic() - started < 5


def test_console_on_a_terminal_with_line_editing(squid_factory, tmp_path: Path) -> None:
    server = squid_factory("1.18.2")
    config = tmp_path / "proxy.json"
    config.write_text(json.dumps({"listen": {"host": "127.0.0.1", "port": 0},
                                  "upstream": {"host": "127.0.0.1", "port": server.port}}))
    main_fd, child_fd = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "proxy.operations.cli", "run", "--config", str(config)], cwd=ROOT,
                            stdin=child_fd, stdout=child_fd, stderr=child_fd, close_fds=True)
    os.close(child_fd)
    screen = b""

    def read_until(fragment: bytes, timeout: float = 15) -> bytes:
        nonlocal screen
        deadline = time.monotonic() + timeout
        while fragment not in screen and time.monotonic() < deadline:
            ready, _, _ = select.select([main_fd], [], [], 0.2)
            if ready:
                try:
                    screen += os.read(main_fd, 4096)
                except OSError:
                    break
        assert fragment in screen, screen[-2000:]
        return screen

    try:
        read_until(b"mcagent> ")
        os.write(main_fd, b"sta\t")  # tab completes to "status "
        read_until(b"status ")
        os.write(main_fd, b"\r")
        read_until(b"uptime")
        os.write(main_fd, b"bogus\r")
        read_until(b"unknown command 'bogus'")
        os.write(main_fd, b"\x1b[A\x1b[A\r")  # history: up twice brings back "status"
        before = screen.count(b"uptime")
        deadline = time.monotonic() + 10
        while screen.count(b"uptime") == before and time.monotonic() < deadline:
            read_until(b"mcagent> ")
            ready, _, _ = select.select([main_fd], [], [], 0.2)
            if ready:
                screen += os.read(main_fd, 4096)
        assert screen.count(b"uptime") > before
        os.write(main_fd, b"stop\r")
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(main_fd)
