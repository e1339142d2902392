"""Protocol-level round trips for the releases whose tables come from a commit of the
minecraft-data repository rather than the pinned npm package (26.2).

No peer speaks these releases yet: minecraft-protocol 1.68.0 (the newest installed, and
mineflayer and flying-squid with it) stops at 26.1, because the npm release of minecraft-data
it reads has no 26.2 data. So both ends here are the project's own encoder, building every
packet from the same generated tables the proxy reads (``proxy.testing``), and the proxy in
between is the real one (``ProxyServer`` on Twisted's memory reactor). This proves the proxy
relays and decodes 26.2 as the repository's data describes it; it cannot prove that data
matches what a vanilla 26.2 client or server sends. 26.1 runs the same test as a control.
"""
from __future__ import annotations

import numpy as np
import pytest

from engine.world.blocks import BlockTable
from engine.world.snapshot import Vec3
from proxy.protocol.handshake import parse_handshake
from proxy.protocol.tables import table_for_version
from proxy.protocol.wire import pack_varint
from proxy.protocol.versions import SUPPORTED
from proxy.testing import Rig, build_packet, handshake_packet, packet_id
from tests.proxy.test_chunks import encode_column

FROM_REPOSITORY = [v.name for v in SUPPORTED if v.commit]


def test_the_repository_rows_are_the_ones_named() -> None:
    assert "26.2" in FROM_REPOSITORY  # a later release read from a commit joins it, and every test here


def _layouts(version: str) -> dict[str, object]:
    table = table_for_version(version)
    found: dict[str, object] = {f"type {name}": layout for name, layout in table.named_types.items()}
    for state in ("handshaking", "login", "configuration", "play"):
        for direction in ("toClient", "toServer"):
            for name in table.ids(state, direction):
                layout = table.raw_layout(state, direction, name)
                if layout is not None:
                    found[f"{state} {direction} {name}"] = layout
    return found


def test_26_2_is_26_1_plus_what_its_commit_changed() -> None:
    """26.2's commit was built on the repository's 1.21.11 and kept its stale copies of layouts it
    did not touch (entity_teleport with byte angles and no relatives, the pre-1.21.2 shape);
    the generators lay its changes onto the npm package's 26.1, so those are 26.1's. What is
    left different is what 26.2 changed (docs/versions.md lists it)."""
    new, old = _layouts("26.2"), _layouts("26.1")
    assert new["play toClient entity_teleport"] == old["play toClient entity_teleport"]
    assert new["type Particle"] == old["type Particle"]
    assert {key for key in new.keys() | old.keys() if new.get(key) != old.get(key)} == {
        "login toClient success",         # + sessionId
        "play toClient login",            # + onlineMode
        "play toClient update_time",      # age -> gameTime, a clock's id -> clock
        "play toServer use_entity",       # same wire, the commit's names (hand, usingSecondaryAction)
    }


