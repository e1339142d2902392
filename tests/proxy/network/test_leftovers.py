"""A switch before 1.20.2 takes the old backend's tab list, boss bars, objectives, teams, titles and
tab header off the client, before the new Join Game (proxy.codec.leftovers)."""
from __future__ import annotations

import uuid

import pytest

from proxy.codec.leftovers import LIMITS, PLAYERS, Leftovers
from proxy.protocol.wire import pack_string, pack_varint
from proxy.testing import codec_for, packet_id
from tests.proxy.network.helpers import candidate_login, join, names, network_rig, playing

BOB = str(uuid.UUID(int=0xB0B))
CAROL = str(uuid.UUID(int=0xCA201))
BAR = uuid.UUID(int=0xBA2).bytes
OTHER_BAR = uuid.UUID(int=0xBA3).bytes


def _id(rig, name: str) -> int:
    pid = rig.codec.table.packet_id("play", "toClient", name)
    assert pid is not None, name
    return pid


def _team_packet(rig) -> str:
    return "teams" if rig.codec.table.packet_id("play", "toClient", "teams") is not None else "scoreboard_team"


def _added(rig, *players: str) -> bytes:
    codec = rig.codec
    if codec.table.packet_id("play", "toClient", "player_remove") is not None:
        flags = {"add_player": True, "initialize_chat": False, "update_game_mode": False, "update_listed": True,
                 "update_latency": False, "update_display_name": False}
        return codec.build("play", "toClient", "player_info", action=flags,
                           data=[{"uuid": p, "player": {"name": "p", "properties": []}, "listed": 1} for p in players])
    return codec.build("play", "toClient", "player_info", action="add_player",
                       data=[{"uuid": p, "name": "p", "properties": [], "gamemode": 0, "ping": 0} for p in players])


def _named(rig, packet: str, name: str, mode: int, rest: bytes = b"") -> bytes:
    return pack_varint(_id(rig, packet)) + pack_string(name) + bytes([mode]) + rest


def _title(rig) -> bytes:
    if rig.codec.table.packet_id("play", "toClient", "title") is not None:
        return pack_varint(_id(rig, "title")) + pack_varint(0) + pack_string('{"text":"Welcome"}')
    return pack_varint(_id(rig, "set_title_text")) + pack_string('{"text":"Welcome"}')


def _old_backend_screen(rig) -> None:
    """Two players, a boss bar (1.9+) and a second one it removed, an objective, a team and one it
    removed, a title and a tab header."""
    rig.server_send(_added(rig, BOB, CAROL))
    if rig.codec.table.packet_id("play", "toClient", "boss_bar") is not None:
        for bar, action in ((BAR, 0), (OTHER_BAR, 0), (OTHER_BAR, 1)):
            rig.server_send(pack_varint(_id(rig, "boss_bar")) + bar + pack_varint(action) + b"\x00" * 8)
    rig.server_send(_named(rig, "scoreboard_objective", "kills", 0, pack_string("Kills") + b"\x00"))
    rig.server_send(_named(rig, _team_packet(rig), "red", 0, b"\x00" * 6))
    rig.server_send(_named(rig, _team_packet(rig), "blue", 0, b"\x00" * 6))
    rig.server_send(_named(rig, _team_packet(rig), "blue", 1))
    rig.server_send(_title(rig))
    rig.server_send(pack_varint(_id(rig, "playerlist_header")) + pack_string('{"text":"Lobby"}') * 2)


