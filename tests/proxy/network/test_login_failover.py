"""A first login that fails on the first server of try goes on to the next, the client none the
wiser: refused, closed, kicked with a shutdown reason, in login and (1.20.2+) in configuration."""
from __future__ import annotations

import hashlib
import hmac

import pytest
from twisted.internet.error import ConnectionDone
from twisted.python.failure import Failure

from proxy.connection.forwarding import CHANNEL
from proxy.connection import login_failover
from proxy.connection.login_failover import STEPS, FailoverMisuse, LoginFailover, Phase
from proxy.protocol.handshake import parse_handshake
from proxy.protocol.wire import pack_string, pack_varint, read_varint
from proxy.testing import Leg, Rig, build_packet, handshake_packet
from tests.proxy.network.helpers import SURVIVAL, join, names, network_rig, next_connection

LOGIN_VERSIONS = ["1.8.8", "1.12.2", "1.20.1", "1.21.11"]
SECRET = "survival-velocity-s3cret-41c2"


def _start(rig: Rig, name: str = "alice") -> Leg:
    """Handshake and login start; the lobby accepts the connection (returned, what it got read)."""
    rig.connect_client()
    rig.client_send(handshake_packet(rig.codec.protocol))
    rig.client_send(build_packet(rig.codec, "login", "toServer", "login_start", username=name))
    lobby = rig.accept_upstream()
    lobby.received()
    return lobby


def _compress(rig: Rig, threshold: int, client_too: bool) -> list[bytes]:
    """The server's Set Compression; what the client got of it."""
    assert rig.upstream is not None and rig.client is not None
    rig.server_send(build_packet(rig.codec, "login", "toClient", "compress", threshold=threshold))
    rig.upstream.threshold = threshold
    rig.upstream.reader.set_threshold(threshold)
    got = rig.client.received()
    if client_too:
        rig.client.threshold = threshold
        rig.client.reader.set_threshold(threshold)
    return got


def _login_kick(rig: Rig, text: str) -> bytes:
    kick = build_packet(rig.codec, "login", "toClient", "disconnect", reason=f'{{"text":"{text}"}}')
    rig.server_send(kick)
    return kick


def _closed(leg: Leg) -> None:
    leg.proto.connectionLost(Failure(ConnectionDone("Connection was closed cleanly.")))


def _play(rig: Rig, survival: Leg) -> list[bytes]:
    """From the client's Login Success on: (configuration,) Join Game; what the client got."""
    assert rig.client is not None
    if rig.codec.table.has_configuration:
        rig.client_send(build_packet(rig.codec, "login", "toServer", "login_acknowledged"))
        rig.server_send(build_packet(rig.codec, "configuration", "toClient", "finish_configuration"))
        rig.client_send(build_packet(rig.codec, "configuration", "toServer", "finish_configuration"))
    join(rig, 5)
    return rig.client.received()


@pytest.mark.parametrize("version", LOGIN_VERSIONS)
def test_a_shutdown_kick_at_login_logs_the_player_in_to_the_next_server(version: str) -> None:
    rig = network_rig(version)
    lobby = _start(rig)
    assert names(rig, _compress(rig, 256, client_too=True), "login") == ["compress"]
    _login_kick(rig, "Server is still starting! Please wait before reconnecting." if version == "1.8.8"
                else "Server is restarting")
    assert rig.client.received() == []  # the client never sees the kick
    _closed(lobby)  # the lobby closing after its kick ends nothing
    assert not rig.bridge.states.closed and next_connection(rig) == SURVIVAL
    survival = rig.accept_upstream()
    handshake, login_start = survival.received()
    assert parse_handshake(handshake).host == "127.0.0.1"
    assert rig.codec.decode("login", "toServer", "login_start", login_start)["username"] == "alice"
    assert lobby.transport.disconnecting
    # A fresh server leg: survival's own threshold; the client keeps its first, frames are re-packed.
    assert _compress(rig, 64, client_too=False) == []  # no second Set Compression for the client
    rig.server_send(build_packet(rig.codec, "login", "toClient", "success", username="alice"))
    assert names(rig, rig.client.received(), "login") == ["success"]
    got = _play(rig, survival)
    assert "login" in names(rig, got)
    said = " ".join(rig.chat_texts(got))
    assert "lobby is unavailable (Server is" in said and "; you are on survival." in said
    assert rig.bridge.states.playing and rig.bridge.backend.name == "survival"
    # The client's packets reach survival, framed with survival's threshold.
    line = build_packet(rig.codec, "play", "toServer", "keep_alive", keepAliveId=7)
    survival.received()
    rig.client_send(line)
    assert survival.received() == [line]


