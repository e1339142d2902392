"""Adversarial server packets: every count the proxy decodes is bounded, and a bad packet
kicks only the player it was sent to, with the malformed-packet reason (invariant 7)."""
from __future__ import annotations

import json
from typing import Any

import pytest

from proxy.codec.versioned import VersionCodec
from proxy.protocol.zero_values import zero_value
from proxy.protocol.layout_codec import FIELD_LIMITS
from proxy.protocol.tables import table_for_version
from proxy.protocol.wire import pack_varint
from proxy.testing import build_packet
from tests.proxy.harness import Rig


def _two_players(version: str = "1.18.2") -> tuple[Rig, Rig]:
    bad = Rig(version, login_rate_limit_seconds=0)
    bad.login("mallory")
    good = bad.another()  # same server, a second client and upstream
    good.login("alice", port=50001)
    return bad, good


def _kicked_as_malformed(rig: Rig, fragment: str) -> None:
    packets = rig.client.received()
    assert rig.client.transport.disconnecting
    reason = packets[-1].decode("utf-8", "replace")
    assert "malformed packet" in reason and fragment in reason, reason
    assert "Internal error" not in reason


def _other_still_relays(good: Rig) -> None:
    chat = build_packet(good.codec, "play", "toClient", good.codec.chat_packet, message='{"text":"hi"}',
                        position=0, sender="00000000-0000-0000-0000-000000000000")
    good.server_send(chat)
    assert good.chat_texts(good.client.received()) == ["hi"]
    assert not good.client.transport.disconnecting


def _node(codec: VersionCodec, kind: int, children: list[int], name: str | None = None) -> dict[str, Any]:
    node = zero_value(codec.table.named_types["command_node"], codec.table.named_types)
    extra = None if name is None else {"name": name}
    return {**node, "flags": {**node["flags"], "command_node_type": kind, "has_command": 1 if kind else 0},
            "children": children, "extraNodeData": extra}


def _tree(codec: VersionCodec, nodes: list[dict[str, Any]], root: int = 0) -> bytes:
    return codec.encode("play", "toClient", "declare_commands", {"nodes": nodes, "rootIndex": root})


def test_a_command_tree_with_a_million_nodes_kicks_only_that_player() -> None:
    bad, good = _two_players()
    pid = bad.codec.table.packet_id("play", "toClient", "declare_commands")
    count = 1_000_000  # two bytes each: flags 0, no children (about 2 KB compressed)
    packet = pack_varint(pid) + pack_varint(count) + b"\x00\x00" * count + pack_varint(0)
    bad.server_send(packet)
    _kicked_as_malformed(bad, "command tree of 1000000 nodes")
    _other_still_relays(good)


@pytest.mark.parametrize("root,children", [(5, [1]), (0, [1, 7])])
def test_a_command_tree_pointing_outside_itself_is_malformed(root: int, children: list[int]) -> None:
    bad, good = _two_players()
    codec = bad.codec
    bad.server_send(_tree(codec, [_node(codec, 0, children), _node(codec, 1, [], "tp")], root))
    _kicked_as_malformed(bad, "command tree root")
    _other_still_relays(good)


def test_a_chat_component_nested_ten_thousand_deep_is_malformed() -> None:
    bad, good = _two_players()
    deep = '{"text":"x","extra":[' * 10_000 + '"y"' + "]}" * 10_000
    bad.server_send(build_packet(bad.codec, "play", "toClient", "chat", message=deep, position=0,
                                 sender="00000000-0000-0000-0000-000000000000"))
    _kicked_as_malformed(bad, "nested too deep")
    _other_still_relays(good)


def test_an_array_count_larger_than_the_bytes_left_is_refused_before_decoding() -> None:
    bad, good = _two_players()
    pid = bad.codec.table.packet_id("play", "toClient", "entity_destroy")
    bad.server_send(pack_varint(pid) + pack_varint(10_000) + b"\x01" * 100)
    _kicked_as_malformed(bad, "10000 entries in 100 bytes")
    _other_still_relays(good)


@pytest.mark.parametrize("name,field", [("entity_destroy", "entityIds"), ("window_items", "items")])
def test_record_counts_above_the_limit_kick_with_a_reason(name: str, field: str) -> None:
    bad, good = _two_players()
    codec = bad.codec
    count = FIELD_LIMITS[field] + 1
    if name == "entity_destroy":
        packet = pack_varint(codec.table.packet_id("play", "toClient", name)) + pack_varint(count) + b"\x01" * count
    else:  # window 0, state 0, then the count (1.17.1+: a varint) and one empty slot per byte
        packet = (pack_varint(codec.table.packet_id("play", "toClient", name)) + b"\x00" + pack_varint(0)
                  + pack_varint(count) + b"\x00" * (count + 1))
    bad.server_send(packet)
    _kicked_as_malformed(bad, f"{count} entries, more than the {count - 1}")
    _other_still_relays(good)


def test_multi_block_change_records_are_bounded() -> None:
    bad, good = _two_players()
    codec = bad.codec
    count = FIELD_LIMITS["records"] + 1
    packet = (pack_varint(codec.table.packet_id("play", "toClient", "multi_block_change")) + b"\x00" * 8 + b"\x00"
              + pack_varint(count) + b"\x01" * count)
    bad.server_send(packet)
    _kicked_as_malformed(bad, f"{count} entries")
    _other_still_relays(good)


