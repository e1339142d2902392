"""Farming on the survival test server, checked first by a client nobody here wrote.

mineflayer 4.39 on its own (``peers/survival_bot.js --scenario farm``): its ``bot.activateBlock``
with a wooden hoe on grass makes farmland, with wheat seeds on the farmland plants wheat (one seed
spent), the crop grows to age 7 on the server's random ticks (sped up: random tick speed
2048, vanilla's gamerule, so the seven stages take seconds, not a day) as mineflayer reads the block
changes, and the ripe crop dug drops a wheat and 1-4 seeds.
"""
from __future__ import annotations

import pytest

from tests.e2e.peers import PeerPool
from tests.e2e.survival_bot import SurvivalBot

pytestmark = pytest.mark.e2e

PLAYER = "survivor"


def test_mineflayer_tills_plants_and_harvests_a_wheat_crop(peer_pool: PeerPool) -> None:
    version = "26.1"
    server = peer_pool.world(version, gamemode="survival",
                             extra_args=("--rules", "survival", "--mobs", "false", "--random-tick-speed", "2048"))
    assert server.port is not None
    bot = SurvivalBot()
    peer_pool.peers.append(bot)
    bot.start(server.port, version, "farm")
    server.wait_login(PLAYER)
    bot.wait_spawned()
    mark = server.mark()
    # Grass round the spawn, water two blocks off (moist farmland: within 4 of water).
    server.run("/fill -6 4 -6 6 4 6 grass_block")
    server.run("/fill -6 5 -6 6 6 6 air")
    server.run("/setblock 0 4 2 water")
    server.run(f"/give {PLAYER} wooden_hoe 1")
    server.run(f"/give {PLAYER} wheat_seeds 3")
    done = bot.done()
    steps = bot.steps()
    assert done["ok"], (done, steps, server.tail())
    tilled = server.wait_for("tilled", since=mark, player=PLAYER)
    planted = server.wait_for("planted", since=mark, player=PLAYER)
    assert (planted["x"], planted["y"] - 1, planted["z"]) == (tilled["x"], tilled["y"], tilled["z"])
    assert steps["plant"]["seeds"] == 2     # planted at age 0 (its event); sped up, it may have grown since
    grew = [e["age"] for e in server.find_all("crop_grew", since=mark)]
    assert grew == list(range(1, 8))
    assert steps["harvest"]["wheat"] == 1 and 3 <= steps["harvest"]["seeds"] <= 6