@pytest.mark.parametrize("version", ["1.12.2", "1.21.11"])
def test_a_first_server_that_closes_during_login_is_skipped(version: str) -> None:
    rig = network_rig(version)
    lobby = _start(rig)
    _closed(lobby)
    survival = rig.accept_upstream()
    assert len(survival.received()) == 2
    rig.server_send(build_packet(rig.codec, "login", "toClient", "success", username="alice"))
    got = _play(rig, survival)
    assert "lobby closed the connection (Connection was closed cleanly: Connection was closed cleanly..); you are on survival." in \
        " ".join(rig.chat_texts(got))


def test_a_refused_first_server_is_named_once_the_player_is_in() -> None:
    rig = network_rig("1.20.1")
    rig.connect_client()
    rig.client_send(handshake_packet(rig.codec.protocol))
    rig.client_send(build_packet(rig.codec, "login", "toServer", "login_start", username="alice"))
    rig.refuse_upstream()
    survival = rig.accept_upstream()
    assert len(survival.received()) == 2
    rig.server_send(build_packet(rig.codec, "login", "toClient", "success", username="alice"))
    said = " ".join(rig.chat_texts(_play(rig, survival)))
    assert "lobby cannot be reached (" in said and said.endswith("; you are on survival.")


def test_a_silent_first_server_is_skipped_after_the_answer_time() -> None:
    rig = network_rig("1.20.1")
    _start(rig)
    rig.reactor.advance(rig.server.config.limits.upstream_answer_seconds + 0.1)
    assert next_connection(rig) == SURVIVAL and not rig.bridge.states.closed


@pytest.mark.parametrize("version", ["1.12.2", "1.21.11"])
def test_a_kick_for_a_reason_at_login_is_shown_as_the_backend_meant_it(version: str) -> None:
    rig = network_rig(version)
    _start(rig)
    kick = _login_kick(rig, "You are not whitelisted on this server!")
    assert rig.client.received() == [kick]
    assert rig.reactor.tcpClients == []  # no other server is tried


def test_every_server_down_is_one_message_naming_each() -> None:
    rig = network_rig("1.20.1", servers={"lobby": "127.0.0.1:25565", "survival": "127.0.0.1:25570",
                                         "creative": "127.0.0.1:25575"},
                      try_order=["lobby", "survival", "creative"])
    _start(rig)
    _login_kick(rig, "Server closed")
    rig.refuse_upstream()
    rig.accept_upstream()
    _login_kick(rig, "multiplayer.disconnect.server_shutdown")
    assert rig.bridge.states.closed
    reason = rig.bridge.close_reason or ""
    assert reason.startswith("No server of the network could take you: lobby is unavailable (Server closed); "
                             "survival cannot be reached (")
    assert reason.endswith("creative is unavailable (multiplayer.disconnect.server_shutdown). Try again later.")
    assert rig.client.transport.disconnecting


def test_a_single_server_kick_is_shown_as_it_came() -> None:
    rig = Rig("1.20.1", login_rate_limit_seconds=0)
    _start(rig)
    kick = _login_kick(rig, "Server closed")
    assert rig.client.received() == [kick]


# -- 1.20.2+: the kick arrives while the client configures -------------------------------------

