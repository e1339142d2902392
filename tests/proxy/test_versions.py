"""The one version list (proxy/data/versions.json): what it accepts, the tables behind each
accepted protocol, and the docs/versions.md table and `mcagent versions` produced from it."""
from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine import events as ev
from engine.world.blocks import BlockFlag, BlockTable
from proxy.codec import translators
from proxy.codec import subscriptions
from proxy.protocol import versions
from proxy.codec.translators import TRANSLATORS
from proxy.codec.versioned import VersionCodec
from proxy.protocol.tables import TO_CLIENT, TO_SERVER, known_versions, table_for_version

ROOT = Path(__file__).resolve().parents[2]
MINECRAFT_DATA = ROOT / ".peers" / "node_modules" / "minecraft-data"
ACCEPTED = [v.name for v in versions.SUPPORTED]
VERSIONS_DOC = ROOT / "docs" / "versions.md"
VERSIONS_TABLE = re.compile(r"<!-- versions table:[^\n]*-->\n(.*?)<!-- end of versions table -->", re.S)


def test_the_docs_versions_table_is_the_generated_one() -> None:
    found = VERSIONS_TABLE.search(VERSIONS_DOC.read_text(encoding="utf-8"))
    assert found, "docs/versions.md lost its versions table markers"
    assert found.group(1) == versions.markdown_table(), \
        "docs/versions.md's version table is stale: paste `mcagent versions --markdown` between the markers"


