"""Where a player lands: the first of try that answers, or the forced host's servers."""
from __future__ import annotations

from proxy.protocol.handshake import parse_handshake
from proxy.testing import build_packet, handshake_packet
from tests.proxy.network.helpers import LOBBY, SURVIVAL, network_rig, next_connection


def _start(rig, host: str = "127.0.0.1") -> None:
    rig.connect_client()
    rig.client_send(handshake_packet(rig.codec.protocol, host=host))
    rig.client_send(build_packet(rig.codec, "login", "toServer", "login_start", username="alice"))


def test_the_first_of_try_that_answers_is_where_the_player_lands() -> None:
    rig = network_rig("1.20.1")
    _start(rig)
    assert next_connection(rig) == LOBBY
    rig.refuse_upstream()
    assert next_connection(rig) == SURVIVAL
    upstream = rig.accept_upstream()
    sent = upstream.received()
    assert parse_handshake(sent[0]).host == "127.0.0.1"
    assert rig.codec.decode("login", "toServer", "login_start", sent[1])["username"] == "alice"
    assert rig.bridge.backend.name == "survival"


def test_when_no_server_answers_the_player_is_told() -> None:
    rig = network_rig("1.20.1")
    _start(rig)
    rig.refuse_upstream()
    rig.refuse_upstream()
    assert rig.bridge.states.closed
    reason = rig.bridge.close_reason or ""
    assert reason.startswith("No server of the network could take you: lobby cannot be reached (")
    assert "; survival cannot be reached (" in reason and reason.endswith("Try again later.")


def test_a_forced_host_sends_the_player_to_its_server() -> None:
    rig = network_rig("1.20.1", forced_hosts={"survival.example.com": ["survival"]})
    _start(rig, host="Survival.Example.com")
    assert next_connection(rig) == SURVIVAL
    rig.accept_upstream()
    assert rig.bridge.backend.name == "survival"


def test_a_legacy_forwarding_backend_gets_its_own_handshake_after_a_failed_one() -> None:
    rig = network_rig("1.20.1", servers={"lobby": "127.0.0.1:25565",
                                         "survival": {"address": "127.0.0.1:25570", "forwarding": {"mode": "legacy"}}})
    _start(rig)
    rig.refuse_upstream()
    upstream = rig.accept_upstream()
    host = parse_handshake(upstream.received()[0]).host
    assert host.startswith("127.0.0.1\0") and host.count("\0") == 3  # BungeeCord's fields for this backend only
