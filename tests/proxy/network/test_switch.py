"""Moving a playing client between backends on Twisted's fakes: every version family."""
from __future__ import annotations

import pytest

from proxy.protocol.wire import pack_varint

from proxy.testing import build_packet
from tests.proxy.network.helpers import SURVIVAL, candidate_login, handshake_host, join, names, network_rig, next_connection, playing

LEGACY = ["1.12.2", "1.16.5", "1.20.1"]
CONFIGURATION = ["1.20.4", "1.21.11", "26.1"]


def _chat(rig, text: str) -> bytes:
    return build_packet(rig.codec, "play", "toServer", rig.codec.table.packet_name(
        "play", "toServer", rig.codec.table.packet_id("play", "toServer", "chat_message") or
        rig.codec.table.packet_id("play", "toServer", "chat")) or "chat", message=text)


@pytest.mark.parametrize("version", LEGACY)
def test_a_legacy_client_is_moved_with_join_game_and_respawn_and_chats_on_the_new_server(version: str) -> None:
    rig = network_rig(version)
    playing(rig)
    assert rig.server.network.send(rig.bridge, "survival") == ["alice: Moving you to survival..."]
    assert next_connection(rig) == SURVIVAL
    old, new, sent = candidate_login(rig)
    assert handshake_host(sent[0]) == "127.0.0.1" and len(sent) == 2  # the handshake, then the client's login start
    assert rig.codec.decode("login", "toServer", "login_start", sent[1])["username"] == "alice"
    join(rig, 7, dimension=0) if version == "1.12.2" else join(rig, 7)
    got = rig.client.received()
    moved = [n for n in names(rig, got) if n in ("login", "respawn")]
    assert moved == ["login", "respawn"]
    first = rig.codec.decode("play", "toClient", "login", got[names(rig, got).index("login")])
    assert first["entityId"] == 7
    if version == "1.12.2":
        assert first["dimension"] == -1  # another dimension, so the respawn into 0 makes a new world
        respawn = rig.codec.decode("play", "toClient", "respawn", got[names(rig, got).index("respawn")])
        assert respawn["dimension"] == 0
    assert "You are on survival now." in " ".join(rig.chat_texts(got))
    assert old.transport.disconnecting  # the old backend's connection is closed
    assert rig.bridge.backend.name == "survival"
    # Chat after the switch reaches the new backend byte for byte, and only it.
    line = _chat(rig, "hello survival")
    old.transport.clear()
    rig.client_send(line)
    assert line in new.received()
    assert old.transport.value() == b""


@pytest.mark.parametrize("version", CONFIGURATION)
def test_a_configuration_client_reenters_configuration_and_joins_the_new_server(version: str) -> None:
    rig = network_rig(version)
    playing(rig)
    rig.server.network.send(rig.bridge, "survival")
    old, new, sent = candidate_login(rig)
    assert names(rig, new.received(), "login", "toServer") == ["login_acknowledged"]
    got = rig.client.received()
    assert "start_configuration" in names(rig, got)
    # The new backend's configuration waits for the client's acknowledgement.
    rig.server_send(build_packet(rig.codec, "configuration", "toClient", "finish_configuration"))
    assert rig.client.received() == []
    # The client's play packets until then belong to the old world: dropped.
    old.transport.clear()
    rig.client_send(_chat(rig, "lost in between"))
    assert old.transport.value() == b"" and new.received() == []
    rig.client_send(pack_varint(rig.bridge.ids.configuration_acknowledged))
    assert new.received() == []  # the new backend never asked for a reconfiguration
    assert names(rig, rig.client.received(), "configuration") == ["finish_configuration"]
    rig.client_send(build_packet(rig.codec, "configuration", "toServer", "finish_configuration"))
    assert names(rig, new.received(), "configuration", "toServer") == ["finish_configuration"]
    join(rig, 9)
    got = rig.client.received()
    assert names(rig, got)[0] == "login"
    assert "You are on survival now." in " ".join(rig.chat_texts(got))  # held until play
    assert rig.bridge.states.playing
    line = _chat(rig, "hello survival")
    rig.client_send(line)
    assert line in new.received()


@pytest.mark.parametrize("version", ["1.12.2", "1.21.11"])
def test_a_refused_switch_leaves_the_player_where_they_were(version: str) -> None:
    rig = network_rig(version)
    playing(rig)
    old = rig.upstream
    rig.server.network.send(rig.bridge, "survival")
    rig.refuse_upstream()
    text = " ".join(rig.chat_texts(rig.client.received()))
    assert "Could not move you to survival: cannot reach it" in text
    assert rig.bridge.switch is None and rig.bridge.backend.name == "lobby"
    line = _chat(rig, "still here")
    rig.client_send(line)
    assert line in old.received()


def test_a_backend_that_refuses_the_login_is_shown_and_the_player_stays() -> None:
    rig = network_rig("1.20.1")
    playing(rig)
    rig.server.network.send(rig.bridge, "survival")
    old = rig.upstream
    new = rig.accept_upstream()
    new.received()
    rig.server_send(build_packet(rig.codec, "login", "toClient", "disconnect", reason='{"text":"You are banned"}'))
    text = " ".join(rig.chat_texts(rig.client.received()))
    assert "Could not move you to survival: You are banned" in text
    assert new.transport.disconnecting and not old.transport.disconnecting


