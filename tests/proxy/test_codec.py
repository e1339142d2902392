"""The versioned codec for every supported version: round trips and translations."""
from __future__ import annotations

import json

import pytest

from engine import events as ev
from proxy.codec import translators
from proxy.codec import subscriptions
from proxy.codec.chat import plain_text
from proxy.codec.translators import TRANSLATORS
from proxy.codec.versioned import VersionCodec
from proxy.protocol.tables import table_for_version
from proxy.testing import build_packet
from proxy.protocol.versions import SUPPORTED

VERSIONS = [v.name for v in SUPPORTED]


@pytest.fixture(params=VERSIONS)
def codec(request: pytest.FixtureRequest) -> VersionCodec:
    return VersionCodec(table_for_version(request.param))


def test_every_subscription_has_a_translator() -> None:
    for name in subscriptions.TO_SERVER_PLAY:
        assert ("toServer", name) in TRANSLATORS
    for name in subscriptions.TO_CLIENT_PLAY:
        assert ("toClient", name) in TRANSLATORS


def test_table_protocol_numbers_match_the_supported_list() -> None:
    for v in SUPPORTED:
        assert table_for_version(v.name).protocol == v.protocol


def test_client_chat_round_trip(codec: VersionCodec) -> None:
    name = "chat_message" if codec.table.packet_id("play", "toServer", "chat_message") is not None else "chat"
    packet = build_packet(codec, "play", "toServer", name, message="héllo 你好")
    fields = codec.decode("play", "toServer", name, packet)
    assert translators.events(codec, "toServer", name, fields) == [ev.ChatTyped("héllo 你好")]
    assert name in codec.subscribed["toServer"].values()


def test_system_chat_to_client_round_trip(codec: VersionCodec) -> None:
    component = {"text": "", "extra": [{"text": "[mcagent] ", "color": "aqua"}, {"text": "hi ✓"}]}
    packet = codec.chat_to_client(component)
    fields = codec.decode("play", "toClient", codec.chat_packet, packet)
    content = fields.get("message") or fields.get("content")
    # JSON text until 1.20.2, NBT from 1.20.3 (read back as a dict).
    assert (content if isinstance(content, dict) else json.loads(content)) == component
    assert plain_text(content) == "[mcagent] hi ✓"
    # Never shown as another player's chat or in the action bar.
    assert fields.get("position", 1) == 1 and not fields.get("isActionBar", False)


def test_kick_round_trip(codec: VersionCodec) -> None:
    fields = codec.decode("play", "toClient", "kick_disconnect", codec.kick("bye"))
    assert plain_text(fields["reason"]) == "bye"


def test_server_position_and_relative_flags(codec: VersionCodec) -> None:
    named_flags = "bitflags" in json.dumps(codec.table.named_types.get("PositionUpdateRelatives", ""))
    flags = {"x": True} if named_flags else 0x01
    packet = build_packet(codec, "play", "toClient", "position", x=1.5, y=2.0, z=3.0, yaw=90.0, pitch=0.0, flags=flags)
    fields = codec.decode("play", "toClient", "position", packet)
    (event,) = translators.events(codec, "toClient", "position", fields)
    assert isinstance(event, ev.PositionSet)
    assert (event.x, event.y, event.z, event.relative) == (1.5, 2.0, 3.0, frozenset({"x"}))


def test_health_round_trip(codec: VersionCodec) -> None:
    packet = build_packet(codec, "play", "toClient", "update_health", health=5.5, food=3, foodSaturation=1.0)
    fields = codec.decode("play", "toClient", "update_health", packet)
    assert translators.events(codec, "toClient", "update_health", fields) == [ev.HealthChanged(5.5, 3, 1.0)]


def test_set_slot_names_the_item(codec: VersionCodec) -> None:
    item_id = next(i for i, n in codec.table.items.items() if n == "stone")
    named = json.dumps(codec.table.named_types.get("slot") or codec.table.named_types.get("Slot"))
    if "blockId" in named:  # until 1.12: block id, count, damage
        item = {"blockId": item_id, "itemCount": 3, "itemDamage": 0, "nbtData": None}
    elif "present" in named:  # 1.13-1.20.4: present flag, id, count, NBT
        item = {"present": True, "itemId": item_id, "itemCount": 3, "nbtData": None}
    else:  # 1.20.5+: count first, then id and data components
        item = {"itemCount": 3, "itemId": item_id, "addedComponentCount": 0, "removedComponentCount": 0,
                "components": [], "removeComponents": []}
    packet = build_packet(codec, "play", "toClient", "set_slot", windowId=0, slot=36, item=item)
    fields = codec.decode("play", "toClient", "set_slot", packet)
    assert translators.events(codec, "toClient", "set_slot", fields) == [ev.InventorySlotSet(36, ev.SlotItem("minecraft:stone", 3))]
    assert "set_slot" in codec.subscribed["toClient"].values()


