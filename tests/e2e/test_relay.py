"""mineflayer -> mcagent -> flying-squid over loopback: the relay issue's scenarios."""
from __future__ import annotations

import os

import pytest

from proxy.protocol.versions import END_TO_END, SUPPORTED
from tests.e2e.matrix import END_TO_END_WORLD, NEW_VERSIONS, proxied

PRIMARY = ["1.18.2", "1.12.2", "1.8.8", "1.20.4", "1.21.4"]
_wanted = os.environ.get("MCAGENT_E2E_VERSIONS", "")
# "all" means every version the real peers speak; protocol-level ones have their own tests.
VERSIONS = ([v.name for v in SUPPORTED if v.verified in (END_TO_END, END_TO_END_WORLD)] if _wanted == "all"
            else (_wanted.split(",") if _wanted else PRIMARY))


@pytest.mark.parametrize("version", proxied(*VERSIONS, *(v for v in NEW_VERSIONS if v not in VERSIONS)))
def test_relay_login_chat_walk_ping(version: str, server_factory, bot_factory, proxy_factory) -> None:
    server = server_factory(version)
    proxy = proxy_factory(server.port)
    bot = bot_factory(proxy.port, username="alice", version=version)
    server.wait_login("alice")

    # Chat both ways: an ordinary line reaches the server unchanged ...
    bot.chat("hello through the proxy, 1 + 1 = 2")
    server.wait_chat("hello through the proxy, 1 + 1 = 2", player="alice")
    # ... and the server's chat reaches the bot.
    server.say("welcome from the server")
    bot.wait_chat("welcome from the server")

    # !ping is answered by the proxy and never seen by the server.
    mark = server.mark()
    bot.chat("!ping")
    bot.wait_chat("[mcagent] Ping to the server")
    bot.chat("after ping")
    server.wait_chat("after ping", player="alice", since=mark)
    assert "!ping" not in server.chats(player="alice", since=mark)
    bot.chat("@ai where am I")
    bot.wait_chat("[mcagent]")
    assert not any(c.startswith("@ai") for c in server.chats(since=mark))

    # The slash forms (unsigned on 1.19+, registered in the command tree on 1.13+).
    bot_mark = bot.mark()
    bot.chat("/agent ping")
    bot.wait_chat("[mcagent] Ping to the server", since=bot_mark)
    bot_mark = bot.mark()
    bot.chat("/ai where am I")
    bot.wait_chat("[mcagent]", since=bot_mark)
    bot.chat("marker after slash commands")
    server.wait_chat("marker after slash commands", player="alice", since=mark)
    assert not any(c.split(" ")[0] in ("ai", "agent") for c in server.commands(since=mark))
    assert not any(c.startswith("/") for c in server.chats(since=mark))

    # Walking five blocks is accepted by the server.
    start = server.server_position("alice")
    walked = bot.walk(5)
    assert walked["ok"]
    end = server.server_position("alice")
    assert end.horizontal_distance(start) >= 5
    assert end.horizontal_distance((walked["x"], walked["y"], walked["z"])) < 1.0


@pytest.mark.parametrize("version", PRIMARY)
def test_upstream_killed_mid_game_gives_a_reason(version: str, squid_factory, bot_factory, proxy_factory) -> None:
    server = squid_factory(version)
    proxy = proxy_factory(server.port)
    bot = bot_factory(proxy.port, username="bob", version=version)
    server.wait_login("bob")
    server.proc.kill()  # killed, not shut down: no goodbye from the server
    kicked = bot.wait_kicked(timeout=15)
    assert "Lost connection to the server" in kicked["reason"]
    assert "[mcagent]" in kicked["reason"]


def test_upstream_down_at_login_gives_a_reason(bot_factory, proxy_factory) -> None:
    from tests.e2e.peers import refusing_port

    with refusing_port() as down:
        proxy = proxy_factory(down)
        bot = bot_factory(proxy.port, username="carol", version="1.18.2", wait_spawn=False)
        kicked = bot.wait_kicked(timeout=15)
    assert "Cannot reach the server" in kicked["reason"]


def test_five_bots_see_each_others_chat(squid_factory, bot_factory, proxy_factory) -> None:
    server = squid_factory("1.18.2")
    proxy = proxy_factory(server.port)
    names = [f"player{i}" for i in range(5)]
    bots = [bot_factory(proxy.port, username=n, version="1.18.2") for n in names]
    for name in names:
        server.wait_login(name)
    for bot, name in zip(bots, names):
        bot.chat(f"hi from {name}")
    for bot in bots:
        for name in names:
            bot.wait_chat(f"hi from {name}", timeout=15)
