"""Playing on an online-mode server through the proxy with a Microsoft account (issue 21).

The server is a real online-mode server (flying-squid for 1.8.8 and 1.12.2, the world
server on minecraft-protocol after): it verifies every login with the session server, as
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
    services.signed_in_cache(cache, ACCOUNT)
    proxy = proxy_factory(server.port, upstream_auth={"mode": "microsoft", "account": ACCOUNT},
                          session_server=services.base_url, accounts=services.config_section(cache),
                          autopilot={"log_dir": None}, **config)
    return server, proxy


@pytest.mark.parametrize("version", VERSIONS)
def test_a_player_plays_on_an_online_server_as_the_account(version: str, services: AccountServices, tmp_path: Path,
                                                           server_factory, bot_factory, proxy_factory) -> None:
    server, proxy = _online(version, services, tmp_path, server_factory, proxy_factory)
    bot = bot_factory(proxy.port, username=ACCOUNT, version=version)
    login = server.wait_login(ACCOUNT)
    assert uuid.UUID(str(login["uuid"])) == ACCOUNT_UUID  # the server verified the account, not an offline name
    (join,) = services.joins
    assert join.uuid == ACCOUNT_UUID
    assert services.minecraft_token(ACCOUNT) not in proxy.log_text()

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
    assert services.minecraft_token(ACCOUNT) not in proxy.log_text()


@pytest.mark.parametrize("version", proxied("1.12.2", "1.21.11"))
def test_a_revoked_token_gives_the_player_a_reason_and_nothing_hangs(version: str, services: AccountServices,
                                                                     tmp_path: Path, server_factory, bot_factory,
                                                                     proxy_factory) -> None:
    server, proxy = _online(version, services, tmp_path, server_factory, proxy_factory)
    services.revoke_minecraft_tokens(ACCOUNT)  # the session server now refuses the cached token
    started = time.monotonic()
    bot = bot_factory(proxy.port, username=ACCOUNT, version=version, wait_spawn=False)
    kicked = bot.wait_for("kicked", timeout=20)
    assert "mcagent login --account Notch" in str(kicked.get("reason")), kicked
    assert time.monotonic() - started < 20
    assert server.find_all("login") == []


def test_a_name_other_than_the_accounts_is_refused(services: AccountServices, tmp_path: Path, server_factory,
                                                   bot_factory, proxy_factory) -> None:
    server, proxy = _online("1.21.11", services, tmp_path, server_factory, proxy_factory)
    bot = bot_factory(proxy.port, username="Steve", version="1.21.11", wait_spawn=False)
    kicked = bot.wait_for("kicked", timeout=20)
    assert "log in with the name Notch" in str(kicked.get("reason")), kicked
