"""The snapshots the pages show, built from a running proxy and its sessions without a browser."""
from __future__ import annotations

import json
import math

from engine import events as ev
from engine.world.blocks import BlockStore, BlockTable
from engine.world.snapshot import Vec3
from proxy.dashboard.overview import RateMeter, overview, to_json
from proxy.dashboard.player_view import decision_rows, player_view
from proxy.dashboard.terrain_map import Kind, kind_of, kinds_for, top_down
from proxy.server import TrafficTotals
from proxy.testing import Rig
from tests.proxy.dashboard.web_client import make
from tests.proxy.dashboard.world import VERSION, feed_world, flat_section


def test_the_map_shows_ground_water_and_lava_with_heights() -> None:
    table = BlockTable.for_version(VERSION)
    store = BlockStore()
    store.set_column(0, 0, [(4, flat_section(table, 4, "grass_block", pool=(3, 5), lava=(12, 2)))], replace=True)
    store.set_block(6, 70, 6, table.state_for("oak_log"))      # a post two blocks over the ground
    m = top_down(store, table, Vec3(8.5, 69.0, 8.5), 10)
    assert (m.x0, m.z0, m.size, m.feet_y) == (-2, -2, 21, 69)
    assert m.at(8, 8) == (Kind.GRASS, -1)         # grass at 68 under feet at 69
    assert m.at(3, 5) == (Kind.WATER, -1)
    assert m.at(12, 2) == (Kind.LAVA, -1)
    assert m.at(6, 6) == (Kind.WOOD, 1)
    assert m.at(-1, 4) == (Kind.UNKNOWN, 0)        # chunk -1 was never sent
    assert m.at(40, 40) is None


def test_a_loaded_column_of_air_is_a_drop_not_unknown() -> None:
    table = BlockTable.for_version(VERSION)
    store = BlockStore()
    air = flat_section(table, 0, "air")
    store.set_column(0, 0, [(4, air), (3, air)], replace=True)
    m = top_down(store, table, Vec3(8.5, 69.0, 8.5), 4)
    assert m.at(8, 8) == (Kind.AIR, 0)


def test_block_kinds_put_liquids_and_danger_first() -> None:
    table = BlockTable.for_version(VERSION)
    state = table.state_for
    assert kind_of("water", table.flags(state("water"))) is Kind.WATER
    assert kind_of("lava", table.flags(state("lava"))) is Kind.LAVA
    assert kind_of("magma_block", table.flags(state("magma_block"))) is Kind.DANGER
    assert kind_of("iron_ore", table.flags(state("iron_ore"))) is Kind.ORE
    assert kind_of("oak_leaves", table.flags(state("oak_leaves"))) is Kind.LEAVES
    assert kind_of("crafting_table", table.flags(state("crafting_table"))) is Kind.BUILT


def test_overview_lists_a_player_until_they_leave() -> None:
    rig = Rig()
    rig.login("alice")
    rates = RateMeter()
    view = overview(rig.server, rates, rig.reactor.seconds())
    assert [p.name for p in view.players] == ["alice"]
    row = view.players[0]
    assert row.version == "1.18.2" and row.backend == "127.0.0.1:25565"
    assert row.autopilot is False and row.milestone == 0 and row.assistant_mode is None
    assert view.routing is None and view.model.configured is False
    rig.client.proto.connectionLost(None)
    assert overview(rig.server, rates, rig.reactor.seconds()).players == ()


def test_rates_are_averaged_over_the_window() -> None:
    meter = RateMeter(window=5.0)
    totals = TrafficTotals()
    assert meter.sample(0.0, totals).s2c_frames == 0.0
    totals.s2c_packets, totals.s2c_bytes = 100, 10_000
    rates = meter.sample(2.0, totals)
    assert (rates.s2c_frames, rates.s2c_bytes) == (50.0, 5000.0)
    totals.s2c_packets = 100
    for t in (4.0, 6.0, 8.0):
        rates = meter.sample(t, totals)
    assert rates.s2c_frames == 0.0   # nothing new for more than the window


def test_player_view_has_the_map_markers_and_ladder() -> None:
    rig = Rig()
    rig.login("alice")
    session = rig.bridge.session
    assert session is not None
    feed_world(session)
    session.handle(ev.PlayerListed("uuid-bob", "bob"), 0.0)
    session.handle(ev.EntitySpawned(7, "player", 10.0, 69.0, 12.0, "uuid-bob", "player"), 0.0)
    session.handle(ev.EntitySpawned(8, "zombie", 2.0, 69.0, 2.0, None, "hostile"), 0.0)
    session.handle(ev.EntitySpawned(9, "cow", 500.0, 69.0, 2.0, None, "passive"), 0.0)   # too far to show
    view = player_view("alice", session, 10.0, radius=8)
    assert view.position == (8.5, 69.0, 8.5) and view.yaw == 90.0
    assert view.map is not None and view.map.at(3, 5) == (Kind.WATER, -1)
    assert [(m.kind, m.name, m.hostile) for m in view.markers] == [("player", "bob", False), ("zombie", None, True)]
    assert [r.name for r in view.ladder][0] == "wood" and not any(r.reached for r in view.ladder)
    assert view.autopilot is False and view.path == () and view.decisions == ()
    data = to_json(view)
    json.dumps(data, allow_nan=False)
    assert data["map"]["size"] == 17 and len(data["map"]["kinds"]) == 17 * 17


