"""The network's logins with real peers: a first server that turns the login away while restarting
(the player lands on the next of try, mineflayer none the wiser), and a move to an online-mode
backend with a Microsoft-account upstream (the session server's join with the account, the local
account services of tests/account_services.py)."""
from __future__ import annotations

import json
import socket
import threading
import uuid
from pathlib import Path
from typing import Iterator

import pytest

from proxy.protocol.handshake import LOGIN, parse_handshake
from proxy.protocol.wire import pack_string, pack_varint, read_varint
from tests.account_services import AccountServices

VERSION = "1.20.1"  # flying-squid + mineflayer 4.25; the login failover's families are covered on fakes
ACCOUNT = "Notch"
ACCOUNT_UUID = uuid.UUID("069a79f4-44e9-4726-a5be-fca90e38aaf5")
DEFAULT_UPSTREAM = {"host": "127.0.0.1", "port": 25565}  # the default: servers replaces it


class RestartingBackend:
    """A backend in the middle of a restart, as Paper is: it reads the handshake and the login
    start, answers with a login disconnect, and closes."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        self.refused = 0
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return  # closed
            with conn:
                conn.settimeout(5)
                data = b""
                while _frames(data) < 2:  # handshake, login start
                    chunk = conn.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                reason = json.dumps({"text": self.reason})
                packet = pack_varint(0) + pack_string(reason)
                conn.sendall(pack_varint(len(packet)) + packet)
                if _next_state(data) == LOGIN:  # (a server-list ping is answered the same, and not counted)
                    self.refused += 1

    def close(self) -> None:
        self.sock.close()


def _next_state(data: bytes) -> int:
    try:
        length, start = read_varint(data, 0)
        return parse_handshake(data[start:start + length]).next_state
    except Exception:  # noqa: BLE001 - not a handshake
        return -1


def _frames(data: bytes) -> int:
    count, pos = 0, 0
    while pos < len(data):
        try:
            length, start = read_varint(data, pos)
        except Exception:  # noqa: BLE001 - a length prefix cut in two: more bytes to come
            return count
        if start + length > len(data):
            return count
        count, pos = count + 1, start + length
    return count


@pytest.fixture
def restarting() -> Iterator[RestartingBackend]:
    backend = RestartingBackend("Server is restarting")
    yield backend
    backend.close()


def test_a_lobby_restarting_at_login_lands_the_player_on_the_next_server(restarting: RestartingBackend,
                                                                         server_factory, bot_factory,
                                                                         proxy_factory) -> None:
    survival = server_factory(VERSION)
    proxy = proxy_factory(survival.port, servers={"lobby": f"127.0.0.1:{restarting.port}",
                                                  "survival": f"127.0.0.1:{survival.port}"},
                          upstream=DEFAULT_UPSTREAM, **{"try": ["lobby", "survival"]})
    bot = bot_factory(proxy.port, username="alice", version=VERSION)
    survival.wait_login("alice")
    bot.wait_chat("[mcagent] lobby is unavailable (Server is restarting); you are on survival.")
    assert restarting.refused == 1
    bot.chat("hello survival")
    survival.wait_chat("hello survival", player="alice")
    assert bot.find("kicked") is None and bot.find("end") is None
    assert "lobby is unavailable (Server is restarting) while alice logged in; trying survival" in proxy.log_text()


def test_a_move_to_an_online_mode_backend_joins_as_the_account(tmp_path: Path, server_factory, bot_factory,
                                                                proxy_factory) -> None:
    with AccountServices() as services:
        services.add_account(ACCOUNT, ACCOUNT_UUID)
        lobby = server_factory(VERSION)  # offline: the first login needs no join
        survival = server_factory(VERSION, extra_args=("--online-mode", "true", "--session-server",
                                                       services.base_url))
        cache = tmp_path / "accounts.json"
        token = services.signed_in_cache(cache, ACCOUNT)
        proxy = proxy_factory(lobby.port, upstream_auth={"mode": "microsoft", "account": ACCOUNT},
                              session_server=services.base_url, accounts=services.config_section(cache),
                              servers={"lobby": f"127.0.0.1:{lobby.port}", "survival": f"127.0.0.1:{survival.port}"},
                              upstream=DEFAULT_UPSTREAM, **{"try": ["lobby", "survival"]})
        bot = bot_factory(proxy.port, username=ACCOUNT, version=VERSION)
        lobby.wait_login(ACCOUNT)
        assert services.joins == []
        mark = bot.mark()
        bot.chat("/server survival")
        login = survival.wait_login(ACCOUNT)
        assert uuid.UUID(str(login["uuid"])) == ACCOUNT_UUID  # verified by the session server, not offline
        bot.wait_chat("[mcagent] You are on survival now.", since=mark)
        (join,) = services.joins
        assert join.uuid == ACCOUNT_UUID
        bot.chat("hello online survival")
        survival.wait_chat("hello online survival", player=ACCOUNT)
        assert token and token not in proxy.log_text()
        assert bot.find("kicked", since=mark) is None
