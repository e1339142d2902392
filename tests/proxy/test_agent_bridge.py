"""The autopilot's hands through the real bridge (memory reactor): what reaches the server, what the client sees."""
from __future__ import annotations

import pytest

from engine import actions as acts
from engine.session import Session
from proxy.protocol.tables import TO_SERVER
from proxy.testing import packet_id
from proxy.testing import Rig
from tests.proxy.test_windows import TABLE, FakeServer, names


def _names(rig: Rig, packets: list[bytes], direction: str) -> list[str]:
    return [rig.codec.table.packet_name("play", direction, packet_id(p)) or "?" for p in packets]


def _performed(version: str, actions: list[acts.Action]) -> tuple[Rig, list[bytes]]:
    """A logged-in player's bridge performs ``actions``: the rig and what reached the server."""
    rig = Rig(version)
    rig.login("alice")
    assert rig.upstream is not None
    rig.upstream.received()
    rig.bridge.perform(actions)
    return rig, rig.upstream.received()


@pytest.mark.parametrize("version", ["1.12.2", "1.18.2", "1.21.4"])
def test_dig_swing_attack_and_respawn_reach_the_server(version: str) -> None:
    rig, sent = _performed(version, [acts.StartDigging(3, 64, -2, 1), acts.FinishDigging(3, 64, -2, 1),
                                     acts.AttackEntity(42), acts.Respawn()])
    assert _names(rig, sent, TO_SERVER) == ["block_dig", "arm_animation", "block_dig",
                                           "attack" if rig.codec.table.packet_id("play", TO_SERVER, "attack")
                                           is not None else "use_entity", "arm_animation", "client_command"]
    start = rig.codec.decode("play", TO_SERVER, "block_dig", sent[0])
    finish = rig.codec.decode("play", TO_SERVER, "block_dig", sent[2])
    assert (start["status"], finish["status"]) == (0, 2)
    assert start["location"] == {"x": 3, "y": 64, "z": -2} and start["face"] == 1
    if "sequence" in start:
        assert finish["sequence"] == start["sequence"] + 1      # 1.19+: each block action has its own number


@pytest.mark.parametrize("version", ["1.8.8", "1.18.2", "26.1"])
def test_interact_entity_reaches_the_server_as_use_entity_interact(version: str) -> None:
    rig, sent = _performed(version, [acts.InteractEntity(42)])
    assert _names(rig, sent, TO_SERVER) == ["use_entity", "arm_animation"]
    fields = rig.codec.decode("play", TO_SERVER, "use_entity", sent[0])
    assert fields["target"] == 42
    assert fields.get("mouse", 0) == 0 and fields.get("hand", 0) in (0, "main_hand")
    if "location" in fields:  # 26.1: where on the sheep it was clicked, mid-body
        assert fields["location"] == pytest.approx({"x": 0.0, "y": 0.5, "z": 0.0}, abs=1e-4)


def test_a_crafting_table_window_is_worked_by_the_proxy_and_never_shown_to_the_player() -> None:
    rig = Rig("1.18.2")
    rig.login("alice")
    assert rig.upstream is not None and rig.client is not None
    server = FakeServer(rig.codec, {9: (names(rig.codec)["planks"], 5), 36: ("stick", 4)})
    rig.server_send(server.contents(0)[1])            # the inventory a server sends at join
    rig.client.received()
    rig.upstream.received()
    rig.bridge.perform([acts.CraftItem("wooden_pickaxe", 1, TABLE)])
    seen_by_client: list[bytes] = []
    for _ in range(20):                                # carry packets both ways until quiet
        outgoing = rig.upstream.received()
        if not outgoing:
            break
        for packet in outgoing:
            for _name, answer in server.receive(packet):
                rig.server_send(answer)
        seen_by_client += rig.client.received()
    windows = rig.bridge.windows
    assert windows is not None and windows.outcome is not None and windows.outcome.ok, windows.outcome
    assert server.inv.get(44) == ("wooden_pickaxe", 1) and server.closed == [1]
    client_names = _names(rig, seen_by_client, "toClient")
    assert "open_window" not in client_names              # no crafting screen pops up on the player
    shown = [rig.codec.decode("play", "toClient", "window_items", p)["windowId"]
             for p, n in zip(seen_by_client, client_names) if n == "window_items"]
    assert shown and set(shown) == {0}                   # only the player's own inventory, resynced


