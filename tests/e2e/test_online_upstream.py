"""Playing on an online-mode server through the proxy with a Microsoft account (issue 21).

The server is a real online-mode server (flying-squid for 1.8.8, 1.12.2 and 1.20.1, the
world server on minecraft-protocol for 1.21.11 and 26.1): it verifies every login with the session server, as
vanilla does with Mojang's. The account services (Microsoft, Xbox, XSTS, Minecraft
services and the session server) are the local ones in tests/account_services.py; the
account is signed in already (its tokens in a cache file of the test's). The player is an
offline mineflayer client on loopback, as a player's own client would be.
"""
from __future__ import annotations

import math
import time
import uuid
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.account_services import AccountServices
from tests.e2e.matrix import proxied

VERSIONS = proxied("1.8.8", "1.12.2", "1.20.1", "1.21.11", "26.1")
ACCOUNT = "Notch"
ACCOUNT_UUID = uuid.UUID("069a79f4-44e9-4726-a5be-fca90e38aaf5")


@pytest.fixture
def services() -> Iterator[AccountServices]:
    with AccountServices() as running:
        running.add_account(ACCOUNT, ACCOUNT_UUID)
        yield running


def _online(version: str, services: AccountServices, tmp_path: Path, server_factory, proxy_factory,
            gamemode: str = "survival", **config: Any):
    server = server_factory(version, gamemode=gamemode, view_distance=4,
                            extra_args=("--online-mode", "true", "--session-server", services.base_url))
    cache = tmp_path / "accounts.json"
    token = services.signed_in_cache(cache, ACCOUNT)
    proxy = proxy_factory(server.port, upstream_auth={"mode": "microsoft", "account": ACCOUNT},
                          session_server=services.base_url, accounts=services.config_section(cache),
                          autopilot={"log_dir": None}, **config)
    return server, proxy, token  # the account's Minecraft token, for the secrets checks


@pytest.mark.parametrize("version", VERSIONS)
def test_a_player_plays_on_an_online_server_as_the_account(version: str, services: AccountServices, tmp_path: Path,
                                                           server_factory, bot_factory, proxy_factory) -> None:
    server, proxy, token = _online(version, services, tmp_path, server_factory, proxy_factory)
    proxy.wait_log("upstream_auth: the server leg logs in as the Microsoft account Notch")
    bot = bot_factory(proxy.port, username=ACCOUNT, version=version)
    login = server.wait_login(ACCOUNT)
    assert uuid.UUID(str(login["uuid"])) == ACCOUNT_UUID  # the server verified the account, not an offline name
    (join,) = services.joins
    assert join.uuid == ACCOUNT_UUID
    assert token and token not in proxy.log_text()

    # Chat both ways, as it was typed.
    bot.chat("hello from the account")
    server.wait_chat("hello from the account", player=ACCOUNT)
    mark = bot.mark()
    server.say("welcome back")
    bot.wait_chat("welcome back", since=mark)

    # The assistant answers from the proxy; nothing of it reaches the server.
    mark = bot.mark()
    bot.chat("/ai where am I")
    assert "You are at" in bot.wait_chat("You are at", since=mark)["text"]
    assert not any("where am I" in c for c in server.commands(ACCOUNT) + server.chats(ACCOUNT))

    time.sleep(1.0)  # the chunks around the player arrive
    start = server.server_position(ACCOUNT)
    x, y, z = math.floor(start.x), math.floor(start.y), math.floor(start.z)

    # !goto arrives, as the server sees it.
    mark = bot.mark()
    bot.chat(f"!goto {x} {y} {z + 12}")
    bot.wait_chat("Going to", since=mark)
    done = bot.wait_chat("arrived", timeout=40, since=mark)
    assert "[mcagent]" in done["text"]
    assert server.server_position(ACCOUNT).horizontal_distance((x + 0.5, y, z + 12.5)) <= 1.0

    # The lava reflex pulls the player out (survival: lava hurts).
    here = server.server_position(ACCOUNT)
    px, pz = math.floor(here.x) + 8, math.floor(here.z)
    server.run(f"/fill {px - 2} {y - 1} {pz - 2} {px + 2} {y - 1} {pz + 2} lava")
    mark = bot.mark()
    bot.chat("!reflex on")
    bot.wait_chat("Reflexes on", since=mark)
    time.sleep(0.5)
    mark = bot.mark()
    server.teleport(ACCOUNT, px + 0.5, y - 1, pz + 0.5)
    bot.wait_chat("pulled you out of lava", since=mark, timeout=5)

    # The autopilot starts and !stop ends it at once.
    mark = bot.mark()
    bot.chat("!autopilot on")
    bot.wait_chat("Autopilot on", since=mark)
    time.sleep(1.0)
    mark = bot.mark()
    bot.chat("!stop")
    bot.wait_chat("you have control again", since=mark, timeout=5)
    assert token not in proxy.log_text()


@pytest.mark.parametrize("version", proxied("1.12.2", "1.21.11"))
def test_a_revoked_token_gives_the_player_a_reason_and_nothing_hangs(version: str, services: AccountServices,
                                                                     tmp_path: Path, server_factory, bot_factory,
                                                                     proxy_factory) -> None:
    server, proxy, _ = _online(version, services, tmp_path, server_factory, proxy_factory)
    services.revoke_minecraft_tokens(ACCOUNT)  # the session server now refuses the cached token
    started = time.monotonic()
    bot = bot_factory(proxy.port, username=ACCOUNT, version=version, wait_spawn=False)
    kicked = bot.wait_for("kicked", timeout=20)
    assert "mcagent login --account Notch" in str(kicked.get("reason")), kicked
    assert time.monotonic() - started < 20
    assert server.find_all("login") == []


