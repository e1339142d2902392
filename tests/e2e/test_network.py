"""Two real backends behind one mcagent: land on the first of try (or a forced host's server), /server
both ways with chat, and failover when a backend process is killed (mineflayer -> mcagent -> two
flying-squid 1.20.1 or world-server 1.21.11 processes)."""
from __future__ import annotations

import os
import time

import pytest

# Legacy Join Game + Respawn (1.20.1, flying-squid) and configuration re-entry (1.21.11, the world server);
# MCAGENT_E2E_NETWORK_VERSIONS=1.12.2,26.1 runs others (1.20.2-1.21.4: see docs/network.md on mineflayer 4.25).
VERSIONS = os.environ.get("MCAGENT_E2E_NETWORK_VERSIONS", "1.20.1,1.21.11").split(",")


def _network(lobby: int, survival: int) -> dict[str, object]:
    return {
        "upstream": {"host": "127.0.0.1", "port": 25565},  # the default: servers replaces it
        "servers": {"lobby": f"127.0.0.1:{lobby}", "survival": f"127.0.0.1:{survival}"},
        "try": ["lobby", "survival"],
        "forced_hosts": {"localhost": ["survival"]},
    }


@pytest.mark.parametrize("version", VERSIONS)
def test_switch_both_ways_with_chat_then_failover_when_a_backend_is_killed(version: str, server_factory,
                                                                             bot_factory, proxy_factory) -> None:
    lobby = server_factory(version)
    survival = server_factory(version)
    proxy = proxy_factory(lobby.port, **_network(lobby.port, survival.port))
    bot = bot_factory(proxy.port, username="alice", version=version)
    lobby.wait_login("alice")  # the first of try
    # A client that typed another host name lands where forced_hosts says (the handshake's host is the
    # same on every version: checked once, to keep within the e2e time budget).
    bob = bot_factory(proxy.port, username="bob", version=version, host="localhost") \
        if version == VERSIONS[0] else None
    if bob is not None:
        survival.wait_login("bob")
        assert "bob" not in lobby.players()

    bot.chat("hello lobby")
    lobby.wait_chat("hello lobby", player="alice")

    mark = bot.mark()
    bot.chat("/server survival")
    survival.wait_login("alice")
    bot.wait_chat("[mcagent] You are on survival now.", since=mark)
    bot.chat("hello survival")
    survival.wait_chat("hello survival", player="alice")
    assert "hello survival" not in lobby.chats(player="alice")
    lobby.wait_left("alice")

    mark, lobby_mark = bot.mark(), lobby.mark()
    bot.chat("!server lobby")
    lobby.wait_login("alice", since=lobby_mark)
    bot.wait_chat("[mcagent] You are on lobby now.", since=mark)
    bot.chat("back in the lobby")
    lobby.wait_chat("back in the lobby", player="alice", since=lobby_mark)
    bot.chat("!ping")
    bot.wait_chat("[mcagent] Ping to the server", since=mark)

    # The lobby's process dies: the player is on survival again without a disconnect.
    mark, survival_mark = bot.mark(), survival.mark()
    assert lobby.proc is not None
    killed_at = time.monotonic()
    lobby.proc.kill()
    survival.wait_login("alice", since=survival_mark, timeout=10)
    bot.wait_chat("[mcagent] You are on survival now.", since=mark, timeout=10)
    failover_seconds = time.monotonic() - killed_at
    said = " ".join(bot.chats(since=mark))
    assert "lobby lost the connection" in said and "moving you to survival" in said
    assert bob is None or bob.find("kicked") is None  # the survival player never noticed
    bot.chat("after the failover")
    survival.wait_chat("after the failover", player="alice", since=survival_mark)
    assert bot.find("kicked", since=mark) is None and bot.find("end", since=mark) is None
    print(f"failover took {failover_seconds:.2f} s from SIGKILL to the welcome on survival")
    assert "moved alice to survival" in proxy.log_text()
