"""1.20.5+ transfers and cookies: kept inside the proxy when they name one of servers."""
from __future__ import annotations

import pytest

from proxy.protocol.wire import pack_string, pack_varint
from tests.proxy.network.helpers import SURVIVAL, network_rig, next_connection, playing


def _transfer(rig, host: str, port: int) -> bytes:
    pid = rig.codec.table.packet_id("play", "toClient", "transfer")
    return pack_varint(pid) + pack_string(host) + pack_varint(port)


@pytest.mark.parametrize("version", ["1.21.11", "26.1"])
def test_a_transfer_to_one_of_servers_becomes_a_switch(version: str) -> None:
    rig = network_rig(version)
    playing(rig)
    rig.server_send(_transfer(rig, "127.0.0.1", 25570))
    assert rig.client.received() == []  # the client never sees it
    assert next_connection(rig) == SURVIVAL


def test_a_transfer_elsewhere_passes_to_the_client() -> None:
    rig = network_rig("1.21.11")
    playing(rig)
    packet = _transfer(rig, "mc.example.org", 25565)
    rig.server_send(packet)
    assert rig.client.received() == [packet]
    assert len(rig.reactor.tcpClients) == 0


def test_transfers_pass_lets_even_a_known_one_through() -> None:
    rig = network_rig("1.21.11", transfers="pass")
    playing(rig)
    packet = _transfer(rig, "127.0.0.1", 25570)
    rig.server_send(packet)
    assert rig.client.received() == [packet]


def test_transfers_refuse_keeps_the_player_on_the_network() -> None:
    rig = network_rig("1.21.11", transfers="refuse")
    playing(rig)
    rig.server_send(_transfer(rig, "mc.example.org", 25565))
    said = " ".join(rig.chat_texts(rig.client.received()))
    assert "tried to send you to mc.example.org:25565; this proxy keeps you on its network" in said


def test_cookies_asked_during_a_switch_reach_the_client_and_its_answer_the_backend() -> None:
    rig = network_rig("1.21.11")
    playing(rig)
    table = rig.codec.table
    rig.server.network.switch(rig.bridge, "survival")
    new = rig.accept_upstream()
    new.received()
    rig.server_send(pack_varint(table.packet_id("login", "toClient", "cookie_request")) + pack_string("mc:ticket"))
    asked = rig.client.received()
    assert asked == [pack_varint(table.packet_id("play", "toClient", "cookie_request")) + pack_string("mc:ticket")]
    body = pack_string("mc:ticket") + b"\x01" + pack_varint(3) + b"abc"
    rig.client_send(pack_varint(table.packet_id("play", "toServer", "cookie_response")) + body)
    assert new.received() == [pack_varint(table.packet_id("login", "toServer", "cookie_response")) + body]


def test_cookies_in_play_pass_both_ways_untouched() -> None:
    rig = network_rig("1.21.11")
    playing(rig)
    table = rig.codec.table
    request = pack_varint(table.packet_id("play", "toClient", "cookie_request")) + pack_string("mc:other")
    rig.server_send(request)
    assert rig.client.received() == [request]
    answer = pack_varint(table.packet_id("play", "toServer", "cookie_response")) + pack_string("mc:other") + b"\x00"
    rig.upstream.received()
    rig.client_send(answer)
    assert rig.upstream.received() == [answer]
