"""The whole ladder end to end: from an empty inventory to the iron pickaxe through the proxy (issue 22).

Seed 0's world is exported from the simulator and loaded by the survival-rules test server
(``peers/world.js --rules survival --world FILE``); a mineflayer player who stands still
hands over with ``!autopilot on``. The autopilot (the built-in heuristic, as a player gets it)
must reach every milestone, each announced in chat, with the iron pickaxe in the player's
inventory on the server, without a death, a dig the server refused or delayed, or a window
click it contradicted; the test then says ``!stop``, as the simulator stops at the pickaxe
(the autopilot would go on stocking food before its own hand-back: minutes more). CI runs the newest version; ``bench/sim_vs_real.py --version V``
runs the others and more seeds (figures in docs/autopilot.md).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.decision.ladder import NAMES
from tests.e2e.ladder import PLAYER, export_world, join, real_ladder, sim_ladder, start_server
from tests.e2e.peers import PeerPool

pytestmark = pytest.mark.e2e

SEED = 0
DEADLINE_S = 300.0      # the simulator needs ~1,600 ticks (80 s at 20 Hz); the rest is room for a loaded CI


@pytest.mark.parametrize("version", ["26.1"])
def test_the_autopilot_climbs_from_nothing_to_the_iron_pickaxe_on_a_real_stack(
        version: str, tmp_path: Path, peer_pool: PeerPool, proxy_factory: Any) -> None:
    sim = sim_ladder(SEED, 12_000)
    assert sim.iron_pickaxe is not None          # the same seed in the simulator, for the comparison
    world = export_world(SEED, tmp_path)
    server = start_server(peer_pool, version, world)
    assert server.port is not None
    log_dir = tmp_path / "logs"
    proxy = proxy_factory(server.port, autopilot={"log_dir": str(log_dir)})
    bot = join(peer_pool, proxy, version)
    server.wait_login(PLAYER)
    mark = bot.mark()
    real = real_ladder(SEED, server, proxy, bot, log_dir, DEADLINE_S)
    report = (real.as_json(), sim.as_json())
    assert real.ended == "iron pickaxe", report
    assert set(real.milestones) == set(NAMES), report
    assert real.inventory.get("iron_pickaxe", 0) >= 1, report
    assert real.deaths == [], report
    assert real.trouble == {}, report
    # Every milestone was announced to the player.
    chats = " ".join(bot.chats(since=mark))
    assert "milestone 9/9" in chats, chats[-2000:]