@pytest.mark.parametrize("version", ["1.8.8", "1.12.2", "1.18.2", "1.20.4", "1.21.4"])
def test_own_metadata_reads_burning_and_air(version: str) -> None:
    codec = VersionCodec(table_for_version(version))
    if codec.protocol < 107:  # 1.8: key = type << 5 | index
        raw = bytes([0x00, 0x01, (1 << 5) | 1]) + (120).to_bytes(2, "big") + b"\x7f"
    else:  # index, type varint, value
        raw = bytes([0, 0, 0x01, 1, 1]) + bytes([120]) + b"\xff"
    packet = codec.encode("play", "toClient", "entity_metadata", {"entityId": 7, "metadata": raw})
    fields = codec.decode("play", "toClient", "entity_metadata", packet)
    assert fields["entityId"] == 7
    assert translators.events(codec, "toClient", "entity_metadata", fields) == [ev.OwnMetadata(True, 120)]


def test_command_tree_injection_round_trip(codec: VersionCodec) -> None:
    """Decode a server's tree, add /ai and /agent, re-encode, and decode what the client gets."""
    if codec.table.packet_id("play", "toClient", "declare_commands") is None:
        pytest.skip("no command tree before 1.13: /ai and /agent arrive as chat there")
    from proxy.protocol.zero_values import zero_value

    node = zero_value(codec.table.named_types["command_node"], codec.table.named_types)
    flags = dict(node["flags"])
    root = {**node, "flags": {**flags, "command_node_type": 0}, "children": [1], "extraNodeData": None}
    tp = {**node, "flags": {**flags, "command_node_type": 1, "has_command": 1}, "children": [],
          "extraNodeData": {"name": "tp"}}
    server_tree = codec.encode("play", "toClient", "declare_commands", {"nodes": [root, tp], "rootIndex": 0})
    rewritten = codec.rewrite("declare_commands", server_tree)
    seen = codec.decode("play", "toClient", "declare_commands", rewritten)
    nodes = seen["nodes"]
    names = {nodes[i]["extraNodeData"]["name"]: nodes[i] for i in nodes[seen["rootIndex"]]["children"]}
    assert set(names) == {"tp", "ai", "agent"}
    for literal in ("ai", "agent"):
        (arg_index,) = names[literal]["children"]
        argument = nodes[arg_index]
        assert argument["extraNodeData"]["parser"] == "brigadier:string"
        assert argument["extraNodeData"]["properties"] == "GREEDY_PHRASE"
        assert argument["flags"]["has_command"] == 1
    # A server that already has /ai keeps its own node.
    again = codec.decode("play", "toClient", "declare_commands", codec.rewrite("declare_commands", rewritten))
    assert len(again["nodes"]) == len(nodes)


@pytest.mark.parametrize("version,object_id,mob_id", [("1.8.8", 2, 54), ("1.12.2", 2, 54), ("1.13.2", 2, 87)])
def test_objects_and_mobs_have_their_own_ids_until_1_13(version: str, object_id: int, mob_id: int) -> None:
    """Object 2 is a dropped item and mob 54 (87 in 1.13) a zombie: the same numbers mean other things
    in the other table, so a drop must not read as a mob nor a zombie as TNT."""
    codec = VersionCodec(table_for_version(version))
    item = translators.events(codec, "toClient", "spawn_entity",
                        codec.decode("play", "toClient", "spawn_entity",
                                     codec.build("play", "toClient", "spawn_entity", entityId=7, type=object_id)))
    zombie = translators.events(codec, "toClient", "spawn_entity_living",
                          codec.decode("play", "toClient", "spawn_entity_living",
                                       codec.build("play", "toClient", "spawn_entity_living", entityId=8, type=mob_id)))
    assert (item[0].kind, item[0].category) == ("item", "other")
    assert (zombie[0].kind, zombie[0].category) == ("zombie", "hostile")


def test_entity_names_are_registry_names_in_every_version() -> None:
    for version in [v.name for v in SUPPORTED]:
        table = table_for_version(version)
        names = {name for name, _ in table.entities.values()} | {name for name, _ in table.objects.values()}
        assert "item" in names, version
        assert all(n == n.lower() and " " not in n for n in names), version
        assert table.entities and all(c == "hostile" for n, c in table.entities.values() if n in ("zombie", "creeper"))


@pytest.mark.parametrize("version,dx,expected", [("1.8.8", 16, 0.5), ("1.12.2", 2048, 0.5), ("1.21.4", -4096, -1.0)])
def test_relative_entity_moves_are_read_in_each_versions_unit(version: str, dx: int, expected: float) -> None:
    codec = VersionCodec(table_for_version(version))
    packet = codec.build("play", "toClient", "rel_entity_move", entityId=5, dX=dx, dY=0, dZ=0, onGround=True)
    (moved,) = translators.events(codec, "toClient", "rel_entity_move", codec.decode("play", "toClient", "rel_entity_move", packet))
    assert isinstance(moved, ev.EntityMovedBy) and moved.dx == pytest.approx(expected)
