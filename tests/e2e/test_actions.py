"""Each autopilot action against the survival-rules test server, through the real proxy (issue 22).

A mineflayer player stands still (a human who handed over) on ``peers/world.js --rules
survival``; the proxy's autopilot asks a real local model service (``provider: api``) for every
decision, and that service answers from a script (``tests/e2e/model_policy.py``): the action
under test when it is legal, ``idle`` otherwise. What is checked is the server's own state: an
item crafted or smelted into the server's inventory, a block placed, a tree felled and a stone
mined (dug in the server's own dig time and the drop picked up from the ground), an item on the
ground collected, food eaten, a cow hunted, a zombie fled from, the player moved; and that the
server contradicted none of the proxy's window clicks and refused or delayed none of its digs.
"""
from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.e2e.model_policy import ScriptPolicy, Step
from tests.e2e.peers import Bot, PeerPool, WorldServer
from tests.llm_server import ScriptedModelServer

pytestmark = pytest.mark.e2e

PLAYER = "actor"
VERSIONS = ("26.1", "1.20.1")


@pytest.fixture
def model(monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedModelServer]:
    # The proxy refuses to call a model service without a key (it then falls back to its own
    # heuristic, which would do the work instead of the script): the proxy process inherits it.
    monkeypatch.setenv("DEEPSEEK_API_KEY", "sk-actions-e2e-0123456789abcdef")
    with ScriptedModelServer() as server:
        yield server