def test_the_tree_rewrite_keeps_the_servers_node_bytes_and_caches_the_result() -> None:
    """Nodes are spliced, never re-encoded: a node in a non-canonical encoding (its children
    count as a two-byte varint) reaches the client exactly as the server wrote it."""
    codec = VersionCodec(table_for_version("1.18.2"))
    pid = codec.table.packet_id("play", "toClient", "declare_commands")
    root = codec.table.named_codec("command_node")
    out = bytearray()
    root.encode(_node(codec, 0, [1]), out, [])
    odd = b"\x01" + b"\x80\x00" + pack_varint(2) + b"tp"  # literal "tp", zero children written in two bytes
    packet = pack_varint(pid) + pack_varint(2) + bytes(out) + odd + pack_varint(0)
    rewritten = codec.rewrite("declare_commands", packet)
    assert odd in rewritten
    seen = codec.decode("play", "toClient", "declare_commands", rewritten)
    names = {seen["nodes"][i]["extraNodeData"]["name"] for i in seen["nodes"][seen["rootIndex"]]["children"]}
    assert names == {"tp", "ai", "agent"}
    assert codec.rewrite("declare_commands", packet) is rewritten  # the next login's tree: one hash


def test_a_ten_thousand_node_tree_is_rewritten_to_the_same_tree_plus_ours() -> None:
    codec = VersionCodec(table_for_version("1.20.4"))
    nodes = [_node(codec, 0, list(range(1, 10_000)))] + [_node(codec, 1, [], f"c{i}") for i in range(1, 10_000)]
    packet = _tree(codec, nodes)
    seen = codec.decode("play", "toClient", "declare_commands", codec.rewrite("declare_commands", packet))
    assert len(seen["nodes"]) == 10_004
    assert seen["nodes"][1:10_000] == nodes[1:]
    assert len(seen["nodes"][0]["children"]) == 10_001


def test_nbt_nested_past_the_limit_is_malformed() -> None:
    from proxy.protocol import nbt
    from proxy.protocol.errors import PeerError

    body = b"\x0a\x00\x01a" * 600 + b"\x00" * 601  # compounds inside compounds, 600 deep
    with pytest.raises(PeerError, match="too deep"):
        nbt.read_nbt(b"\x0a\x00\x00" + body, 0)


def test_json_text_nested_deep_is_not_a_recursion_error() -> None:
    from proxy.codec.chat import plain_text
    from proxy.protocol.errors import PeerError

    with pytest.raises(PeerError):
        plain_text("[" * 100_000 + "]" * 100_000)
    assert plain_text(json.dumps({"text": "a", "extra": [{"text": "b"}]})) == "ab"


def _argument_nodes(codec: VersionCodec) -> list[dict[str, Any]]:
    """One argument node per parser this version knows, properties at their zero values, and
    one with custom suggestions and a redirect: everything the scanner must step over."""
    named = codec.table.named_types
    layout = named["command_node"]
    argument = {f["name"]: f["type"] for f in {f["name"]: f["type"] for f in layout[1]}["extraNodeData"][1]["fields"]["2"][1]}
    parser = argument["parser"]
    parsers = list(parser[1]["mappings"].values()) if isinstance(parser, list) else \
        list(argument["properties"][1]["fields"]) + ["minecraft:block_pos"]
    base = _node(codec, 2, [])
    nodes = []
    for name in parsers:
        kind = argument["properties"][1]["fields"].get(name, "void")
        properties = None if kind == "void" else zero_value(kind, named)
        if isinstance(properties, dict) and "flags" in properties and isinstance(properties["flags"], dict):
            properties["flags"] = {**properties["flags"], "min_present": 1, "max_present": 1}
            properties.update({"min": 1, "max": 2})
        nodes.append({**base, "extraNodeData": {"name": "arg", "parser": name, "properties": properties,
                                                "suggestionType": None}})
    suggesting = {**nodes[0], "flags": {**nodes[0]["flags"], "has_custom_suggestions": 1, "has_redirect_node": 1},
                  "redirectNode": 0, "extraNodeData": {**nodes[0]["extraNodeData"], "suggestionType": "minecraft:ask_server"}}
    return nodes + [suggesting]


@pytest.mark.parametrize("version", ["1.13.2", "1.16.5", "1.18.2", "1.19.2", "1.19.3", "1.20.4", "1.21.4", "26.1"])
def test_the_node_scanner_ends_every_node_where_the_layout_does(version: str) -> None:
    from proxy.codec.command_tree import node_scanner

    codec = VersionCodec(table_for_version(version))
    scan = node_scanner(codec.table.named_types["command_node"], codec.table.compile_layout)
    node = codec.table.named_codec("command_node")
    for value in [_node(codec, 0, [1, 2]), _node(codec, 1, [3], "lit")] + _argument_nodes(codec):
        out = bytearray()
        node.encode(value, out, [])
        wire = bytes(out) + b"\xAA"  # whatever follows the node
        assert scan(wire, 0) == node.decode(wire, 0, [])[1] == len(out), value
