"""``!get chest`` and ``!get white_wool`` end to end: a goal's own recipe (minecraft-data's 3x3
shape) and a goal's hunt (a sheep of the exported world) through the proxy.

Seed 0's world, exported from the simulator, on the survival-rules test server (as
test_ladder.py). A mineflayer player who stands still says ``!get chest``; the autopilot must
gather logs, craft planks, a crafting table, place it and craft the chest at it with the window
clicks the proxy lays out from the goal's recipe, which the server checks with its own recipe
book (prismarine-recipe), and hand back with the chest in the inventory on the server, with no
death and nothing the server refused.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.ladder import PLAYER, SERVER_TROUBLE, STALE_ONLY, export_world, join, start_server
from tests.e2e.peers import PeerPool

pytestmark = pytest.mark.e2e

SEED = 0
DEADLINE_S = 45.0       # the simulator needs ~230 ticks (12 s at 20 Hz); the rest is room for a loaded CI


def test_get_chest_through_the_proxy(tmp_path: Path, peer_pool: PeerPool, proxy_factory: Any) -> None:
    version = "26.1"
    server = start_server(peer_pool, version, export_world(SEED, tmp_path))
    assert server.port is not None
    proxy = proxy_factory(server.port)
    bot = join(peer_pool, proxy, version)
    server.wait_login(PLAYER)
    server_mark, mark = server.mark(), bot.mark()
    bot.chat("!get chest")
    bot.wait_chat("getting chest in 4 steps", since=mark)
    started = time.monotonic()
    bot.wait_chat("Autopilot finished: chest in hand", since=mark, timeout=DEADLINE_S)
    seconds = time.monotonic() - started
    assert server.inventory(PLAYER).get("chest", 0) >= 1, server.inventory(PLAYER)
    assert server.deaths(PLAYER, since=server_mark) == []
    trouble = {kind: n for kind in SERVER_TROUBLE
               if (n := len([e for e in server.find_all(kind, since=server_mark, player=PLAYER)
                             if not (kind in STALE_ONLY and e.get("reason") == STALE_ONLY[kind])]))}
    assert trouble == {}, (trouble, seconds)
    assert "milestone 4/4 reached (chest)" in " ".join(bot.chats(since=mark))


def test_get_white_wool_hunts_a_sheep_of_the_exported_world(tmp_path: Path, peer_pool: PeerPool,
                                                            proxy_factory: Any) -> None:
    """The sheep of the simulator's world come with its file: the goal's hunt finds one on the real
    stack, the server's sheep dies and drops its wool (the simulator: 173 ticks on seed 0)."""
    version = "26.1"
    server = start_server(peer_pool, version, export_world(SEED, tmp_path))
    assert server.port is not None
    proxy = proxy_factory(server.port)
    bot = join(peer_pool, proxy, version)
    server.wait_login(PLAYER)
    server_mark, mark = server.mark(), bot.mark()
    bot.chat("!get white_wool")
    bot.wait_chat("getting white_wool in 1 step", since=mark)
    bot.wait_chat("Autopilot finished: white_wool in hand", since=mark, timeout=DEADLINE_S)
    assert server.inventory(PLAYER).get("white_wool", 0) >= 1, server.inventory(PLAYER)
    died = server.wait_for("mob_died", since=server_mark, kind="sheep")
    assert [e["kind"] for e in server.find_all("mob_died", since=server_mark)] == ["sheep"], died
    assert server.deaths(PLAYER, since=server_mark) == []
    trouble = {kind: n for kind in SERVER_TROUBLE
               if (n := len([e for e in server.find_all(kind, since=server_mark, player=PLAYER)
                             if not (kind in STALE_ONLY and e.get("reason") == STALE_ONLY[kind])]))}
    assert trouble == {}, trouble