@pytest.mark.parametrize("version", FROM_REPOSITORY + ["26.1"])
def test_handshake_login_configuration_play_chat_chunk_and_position(version: str) -> None:
    rig = Rig(version)
    codec = rig.codec
    # Handshake and login start reach the server byte for byte, naming the release's protocol.
    rig.connect_client()
    hello = handshake_packet(codec.protocol)
    start = build_packet(codec, "login", "toServer", "login_start", username="alice")
    rig.client_send(hello)
    rig.client_send(start)
    upstream = rig.accept_upstream()
    assert upstream.received() == [hello, start]
    assert parse_handshake(hello).protocol == codec.protocol
    # Compression, then login success (26.2 adds a session id to it).
    rig.server_send(build_packet(codec, "login", "toClient", "compress", threshold=64))
    upstream.threshold = 64
    upstream.reader.set_threshold(64)
    assert rig.client is not None
    rig.client.received()
    rig.client.threshold = 64
    rig.client.reader.set_threshold(64)
    success = build_packet(codec, "login", "toClient", "success", username="alice")
    rig.server_send(success)
    assert rig.client.received() == [success]
    assert codec.decode("login", "toClient", "success", success)["username"] == "alice"
    # Configuration both ways, then play.
    rig.client_send(build_packet(codec, "login", "toServer", "login_acknowledged"))
    done = build_packet(codec, "configuration", "toClient", "finish_configuration")
    rig.server_send(done)
    assert rig.client.received() == [done]
    rig.client_send(build_packet(codec, "configuration", "toServer", "finish_configuration"))
    assert [packet_id(p) for p in upstream.received()] == [
        codec.table.packet_id("login", "toServer", "login_acknowledged"),
        codec.table.packet_id("configuration", "toServer", "finish_configuration")]
    # Play join: the server's login packet (26.2 adds onlineMode) reaches the client unchanged
    # and tells the proxy who the player is.
    join = build_packet(codec, "play", "toClient", "login", entityId=4242)
    rig.server_send(join)
    assert rig.client.received() == [join]
    session = rig.bridge.session
    assert session is not None and session.world.entity_id == 4242
    # A position the proxy decodes.
    where = build_packet(codec, "play", "toClient", "position", x=12.5, y=70.0, z=-3.25, teleportId=1)
    rig.server_send(where)
    assert rig.client.received() == [where]
    assert session.world.position == Vec3(12.5, 70.0, -3.25)
    # A chunk column the proxy decodes into its world model (and forwards unchanged).
    stone = BlockTable.for_version(version).state_for("stone")
    section = np.zeros(4096, dtype=np.uint32)
    section[0] = stone                       # (0, 0, 0) of section 4: y = 0 in a -64..320 world
    column = encode_column(codec.table, 0, 0, {4: section}, height=384)
    rig.server_send(column)
    assert rig.client.received() == [column]
    for _ in range(5):
        rig.reactor.advance(0)
    assert session.control.store.get(0, 0, 0) == stone and session.control.store.get(1, 0, 0) == 0
    # Chat both ways: a player's line reaches the server as sent, a server line the client.
    name = "chat_message" if codec.table.packet_id("play", "toServer", "chat_message") is not None else "chat"
    line = build_packet(codec, "play", "toServer", name, message="hello from 26.x")
    rig.client_send(line)
    assert upstream.received() == [line]
    said = codec.chat_to_client({"text": "hello back"})
    rig.server_send(said)
    received = rig.client.received()
    assert received == [said] and rig.chat_texts(received) == ["hello back"]
    # A proxy command is answered by the proxy and never reaches the server.
    rig.client_send(build_packet(codec, "play", "toServer", name, message="!help"))
    assert upstream.received() == []
    assert any("!ping" in t for t in rig.chat_texts(rig.client.received()))


@pytest.mark.parametrize("version", FROM_REPOSITORY + ["26.1"])
def test_command_tree_and_a_return_to_configuration_mid_play(version: str) -> None:
    """The rest of what works per version, on a release read from a commit: the server's command
    tree gains /ai and /agent, and the server may send the client back to configuration mid-play
    (start_configuration -> configuration_acknowledged -> finish_configuration both ways), after
    which chat and proxy commands work again."""
    from proxy.protocol.zero_values import zero_value

    rig = Rig(version)
    codec = rig.codec
    rig.login()
    assert rig.client is not None and rig.upstream is not None
    rig.server_send(build_packet(codec, "play", "toClient", "login", entityId=7))
    rig.client.received()
    node = zero_value(codec.table.named_types["command_node"], codec.table.named_types)
    flags = dict(node["flags"])
    root = {**node, "flags": {**flags, "command_node_type": 0}, "children": [1], "extraNodeData": None}
    tp = {**node, "flags": {**flags, "command_node_type": 1, "has_command": 1}, "children": [],
          "extraNodeData": {"name": "tp"}}
    rig.server_send(codec.encode("play", "toClient", "declare_commands", {"nodes": [root, tp], "rootIndex": 0}))
    [tree] = rig.client.received()
    seen = codec.decode("play", "toClient", "declare_commands", tree)
    nodes = seen["nodes"]
    assert {nodes[i]["extraNodeData"]["name"] for i in nodes[seen["rootIndex"]]["children"]} == {"tp", "ai", "agent"}
    # Back to configuration, as a server does to change a resource pack or registries.
    back = build_packet(codec, "play", "toClient", "start_configuration")
    rig.server_send(back)
    assert rig.client.received() == [back]
    ack_id = codec.table.packet_id("play", "toServer", "configuration_acknowledged")
    assert ack_id is not None
    ack = pack_varint(ack_id)  # a packet without fields
    rig.client_send(ack)
    assert rig.upstream.received() == [ack]
    done = build_packet(codec, "configuration", "toClient", "finish_configuration")
    rig.server_send(done)
    assert rig.client.received() == [done]
    finished = build_packet(codec, "configuration", "toServer", "finish_configuration")
    rig.client_send(finished)
    assert rig.upstream.received() == [finished]
    # In play again: an ordinary line is forwarded unchanged, a proxy command answered by the proxy.
    name = "chat_message" if codec.table.packet_id("play", "toServer", "chat_message") is not None else "chat"
    line = build_packet(codec, "play", "toServer", name, message="back in play")
    rig.client_send(line)
    assert rig.upstream.received() == [line]
    rig.client_send(build_packet(codec, "play", "toServer", name, message="!help"))
    assert rig.upstream.received() == []
    assert any("!ping" in t for t in rig.chat_texts(rig.client.received()))
