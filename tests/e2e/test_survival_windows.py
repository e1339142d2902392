"""The survival test server's windows, checked first by a client nobody here wrote (issue 22).

mineflayer 4.39 on its own (``peers/craft_bot.js``: ``bot.recipesFor`` + ``bot.craft``,
``bot.placeBlock``, ``bot.openFurnace``) crafts planks, sticks and a crafting table in its
own 2x2 grid, a wooden, a stone and an iron pickaxe and a furnace at the table, and smelts
raw iron, on ``peers/world.js --rules survival``. mineflayer's window code is what vanilla
servers accept, so a run with no contradicted click is the evidence that the server's click
rules are vanilla's before any mcagent test leans on them. Then two clicks no vanilla client
sends: one with a state id the server never gave (vanilla applies it and sends the whole
window) and one whose claim is false (the server corrects that slot).
"""
from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.item_names import item_counts, item_name
from tests.e2e.craft_bot import MATERIALS, STEPS, CraftBot
from tests.e2e.peers import PEERS_SRC, PeerPool, WorldServer, next_install_dir, node_executable

pytestmark = pytest.mark.e2e

VERSIONS = ("1.21.11", "1.20.1", "26.1", "1.12.2")


def _server(peer_pool: PeerPool, version: str) -> WorldServer:
    return peer_pool.world(version, gamemode="survival", extra_args=("--rules", "survival"))


def _quiet(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k != "_t"} for e in events]


@pytest.mark.parametrize("version", VERSIONS)
def test_mineflayer_crafts_and_smelts_to_an_iron_pickaxe(peer_pool: PeerPool, version: str) -> None:
    server = _server(peer_pool, version)
    assert server.port is not None
    bot = CraftBot()
    peer_pool.peers.append(bot)
    bot.start(server.port, version)
    server.wait_login("crafter")
    bot.wait_spawned()
    for name, count in MATERIALS.items():
        server.run(f"/give crafter {name} {count}")
    done = bot.done()
    steps = bot.steps()
    assert done["ok"], (done, steps, server.tail())
    assert [name for name in STEPS if steps.get(name, {}).get("ok")] == list(STEPS)
    held = server.inventory("crafter")
    # What the recipes leave: 12 planks - 4 (sticks) - 4 (table) - 3 (wooden pickaxe) = 1;
    # 8 sticks - 6; 11 cobblestone - 3 - 8; raw iron smelted; 2 + 1 ingots into the pickaxe.
    assert held == item_counts(version, {"oak_log": 1, "oak_planks": 1, "stick": 2, "wooden_pickaxe": 1,
                                         "stone_pickaxe": 1, "iron_pickaxe": 1}), held
    assert held == done["inventory"]       # the bot's own view agrees with the server's
    crafted = [e["item"] for e in server.find_all("crafted")]
    assert crafted.count(item_name(version, "oak_planks")) == 3 and crafted.count("stick") == 2, crafted
    assert {"crafting_table", "wooden_pickaxe", "stone_pickaxe", "furnace", "iron_pickaxe"} <= set(crafted)
    assert [e["item"] for e in server.find_all("smelted")] == ["iron_ingot"]
    assert {e["kind"] for e in server.find_all("window_opened")} == {"crafting", "furnace"}
    # No click of mineflayer's was contradicted. (Stale-id clicks do occur: mineflayer keeps one
    # state id for all windows where vanilla keeps one per window, so its first click in the
    # inventory after closing a table carries the table's id; vanilla, like this server,
    # applies such a click and resends the window.)
    contradicted = [e for e in server.find_all("click_resync") if e["reason"] != "state_id"]
    assert contradicted == [], _quiet(contradicted)


def _crafter_with_logs(peer_pool: PeerPool, version: str, scenario: str) -> tuple[WorldServer, CraftBot]:
    """A survival server and the craft bot running ``scenario`` with four oak logs given."""
    server = _server(peer_pool, version)
    assert server.port is not None
    bot = CraftBot()
    peer_pool.peers.append(bot)
    bot.spawn([node_executable(), str(PEERS_SRC / "craft_bot.js"), "--port", str(server.port), "--version",
               version, "--username", "crafter", "--scenario", scenario], peers_dir=next_install_dir())
    server.wait_login("crafter")
    bot.wait_spawned()
    server.run("/give crafter oak_log 4")
    return server, bot


@pytest.mark.parametrize("version", ("1.21.11", "1.20.1"))
def test_a_stale_click_is_applied_then_resynced_and_a_false_claim_corrected(
    peer_pool: PeerPool, version: str
) -> None:
    server, bot = _crafter_with_logs(peer_pool, version, "stale")
    assert bot.done()["ok"]
    server.wait_for("click_resync", reason="slots")   # the server's events come through their own pipe
    resyncs = _quiet(server.find_all("click_resync"))
    assert [(e["reason"], e["slots"]) for e in resyncs] == [("state_id", []), ("slots", [36])], resyncs
    # The stale pick-up was applied (vanilla applies clicks whatever their state id) and the
    # whole window sent; the put-back went through and the false claim was corrected.
    answers = [(e["event"], e.get("slot")) for e in bot.events if e["event"] in ("window_items", "set_slot")]
    assert answers[0] == ("window_items", None) and ("set_slot", 36) in answers[1:], answers
    window = server.request("window", player="crafter")
    assert window["cursor"] is None and window["slots"][36] == {"name": "oak_log", "count": 4}
    assert server.inventory("crafter") == {"oak_log": 4}


def test_a_refused_click_is_resynced_and_the_window_waits_for_the_confirmation_on_1_12_2(peer_pool: PeerPool) -> None:
    """Until 1.16 a click names the item it expects back and is answered with a transaction
    (vanilla 1.12's processClickWindow): a false one is applied, refused and the window sent;
    the window then takes no click until the client confirms the refusal."""
    server, bot = _crafter_with_logs(peer_pool, "1.12.2", "refused")
    assert bot.done()["ok"], bot.events
    # Action 1 refused, action 2 (before the confirmation) never answered, action 3 accepted.
    answers = [(e["action"], e["accepted"]) for e in bot.events if e["event"] == "transaction"]
    assert answers == [(1, False), (3, True)], answers
    assert any(e["event"] == "window_items" and e["windowId"] == 0 for e in bot.events)
    # The server's event log arrives on its own pipe: the bot may finish before it is read.
    server.wait_for("click_resync")
    resyncs = _quiet(server.find_all("click_resync"))
    assert [(e["reason"], e["slots"]) for e in resyncs] == [("slots", [36])], resyncs
    # The refused pick-up was applied (the logs on the cursor), the put-back after the
    # confirmation put them back.
    window = server.request("window", player="crafter")
    assert window["cursor"] is None and window["slots"][36] == {"name": "log", "count": 4}
