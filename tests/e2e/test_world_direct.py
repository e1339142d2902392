"""The world server itself, with no proxy: mineflayer 4.39 on Node 22 straight on
peers/world.js, for the versions flying-squid lacks.

If these fail, the proxy's e2e tests on these versions cannot be trusted; if these pass
and a proxy test fails, the proxy is at fault.
"""
from __future__ import annotations

import math
import os
import time
from typing import Callable

import pytest

from tests.e2e.peers import Bot, WorldServer

DEFAULT_VERSIONS = ["1.21.5", "1.21.8", "1.21.11", "26.1"]
# MCAGENT_E2E_VERSIONS="1.21.6,1.21.10" widens (or narrows) the run.
_env = os.environ.get("MCAGENT_E2E_VERSIONS", "").strip()
VERSIONS = [v.strip() for v in _env.split(",") if v.strip()] or DEFAULT_VERSIONS


def _until(check: Callable[[], bool], timeout: float = 15.0, what: str = "condition") -> None:
    """Wait for ``check()`` to hold; the loaded-machine-friendly way to wait on a peer."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout} s"
        time.sleep(0.1)


@pytest.mark.parametrize("version", VERSIONS)
def test_login_chat_walk_and_two_players_see_each_other(version: str, world_factory, bot_factory) -> None:
    server: WorldServer = world_factory(version)
    alice: Bot = bot_factory(server, username="alice")
    server.wait_login("alice")
    assert alice.spawn_position is not None and alice.spawn_position.y == pytest.approx(5.0)
    assert server.server_position("alice").distance(alice.spawn_position) < 1.0

    text = 'héllo wörld 你好 & <b> "q" {x:1}'
    alice.chat(text)
    assert server.wait_chat(text, player="alice")["message"] == text
    alice.wait_chat(f"<alice> {text}")      # chat is broadcast back
    server.say("welcome from the world server")
    alice.wait_chat("welcome from the world server")

    bob: Bot = bot_factory(server, username="bob")
    server.wait_login("bob")
    assert sorted(server.players()) == ["alice", "bob"]
    _until(lambda: "bob" in alice.players_seen() and "alice" in bob.players_seen(), what="both see each other")

    start = server.server_position("alice")
    walked = alice.walk(5)
    assert walked["ok"], walked
    end = server.server_position("alice")
    assert end.horizontal_distance(start) >= 4.0
    assert end.horizontal_distance((walked["x"], walked["y"], walked["z"])) < 1.0
    # bob sees alice where the server has her: moves are relayed.
    _until(lambda: bob.players_seen().get("alice") is not None
           and bob.players_seen()["alice"].horizontal_distance(end) < 1.0, what="bob sees alice's walk")

    bob.quit()
    server.wait_left("bob")
    _until(lambda: "bob" not in alice.players_seen(), what="bob's entity removed")
    assert server.find("error") is None


@pytest.mark.parametrize("version", VERSIONS)
def test_setblock_dig_lava_kill_and_respawn(version: str, world_factory, bot_factory) -> None:
    server: WorldServer = world_factory(version, gamemode="survival")
    bot: Bot = bot_factory(server, username="miner")
    server.wait_login("miner")
    pos = server.server_position("miner")
    x, y, z = math.floor(pos.x), math.floor(pos.y), math.floor(pos.z)

    # A log next to the player: dug the way a survival client digs, it lands in the inventory.
    server.run(f"/setblock {x + 2} {y} {z} oak_log")
    assert server.block(x + 2, y, z) == "oak_log"
    _until(lambda: bot.block_at(x + 2, y, z) == "oak_log", what="the bot sees the log")
    assert bot.dig(x + 2, y, z)["name"] == "oak_log"
    _until(lambda: server.block(x + 2, y, z) == "air", what="the log broken")
    _until(lambda: server.inventory("miner").get("oak_log", 0) == 1, what="the log in the inventory")

    # Lava hurts a survival player; the client is told (update_health).
    server.run(f"/fill {x + 6} {y - 1} {z - 1} {x + 8} {y - 1} {z + 1} lava")
    mark = server.mark()
    server.teleport("miner", x + 7.5, y - 1, z + 0.5)
    _until(lambda: server.health("miner") < 20, what="lava damage")
    _until(lambda: bot.status()["health"] < 20, what="the bot told of the damage")
    server.teleport("miner", x + 0.5, y, z + 0.5)

    # A fall of 10 blocks hurts too.
    before = server.health("miner")
    if before > 0:
        server.teleport("miner", x + 0.5, y + 10, z + 0.5)
        _until(lambda: server.health("miner") < before or bool(server.find("died", since=mark)), what="fall damage")

    # /kill, then the client's respawn request brings it back at full health.
    server.run("/kill miner")
    server.wait_for("died", since=mark, player="miner")
    server.wait_for("respawn_requested", player="miner", timeout=15)
    _until(lambda: server.health("miner") == 20, what="respawned at full health")
    _until(lambda: bot.status()["health"] == 20, what="the bot respawned")
    assert server.server_position("miner").horizontal_distance((0.5, 5, 0.5)) < 1.0
    # Alive again: it walks and the server follows.
    start = server.server_position("miner")
    assert bot.walk(3)["ok"]
    assert server.server_position("miner").horizontal_distance(start) >= 2.0
    assert server.find("error") is None


@pytest.mark.parametrize("version", VERSIONS[:1])
def test_commands_from_a_player(version: str, world_factory, bot_factory) -> None:
    server: WorldServer = world_factory(version)
    bot: Bot = bot_factory(server, username="op")
    server.wait_login("op")
    bot.chat("/gamemode survival")
    server.wait_for("command", player="op", command="gamemode survival")
    _until(lambda: bot.status()["gameMode"] == "survival", what="the game mode change")
    bot.chat("/tp 10 5 10")
    _until(lambda: server.server_position("op").horizontal_distance((10, 5, 10)) < 0.01, what="the teleport")
    _until(lambda: bot.position().horizontal_distance((10, 5, 10)) < 0.5, what="the bot moved")
    mark = bot.mark()
    bot.chat("/nosuchcommand")
    bot.wait_chat("unknown command", since=mark)