def _configuring(rig: Rig) -> tuple[Leg, bytes, bytes]:
    """Logged in to the lobby; the client has acknowledged and sent its information and brand."""
    lobby = _start(rig)
    _compress(rig, 256, client_too=True)
    rig.server_send(build_packet(rig.codec, "login", "toClient", "success", username="alice"))
    rig.client.received()
    rig.client_send(build_packet(rig.codec, "login", "toServer", "login_acknowledged"))
    settings = build_packet(rig.codec, "configuration", "toServer", "settings", locale="de_de", viewDistance=9)
    brand_id = rig.codec.table.packet_id("configuration", "toServer", "custom_payload")
    brand = pack_varint(brand_id) + pack_string("minecraft:brand") + pack_string("vanilla")
    rig.client_send(settings)
    rig.client_send(brand)
    assert len(lobby.received()) == 3
    return lobby, settings, brand


@pytest.mark.parametrize("version", ["1.20.4", "1.21.11", "26.1"])
def test_a_shutdown_kick_in_configuration_replays_the_login_to_the_next_server(version: str) -> None:
    rig = network_rig(version)
    lobby, settings, brand = _configuring(rig)
    rig.server_send(build_packet(rig.codec, "configuration", "toClient", "disconnect",
                                 reason={"text": "Server closed"} if version != "1.20.4" else
                                 '{"text":"Server closed"}'))
    assert rig.client.received() == []
    _closed(lobby)
    survival = rig.accept_upstream()
    assert len(survival.received()) == 2  # handshake, login start
    # The client's own configuration answers for the lobby are dropped meanwhile.
    keep_alive = rig.codec.table.packet_id("configuration", "toServer", "keep_alive")
    rig.client_send(pack_varint(keep_alive) + bytes(8))
    _compress(rig, 128, client_too=False)
    rig.server_send(build_packet(rig.codec, "login", "toClient", "success", username="alice"))
    assert rig.client.received() == []  # the client has its Login Success already
    replayed = survival.received()
    assert names(rig, replayed[:1], "login", "toServer") == ["login_acknowledged"]
    assert replayed[1:] == [settings, brand]
    rig.server_send(build_packet(rig.codec, "configuration", "toClient", "finish_configuration"))
    assert names(rig, rig.client.received(), "configuration") == ["finish_configuration"]
    rig.client_send(build_packet(rig.codec, "configuration", "toServer", "finish_configuration"))
    join(rig, 4)
    said = " ".join(rig.chat_texts(rig.client.received()))
    assert "lobby is unavailable (Server closed); you are on survival." in said
    assert rig.bridge.states.playing and rig.bridge.backend.name == "survival"


def _registry(rig: Rig, name: str) -> bytes:
    if rig.codec.table.packet_id("configuration", "toClient", "registry_data") is not None and \
            "entries" in rig.codec.field_types("configuration", "toClient", "registry_data"):
        return build_packet(rig.codec, "configuration", "toClient", "registry_data", id=name, entries=[])
    key = name.encode()  # 1.20.4: one compound holds every registry; a byte tag names this one
    return (pack_varint(rig.codec.table.packet_id("configuration", "toClient", "registry_data"))
            + b"\x0a\x01" + len(key).to_bytes(2, "big") + key + b"\x01\x00")


def _config_packet(rig: Rig, name: str, body: bytes) -> bytes:
    return pack_varint(rig.codec.table.packet_id("configuration", "toClient", name)) + body


def _resource_pack(rig: Rig) -> bytes:
    """A required resource pack (1.20.3+): the player is on its screen until it is fetched."""
    return _config_packet(rig, "add_resource_pack", bytes(16) + pack_string("http://127.0.0.1/pack.zip")
                          + pack_string("") + b"\x01\x00")


def _config_kick(rig: Rig, text: str) -> bytes:
    return build_packet(rig.codec, "configuration", "toClient", "disconnect",
                        reason={"text": text} if rig.codec.version != "1.20.4" else f'{{"text":"{text}"}}')


