"""``!get chest``, ``!get mutton``, ``!get white_wool``, ``!get 16 torch`` and ``!get iron_sword``
end to end: a goal's own recipe (minecraft-data's 3x3 shape), a goal's hunt (a sheep of the
exported world) and its shearing, a count, and a goal past the furnace, through the proxy.

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

import attrs

from tests.e2e.ladder import OPTIONS, PLAYER, SERVER_TROUBLE, STALE_ONLY, VIEW_DISTANCE, export_world, join, \
    start_server
from tests.e2e.peers import PeerPool

pytestmark = pytest.mark.e2e

SEED = 0
DEADLINE_S = 45.0       # the simulator needs ~230 ticks (12 s at 20 Hz); the rest is room for a loaded CI
IRON_DEADLINE_S = 240.0  # 16 torch and iron_sword: the simulator needs ~1,900 and ~1,500 ticks (95 and 75 s at 20 Hz)
PLAN_WAIT_S = 30.0  # "getting … in N steps": a wait, not a bound (a flake at 10 s under CI load)
FARM_DEADLINE_S = 75.0  # bread by farming: ~35 s here (wood for the table, the crops' sped-up growth)


def _get(tmp_path: Path, peer_pool: PeerPool, proxy_factory: Any, item: str, steps: str,
         give: str | None = None, count: int = 1, deadline: float = DEADLINE_S) -> tuple[Any, Any, int, float]:
    """Seed 0's world on 26.1 through the proxy; the player (given ``give`` first: "item" or
    "item N") says ``!get [COUNT] ITEM`` and the autopilot hands back with them.
    (server, bot, the server's mark, seconds the goal took)"""
    version = "26.1"
    server = start_server(peer_pool, version, export_world(SEED, tmp_path))
    assert server.port is not None
    proxy = proxy_factory(server.port)
    bot = join(peer_pool, proxy, version)
    server.wait_login(PLAYER)
    server_mark, mark = server.mark(), bot.mark()
    if give is not None:
        name, _, amount = give.partition(" ")
        server.run(f"/give {PLAYER} {name} {amount or 1}")
        bot.wait_items(name, int(amount or 1))  # planned with it: under load the !get could overtake the give
    label = item if count == 1 else f"{count} {item}"
    bot.chat(f"!get {label}")
    # The first plan of a process builds the planner over every recipe: seconds on a loaded CI machine.
    bot.wait_chat(f"getting {label} in {steps}", since=mark, timeout=PLAN_WAIT_S)
    started = time.monotonic()
    bot.wait_chat(f"Autopilot finished: {label} in hand", since=mark, timeout=deadline)
    seconds = time.monotonic() - started
    assert server.inventory(PLAYER).get(item, 0) >= count, server.inventory(PLAYER)
    return server, bot, server_mark, seconds


def _trouble(server: Any, since: int) -> dict[str, int]:
    """What the server refused or corrected for the player (stale-only resyncs aside)."""
    return {kind: n for kind in SERVER_TROUBLE
            if (n := len([e for e in server.find_all(kind, since=since, player=PLAYER)
                          if not (kind in STALE_ONLY and e.get("reason") == STALE_ONLY[kind])]))}


def test_get_chest_through_the_proxy(tmp_path: Path, peer_pool: PeerPool, proxy_factory: Any) -> None:
    server, bot, server_mark, seconds = _get(tmp_path, peer_pool, proxy_factory, "chest", "4 steps")
    assert server.deaths(PLAYER, since=server_mark) == []
    assert _trouble(server, server_mark) == {}, seconds
    assert "milestone 4/4 reached (chest)" in " ".join(bot.chats())


def test_get_16_torch_from_nothing_makes_charcoal_for_four_crafts(tmp_path: Path, peer_pool: PeerPool,
                                                                  proxy_factory: Any) -> None:
    """A count: sixteen torches are four crafts of four (minecraft-data's recipe gives 4); the coal
    for them is charcoal, smelted from logs in a furnace of the player's own cobblestone."""
    server, bot, server_mark, seconds = _get(tmp_path, peer_pool, proxy_factory, "torch", "",
                                             count=16, deadline=IRON_DEADLINE_S)
    assert server.deaths(PLAYER, since=server_mark) == []
    assert _trouble(server, server_mark) == {}, seconds


def test_get_torch_with_coal_carried_burns_no_logs(tmp_path: Path, peer_pool: PeerPool,
                                                   proxy_factory: Any) -> None:
    """Vanilla's torch takes coal or charcoal (#coals): the coal the player carries makes them, so
    the plan is wood, planks, sticks and the craft: no furnace, no charcoal."""
    server, _, server_mark, _ = _get(tmp_path, peer_pool, proxy_factory, "torch", "4 steps", give="coal 2",
                                     count=4)
    held = server.inventory(PLAYER)
    assert held.get("coal", 0) == 1 and "furnace" not in held and "charcoal" not in held, held
    assert server.deaths(PLAYER, since=server_mark) == []
    assert _trouble(server, server_mark) == {}


def test_get_iron_sword_from_nothing_mines_smelts_and_crafts_it(tmp_path: Path, peer_pool: PeerPool,
                                                                proxy_factory: Any) -> None:
    """Past the furnace from an empty inventory: wood, a table, a wooden then a stone pickaxe, iron
    ore dug by the server's rules, smelted in a placed furnace, the sword crafted at the table."""
    server, bot, server_mark, seconds = _get(tmp_path, peer_pool, proxy_factory, "iron_sword", "",
                                             deadline=IRON_DEADLINE_S)
    assert server.deaths(PLAYER, since=server_mark) == []
    assert _trouble(server, server_mark) == {}, seconds


def test_get_mutton_hunts_a_sheep_of_the_exported_world(tmp_path: Path, peer_pool: PeerPool,
                                                        proxy_factory: Any) -> None:
    """The sheep of the simulator's world come with its file: the goal's hunt finds one on the real
    stack, the server's sheep dies and drops its mutton (wool is shorn, with shears: below)."""
    server, _, server_mark, _ = _get(tmp_path, peer_pool, proxy_factory, "mutton", "1 step")
    died = server.wait_for("mob_died", since=server_mark, kind="sheep")
    assert [e["kind"] for e in server.find_all("mob_died", since=server_mark)] == ["sheep"], died
    assert server.deaths(PLAYER, since=server_mark) == []
    assert _trouble(server, server_mark) == {}


def test_get_white_wool_shears_the_sheep_when_shears_are_carried(tmp_path: Path, peer_pool: PeerPool,
                                                                 proxy_factory: Any) -> None:
    """With shears, the goal's right click shears the sheep (use_entity with 26.1's lpVec3 point, from
    the proxy's codec): the server's sheep is shorn, left standing (the proxy reads its shorn flag
    from the sheep's metadata), and its 1-3 wool handed back."""
    server, _, server_mark, _ = _get(tmp_path, peer_pool, proxy_factory, "white_wool", "1 step", give="shears")
    sheared = server.wait_for("sheared", since=server_mark, player=PLAYER)
    assert 1 <= sheared["count"] <= 3
    assert len(server.find_all("sheared", since=server_mark)) == 1
    assert server.find_all("mob_died", since=server_mark) == []
    assert server.find_all("shear_refused", since=server_mark, reason="not_shears") == []
    assert server.deaths(PLAYER, since=server_mark) == []
    assert _trouble(server, server_mark) == {}


def test_get_bread_plants_the_seeds_in_hand_where_no_wheat_grows(tmp_path: Path, peer_pool: PeerPool,
                                                                  proxy_factory: Any) -> None:
    """Seed 0's world without its grown farm; the player holds a hoe and three seeds: the autopilot
    tills the ground by the pond and plants them (farm(wheat)), waits while they grow (the server's
    random ticks sped up, vanilla's gamerule at 2048: seconds, not a day), picks the ripe wheat and
    bakes the bread at a table of its own."""
    version = "26.1"
    world = export_world(SEED, tmp_path, attrs.evolve(OPTIONS, farm=False))
    server = peer_pool.world(version, gamemode="survival", view_distance=VIEW_DISTANCE,
                             extra_args=("--rules", "survival", "--world", str(world), "--random-tick-speed", "2048"))
    assert server.port is not None
    proxy = proxy_factory(server.port)
    bot = join(peer_pool, proxy, version)
    server.wait_login(PLAYER)
    server_mark, mark = server.mark(), bot.mark()
    server.run(f"/give {PLAYER} wooden_hoe 1")
    server.run(f"/give {PLAYER} wheat_seeds 3")
    bot.wait_items("wheat_seeds", 3)
    bot.chat("!get bread")
    bot.wait_chat("getting bread in", since=mark)
    bot.wait_chat("Autopilot finished: bread in hand", since=mark, timeout=FARM_DEADLINE_S)
    assert server.inventory(PLAYER).get("bread", 0) >= 1, server.inventory(PLAYER)
    server.wait_for("crop_grew", since=server_mark, age=7)
    planted = server.find_all("planted", since=server_mark, player=PLAYER)
    tilled = server.find_all("tilled", since=server_mark, player=PLAYER)
    # The three seeds, and the seeds each ripe crop gives back while the others still grow (replanted).
    assert len(planted) >= 3 and len(tilled) >= 3, (planted, tilled)
    assert server.deaths(PLAYER, since=server_mark) == []
    assert _trouble(server, server_mark) == {}