class Stage:
    """The world server, the proxy with the scripted autopilot, and the player standing at the spawn."""

    def __init__(self, pool: PeerPool, proxy_factory: Callable[..., Any], model: ScriptedModelServer,
                 version: str, tmp_path: Path, extra_args: tuple[str, ...] = ()) -> None:
        self.server: WorldServer = pool.world(version, gamemode="survival", view_distance=4,
                                              extra_args=("--rules", "survival", *extra_args))
        assert self.server.port is not None
        self.model = model
        self.log_dir = tmp_path
        # One model call per decision: the default of 6 a minute per player would send most of
        # the script's decisions to the heuristic fallback ("limit: rate").
        self.proxy = proxy_factory(self.server.port,
                                   llm={"base_url": model.base_url, "limits": {"requests_per_minute": 600}},
                                   autopilot={"provider": "api", "log_dir": str(tmp_path)})
        self.bot: Bot = pool.bot(self.proxy.port, username=PLAYER, version=version)
        self.server.wait_login(PLAYER)
        time.sleep(1.0)      # the chunks around the player arrive
        pos = self.server.server_position(PLAYER)
        self.x, self.y, self.z = math.floor(pos.x), math.floor(pos.y), math.floor(pos.z)

    def give(self, **items: int) -> None:
        for name, count in items.items():
            self.server.run(f"/give {PLAYER} {name} {count}")

    def play(self, steps: Sequence[Step], done: Callable[[], bool], timeout: float = 60.0) -> ScriptPolicy:
        """Run the script until ``done()`` holds (or the timeout), then stop the autopilot."""
        policy = ScriptPolicy(steps)
        self.model.default = policy
        mark = self.bot.mark()
        self.bot.chat("!autopilot on")
        self.bot.wait_chat("Autopilot on", since=mark)
        deadline = time.monotonic() + timeout
        ok = False
        while time.monotonic() < deadline and not ok:
            time.sleep(0.5)
            ok = done()
        self.bot.chat("!stop")
        assert ok, (f"not done after {timeout} s: chose {policy.chosen[:12]}", self.server.inventory(PLAYER),
                    json.dumps(policy.states[-1:])[:1500])
        # The script did it, not the autopilot's own heuristic (its fallback when a model call
        # fails): every decision of the episode came from the model service.
        sources = {d["decision"]["source"] for d in self.decisions()}
        assert sources == {"api"}, [(d["decision"]["choice"], d["decision"]["source"], d["decision"].get("reason")) for d in self.decisions()]
        return policy

    def decisions(self, timeout: float = 10.0) -> list[dict[str, Any]]:
        """The episode's applied decisions, once the proxy has written its log (at the hand-back)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = sorted(self.log_dir.glob(f"{PLAYER}/*-episode1/episode_events.json"))
            if found:
                lines = (found[0].parent / "decision_log.jsonl").read_text().splitlines()
                records = [json.loads(line) for line in lines]
                return [r for r in records if r.get("kind") == "decision" and r.get("applied")]
            time.sleep(0.2)
        raise AssertionError("the episode's log was never written")

    def contradicted_clicks(self) -> list[dict[str, Any]]:
        return [e for e in self.server.find_all("click_resync", player=PLAYER) if e["reason"] != "state_id"]


@pytest.mark.parametrize("version", VERSIONS)
def test_craft_and_place_block_make_a_wooden_pickaxe_at_a_placed_table(
        version: str, tmp_path: Path, peer_pool: PeerPool, proxy_factory: Any, model: ScriptedModelServer) -> None:
    stage = Stage(peer_pool, proxy_factory, model, version, tmp_path)
    stage.give(oak_log=3)      # 12 planks: a table (4), sticks (2), the pickaxe (3)
    server = stage.server

    def has_pickaxe() -> bool:
        return server.inventory(PLAYER).get("wooden_pickaxe", 0) == 1

    stage.play([("craft", ["oak_planks"]), ("craft", ["oak_planks"]), ("craft", ["oak_planks"]),
                ("craft", ["crafting_table"]),
                ("place_block", ["crafting_table"]), ("craft", ["stick"]), ("craft", ["wooden_pickaxe"])],
               has_pickaxe, timeout=90)
    crafted = [e["item"] for e in server.find_all("crafted", player=PLAYER)]
    assert {"oak_planks", "crafting_table", "stick", "wooden_pickaxe"} <= set(crafted), crafted
    # The table stands in the world, and the pickaxe was made at it (a 3x3 recipe).
    tables = [e for e in server.find_all("window_opened", player=PLAYER) if e["kind"] == "crafting"]
    assert tables and server.block(tables[0]["x"], tables[0]["y"], tables[0]["z"]) == "crafting_table"
    assert stage.contradicted_clicks() == []


@pytest.mark.parametrize("version", VERSIONS)
def test_smelt_turns_raw_iron_into_ingots_in_a_placed_furnace(
        version: str, tmp_path: Path, peer_pool: PeerPool, proxy_factory: Any, model: ScriptedModelServer) -> None:
    stage = Stage(peer_pool, proxy_factory, model, version, tmp_path)
    stage.give(furnace=1, raw_iron=2, coal=1)
    server = stage.server

    def ingots() -> bool:
        return server.inventory(PLAYER).get("iron_ingot", 0) >= 2

    # smelt(iron_ingot) loads the furnace; while a job runs the same choice collects what is done.
    stage.play([("place_block", ["furnace"])] + [("smelt", ["iron_ingot"])] * 4, ingots, timeout=60)
    assert [e["item"] for e in server.find_all("smelted")] == ["iron_ingot", "iron_ingot"]
    assert "raw_iron" not in server.inventory(PLAYER)
    assert stage.contradicted_clicks() == []


@pytest.mark.parametrize("version", VERSIONS)
def test_go_to_walks_the_player_to_the_position_the_model_names(
        version: str, tmp_path: Path, peer_pool: PeerPool, proxy_factory: Any, model: ScriptedModelServer) -> None:
    stage = Stage(peer_pool, proxy_factory, model, version, tmp_path)
    server = stage.server
    # A wall across the straight line: the path goes round it.
    server.run(f"/fill {stage.x + 3} {stage.y} {stage.z - 2} {stage.x + 3} {stage.y + 1} {stage.z + 2} stone")
    target = (stage.x + 7, stage.y, stage.z + 1)

    def there() -> bool:
        pos = server.server_position(PLAYER)
        return math.dist((pos.x, pos.z), (target[0] + 0.5, target[2] + 0.5)) < 1.5

    stage.play([("go_to", list(target))], there, timeout=40)
    assert server.block(stage.x + 3, stage.y, stage.z) == "stone"       # round the wall, not through it


def test_explore_takes_the_player_somewhere_new(
        tmp_path: Path, peer_pool: PeerPool, proxy_factory: Any, model: ScriptedModelServer) -> None:
    stage = Stage(peer_pool, proxy_factory, model, "26.1", tmp_path)
    server = stage.server
    start = server.server_position(PLAYER)

    def away() -> bool:
        return server.server_position(PLAYER).horizontal_distance(start) >= 6.0

    stage.play([("explore", [])], away, timeout=40)


def _events(server: WorldServer, kind: str) -> list[dict[str, Any]]:
    return server.find_all(kind, player=PLAYER)


@pytest.mark.parametrize("version", VERSIONS)
def test_gather_wood_fells_a_tree_and_picks_up_the_logs(
        version: str, tmp_path: Path, peer_pool: PeerPool, proxy_factory: Any, model: ScriptedModelServer) -> None:
    stage = Stage(peer_pool, proxy_factory, model, version, tmp_path, ("--mobs", "false"))
    server = stage.server
    x, y, z = stage.x + 4, stage.y, stage.z + 1
    server.run(f"/fill {x} {y} {z} {x} {y + 3} {z} oak_log")
    server.run(f"/fill {x - 1} {y + 4} {z - 1} {x + 1} {y + 4} {z + 1} oak_leaves")

    def logs() -> bool:
        return server.inventory(PLAYER).get("oak_log", 0) >= 1

    stage.play([("gather_wood", [])], logs, timeout=40)
    dug = [e["block"] for e in _events(server, "dug")]
    assert "oak_log" in dug
    # Picked up from the ground (an item entity the player walked into), not handed over.
    assert "oak_log" in [e["item"] for e in _events(server, "picked_up")]
    assert _events(server, "dig_refused") == [] and _events(server, "dig_delayed") == []


@pytest.mark.parametrize("version", VERSIONS)
def test_mine_block_digs_stone_with_a_pickaxe_for_cobblestone(
        version: str, tmp_path: Path, peer_pool: PeerPool, proxy_factory: Any, model: ScriptedModelServer) -> None:
    stage = Stage(peer_pool, proxy_factory, model, version, tmp_path, ("--mobs", "false"))
    server = stage.server
    stage.give(wooden_pickaxe=1)
    server.run(f"/fill {stage.x + 3} {stage.y} {stage.z - 1} {stage.x + 3} {stage.y + 1} {stage.z + 1} stone")

    def cobblestone() -> bool:
        return server.inventory(PLAYER).get("cobblestone", 0) >= 1

    stage.play([("mine_block", ["stone"])], cobblestone, timeout=40)
    assert "stone" in [e["block"] for e in _events(server, "dug")]
    assert _events(server, "dig_refused") == [] and _events(server, "dig_delayed") == []


def test_collect_drops_walks_to_an_item_on_the_ground(
        tmp_path: Path, peer_pool: PeerPool, proxy_factory: Any, model: ScriptedModelServer) -> None:
    stage = Stage(peer_pool, proxy_factory, model, "26.1", tmp_path, ("--mobs", "false"))
    server = stage.server
    # Out of the pickup's reach (1.4 blocks) from where the player stands.
    server.request("spawn_item", name="iron_ingot", count=3, x=stage.x + 4.5, y=stage.y + 0.5, z=stage.z + 2.5)

    def picked() -> bool:
        return server.inventory(PLAYER).get("iron_ingot", 0) == 3

    stage.play([("collect_drops", [])], picked, timeout=30)


@pytest.mark.parametrize("version", VERSIONS)
def test_eat_fills_the_food_bar_from_the_inventory(
        version: str, tmp_path: Path, peer_pool: PeerPool, proxy_factory: Any, model: ScriptedModelServer) -> None:
    stage = Stage(peer_pool, proxy_factory, model, version, tmp_path, ("--mobs", "false"))
    server = stage.server
    stage.give(bread=2)
    server.request("food", player=PLAYER, food=12, saturation=0)

    def ate() -> bool:
        return bool(_events(server, "ate"))

    stage.play([("eat", [])], ate, timeout=30)
    assert _events(server, "ate")[0]["item"] == "bread" and _events(server, "ate")[0]["food"] == 17
    assert server.inventory(PLAYER).get("bread") == 1


def test_fight_hunts_a_cow_when_hungry(
        tmp_path: Path, peer_pool: PeerPool, proxy_factory: Any, model: ScriptedModelServer) -> None:
    stage = Stage(peer_pool, proxy_factory, model, "26.1", tmp_path, ("--mobs", "false"))
    server = stage.server
    stage.give(stone_sword=1)
    server.request("food", player=PLAYER, food=10, saturation=0)          # hungry, nothing to eat: a hunt
    server.run(f"/summon cow {stage.x + 6.5} {stage.y} {stage.z + 0.5}")

    def beef() -> bool:
        return server.inventory(PLAYER).get("beef", 0) >= 1

    # The hunt, then the drops (the autopilot's own order: fight, then collect_drops).
    stage.play([("fight", None), ("collect_drops", [])], beef, timeout=45)
    assert [e["kind"] for e in server.find_all("mob_died")] == ["cow"]
    assert all(e["by"] == PLAYER for e in server.find_all("mob_hurt"))


def test_flee_takes_the_player_away_from_a_zombie(
        tmp_path: Path, peer_pool: PeerPool, proxy_factory: Any, model: ScriptedModelServer) -> None:
    stage = Stage(peer_pool, proxy_factory, model, "26.1", tmp_path, ("--mobs", "false"))
    server = stage.server
    server.run("/time set night")          # by day a zombie burns
    server.run(f"/summon zombie {stage.x + 6.5} {stage.y} {stage.z + 0.5}")

    def far() -> bool:
        zombies = [e for e in server.request("entities")["entities"] if e["kind"] == "zombie"]
        pos = server.server_position(PLAYER)
        return bool(zombies) and math.dist((pos.x, pos.z), (zombies[0]["x"], zombies[0]["z"])) >= 12.0

    stage.play([("flee", [])], far, timeout=40)
    assert any(d["decision"]["choice"] == "flee" for d in stage.decisions())
