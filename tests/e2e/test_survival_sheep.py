"""Sheep on the survival test server, checked first by a client nobody here wrote.

mineflayer 4.39 on its own (``peers/survival_bot.js --scenario shear``): with shears in hand,
``bot.activateEntity`` on a sheep (mineflayer's own right click: use_entity "interact_at" then
"interact" until 1.21.x, the one use_entity of 26.1) shears it as vanilla does: 1-3 white wool
dropped and picked up, the sheep alive and shorn (its metadata's wool byte, as mineflayer reads it), a second right click gives nothing (on stone,
where it cannot graze its wool back).
"""
from __future__ import annotations

import pytest

from tests.e2e.item_names import item_name
from tests.e2e.peers import PeerPool
from tests.e2e.survival_bot import SurvivalBot

pytestmark = pytest.mark.e2e

PLAYER = "survivor"


@pytest.mark.parametrize("version", ["26.1", "1.20.1", "1.12.2"])
def test_mineflayer_shears_a_sheep_for_one_to_three_wool_once(peer_pool: PeerPool, version: str) -> None:
    server = peer_pool.world(version, gamemode="survival", extra_args=("--rules", "survival", "--mobs", "false"))
    assert server.port is not None
    bot = SurvivalBot()
    peer_pool.peers.append(bot)
    bot.start(server.port, version, "shear")
    server.wait_login(PLAYER)
    bot.wait_spawned()
    mark = server.mark()
    # A stone yard: a shorn sheep grows its wool back only by eating grass (once in 1000 ticks), so on
    # stone it stays shorn and the second right click meets a shorn sheep every time.
    server.run("/fill -6 4 -6 6 4 6 stone")
    server.run(f"/give {PLAYER} shears 1")
    server.run("/summon sheep 2.5 5 0.5")
    done = bot.done()
    steps = bot.steps()
    assert done["ok"], (done, steps, server.tail())
    wool = item_name(version, "white_wool")
    sheared = server.wait_for("sheared", since=mark, player=PLAYER)
    assert 1 <= sheared["count"] <= 3
    refused = server.wait_for("shear_refused", since=mark, player=PLAYER)
    assert refused["reason"] == "shorn" and refused["entity"] == sheared["entity"]
    assert len(server.find_all("sheared", since=mark)) == 1
    assert server.find_all("mob_died", since=mark) == []
    assert steps["shear"]["wool"] == sheared["count"] == server.inventory(PLAYER).get(wool)
    assert steps["shear"]["shornFlag"] is True        # the wool byte, as mineflayer reads the metadata
    (sheep,) = [e for e in server.request("entities")["entities"] if e["kind"] == "sheep"]
    assert sheep["shorn"] is True and server.find_all("wool_grown", since=mark) == []