@pytest.mark.parametrize("version", ["1.20.4", "1.21.11", "26.1"])
def test_the_registries_and_tags_reach_the_client_just_before_the_finish_of_its_configuration(version: str) -> None:
    rig = network_rig(version)
    _configuring(rig)
    registry, tags = _registry(rig, "minecraft:dimension_type"), _config_packet(rig, "tags", pack_varint(0))
    flags = _config_packet(rig, "feature_flags", pack_varint(1) + pack_string("minecraft:vanilla"))
    pack = _resource_pack(rig)
    for packet in (flags, registry, tags, pack):
        rig.server_send(packet)
    assert rig.client.received() == [flags, pack]  # the rest waits: the backend may still go away
    finish = build_packet(rig.codec, "configuration", "toClient", "finish_configuration")
    rig.server_send(finish)
    assert rig.client.received() == [registry, tags, finish]  # byte for byte, in their order
    rig.client_send(build_packet(rig.codec, "configuration", "toServer", "finish_configuration"))
    join(rig, 3)
    assert rig.bridge.states.playing and rig.bridge.backend.name == "lobby"


@pytest.mark.parametrize("version", ["1.20.4", "1.21.11", "26.1"])
def test_a_backend_that_shuts_down_while_the_player_is_on_its_resource_pack_screen_is_replayed(version: str) -> None:
    rig = network_rig(version)
    lobby, settings, brand = _configuring(rig)
    lobby_registry = _registry(rig, "minecraft:lobby_only")
    rig.server_send(lobby_registry)
    rig.server_send(_resource_pack(rig))
    assert names(rig, rig.client.received(), "configuration") == ["add_resource_pack"]
    rig.server_send(_config_kick(rig, "Server closed"))  # a restart while the pack downloads
    assert rig.client.received() == []
    _closed(lobby)
    survival = rig.accept_upstream()
    survival.received()
    rig.server_send(build_packet(rig.codec, "login", "toClient", "success", username="alice"))
    assert survival.received()[1:] == [settings, brand]
    # survival is the last server: its registries go to the client as they come.
    survival_registry = _registry(rig, "minecraft:dimension_type")
    rig.server_send(survival_registry)
    rig.server_send(build_packet(rig.codec, "configuration", "toClient", "finish_configuration"))
    got = rig.client.received()
    assert got[0] == survival_registry and names(rig, got[1:], "configuration") == ["finish_configuration"]
    assert lobby_registry not in got
    rig.client_send(build_packet(rig.codec, "configuration", "toServer", "finish_configuration"))
    join(rig, 4)
    assert "lobby is unavailable (Server closed); you are on survival." in " ".join(rig.chat_texts(rig.client.received()))
    assert rig.bridge.states.playing and rig.bridge.backend.name == "survival"
    assert (rig.server.network.failovers, rig.server.network.login_failovers) == (1, 1)


def test_past_the_hold_limit_the_registries_go_to_the_client_and_a_kick_is_shown(monkeypatch) -> None:
    monkeypatch.setattr(login_failover, "HOLD_LIMIT", 64)
    rig = network_rig("1.21.11")
    _configuring(rig)
    small, big = _registry(rig, "minecraft:a"), _registry(rig, "minecraft:" + "b" * 80)
    rig.server_send(small)
    assert rig.client.received() == []
    rig.server_send(big)  # over the limit: both go, in their order
    assert rig.client.received() == [small, big]
    kick = _config_kick(rig, "Server closed")
    rig.server_send(kick)
    assert rig.client.received() == [kick]
    assert rig.reactor.tcpClients == []


def test_a_step_outside_the_table_is_our_misuse() -> None:
    rig = network_rig("1.20.1")
    _start(rig)
    failover = rig.bridge.failover
    assert isinstance(failover, LoginFailover)
    with pytest.raises(FailoverMisuse):
        failover._step("success")  # only a login replayed for a configuring client succeeds
    assert not any(phase is Phase.SETTLED for phase, event in STEPS if event != "settled")