def _autopilot_on() -> tuple[Rig, Session]:
    """alice logged in on 1.18.2 at a known position, who has just said !autopilot on."""
    from engine import events as ev

    rig = Rig("1.18.2")
    rig.login("alice")
    rig.server_send(rig.codec.build("play", "toClient", "position", x=0.5, y=64.0, z=0.5, yaw=0.0, pitch=0.0,
                                    teleportId=7))
    session = rig.bridge.session
    assert session is not None
    rig.bridge.perform(session.handle(ev.ChatTyped("!autopilot on"), rig.reactor.seconds()))
    assert session.pilot.active
    return rig, session


def test_metrics_count_the_autopilots_decisions_and_who_it_plays_for() -> None:
    from proxy.operations.metrics import Metrics

    rig, session = _autopilot_on()
    for _ in range(40):
        rig.reactor.advance(0.05)
        rig.server.tick()
    metrics = Metrics()
    metrics.collect(rig.server)
    text = metrics.render().decode()
    assert "mcagent_autopilots_running 1.0" in text
    counted = [line for line in text.splitlines() if line.startswith("mcagent_autopilot_decisions_total{")]
    assert counted and sum(float(line.rsplit(" ", 1)[1]) for line in counted) >= 1


def test_an_autopilot_bug_stops_the_autopilot_not_the_connection() -> None:
    rig, session = _autopilot_on()
    assert rig.client is not None
    autopilot = session.pilot.autopilot
    assert autopilot is not None

    def broken(*args: object, **kwargs: object) -> list[object]:
        raise RuntimeError("a bug in a decision")

    autopilot.tick = broken  # type: ignore[method-assign]
    rig.client.received()
    rig.server.tick()
    assert rig.bridge.state == "play" and not session.pilot.active and not rig.bridge.driving
    assert any("stopped after an internal error" in t for t in rig.chat_texts(rig.client.received()))


@pytest.mark.parametrize("version", ["1.8.8", "1.18.2", "26.1", "26.2"])
def test_sprint_speed_steps_tell_the_server_the_player_sprints(version: str) -> None:
    from engine import events as ev
    from engine.actions import InjectMovement, SetControl

    rig = Rig(version)
    rig.login("alice")
    assert rig.upstream is not None and rig.bridge.session is not None
    rig.bridge.session.handle(ev.JoinedGame(99, 0, "minecraft:overworld"), 0.0)
    rig.upstream.received()
    rig.bridge.perform([SetControl(True), InjectMovement(0.5, 64, 0.5, 0, 0, True),
                        InjectMovement(0.78, 64, 0.5, 0, 0, True, sprinting=True),
                        InjectMovement(1.06, 64, 0.5, 0, 0, True, sprinting=True),
                        InjectMovement(1.2, 64, 0.5, 0, 0, True), SetControl(False)])
    sent = rig.upstream.received()
    names = _names(rig, sent, TO_SERVER)
    actions = [rig.codec.decode("play", TO_SERVER, "entity_action", p) for p, n in zip(sent, names)
               if n == "entity_action"]
    assert [(a["entityId"], a["actionId"]) for a in actions] == [(99, "start_sprinting"), (99, "stop_sprinting")]
    assert names.index("entity_action") == 1          # before the first sprint-speed step


@pytest.mark.parametrize("version", ["1.8.8", "1.12.2", "1.18.2", "1.21.4"])
def test_lying_down_in_a_bed_is_a_use_of_the_bed_block(version: str) -> None:
    rig = Rig(version)
    rig.login("alice")
    assert rig.upstream is not None
    rig.upstream.received()
    rig.bridge.perform([acts.UseBlock(5, 64, 7, 1)])
    sent = rig.upstream.received()
    assert _names(rig, sent, TO_SERVER) == ["block_place", "arm_animation"]
    use = rig.codec.decode("play", TO_SERVER, "block_place", sent[0])
    assert use["location"] == {"x": 5, "y": 64, "z": 7}
