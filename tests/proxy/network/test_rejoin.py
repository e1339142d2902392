"""The Join Game + Respawn a legacy move sends, built from what real backends send."""
from __future__ import annotations

import pytest

from proxy.network.rejoin import join_and_respawn
from proxy.testing import build_packet
from tests.proxy.network.helpers import candidate_login, join, names, network_rig, playing

# 1.19-1.20.1: the Join Game's previous game mode is i8 and the Respawn's u8.
SIGNED_PREVIOUS = ["1.19", "1.19.4", "1.20.1"]


@pytest.mark.parametrize("version", SIGNED_PREVIOUS)
def test_a_first_login_previous_game_mode_of_minus_one_becomes_the_same_byte_in_the_respawn(version: str) -> None:
    codec = network_rig(version).codec
    packet = build_packet(codec, "play", "toClient", "login", entityId=7, gameMode=1, previousGameMode=-1)
    sent_join, respawn = join_and_respawn(codec, packet)
    assert sent_join == packet
    fields = codec.decode("play", "toClient", "respawn", respawn)
    assert fields["previousGamemode"] == 255  # vanilla's "none" (-1), as the u8 of the Respawn reads it
    assert fields["gamemode"] == 1


@pytest.mark.parametrize("version", SIGNED_PREVIOUS)
def test_a_move_to_a_vanilla_style_backend_at_its_first_login_reaches_the_new_world(version: str) -> None:
    rig = network_rig(version)
    playing(rig)
    rig.server.network.send(rig.bridge, "survival")
    candidate_login(rig)
    join(rig, 9, previousGameMode=-1)  # what vanilla, Paper and minecraft-protocol send to a new player
    assert rig.client is not None
    got = rig.client.received()
    assert [n for n in names(rig, got) if n in ("login", "respawn")] == ["login", "respawn"]
    assert rig.bridge.backend is not None and rig.bridge.backend.name == "survival"
    assert rig.server.disconnects == {}
