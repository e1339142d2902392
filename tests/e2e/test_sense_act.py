"""Sense and act through the real proxy: !goto around an obstacle, the kill switch, reflexes."""
from __future__ import annotations

import math
import time

import pytest

from tests.e2e.matrix import NEW_VERSIONS, proxied

VERSIONS = proxied("1.18.2", "1.12.2", *NEW_VERSIONS)


def _start(server_factory, bot_factory, proxy_factory, version: str, name: str, gamemode: str = "creative",
           **config):
    # View distance 4: the goal 30 blocks away lies in chunks the server has sent.
    server = server_factory(version, gamemode=gamemode, view_distance=4)
    proxy = proxy_factory(server.port, **config)
    bot = bot_factory(proxy.port, username=name, version=version)
    server.wait_login(name)
    time.sleep(1.0)  # let the chunks around the player arrive
    pos = server.server_position(name)
    return server, proxy, bot, pos


@pytest.mark.parametrize("version", VERSIONS)
def test_goto_walks_around_a_wall_and_arrives(version: str, server_factory, bot_factory, proxy_factory) -> None:
    server, proxy, bot, start = _start(server_factory, bot_factory, proxy_factory, version, "walker")
    x, y, z = math.floor(start.x), math.floor(start.y), math.floor(start.z)
    # A wall 11 wide and 3 high across the straight line, 10 blocks ahead.
    server.run(f"/fill {x - 5} {y} {z + 10} {x + 5} {y + 2} {z + 10} stone")
    mark = bot.mark()
    target = (x, y, z + 30)
    bot.chat(f"!goto {target[0]} {target[1]} {target[2]}")
    bot.wait_chat("Going to", since=mark)
    done = bot.wait_chat("goto", timeout=40, since=bot.mark())
    deadline = time.monotonic() + 40
    while "arrived" not in done["text"] and time.monotonic() < deadline:
        assert "no path" not in done["text"], done["text"]
        done = bot.wait_chat("goto", timeout=40, since=bot.mark())
    assert "arrived" in done["text"], done["text"]
    seen_by_bot = bot.position()
    seen_by_server = server.server_position("walker")
    goal = (target[0] + 0.5, target[1], target[2] + 0.5)
    assert seen_by_bot.horizontal_distance(goal) <= 1.0
    assert seen_by_server.horizontal_distance(goal) <= 1.0
    assert abs(seen_by_server.y - target[1]) <= 1.0
    # Control is back: the bot's own walking moves it again and the server agrees.
    before = server.server_position("walker")
    bot.walk(3)
    assert server.server_position("walker").horizontal_distance(before) >= 2.5


def test_sneak_twice_stops_a_goto(server_factory, bot_factory, proxy_factory) -> None:
    server, proxy, bot, start = _start(server_factory, bot_factory, proxy_factory, "1.18.2", "sneaker")
    x, y, z = math.floor(start.x), math.floor(start.y), math.floor(start.z)
    mark = bot.mark()
    bot.chat(f"!goto {x} {y} {z + 25}")
    bot.wait_chat("Going to", since=mark)
    time.sleep(1.0)
    bot.sneak_twice()
    bot.wait_chat("kill switch", since=mark, timeout=5)
    stopped_at = server.server_position("sneaker")
    time.sleep(1.0)
    assert server.server_position("sneaker").horizontal_distance(stopped_at) < 0.5
    assert stopped_at.horizontal_distance(start) < 24


@pytest.mark.parametrize("version", VERSIONS)
def test_lava_reflex_pulls_the_player_out(version: str, server_factory, bot_factory, proxy_factory) -> None:
    # Survival: in creative, lava does not hurt and the reflex rightly stays quiet.
    server, proxy, bot, start = _start(server_factory, bot_factory, proxy_factory, version, "hot", "survival")
    x, y, z = math.floor(start.x), math.floor(start.y), math.floor(start.z)
    # A 5x5 lava pool sunk one block into the floor, 8 blocks away.
    px, pz = x + 8, z
    server.run(f"/fill {px - 2} {y - 1} {pz - 2} {px + 2} {y - 1} {pz + 2} lava")
    mark = bot.mark()
    bot.chat("!reflex on")
    bot.wait_chat("Reflexes on", since=mark)
    time.sleep(0.5)
    mark = bot.mark()
    server.teleport("hot", px + 0.5, y - 1, pz + 0.5)
    pulled = bot.wait_chat("pulled you out of lava", since=mark, timeout=5)
    assert "[mcagent]" in pulled["text"]
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        pos = server.server_position("hot")
        if max(abs(pos.x - (px + 0.5)), abs(pos.z - (pz + 0.5))) > 3.0 and pos.y >= y - 0.01:
            break
        time.sleep(0.1)
    pos = server.server_position("hot")
    assert max(abs(pos.x - (px + 0.5)), abs(pos.z - (pz + 0.5))) > 2.5, pos
    assert server.block(math.floor(pos.x), math.floor(pos.y), math.floor(pos.z)) != "lava"