@pytest.mark.parametrize("version", ["1.8.8", "1.12.2", "1.16.5", "1.19", "1.20.1"])
def test_a_legacy_switch_takes_the_old_backends_screen_off_before_the_new_join_game(version: str) -> None:
    rig = network_rig(version)
    playing(rig)
    _old_backend_screen(rig)
    got = rig.client.received()
    assert len(got) >= 7  # the client saw them all, as they came
    rig.server.network.send(rig.bridge, "survival")
    candidate_login(rig)
    join(rig, 7, dimension=0) if version in ("1.8.8", "1.12.2") else join(rig, 7)
    got = rig.client.received()
    kinds = names(rig, got)
    first_join = kinds.index("login")
    cleanup = got[:first_join]
    codec = rig.codec
    expected = [_named(rig, _team_packet(rig), "red", 1), _named(rig, "scoreboard_objective", "kills", 1)]
    if codec.table.packet_id("play", "toClient", "boss_bar") is not None:
        expected.append(pack_varint(_id(rig, "boss_bar")) + BAR + pack_varint(1))  # not the one it removed
    if codec.table.packet_id("play", "toClient", "player_remove") is not None:
        expected.append(codec.build("play", "toClient", "player_remove", players=[BOB, CAROL]))
    else:
        expected.append(codec.build("play", "toClient", "player_info", action="remove_player",
                                    data=[{"uuid": BOB}, {"uuid": CAROL}]))
    if codec.table.packet_id("play", "toClient", "clear_titles") is not None:
        expected.append(pack_varint(_id(rig, "clear_titles")) + b"\x01")
    else:
        reset = 4 if version == "1.8.8" else 5  # 1.11 put the action bar at 2
        expected.append(pack_varint(_id(rig, "title")) + pack_varint(reset))
    expected.append(pack_varint(_id(rig, "playerlist_header")) + pack_string('{"text":""}') * 2)
    assert cleanup[:len(expected)] == expected
    assert "You are on survival now." in " ".join(rig.chat_texts(cleanup[len(expected):]))  # and nothing else
    assert len(cleanup) == len(expected) + 1
    assert kinds[first_join:first_join + 2] == ["login", "respawn"]
    # The new backend's own screen is tracked afresh: a second move takes off only its players.
    rig.server_send(_added(rig, CAROL))
    rig.client.received()
    assert rig.bridge.play.leftovers.keys(PLAYERS) == [CAROL]


@pytest.mark.parametrize("version", ["1.20.4", "1.21.11"])
def test_a_configuration_switch_sends_no_clean_up(version: str) -> None:
    rig = network_rig(version)
    playing(rig)
    assert rig.bridge.play.leftovers is None  # the client drops the old server's screen itself


def test_nothing_is_tracked_in_front_of_one_server() -> None:
    rig = network_rig("1.12.2", servers={}, try_order=[])
    playing(rig)
    assert rig.bridge.play.leftovers is None


def test_tracking_is_bounded_and_a_malformed_packet_is_ignored() -> None:
    codec = codec_for("1.12.2")
    leftovers = Leftovers(codec)
    rig_like = type("R", (), {"codec": codec})()
    many = [str(uuid.UUID(int=n + 1)) for n in range(LIMITS[PLAYERS] + 5)]
    leftovers.saw(packet_id(_added(rig_like, *many)), _added(rig_like, *many))
    assert len(leftovers.keys(PLAYERS)) == LIMITS[PLAYERS] and leftovers.untracked == 5
    boss_bar = codec.table.packet_id("play", "toClient", "boss_bar")
    leftovers.saw(boss_bar, pack_varint(boss_bar) + b"\x01\x02")  # cut short: not tracked, no error
    info = codec.table.packet_id("play", "toClient", "player_info")
    leftovers.saw(info, pack_varint(info) + b"\x00\xff\xff")
    assert leftovers.keys("boss bars") == []
    removal = leftovers.take_off()
    assert len(removal) == 1 and leftovers.keys(PLAYERS) == []
    fields = codec.decode("play", "toClient", "player_info", removal[0])
    assert fields["action"] == "remove_player" and len(fields["data"]) == LIMITS[PLAYERS]


def test_a_move_that_fails_after_leaving_the_old_world_still_takes_its_screen_off() -> None:
    rig = network_rig("1.12.2")
    playing(rig)
    rig.server_send(_added(rig, BOB))
    rig.client.received()
    rig.server.network.send(rig.bridge, "survival")
    candidate_login(rig)  # the old backend is left; survival never sends its Join Game
    rig.reactor.advance(rig.server.config.limits.upstream_answer_seconds + 0.1)
    got = rig.client.received()
    removal = rig.codec.build("play", "toClient", "player_info", action="remove_player", data=[{"uuid": BOB}])
    assert removal in got
    assert "did not answer" in " ".join(rig.chat_texts(got))