def test_mcagent_versions_lists_every_known_protocol_and_its_verification() -> None:
    out = subprocess.run([sys.executable, "-m", "proxy.operations.cli", "versions"], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout
    lines = out.splitlines()[1:]
    assert len(lines) == len(versions.KNOWN)
    for line, v in zip(lines, versions.KNOWN):
        assert line.split()[0] == str(v.protocol) and versions.describe(v) in line and line.endswith(v.label)


def test_the_list_is_the_one_the_tables_were_generated_from() -> None:
    assert dict(known_versions()) == {v.name: v.protocol for v in versions.SUPPORTED}
    assert list(BlockTable.versions()) == ACCEPTED


def test_every_release_protocol_the_pinned_minecraft_data_describes_is_listed() -> None:
    if not MINECRAFT_DATA.is_dir():
        pytest.skip("npm peers not installed (scripts/install-peers.sh)")
    pinned = json.loads((MINECRAFT_DATA / "package.json").read_text())["version"]
    assert pinned == versions.MINECRAFT_DATA
    data = MINECRAFT_DATA / "minecraft-data" / "data"
    paths = json.loads((data / "dataPaths.json").read_text())["pc"]
    releases: dict[int, set[str]] = {}
    for entry in json.loads((data / "pc" / "common" / "protocolVersions.json").read_text()):
        name = entry["minecraftVersion"]
        if (re.fullmatch(r"\d+\.\d+(\.\d+)?", name) and entry.get("usesNetty")
                and entry.get("releaseType") in (None, "release") and entry["version"] >= 47):
            releases.setdefault(entry["version"], set()).add(name)
    listed = {v.protocol: v for v in versions.KNOWN}
    assert set(listed) == set(releases)
    for protocol, names in releases.items():
        row = listed[protocol]
        assert set(row.releases) == names, protocol
        if row.accepted and row.commit:  # the package names it without data: the repository's commit has it
            assert row.data not in paths and row.data in names, protocol
        elif row.accepted:
            assert row.data in paths and row.data in names | {"1.8"}
        else:  # refused only where minecraft-data really has nothing
            assert not names & set(paths), protocol
    # Every protocol with data (in the package or a named repository commit) is accepted, from 1.8 on.
    assert [v.protocol for v in versions.SUPPORTED][:1] == [47]
    assert {v.protocol for v in versions.SUPPORTED} == {p for p, n in releases.items() if n & set(paths)} | {
        v.protocol for v in versions.SUPPORTED if v.commit}


def test_a_row_from_the_repository_names_its_commit_everywhere() -> None:
    """26.2's tables come from a commit of the minecraft-data repository: versions.json, the three
    generated tables (packets, blocks, item names) and `mcagent versions` name the same commit."""
    row = versions.by_name("26.2")
    assert re.fullmatch(r"[0-9a-f]{40}", row.commit) and row.verified == versions.PROTOCOL_OWN_ENCODER
    want = (f"minecraft-data repository commit {row.commit}, its changes from its 1.21.11 rebased onto "
            f"minecraft-data {versions.MINECRAFT_DATA} 26.1")
    protocol = json.loads((ROOT / "proxy" / "data" / "protocol.json").read_text())
    blocks = json.loads((ROOT / "engine" / "world" / "data" / "blocks.json").read_text())
    with gzip.open(ROOT / "engine" / "modules" / "data" / "item_names.json.gz") as raw:
        names = json.load(raw)
    assert protocol["sources"]["26.2"] == blocks["sources"]["26.2"] == names["header"]["sources"]["26.2"] == want
    assert row.commit[:12] in versions.describe(row) and "no peer speaks it" in versions.describe(row)
    from_commits = {v.name for v in versions.SUPPORTED if v.commit}
    for document in (protocol["sources"], blocks["sources"], names["header"]["sources"]):
        assert set(document) == from_commits
    assert names["versions"] == ACCEPTED  # the item names cover every accepted row too


def test_refusals_name_the_nearest_accepted_release() -> None:
    assert versions.by_protocol(108) is None
    assert versions.nearest(108).protocol == 109            # a tie goes to the newer
    assert versions.nearest(20).newest == "1.8.9"
    newest = versions.SUPPORTED[-1].newest
    assert versions.nearest(5000).newest == newest
    for row in versions.KNOWN:
        if not row.accepted:  # 108, 485, and 777 (26.3) while no data for it has been fetched
            text = versions.refusal(row.protocol)
            assert row.label in text and "no data" in text and text.endswith(
                f"The nearest supported release is {versions.nearest(row.protocol).newest}.")


def test_shared_protocols_are_one_row() -> None:
    rows = {v.protocol: v.releases for v in versions.SUPPORTED}
    assert rows[763] == ("1.20", "1.20.1")
    assert rows[772] == ("1.21.7", "1.21.8")
    assert rows[773] == ("1.21.9", "1.21.10")
    assert rows[775] == ("26.1", "26.1.1", "26.1.2")


# -- table lookups, every accepted protocol ------------------------------------------------


@pytest.mark.parametrize("name", ACCEPTED)
def test_packet_tables(name: str) -> None:
    row = versions.by_name(name)
    table = table_for_version(name)
    assert table.protocol == row.protocol
    assert table.packet_id("handshaking", TO_SERVER, "set_protocol") == 0
    assert table.packet_id("login", TO_SERVER, "login_start") == 0
    for needed in ("keep_alive", "map_chunk", "block_change", "position", "login", "kick_disconnect"):
        assert table.packet_id("play", TO_CLIENT, needed) is not None, needed
    assert any(table.packet_id("play", TO_SERVER, n) is not None for n in ("chat", "chat_message"))
    ids = table.ids("play", TO_CLIENT)
    assert len(set(ids.values())) == len(ids), "two packets share an id"
    for pid, packet in [(pid, n) for n, pid in ids.items()][:5]:
        assert table.packet_name("play", TO_CLIENT, pid) == packet
    # Every packet the proxy decodes compiles, whole or (where allowed) its leading fields.
    codec = VersionCodec(table)
    for direction, subscribed in codec.subscribed.items():
        for pid, packet in subscribed.items():  # world packets go to the chunk decoder
            assert (direction, packet) in TRANSLATORS or packet in subscriptions.WORLD_TO_CLIENT
    wanted = subscriptions.TO_CLIENT_PLAY + subscriptions.WORLD_TO_CLIENT
    missing = [n for n in wanted if table.packet_id("play", TO_CLIENT, n) is not None
               and n not in codec.subscribed[TO_CLIENT].values()]
    assert not missing, f"{name}: present but not decodable: {missing} {table.layout_errors}"


@pytest.mark.parametrize("name", ACCEPTED)
def test_registries(name: str) -> None:
    table = table_for_version(name)
    items = set(table.items.values())
    assert {"stone", "stick", "diamond_pickaxe"} <= items
    assert any(n in items for n in ("oak_log", "log"))
    kinds = {kind for kind, _ in table.entities.values()}
    assert {"zombie", "cow", "creeper"} <= kinds
    objects = {kind for kind, _ in (table.objects or table.entities).values()}
    assert {"item", "arrow"} <= objects
    codec = VersionCodec(table)
    stone = codec.item_id("minecraft:stone")
    assert stone is not None and codec.item_name(stone) == "minecraft:stone"


@pytest.mark.parametrize("name", ACCEPTED)
def test_block_tables(name: str) -> None:
    table = BlockTable.for_version(name)
    modern = "cobweb" in table._ranges
    assert table.flags(table.state_for("stone")) == BlockFlag.SOLID
    assert table.flags(table.state_for("air")) == BlockFlag.AIR
    assert table.flags(table.state_for("lava")) & BlockFlag.LAVA
    assert table.flags(table.state_for("water")) & BlockFlag.WATER
    assert table.flags(table.state_for("cobweb" if modern else "web")) == BlockFlag.AVOID
    assert table.top(table.state_for("oak_fence" if modern else "fence")) == 1.5
    assert table.name(table.state_for("stone")) == "stone"


@pytest.mark.parametrize("name", ACCEPTED)
def test_sneaking_is_read_from_one_packet(name: str) -> None:
    """The kill switch's sneak: entity_action while it has a sneak action, else player_input's
    shift key; a client sending both (1.21.2-1.21.5) counts once."""
    codec = VersionCodec(table_for_version(name))
    sneaks = []
    action = codec.field_types("play", TO_SERVER, "entity_action")["actionId"]
    if codec.sneak_packet == "entity_action":
        start = "start_sneaking" if isinstance(action, list) else 0
        sneaks += translators.events(codec, TO_SERVER, "entity_action", {"entityId": 1, "actionId": start, "jumpBoost": 0})
    else:
        assert "start_sneaking" not in action[1]["mappings"].values()
        first = translators.events(codec, TO_SERVER, "entity_action", {"entityId": 1, "actionId": action[1]["mappings"]["0"],
                                                          "jumpBoost": 0})
        assert first == []
    if codec.table.packet_id("play", TO_SERVER, "player_input") is not None:
        pid = codec.table.packet_id("play", TO_SERVER, "player_input")
        assert (pid in codec.subscribed[TO_SERVER]) == (codec.sneak_packet == "player_input")
        held = {"forward": True, "shift": True}
        for inputs in (held, dict(held, jump=True), {"forward": True}, held):
            packet = codec.encode("play", TO_SERVER, "player_input", {"inputs": inputs})
            sneaks += translators.events(codec, TO_SERVER, "player_input", codec.decode("play", TO_SERVER, "player_input", packet))
    assert sneaks == ([ev.SneakPressed()] if codec.sneak_packet == "entity_action" else [ev.SneakPressed()] * 2)


@pytest.mark.parametrize("name, click, command, hover, text", [
    ("1.12.2", "clickEvent", "value", "hoverEvent", "value"),
    ("1.16", "clickEvent", "value", "hoverEvent", "contents"),
    ("1.21.4", "clickEvent", "value", "hoverEvent", "contents"),
    ("1.21.5", "click_event", "command", "hover_event", "value"),   # a 1.21.5+ client ignores the old keys
    ("26.1", "click_event", "command", "hover_event", "value"),
])
def test_buttons_are_spelled_as_the_client_reads_them(name: str, click: str, command: str, hover: str,
                                                      text: str) -> None:
    from engine.actions import ChatButton, ReplyToPlayer
    from proxy.codec.chat import reply_components

    codec = VersionCodec(table_for_version(name))
    action = ReplyToPlayer(("pick one",), buttons=(ChatButton("yes", "/agent card 1 yes", "confirm"),))
    line = reply_components(action, codec.text_style)[-1]
    button = line["extra"][1]
    assert button[click] == {"action": "run_command", command: "/agent card 1 yes"}
    assert button[hover] == {"action": "show_text", text: {"text": "confirm"}}
    # It goes through the version's own chat packet and comes back the same.
    packet = codec.chat_to_client(line)
    field = codec.decode("play", TO_CLIENT, codec.chat_packet, packet)
    got = _pick_message(field)
    assert got["extra"][1] == button


def _pick_message(fields: dict[str, object]) -> dict[str, object]:
    value = fields.get("message", fields.get("content"))
    return json.loads(value) if isinstance(value, str) else value  # type: ignore[return-value]