def test_a_velocity_backend_after_a_failover_gets_its_answer_and_its_secret_shows_nowhere(logged: list[str]) -> None:
    rig = network_rig("1.21.11", servers={"lobby": "127.0.0.1:25565", "survival": {
        "address": "127.0.0.1:25570", "forwarding": {"mode": "velocity", "secret": SECRET}}})
    _start(rig)
    _login_kick(rig, "Server closed")
    survival = rig.accept_upstream()
    survival.received()
    table = rig.codec.table
    rig.server_send(pack_varint(table.packet_id("login", "toClient", "login_plugin_request")) + pack_varint(2)
                    + pack_string(CHANNEL) + b"\x04")
    (answer,) = survival.received()
    pos = read_varint(answer, read_varint(answer, 0)[1])[1]
    signature, payload = answer[pos + 1:pos + 33], answer[pos + 33:]
    assert answer[pos] == 1 and signature == hmac.new(SECRET.encode(), payload, hashlib.sha256).digest()
    assert rig.client.received() == []  # the request was the proxy's to answer
    rig.server_send(build_packet(rig.codec, "login", "toClient", "success", username="alice"))
    chat = " ".join(rig.chat_texts(_play(rig, survival)))
    assert "lobby is unavailable (Server closed); you are on survival." in chat
    for text in (chat, "\n".join(logged)):
        assert SECRET not in text


def test_every_server_down_names_none_of_their_secrets(logged: list[str]) -> None:
    rig = network_rig("1.20.1", servers={"lobby": {"address": "127.0.0.1:25565", "forwarding": {
        "mode": "legacy"}}, "survival": {"address": "127.0.0.1:25570", "forwarding": {
            "mode": "velocity", "secret": SECRET}}})
    _start(rig)
    _login_kick(rig, "Server closed")
    rig.refuse_upstream()
    kick = b"".join(rig.client.received())
    assert b"No server of the network could take you" in kick
    for text in (kick.decode("utf-8", "replace"), rig.bridge.close_reason or "", "\n".join(logged)):
        assert SECRET not in text


def test_an_answer_the_client_owed_the_old_server_never_reaches_the_next() -> None:
    rig = network_rig("1.20.1")
    _start(rig)
    request_id = rig.codec.table.packet_id("login", "toClient", "login_plugin_request")
    response_id = rig.codec.table.packet_id("login", "toServer", "login_plugin_response")
    rig.server_send(pack_varint(request_id) + pack_varint(4) + pack_string("fml:handshake") + b"\x01")
    assert len(rig.client.received()) == 1  # not the proxy's: the client is asked
    _login_kick(rig, "Server closed")
    survival = rig.accept_upstream()
    assert len(survival.received()) == 2
    rig.client_send(pack_varint(response_id) + pack_varint(4) + b"\x00")  # its answer to the lobby
    assert survival.received() == []
    # The next server's own request with the same id is answered as usual.
    rig.server_send(pack_varint(request_id) + pack_varint(4) + pack_string("fml:handshake") + b"\x02")
    rig.client.received()
    answer = pack_varint(response_id) + pack_varint(4) + b"\x00"
    rig.client_send(answer)
    assert survival.received() == [answer]


def test_a_server_lost_before_the_client_acknowledged_its_login_success_is_replayed() -> None:
    rig = network_rig("1.21.11")
    lobby = _start(rig)
    rig.server_send(build_packet(rig.codec, "login", "toClient", "success", username="alice"))
    assert names(rig, rig.client.received(), "login") == ["success"]
    _closed(lobby)  # before the client's Login Acknowledged arrived
    survival = rig.accept_upstream()
    assert len(survival.received()) == 2
    rig.client_send(build_packet(rig.codec, "login", "toServer", "login_acknowledged"))  # for the lobby
    settings = build_packet(rig.codec, "configuration", "toServer", "settings", locale="fr_fr", viewDistance=6)
    rig.client_send(settings)
    assert survival.received() == []
    rig.server_send(build_packet(rig.codec, "login", "toClient", "success", username="alice"))
    replayed = survival.received()
    assert names(rig, replayed[:1], "login", "toServer") == ["login_acknowledged"] and replayed[1:] == [settings]
    assert rig.client.received() == []
    rig.server_send(build_packet(rig.codec, "configuration", "toClient", "finish_configuration"))
    rig.client_send(build_packet(rig.codec, "configuration", "toServer", "finish_configuration"))
    assert names(rig, survival.received(), "configuration", "toServer") == ["finish_configuration"]
    join(rig, 2)
    assert "lobby closed the connection" in " ".join(rig.chat_texts(rig.client.received()))
    assert rig.bridge.states.playing