def test_decisions_are_paired_with_their_outcomes() -> None:
    records = [
        {"kind": "decision", "tick": 1, "decision": {"choice": "gather_wood", "args": [], "reason": "ladder: wood",
                                                     "source": "mock"}},
        {"kind": "outcome", "tick": 80, "choice": "gather_wood", "outcome": "ok"},
        {"kind": "decision", "tick": 81, "decision": {"choice": "craft", "args": ["oak_planks"], "reason": "r",
                                                      "source": "api"}},
    ]
    rows = decision_rows(records)
    assert [(r.tick, r.choice, r.outcome) for r in rows] == [(1, "gather_wood", "ok"), (81, "craft(oak_planks)", None)]
    assert len(decision_rows(records, count=1)) == 1


def test_not_a_number_becomes_null_in_json() -> None:
    assert to_json({"health": math.nan, "food": 3}) == {"health": None, "food": 3}


def test_api_views_answer_for_a_live_player_and_404_otherwise() -> None:
    rig = Rig()
    rig.login("alice")
    feed_world(rig.bridge.session)
    client, _ = make(rig.server)
    data = json.loads(client.get("/api/overview").body)
    assert [p["name"] for p in data["players"]] == ["alice"]
    player = client.get("/api/player/Alice")
    assert player.status == 200 and json.loads(player.body)["position"] == [8.5, 69.0, 8.5]
    assert client.get("/api/player/bob").status == 404
    assert client.get("/").status == 200 and b"overview.js" in client.get("/").body
    assert client.get("/static/nope.js").status == 404
    assert client.get("/static/../site.py").status == 404


def test_the_per_version_kind_table_agrees_with_kind_of_for_every_state() -> None:
    for version in ("1.8.8", VERSION):
        table = BlockTable.for_version(version)
        expected = [kind_of(table.name(s), table.flags(s)) for s in range(table.size)]
        assert kinds_for(version).tolist() == expected


def test_a_simulated_autopilot_shows_its_path_target_and_decisions() -> None:
    """The simulator's world (trees, stone, water) and a Session with the autopilot on: the view has
    the terrain, the path the running action walks from where the player stands, and its decisions."""
    from engine.decision.autopilot import AutopilotConfig
    from engine.pilot import PilotSettings
    from engine.session import Session, SessionConfig
    from engine.sim.episode import TICK
    from engine.sim.world import VERSION as SIM_VERSION, SimOptions, SimWorld

    world = SimWorld(0, SimOptions())
    session = Session("sim", SessionConfig(version=SIM_VERSION), pilot=PilotSettings(
        autopilot_config=AutopilotConfig(seed=0)))
    for event in world.join_events():
        session.handle(event, 0.0)
    session.handle(ev.ChatTyped("!autopilot on"), 0.0)
    view = player_view("sim", session, 0.0)
    for t in range(1, 400):
        now = t * TICK
        early = [a for event in world.tick(t) for a in session.handle(event, now)]
        for event in world.apply(early + session.tick(now), t):
            session.handle(event, now)
        view = player_view("sim", session, now)
        if view.path and view.decisions:
            break
    assert view.autopilot and view.action is not None and view.target is not None
    assert view.position is not None and view.map is not None
    first = view.path[0]
    assert abs(first[0] - view.position[0]) <= 2 and abs(first[2] - view.position[2]) <= 2
    assert view.decisions[-1].choice.split("(")[0] == view.action.split("(")[0]
    assert view.ladder[0].current and view.progress is not None and "milestone 1/9" in view.progress
    kinds = set(view.map.kinds)
    under = view.map.at(math.floor(view.position[0]), math.floor(view.position[2]))
    assert under is not None and under[0] is not Kind.UNKNOWN
    assert kinds & {Kind.WOOD, Kind.LEAVES} and Kind.GRASS in kinds


def test_on_a_network_the_overview_names_each_players_server() -> None:
    from tests.proxy.network.helpers import network_rig, playing
    rig = network_rig("1.20.1")
    playing(rig)
    row = overview(rig.server, RateMeter(), rig.reactor.seconds()).players[0]
    assert row.backend == "lobby (127.0.0.1:25565)"