def test_world_model_resets_while_the_conversation_settings_stay() -> None:
    rig = network_rig("1.12.2")
    playing(rig, entity_id=3)
    session = rig.bridge.session
    reflexes = {"lava"}
    session.control.reflexes.enabled = set(reflexes)
    world, chat = session.world, session.chat
    assert world.entity_id == 3
    rig.server.network.send(rig.bridge, "survival")
    candidate_login(rig)
    join(rig, 8, dimension=0)
    assert rig.bridge.session is session and session.chat is chat
    assert session.world is not world and session.world.entity_id == 8
    assert session.control.reflexes.enabled == reflexes


def test_a_switch_to_the_same_server_or_an_unknown_one_is_answered() -> None:
    rig = network_rig("1.18.2")
    playing(rig)
    net = rig.server.network
    assert net.switch(rig.bridge, "lobby") == ["You are on lobby already."]
    assert "No server 'nether'" in net.switch(rig.bridge, "nether")[0]
    assert net.switch(rig.bridge, None) == ["Servers: lobby (you are here), survival. /server <name> moves you."]
    assert net.switch(rig.bridge, "Survival") == ["Moving you to survival..."]  # names compare case-insensitively
    assert net.switch(rig.bridge, "survival") == ["Already moving you to survival."]


def test_a_server_for_admins_only_is_neither_listed_nor_reachable_for_others() -> None:
    rig = network_rig("1.18.2", servers={"lobby": "127.0.0.1:25565",
                                         "staff": {"address": "127.0.0.1:25570", "allow": ["@admins", "bob"]}},
                      try_order=["lobby"])
    playing(rig)
    net = rig.server.network
    assert net.switch(rig.bridge, None) == ["Servers: lobby (you are here). /server <name> moves you."]
    assert net.switch(rig.bridge, "staff")[0].startswith("No server 'staff' for you")
    assert net.send(rig.bridge, "staff") == ["alice: Moving you to staff..."]  # the console may


def test_a_silent_backend_times_the_move_out_and_the_player_stays() -> None:
    rig = network_rig("1.20.1")
    playing(rig)
    rig.server.network.switch(rig.bridge, "survival")
    new = rig.accept_upstream()
    rig.reactor.advance(rig.server.config.limits.upstream_answer_seconds + 0.1)
    said = " ".join(rig.chat_texts(rig.client.received()))
    assert "Could not move you to survival: it did not answer within 10 seconds" in said
    assert new.transport.disconnecting and not rig.bridge.states.closed


def test_a_malformed_login_packet_from_the_new_backend_fails_only_the_move() -> None:
    rig = network_rig("1.20.1")
    playing(rig)
    rig.server.network.switch(rig.bridge, "survival")
    new = rig.accept_upstream()
    new.proto.dataReceived(b"\xff\xff\xff\xff\xff\xff")  # a length prefix that never ends
    said = " ".join(rig.chat_texts(rig.client.received()))
    assert "Could not move you to survival: it sent a malformed packet" in said
    assert not rig.bridge.states.closed and rig.bridge.backend.name == "lobby"


def test_a_step_outside_the_table_is_our_misuse() -> None:
    from proxy.network.switch import STEPS, Phase, Switch, SwitchMisuse

    rig = network_rig("1.20.1")
    playing(rig)
    switch = Switch(rig.bridge, rig.server.network.network.backends["survival"], lambda s: None,
                    lambda s, why, kicked: None)
    with pytest.raises(SwitchMisuse):
        switch._step("joined")
    # Every phase but the two ends can fail; nothing leaves DONE or FAILED.
    assert {phase for phase, event in STEPS if event == "failed"} == set(Phase) - {Phase.DONE, Phase.FAILED}
    assert not any(phase in (Phase.DONE, Phase.FAILED) for phase, _ in STEPS)


def test_a_move_gives_up_when_the_old_backend_reconfigures_the_client_meanwhile() -> None:
    rig = network_rig("1.21.11")
    playing(rig)
    rig.server.network.switch(rig.bridge, "survival")
    old = rig.upstream
    new = rig.accept_upstream()
    new.received()
    rig.upstream = old
    rig.server_send(build_packet(rig.codec, "play", "toClient", "start_configuration"))
    rig.client_send(pack_varint(rig.bridge.ids.configuration_acknowledged))
    rig.client.received()  # the old backend's own Start Configuration
    rig.upstream = new
    rig.server_send(build_packet(rig.codec, "login", "toClient", "success", username="alice"))
    assert rig.client.received() == []  # none of the proxy's
    assert rig.bridge.switch is None and new.transport.disconnecting
    assert rig.bridge.backend.name == "lobby" and not rig.bridge.states.closed
    # Said once the client plays again (it is configuring for the old backend now).
    assert any(b"reconfiguring you" in packet for packet in rig.bridge.actuator.held_for_play)
