"""The survival test server's rules, checked first by a client nobody here wrote (issue 22).

mineflayer 4.39 on its own (``peers/survival_bot.js``: ``bot.dig``, ``bot.consume``,
``bot.attack``, walking into drops) on ``peers/world.js --rules survival``: a log dug by hand
and a stone with a wooden pickaxe drop what vanilla drops and are picked up, an iron ore dug
with a wooden pickaxe drops nothing, a bread eaten fills the food bar by 5, a cow killed
drops raw beef. mineflayer times its digs as vanilla's client does, so not one of its digs may
be refused or delayed. Then what no vanilla client sends (a dig finished in the tick it
started: delayed until the dig time has passed, as vanilla does) and what hurts a player who
stands still (a fall, lava, a zombie at night), each seen on the server and by mineflayer.
"""
from __future__ import annotations


from typing import Any

import pytest

from tests.e2e.item_names import item_name
from tests.e2e.peers import PeerPool, WorldServer
from tests.e2e.survival_bot import STEPS, SurvivalBot, scene

pytestmark = pytest.mark.e2e

VERSIONS = ("1.21.11", "1.20.1", "26.1", "1.12.2")
PLAYER = "survivor"


def _server(peer_pool: PeerPool, version: str) -> WorldServer:
    return peer_pool.world(version, gamemode="survival", extra_args=("--rules", "survival", "--mobs", "false"))


def _bot(peer_pool: PeerPool, server: WorldServer, version: str, scenario: str, seconds: int = 60) -> SurvivalBot:
    assert server.port is not None
    bot = SurvivalBot()
    peer_pool.peers.append(bot)
    bot.start(server.port, version, scenario, seconds=seconds)
    server.wait_login(PLAYER)
    bot.wait_spawned()
    return bot


@pytest.mark.parametrize("version", VERSIONS)
def test_mineflayer_digs_picks_up_eats_and_hunts_by_the_servers_rules(peer_pool: PeerPool, version: str) -> None:
    server = _server(peer_pool, version)
    bot = _bot(peer_pool, server, version, "live")
    mark = server.mark()
    scene(server)
    done = bot.done()
    steps = bot.steps()
    assert done["ok"], (done, steps, server.tail())
    assert [name for name in STEPS if steps.get(name, {}).get("ok")] == list(STEPS)
    # The bot's report and the server's events come through two pipes; the beef picked up is
    # the server's last event of the scene, so wait for it before reading the others.
    server.wait_for("picked_up", since=mark, player=PLAYER, item="beef")
    dug = [e["block"] for e in server.find_all("dug", since=mark, player=PLAYER)]
    assert dug == [item_name(version, "oak_log"), "stone", "iron_ore"]
    assert server.find_all("dig_refused", since=mark) == [] and server.find_all("dig_delayed", since=mark) == []
    picked = {e["item"] for e in server.find_all("picked_up", since=mark, player=PLAYER)}
    log, raw_iron = item_name(version, "oak_log"), item_name(version, "raw_iron")   # 1.12: log, iron_ore
    assert {log, "cobblestone", "beef"} <= picked and raw_iron not in picked
    assert [e["item"] for e in server.find_all("ate", since=mark, player=PLAYER)] == ["bread"]
    assert [e["kind"] for e in server.find_all("mob_died", since=mark)] == ["cow"]
    held = server.inventory(PLAYER)
    assert held.get(log) == 1 and held.get("cobblestone") == 1 and held.get("beef", 0) >= 1
    assert raw_iron not in held and "bread" not in held
    assert done["food"] == 15


@pytest.mark.parametrize("version", ["1.20.1", "26.1", "1.12.2"])
def test_a_dig_finished_too_early_is_delayed_until_its_time(peer_pool: PeerPool, version: str) -> None:
    server = _server(peer_pool, version)
    bot = _bot(peer_pool, server, version, "fast")
    mark = server.mark()
    server.run("/setblock 2 5 0 stone")
    done = bot.done()
    assert done["ok"], (done, bot.steps(), server.tail())
    delayed = server.wait_for("dig_delayed", since=mark, player=PLAYER)
    assert delayed["progress"] < 0.7
    # Broken by the server itself, after the delay, with nothing dropped (stone by hand). The
    # server breaks it when the delay ends, which can be after the bot reports done.
    server.wait_for("dug", since=mark, player=PLAYER)
    assert [e["block"] for e in server.find_all("dug", since=mark, player=PLAYER)] == ["stone"]
    assert server.block(2, 5, 0) == "air"
    assert server.find_all("item_dropped", since=mark) == []


@pytest.mark.parametrize("version", ["1.21.11", "1.20.1", "1.12.2"])
def test_a_fall_a_zombie_and_lava_hurt_a_player_as_vanilla(peer_pool: PeerPool, version: str) -> None:
    server = _server(peer_pool, version)
    bot = _bot(peer_pool, server, version, "idle", seconds=40)
    mark = server.mark()

    def hurt_by(cause: str) -> dict[str, Any]:
        return server.wait_for("hurt", since=mark, player=PLAYER, cause=cause, timeout=15.0)

    server.request("food", player=PLAYER, food=10, saturation=0)     # no healing in between (food < 18)
    # A fall of 10 blocks: 7 damage (the first 3 blocks are free).
    server.run(f"/tp {PLAYER} 0.5 15 0.5")
    fall = hurt_by("fall")
    assert (fall["amount"], fall["health"]) == (7, 13)
    bot.wait_for(lambda e: e.get("event") == "health" and e["health"] == 13, timeout=10.0)
    # A zombie 2 blocks off walks up and hits: 3 on normal.
    server.run("/summon zombie 2.5 5 0.5")
    zombie = hurt_by("zombie")
    assert (zombie["amount"], zombie["health"]) == (3, 10)
    # Lava: 4, or within half a second of the zombie's last hit only the excess over it (vanilla's
    # invulnerable time); the player burns on.
    server.run("/setblock 0 5 0 lava")
    lava = hurt_by("lava")
    assert lava["amount"] in (4, 1), lava
    bot.wait_for(lambda e: e.get("event") == "health" and e["health"] <= 6, timeout=10.0)
