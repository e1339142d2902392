"""Entity movements follow the features: with none on, only players' are decoded.

With the world model, reflexes, autopilot and assistant all off nothing reads where a mob
went, so the proxy forwards those movements as they came (the capacity bench's "features
off" path, issue 25); players are still tracked for !players and the dashboard."""
from __future__ import annotations

from typing import Any

import pytest

from proxy.codec import subscriptions
from proxy.protocol import versions
from proxy.protocol.tables import table_for_version
from proxy.testing import Rig, build_packet, frame

OFF = {"assistant": False, "reflexes": False, "autopilot": False, "world": False}
COW, PLAYER = 7, 8
PLAYER_UUID = "00000000-0000-0000-0000-0000000000aa"


def _rig(features: dict[str, bool]) -> Rig:
    rig = Rig("1.20.1", features=features)
    rig.login(threshold=-1)
    cow_type = next(k for k, v in rig.codec.table.entities.items() if v[0] == "cow")
    rig.server_send(build_packet(rig.codec, "play", "toClient", "spawn_entity", entityId=COW, type=cow_type,
                                 x=1.0, y=64.0, z=1.0))
    rig.server_send(build_packet(rig.codec, "play", "toClient", "named_entity_spawn", entityId=PLAYER,
                                 playerUUID=PLAYER_UUID, x=5.0, y=64.0, z=5.0))
    assert rig.client is not None
    rig.client.received()
    return rig


def _move(rig: Rig, entity_id: int) -> tuple[int, int, bytes]:
    """Send a one-block step east of ``entity_id``: (frames decoded, frames fast, bytes the client got)."""
    decoded, fast = rig.bridge.decoded_frames, rig.bridge.fast_frames
    wire = frame(build_packet(rig.codec, "play", "toClient", "rel_entity_move", entityId=entity_id, dX=4096, dY=0,
                              dZ=0, onGround=True))
    assert rig.upstream is not None and rig.client is not None
    rig.upstream.proto.dataReceived(wire)
    got = rig.client.raw_received()
    assert got == wire  # forwarded unchanged either way
    return rig.bridge.decoded_frames - decoded, rig.bridge.fast_frames - fast, got


def _entities(rig: Rig) -> dict[int, Any]:
    session = rig.bridge.session
    assert session is not None
    return session.world.entities


def test_features_off_relays_mob_movements_without_decoding_them() -> None:
    rig = _rig(OFF)
    assert COW not in _entities(rig)  # nothing keeps mobs
    assert _move(rig, COW)[:2] == (0, 1)
    # A player's movement is still read: "who is near me" and the dashboard go by it.
    assert _move(rig, PLAYER)[:2] == (1, 0)
    assert _entities(rig)[PLAYER].position.x == pytest.approx(6.0)


@pytest.mark.parametrize("feature", ["world", "reflexes", "autopilot", "assistant"])
def test_any_feature_on_decodes_every_entity_movement(feature: str) -> None:
    rig = _rig({**OFF, feature: True})
    assert _move(rig, COW)[:2] == (1, 0)
    assert _entities(rig)[COW].position.x == pytest.approx(2.0)
    assert _move(rig, PLAYER)[:2] == (1, 0)


def test_players_only_only_when_every_feature_is_off() -> None:
    from proxy.config import Features

    assert subscriptions.players_only(Features(**OFF))
    for name in OFF:
        assert not subscriptions.players_only(Features(**{**OFF, name: True}))


def test_every_entity_movement_starts_with_a_varint_entity_id() -> None:
    # The relay peeks that id to tell a player's movement from a mob's without decoding.
    for version in versions.SUPPORTED:
        table = table_for_version(version.name)
        for name in subscriptions.ENTITY_MOVES:
            layout = table.raw_layout("play", "toClient", name)
            if layout is not None:
                first = layout[1][0]
                assert (first["name"], first["type"]) == ("entityId", "varint"), (version.name, name)
