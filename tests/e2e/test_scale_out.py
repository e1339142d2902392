"""Scale-out: a real nginx stream proxy (PROXY protocol) in front of two mcagent instances.

nginx binds its upstream side to 127.0.0.5, so an instance that ignored the
PROXY header would log 127.0.0.5; with it, each instance sees the bot's real
address (127.0.0.1).

nginx cannot listen on port 0 and say which port it got, so the test opens the front
socket itself and hands it over (nginx's ``NGINX`` variable, the way it passes its
sockets to a new binary on upgrade): no other process can take the port in between.
"""
from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

STREAM_MODULE = Path("/usr/lib/nginx/modules/ngx_stream_module.so")


def nginx_unavailable_reason() -> str:
    """Why scripts/bootstrap.sh --with-nginx could not install it, as it wrote down."""
    note = Path(__file__).resolve().parents[2] / ".venv" / "nginx-unavailable"
    if note.exists():
        return note.read_text(encoding="utf-8").strip() or "no reason recorded"
    return "scripts/test.sh was not run, or ran before nginx was installable"


@pytest.fixture
def nginx_binary() -> str:
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(binary).exists() or not STREAM_MODULE.exists():
        pytest.skip(f"nginx with the stream module is not installed ({nginx_unavailable_reason()}); "
                    "apt-get install nginx-light libnginx-mod-stream, or run scripts/test.sh as root")
    return binary


def test_two_instances_behind_nginx_see_real_client_addresses(
    nginx_binary: str, squid_factory, bot_factory, proxy_factory, tmp_path: Path
) -> None:
    server = squid_factory("1.18.2")
    a = proxy_factory(server.port, proxy_protocol=True)
    b = proxy_factory(server.port, proxy_protocol=True)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    front = listener.getsockname()[1]
    (tmp_path / "logs").mkdir()
    conf = tmp_path / "nginx.conf"
    conf.write_text(f"""
load_module {STREAM_MODULE};
worker_processes 1;
daemon off;
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/logs/error.log notice;
events {{ worker_connections 64; }}
stream {{
    upstream mcagents {{
        server 127.0.0.1:{a.port};
        server 127.0.0.1:{b.port};
    }}
    server {{
        listen 127.0.0.1:{front};
        proxy_pass mcagents;
        proxy_protocol on;
        proxy_bind 127.0.0.5;
    }}
}}
""")
    with listener:
        nginx = subprocess.Popen([nginx_binary, "-c", str(conf), "-p", str(tmp_path)], pass_fds=(listener.fileno(),),
                                 env=dict(os.environ, NGINX=f"{listener.fileno()};"),
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        # Connections wait in the socket's backlog until nginx accepts: ready is its worker started.
        error_log = tmp_path / "logs" / "error.log"
        deadline = time.monotonic() + 10
        while nginx.poll() is None and time.monotonic() < deadline:
            if error_log.exists() and "start worker process" in error_log.read_text():
                break
            time.sleep(0.05)
        log = error_log.read_text() if error_log.exists() else ""
        assert nginx.poll() is None and "start worker process" in log, log  # a bind of its own would fail: taken
        names = ["lb1", "lb2", "lb3", "lb4"]
        bots = [bot_factory(front, username=n, version="1.18.2") for n in names]
        for bot, name in zip(bots, names):
            server.wait_login(name)
            bot.chat(f"via nginx {name}")
            server.wait_chat(f"via nginx {name}", player=name)
        logins = {}
        for proxy in (a, b):
            lines = [line for line in proxy.lines if "logged in from" in line]
            logins[proxy.port] = lines
            for line in lines:
                assert re.search(r"logged in from 127\.0\.0\.1:\d+", line), line
                assert "127.0.0.5" not in line
        assert all(len(lines) >= 1 for lines in logins.values()), logins
        assert sum(len(lines) for lines in logins.values()) == len(names)
    finally:
        nginx.terminate()
        try:
            nginx.wait(5)
        except subprocess.TimeoutExpired:
            nginx.kill()