def test_a_name_other_than_the_accounts_is_refused(services: AccountServices, tmp_path: Path, server_factory,
                                                   bot_factory, proxy_factory) -> None:
    server, proxy, _ = _online("1.21.11", services, tmp_path, server_factory, proxy_factory)
    bot = bot_factory(proxy.port, username="Steve", version="1.21.11", wait_spawn=False)
    kicked = bot.wait_for("kicked", timeout=20)
    assert "log in with the name Notch" in str(kicked.get("reason")), kicked


def _signing_server(version: str, services: AccountServices, tmp_path: Path, world_factory, proxy_factory):
    """The world server checking signed chat as vanilla does (its "Mojang" is the fake services')."""
    key_file = tmp_path / "services-key.pem"
    key_file.write_text(services.services_public_key_pem())
    server = world_factory(version, gamemode="creative", extra_args=(
        "--online-mode", "true", "--session-server", services.base_url, "--services-key", str(key_file),
        "--enforce-secure-profile", "true", "--record-chat", "true"))
    cache = tmp_path / "accounts.json"
    token = services.signed_in_cache(cache, ACCOUNT)
    proxy = proxy_factory(server.port, upstream_auth={"mode": "microsoft", "account": ACCOUNT},
                          session_server=services.base_url, accounts=services.config_section(cache),
                          autopilot={"log_dir": None})
    return server, proxy, token


def _received(server, name: str, count: int = 1) -> list[str]:
    """The bytes of each ``name`` packet the server received from the player, once it has ``count``
    (the server reports a packet's bytes just after handling it)."""
    deadline = time.monotonic() + 10
    while True:
        found = [str(e["hex"]) for e in server.find_all("chat_packet", player=ACCOUNT, name=name)]
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


@pytest.mark.parametrize("version", proxied("1.20.1", "1.21.11", "26.1"))
def test_signed_chat_reaches_the_server_byte_identical_and_stays_valid_after_a_proxy_line(
        version: str, services: AccountServices, tmp_path: Path, world_factory, proxy_factory) -> None:
    from tests.e2e.mcp_peers import McpClient

    server, proxy, token = _signing_server(version, services, tmp_path, world_factory, proxy_factory)
    client = McpClient()
    try:
        # The player's own client signs with the account's chat key, as a vanilla client logged in with it does.
        client.connect(proxy.port, ACCOUNT, version, extra_args=(
            "--certificates", services.base_url + "/player/certificates", "--access-token", token))
        client.wait_for("chat_session", timeout=10)
        assert _received(server, "chat_session_update") == client.sent_packets("chat_session_update")

        # Signed chat: the server gets exactly the bytes the client sent, and verifies them.
        client.chat("hello, signed")
        server.wait_chat("hello, signed", player=ACCOUNT)
        assert _received(server, "chat_message") == client.sent_packets("chat_message")
        assert len(client.sent_packets("chat_message")) == 1

        # The proxy's own command is unsigned and never reaches the server.
        mark = client.mark()
        client.chat("/ai where am I")
        client.wait_chat("You are at", since=mark)

        # A proxy line typed as chat is signed by the client and kept by the proxy: the next
        # signed line must still verify at the server (it kicks with chat_validation_failed otherwise).
        mark = client.mark()
        client.chat("!help")
        client.wait_chat("!ping", since=mark)
        before = len(_received(server, "chat_message"))
        client.chat("still here after !help")
        server.wait_chat("still here after !help", player=ACCOUNT)
        client.chat("and once more")
        server.wait_chat("and once more", player=ACCOUNT)
        time.sleep(0.5)
        assert client.find_all("kicked") == [] and server.find_all("left", player=ACCOUNT) == []
        assert len(_received(server, "chat_message", before + 2)) == before + 2
        assert "!help" not in server.chats(ACCOUNT)  # the proxy's line never reached the server
        # Re-signed after the kept line: the same text, but not the client's bytes (its index ran ahead).
        assert _received(server, "chat_message")[-1] != client.sent_packets("chat_message")[-1]
    finally:
        client.close()


@pytest.mark.parametrize("version", proxied("1.20.1", "26.1"))
def test_the_world_servers_secure_chat_is_checked_by_a_client_nobody_here_wrote(
        version: str, services: AccountServices, tmp_path: Path, world_factory) -> None:
    """Before the proxy is judged by it: minecraft-protocol's own client, logged in as the
    account straight to the world server, chats signed and is accepted; a line signed one link
    too far (as after a lost line) gets it kicked, as vanilla does."""
    from tests.e2e.mcp_peers import McpClient

    key_file = tmp_path / "services-key.pem"
    key_file.write_text(services.services_public_key_pem())
    server = world_factory(version, extra_args=(
        "--online-mode", "true", "--session-server", services.base_url, "--services-key", str(key_file),
        "--enforce-secure-profile", "true"))
    token = services.signed_in_cache(tmp_path / "accounts.json", ACCOUNT)
    client = McpClient()
    try:
        client.connect(server.port, ACCOUNT, version, extra_args=(
            "--certificates", services.base_url + "/player/certificates", "--access-token", token,
            "--session-server", services.base_url, "--uuid", str(ACCOUNT_UUID)))
        client.wait_for("chat_session", timeout=10)
        for line in ("one", "two", "three"):
            client.chat(line)
            server.wait_chat(line, player=ACCOUNT)
        client.request("skip_index")
        client.chat("after a lost line")
        server.wait_left(ACCOUNT, timeout=10)
    finally:
        client.close()
