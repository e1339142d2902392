"""A backend that goes away: its players move to the next server of try, told why; a kick for a
reason is shown as the backend meant it."""
from __future__ import annotations

import pytest
from twisted.internet.error import ConnectionLost
from twisted.python.failure import Failure

from proxy.connection.shutdown_kicks import is_shutdown
from proxy.protocol.wire import pack_varint
from proxy.testing import build_packet
from tests.proxy.network.helpers import SURVIVAL, candidate_login, join, names, network_rig, next_connection, playing


def _lose(leg) -> None:
    leg.proto.connectionLost(Failure(ConnectionLost("Connection to the other side was lost")))


@pytest.mark.parametrize("version", ["1.12.2", "1.20.1"])
def test_a_lost_backend_sends_its_player_to_the_next_of_try(version: str) -> None:
    rig = network_rig(version)
    playing(rig)
    _lose(rig.upstream)
    said = " ".join(rig.chat_texts(rig.client.received()))
    assert "lobby lost the connection" in said and "moving you to survival" in said
    assert next_connection(rig) == SURVIVAL
    candidate_login(rig)
    join(rig, 4)
    got = rig.client.received()
    assert "login" in names(rig, got) and "You are on survival now." in " ".join(rig.chat_texts(got))
    assert not rig.bridge.states.closed and rig.bridge.backend.name == "survival"
    assert rig.server.network.failovers == 1 and rig.server.disconnects == {}


def test_a_shutdown_kick_is_a_failover_on_a_configuration_client() -> None:
    rig = network_rig("1.21.11")
    playing(rig)
    rig.server_send(rig.codec.kick("Server closed"))
    got = rig.client.received()
    assert "kick_disconnect" not in names(rig, got)
    assert "lobby shut down (Server closed); moving you to survival." in " ".join(rig.chat_texts(got))
    old, new, _ = candidate_login(rig)
    new.received()
    assert "start_configuration" in names(rig, rig.client.received())
    rig.client_send(pack_varint(rig.bridge.ids.configuration_acknowledged))
    rig.server_send(build_packet(rig.codec, "configuration", "toClient", "finish_configuration"))
    rig.client_send(build_packet(rig.codec, "configuration", "toServer", "finish_configuration"))
    join(rig, 2)
    assert rig.bridge.states.playing and rig.bridge.backend.name == "survival"


def test_a_kick_for_a_reason_is_shown_as_the_backend_meant_it() -> None:
    rig = network_rig("1.20.1")
    playing(rig)
    kick = rig.codec.kick("You are banned: griefing")
    rig.server_send(kick)
    assert kick in rig.client.received()
    assert len(rig.reactor.tcpClients) == 0  # no other server is tried


def test_nowhere_to_go_disconnects_with_the_reasons() -> None:
    rig = network_rig("1.20.1")
    playing(rig)
    _lose(rig.upstream)
    rig.refuse_upstream()
    assert rig.bridge.states.closed
    assert "No server of the network could take you (survival: cannot reach it" in rig.bridge.close_reason


def test_a_backend_that_dies_during_a_switch_does_not_end_the_move() -> None:
    rig = network_rig("1.20.1")
    playing(rig)
    old = rig.upstream
    rig.server.network.switch(rig.bridge, "survival")
    _lose(old)
    assert not rig.bridge.states.closed
    candidate_login(rig)
    join(rig, 6)
    assert rig.bridge.backend.name == "survival" and not rig.bridge.states.closed


@pytest.mark.parametrize(("reason", "shutdown"), [
    ("Server closed", True), ("multiplayer.disconnect.server_shutdown", True), ("Server is restarting", True),
    ("The server is shutting down", True), ("You are banned", False), ("The server is full!", False),
    ("Kicked by an operator", False), ("", False)])
def test_which_kicks_are_shutdowns(reason: str, shutdown: bool) -> None:
    assert is_shutdown(reason) is shutdown


def test_the_old_backend_closing_while_the_client_reconfigures_does_not_end_the_move() -> None:
    rig = network_rig("1.21.11")
    playing(rig)
    old = rig.upstream
    rig.server.network.switch(rig.bridge, "survival")
    candidate_login(rig)
    _lose(old)  # after Start Configuration went to the client, before its acknowledgement
    assert not rig.bridge.states.closed
    rig.client_send(pack_varint(rig.bridge.ids.configuration_acknowledged))
    rig.server_send(build_packet(rig.codec, "configuration", "toClient", "finish_configuration"))
    rig.client_send(build_packet(rig.codec, "configuration", "toServer", "finish_configuration"))
    join(rig, 2)
    assert rig.bridge.states.playing and rig.bridge.backend.name == "survival"
