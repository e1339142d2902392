"""Player-info forwarding end to end: mineflayer -> the real mcagent process -> a backend
that requires forwarding (tests/e2e/forwarding_backend.py, reading the published
formats) -> flying-squid. The backend must see the UUID, name, skin properties and
address the player would have shown an online-mode server directly."""
from __future__ import annotations

import json
import sys
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import parse_qs, urlparse

import pytest

from proxy.connection.profile import offline_uuid
from tests.e2e.peers import JsonLineProcess

SECRET = "e2e-forwarding-secret-9f3a"
# A profile as Mojang's hasJoined returns it: undashed id, name, the signed textures property.
PROFILE_ID = "4566e69fc90748ee8d71d7ba5aa00d20"
TEXTURES_VALUE = (
    "ewogICJ0aW1lc3RhbXAiIDogMTcwMDAwMDAwMDAwMCwKICAicHJvZmlsZUlkIiA6ICI0NTY2ZTY5ZmM5MDc0OGVlOGQ3MWQ3YmE1YWEwMGQyMCIsCiAg"
    "InByb2ZpbGVOYW1lIiA6ICJza2lubmVkIiwKICAidGV4dHVyZXMiIDogewogICAgIlNLSU4iIDogewogICAgICAidXJsIiA6ICJodHRwOi8vdGV4dH"
    "VyZXMubWluZWNyYWZ0Lm5ldC90ZXh0dXJlLzFhNGFmNzE4NDU1ZDRhYWI1MjhlN2E2MWY4NmZhMjVlNmEzNjlkMTc2OGRjYjEzZjdkZjMxOWE3MTNl"
    "YjgxMGIiCiAgICB9CiAgfQp9")
TEXTURES_SIGNATURE = "T" * 600 + "SignedByTheSessionServer+/=="


class ForwardingBackend(JsonLineProcess):
    name = "forwarding-backend"

    def start(self, mode: str, game_port: int, secret_file: Path | None = None) -> "ForwardingBackend":
        argv = [sys.executable, "-m", "tests.e2e.forwarding_backend", "--mode", mode,
                "--game", f"127.0.0.1:{game_port}"]
        if secret_file is not None:
            argv += ["--secret-file", str(secret_file)]
        self.spawn(argv)
        self.port = int(self.wait_for("listening", timeout=30)["port"])
        return self


