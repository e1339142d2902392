"""Invariant 6's proxy half: while the agent drives, the client's movement is held back,
the client follows our position packets, and our teleport confirmations are consumed."""
from __future__ import annotations

import attrs
import pytest

from engine.actions import Action, InjectMovement
from engine.world.snapshot import WorldSnapshot
from proxy.connection.actuator import HAND_BACK_WAIT, OWN_TELEPORT_IDS
from proxy.testing import build_packet
from proxy.testing import Rig


@attrs.define
class WalkEast:
    """A scripted driver: 0.2 blocks east per tick, for ``ticks`` ticks."""

    ticks: int
    name: str = "walk east"
    done: int = 0
    corrections: list[tuple[float, float, float]] = attrs.Factory(list)

    def step(self, snapshot: WorldSnapshot, now: float) -> list[Action]:
        pos = snapshot.player.position
        assert pos is not None
        self.done += 1
        return [InjectMovement(pos.x + 0.2, pos.y, pos.z, -90.0, 0.0, True)]

    def finished(self) -> str | None:
        return "arrived" if self.done >= self.ticks else None

    def server_moved(self, x: float, y: float, z: float, now: float) -> None:
        self.corrections.append((x, y, z))


def _driving_rig(version: str, ticks: int = 3) -> tuple[Rig, WalkEast]:
    rig = Rig(version)
    rig.login()
    rig.server_send(build_packet(rig.codec, "play", "toClient", "position", x=0.5, y=64.0, z=0.5, teleportId=1))
    rig.client.received()
    driver = WalkEast(ticks)
    rig.bridge.perform(rig.bridge.session.take_control(driver))
    assert rig.bridge.driving
    return rig, driver


@pytest.mark.parametrize("version", ["1.8.8", "1.12.2", "1.18.2", "1.20.4", "1.21.4"])
def test_injected_movement_reaches_server_and_client(version: str) -> None:
    rig, driver = _driving_rig(version)
    rig.bridge.tick(0.05)
    (to_server,) = rig.upstream.received()
    fields = rig.codec.decode("play", "toServer", "position_look", to_server)
    assert (fields["x"], fields["y"], fields["z"]) == (0.7, 64.0, 0.5)
    (to_client,) = rig.client.received()
    sync = rig.codec.decode("play", "toClient", "position", to_client)
    assert sync["x"] == 0.7
    if "teleportId" in sync:
        assert sync["teleportId"] in OWN_TELEPORT_IDS


def test_client_movement_is_held_and_our_confirmations_consumed() -> None:
    rig, driver = _driving_rig("1.18.2", ticks=10)
    rig.bridge.tick(0.05)
    rig.upstream.received()
    sync = rig.codec.decode("play", "toClient", "position", rig.client.received()[0])
    rig.client_send(build_packet(rig.codec, "play", "toServer", "teleport_confirm", teleportId=sync["teleportId"]))
    rig.client_send(build_packet(rig.codec, "play", "toServer", "position_look", x=0.7, y=64.0, z=0.5, onGround=True))
    assert rig.upstream.received() == []
    # A server teleport's confirmation is not ours: it goes through.
    rig.client_send(build_packet(rig.codec, "play", "toServer", "teleport_confirm", teleportId=1))
    assert len(rig.upstream.received()) == 1


def test_server_correction_reaches_the_driver() -> None:
    rig, driver = _driving_rig("1.18.2", ticks=10)
    rig.server_send(build_packet(rig.codec, "play", "toClient", "position", x=5.0, y=70.0, z=5.0, teleportId=1))
    assert driver.corrections == [(5.0, 70.0, 5.0)]
    assert len(rig.client.received()) == 1  # the correction still reaches the client


def _kill_switch(rig: Rig) -> list[bytes]:
    sneak = build_packet(rig.codec, "play", "toServer", "entity_action", actionId="start_sneaking")
    rig.client_send(sneak)
    rig.reactor.advance(0.3)
    rig.client_send(sneak)
    assert not rig.bridge.driving and rig.bridge.session.driver is None
    rig.upstream.received()
    return rig.client.received()


def test_kill_switch_releases_control_and_client_resumes_from_the_hand_back() -> None:
    rig, driver = _driving_rig("1.18.2", ticks=100)
    rig.bridge.tick(0.05)  # one step east: the server has the player at x 0.7
    rig.client.received()
    sent = _kill_switch(rig)
    assert any("kill switch" in t for t in rig.chat_texts(sent))
    # The hand-back syncs the client to where the agent left the player ...
    position = rig.codec.table.packet_id("play", "toClient", "position")
    (sync,) = [rig.codec.decode("play", "toClient", "position", p) for p in sent if p[0] == position]
    assert (sync["x"], sync["y"], sync["z"]) == (0.7, 64.0, 0.5) and sync["teleportId"] in OWN_TELEPORT_IDS
    # ... and a movement the client sent before it applied the sync (from where it thought it
    # was) is held, not relayed: it would move the player back.
    stale = build_packet(rig.codec, "play", "toServer", "position_look", x=0.5, y=64.0, z=0.5, onGround=True)
    rig.client_send(stale)
    assert rig.upstream.received() == []
    rig.client_send(build_packet(rig.codec, "play", "toServer", "teleport_confirm", teleportId=sync["teleportId"]))
    assert rig.upstream.received() == []  # our own confirmation is consumed
    move = build_packet(rig.codec, "play", "toServer", "position_look", x=1.0, y=64.0, z=0.5, onGround=True)
    rig.client_send(move)
    assert rig.upstream.received() == [move]


def test_a_client_that_never_confirms_the_hand_back_gets_its_movement_back() -> None:
    rig, driver = _driving_rig("1.18.2", ticks=100)
    _kill_switch(rig)
    move = build_packet(rig.codec, "play", "toServer", "position_look", x=1.0, y=64.0, z=0.5, onGround=True)
    rig.client_send(move)
    assert rig.upstream.received() == []
    rig.reactor.advance(HAND_BACK_WAIT)
    rig.client_send(move)
    assert rig.upstream.received() == [move]


def test_without_teleport_confirmations_the_hand_back_is_at_once() -> None:
    rig, driver = _driving_rig("1.8.8", ticks=100)
    _kill_switch(rig)
    move = build_packet(rig.codec, "play", "toServer", "position_look", x=1.0, y=64.0, z=0.5,
                        yaw=0.0, pitch=0.0, onGround=True)
    rig.client_send(move)
    assert rig.upstream.received() == [move]


def test_slow_double_sneak_is_not_a_kill_switch() -> None:
    rig, driver = _driving_rig("1.18.2", ticks=100)
    sneak = build_packet(rig.codec, "play", "toServer", "entity_action", actionId="start_sneaking")
    rig.client_send(sneak)
    rig.reactor.advance(0.8)
    rig.client_send(sneak)
    assert rig.bridge.driving


def test_driver_finishing_hands_control_back() -> None:
    rig, driver = _driving_rig("1.18.2", ticks=2)
    rig.bridge.tick(0.05)
    rig.bridge.tick(0.10)
    assert not rig.bridge.driving
    assert any("walk east: arrived" in t for t in rig.chat_texts(rig.client.received()))
