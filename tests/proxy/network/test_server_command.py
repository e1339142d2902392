"""/server, !server and the console's send: in the command tree, completed, permitted per server."""
from __future__ import annotations

from typing import Any

import pytest

from engine.chat_tap import ChatKind, classify
from proxy.codec.versioned import VersionCodec
from proxy.protocol.tables import table_for_version
from proxy.protocol.zero_values import zero_value
from proxy.testing import Rig, build_packet
from tests.proxy.network.helpers import SURVIVAL, candidate_login, join, network_rig, next_connection, playing


def _tree(version: str, servers: list[str] | None) -> dict[str, Any]:
    codec = VersionCodec(table_for_version(version))
    node = zero_value(codec.table.named_types["command_node"], codec.table.named_types)
    root = {**node, "flags": {**node["flags"], "command_node_type": 0}, "children": [], "extraNodeData": None}
    server_tree = codec.encode("play", "toClient", "declare_commands", {"nodes": [root], "rootIndex": 0})
    return codec.decode("play", "toClient", "declare_commands", codec.rewrite("declare_commands", server_tree, (),
                                                                                servers))


def _children(fields: dict[str, Any], index: int) -> dict[str, int]:
    nodes = fields["nodes"]
    return {nodes[i]["extraNodeData"]["name"]: i for i in nodes[index]["children"]
            if isinstance(nodes[i]["extraNodeData"], dict)}


@pytest.mark.parametrize("version", ["1.13.2", "1.20.1", "1.21.11", "26.1"])
def test_server_is_in_the_command_tree_with_the_players_servers(version: str) -> None:
    fields = _tree(version, ["lobby", "survival"])
    server = _children(fields, fields["rootIndex"])["server"]
    assert {"lobby", "survival", "server"} <= set(_children(fields, server))  # literals + the free argument
    assert "server" not in _children(_tree(version, None), fields["rootIndex"])  # one server: the backend's own


def test_slash_server_is_ours_only_in_front_of_several_servers() -> None:
    assert classify("/server survival", server_command=True).kind is ChatKind.COMMAND
    assert classify("/server survival", server_command=True).body == "server survival"
    assert classify("/server survival").kind is ChatKind.PASS


def _typed(rig: Rig, text: str) -> None:
    codec = rig.codec
    if text.startswith("/") and codec.table.packet_id("play", "toServer", "chat_command") is not None:
        rig.client_send(build_packet(codec, "play", "toServer", "chat_command", command=text[1:]))
    else:
        name = "chat_message" if codec.table.packet_id("play", "toServer", "chat_message") is not None else "chat"
        rig.client_send(build_packet(codec, "play", "toServer", name, message=text))


@pytest.mark.parametrize(("version", "line"), [("1.12.2", "/server survival"), ("1.12.2", "!server survival"),
                                               ("1.21.11", "/server survival"), ("26.1", "!server survival")])
def test_server_commands_move_the_player_and_never_reach_the_backend(version: str, line: str) -> None:
    rig = network_rig(version)
    playing(rig)
    old = rig.upstream
    old.received()
    _typed(rig, line)
    assert old.received() == []
    assert next_connection(rig) == SURVIVAL
    assert "Moving you to survival..." in " ".join(rig.chat_texts(rig.client.received()))


def test_bare_server_lists_and_an_unknown_name_is_answered() -> None:
    rig = network_rig("1.20.1")
    playing(rig)
    _typed(rig, "!server")
    assert "Servers: lobby (you are here), survival." in " ".join(rig.chat_texts(rig.client.received()))
    _typed(rig, "/server moon")
    assert "No server 'moon' for you" in " ".join(rig.chat_texts(rig.client.received()))


def test_slash_server_goes_to_the_backend_in_front_of_one_server() -> None:
    rig = Rig("1.20.1", login_rate_limit_seconds=0)
    playing(rig)
    rig.upstream.received()
    packet = build_packet(rig.codec, "play", "toServer", "chat_message", message="/server survival")
    rig.client_send(packet)
    assert rig.upstream.received() == [packet]


def test_the_console_sends_a_player_and_the_move_completes() -> None:
    rig = network_rig("1.20.1")
    playing(rig)
    assert rig.server.console is None
    from proxy.operations.console import ConsoleCommands

    console = ConsoleCommands(rig.server, lambda: [], lambda: None)
    assert console.execute("send alice survival") == ["alice: Moving you to survival..."]
    assert console.execute("send bob survival") == ["error: no player 'bob' is connected",
                                                    "usage: send PLAYER SERVER"]
    candidate_login(rig)
    join(rig, 5)
    assert rig.bridge.backend.name == "survival"