class SessionServer:
    """Stands in for Mojang's session server: hasJoined answers with a full profile."""

    def __init__(self, profiles: dict[str, dict[str, Any]]) -> None:
        self.queries: list[dict[str, list[str]]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                url = urlparse(self.path)
                query = parse_qs(url.query)
                outer.queries.append(query)
                profile = profiles.get(query.get("username", [""])[0].lower())
                if url.path != "/session/minecraft/hasJoined" or profile is None or not query.get("serverId"):
                    self.send_response(204)
                    self.end_headers()
                    return
                body = json.dumps(profile).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def backend_factory(peers_installed: Path) -> Iterator[Any]:
    started: list[ForwardingBackend] = []

    def make(mode: str, game_port: int, secret_file: Path | None = None) -> ForwardingBackend:
        backend = ForwardingBackend().start(mode, game_port, secret_file)
        started.append(backend)
        return backend

    try:
        yield make
    finally:
        for backend in started:
            backend.close()


@pytest.fixture
def session_server() -> Iterator[SessionServer]:
    server = SessionServer({"skinned": {"id": PROFILE_ID, "name": "skinned", "properties": [
        {"name": "textures", "value": TEXTURES_VALUE, "signature": TEXTURES_SIGNATURE}]}})
    try:
        yield server
    finally:
        server.close()


def _secret_file(tmp_path: Path, secret: str = SECRET) -> Path:
    path = tmp_path / "forwarding.secret"
    path.write_text(secret + "\n")
    return path


@pytest.mark.parametrize("version", ["1.18.2", "1.21.4"])
def test_velocity_forwarding_offline_mode(version: str, tmp_path: Path, squid_factory, bot_factory, proxy_factory,
                                          backend_factory) -> None:
    server = squid_factory(version)
    backend = backend_factory("velocity", server.port, _secret_file(tmp_path))
    proxy = proxy_factory(backend.port, forwarding={"mode": "velocity", "secret_file": str(_secret_file(tmp_path))})
    assert "player-info forwarding: velocity" in proxy.wait_log("player-info forwarding")
    bot = bot_factory(proxy.port, username="alice", version=version)
    forwarded = backend.wait_for("forwarded", timeout=10)
    assert forwarded["uuid"] == str(offline_uuid("alice"))  # as vanilla computes it: identities carry over
    assert (forwarded["name"], forwarded["address"], forwarded["properties"]) == ("alice", "127.0.0.1", [])
    assert forwarded["version"] == (4 if version == "1.21.4" else 1)
    server.wait_login("alice")
    bot.chat("hello through a forwarding backend")
    server.wait_chat("hello through a forwarding backend", player="alice")
    assert SECRET not in proxy.log_text()


@pytest.mark.parametrize("version", ["1.16.5", "1.20.4"])
def test_velocity_forwarding_online_mode_carries_the_signed_skin(version: str, tmp_path: Path, squid_factory,
                                                                 bot_factory, proxy_factory, backend_factory,
                                                                 session_server: SessionServer) -> None:
    server = squid_factory(version)
    backend = backend_factory("velocity", server.port, _secret_file(tmp_path))
    proxy = proxy_factory(backend.port, online_mode=True, session_server=session_server.url,
                          forwarding={"mode": "velocity", "secret": SECRET})
    bot_factory(proxy.port, username="skinned", version=version)
    forwarded = backend.wait_for("forwarded", timeout=10)
    assert forwarded["uuid"] == str(uuid.UUID(PROFILE_ID))
    assert (forwarded["name"], forwarded["address"]) == ("skinned", "127.0.0.1")
    assert forwarded["properties"] == [{"name": "textures", "value": TEXTURES_VALUE, "signature": TEXTURES_SIGNATURE}]
    (query,) = session_server.queries
    assert query["username"] == ["skinned"] and len(query["serverId"][0]) >= 32  # the login's digest
    server.wait_login("skinned")


def test_wrong_secret_is_refused_with_the_backends_reason(tmp_path: Path, squid_factory, bot_factory, proxy_factory,
                                                           backend_factory) -> None:
    server = squid_factory("1.21.4")
    backend = backend_factory("velocity", server.port, _secret_file(tmp_path, "the backend's own secret"))
    proxy = proxy_factory(backend.port, forwarding={"mode": "velocity", "secret": SECRET})
    bot = bot_factory(proxy.port, username="mallory", version="1.21.4", wait_spawn=False)
    kicked = bot.wait_kicked(timeout=15)
    assert "Unable to verify player details" in kicked["reason"]
    assert backend.wait_for("refused", timeout=5)["reason"] == "Unable to verify player details"
    assert server.find("login") is None


def test_legacy_forwarding_with_an_old_client_carries_uuid_skin_and_address(squid_factory, bot_factory,
                                                                           proxy_factory, backend_factory,
                                                                           session_server: SessionServer) -> None:
    server = squid_factory("1.12.2")
    backend = backend_factory("legacy", server.port)
    proxy = proxy_factory(backend.port, online_mode=True, session_server=session_server.url,
                          forwarding={"mode": "legacy"})
    assert "legacy (BungeeCord, unauthenticated)" in proxy.wait_log("player-info forwarding")
    bot_factory(proxy.port, username="skinned", version="1.12.2")
    forwarded = backend.wait_for("forwarded", timeout=10)
    assert forwarded["host"] == "127.0.0.1"  # what the client typed, without anything after a NUL
    assert (forwarded["uuid"], forwarded["address"]) == (str(uuid.UUID(PROFILE_ID)), "127.0.0.1")
    assert forwarded["properties"] == [{"name": "textures", "value": TEXTURES_VALUE, "signature": TEXTURES_SIGNATURE}]
    server.wait_login("skinned")


def test_online_mode_refuses_a_player_the_session_server_does_not_know(squid_factory, bot_factory, proxy_factory,
                                                                       session_server: SessionServer) -> None:
    # The session server answers 204 No Content for a player who did not join: never a login.
    server = squid_factory("1.20.4")
    proxy = proxy_factory(server.port, online_mode=True, session_server=session_server.url)
    bot = bot_factory(proxy.port, username="stranger", version="1.20.4", wait_spawn=False)
    kicked = bot.wait_kicked(timeout=15)
    assert "Could not verify your account" in kicked["reason"]
    assert [q["username"] for q in session_server.queries] == [["stranger"]]
    assert server.find("login") is None


def test_velocity_forwarding_on_26_1_at_protocol_level(tmp_path: Path, proxy_factory, backend_factory) -> None:
    # mineflayer/flying-squid cannot speak 26.1: minecraft-protocol's client and server can.
    from tests.e2e.test_protocol_level import McpPeers

    peers = McpPeers()
    try:
        server = peers.server("26.1")
        assert server.port is not None
        backend = backend_factory("velocity", server.port, _secret_file(tmp_path))
        proxy = proxy_factory(backend.port, forwarding={"mode": "velocity", "secret": SECRET})
        client = peers.client(proxy.port, "modern", "26.1")
        forwarded = backend.wait_for("forwarded", timeout=10)
        assert (forwarded["version"], forwarded["uuid"], forwarded["name"], forwarded["address"]) == (
            4, str(offline_uuid("modern")), "modern", "127.0.0.1")
        server.wait_login("modern")
        client.chat("hello on 26.1 through a forwarding backend")
        server.wait_chat("hello on 26.1 through a forwarding backend", player="modern")
    finally:
        peers.close()
