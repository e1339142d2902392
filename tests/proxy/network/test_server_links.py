"""Server links from config (1.21+): added to the backend's, sent when it sends none, kept across
switches; bad entries name the field and the file (proxy.codec.server_links)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from proxy.config import LINK_KINDS, ConfigError, load
from proxy.protocol.nbt import write_nbt
from proxy.protocol.wire import pack_string, pack_varint
from proxy.testing import build_packet, handshake_packet
from tests.proxy.network.helpers import candidate_login, join, names, network_rig

LINKS = [{"label": "Map", "url": "https://map.example.org"}, {"kind": "website", "url": "https://example.org"}]
OURS = (b"\x00" + write_nbt("Map", named_root=False) + pack_string("https://map.example.org")
        + b"\x01" + pack_varint(LINK_KINDS.index("website")) + pack_string("https://example.org"))
THEIRS = b"\x01" + pack_varint(LINK_KINDS.index("bug_report")) + pack_string("https://bugs.example.net")


def _links(rig, state: str, count: int, entries: bytes) -> bytes:
    pid = rig.codec.table.packet_id(state, "toClient", "server_links")
    assert pid is not None
    return pack_varint(pid) + pack_varint(count) + entries


def _login_configuring(rig, *configuration: bytes) -> None:
    """Like Rig.login, with ``configuration`` sent by the backend before it finishes configuring."""
    rig.connect_client()
    rig.client_send(handshake_packet(rig.codec.protocol))
    rig.client_send(build_packet(rig.codec, "login", "toServer", "login_start", username="alice"))
    rig.accept_upstream().received()
    rig.server_send(build_packet(rig.codec, "login", "toClient", "success", username="alice"))
    rig.client_send(build_packet(rig.codec, "login", "toServer", "login_acknowledged"))
    for packet in configuration:
        rig.server_send(packet)
    rig.server_send(build_packet(rig.codec, "configuration", "toClient", "finish_configuration"))
    rig.client_send(build_packet(rig.codec, "configuration", "toServer", "finish_configuration"))


def _after_join(rig, entity_id: int = 1) -> list[bytes]:
    rig.client.received()
    join(rig, entity_id)
    got = rig.client.received()
    kinds = names(rig, got)
    assert kinds[0] == "login"
    return [p for p in got if names(rig, [p]) == ["server_links"]]


@pytest.mark.parametrize("version", ["1.21.1", "1.21.11", "26.1"])
def test_configured_links_are_sent_after_join_when_the_backend_sends_none(version: str) -> None:
    rig = network_rig(version, server_links=LINKS)
    _login_configuring(rig)
    assert _after_join(rig) == [_links(rig, "play", 2, OURS)]


def test_the_backends_links_while_configuring_are_merged_with_the_configured_ones() -> None:
    rig = network_rig("1.21.11", server_links=LINKS)
    theirs = _links(rig, "configuration", 1, THEIRS)
    _login_configuring(rig, theirs)
    assert theirs in rig.client.received()  # as it came, while configuring
    join(rig, 1)
    got = rig.client.received()
    assert [p for p in got if names(rig, [p]) == ["server_links"]] == [_links(rig, "play", 3, THEIRS + OURS)]


def test_the_backends_links_in_play_are_merged_on_the_way_through() -> None:
    rig = network_rig("1.21.11", server_links=LINKS)
    _login_configuring(rig)
    _after_join(rig)
    rig.server_send(_links(rig, "play", 1, THEIRS))
    assert rig.client.received() == [_links(rig, "play", 3, THEIRS + OURS)]


def test_links_are_kept_across_a_switch_to_a_backend_that_sends_none() -> None:
    rig = network_rig("1.21.11", server_links=LINKS)
    _login_configuring(rig, _links(rig, "configuration", 1, THEIRS))
    _after_join(rig)
    rig.server.network.send(rig.bridge, "survival")
    candidate_login(rig)
    rig.client.received()
    rig.client_send(pack_varint(rig.bridge.ids.configuration_acknowledged))
    rig.server_send(build_packet(rig.codec, "configuration", "toClient", "finish_configuration"))
    rig.client_send(build_packet(rig.codec, "configuration", "toServer", "finish_configuration"))
    # The lobby's link is gone, the configured ones stay.
    assert _after_join(rig, 9) == [_links(rig, "play", 2, OURS)]


def test_without_configured_links_the_backends_pass_untouched_and_old_versions_get_none() -> None:
    rig = network_rig("1.21.11")
    _login_configuring(rig)
    assert _after_join(rig) == []
    theirs = _links(rig, "play", 1, THEIRS)
    rig.server_send(theirs)
    assert rig.client.received() == [theirs]
    old = network_rig("1.20.1", server_links=LINKS)
    old.login("alice")
    assert old.bridge.play.links is None  # 1.20.1 has no server links


def test_a_backends_absurd_link_count_closes_only_that_connection() -> None:
    rig = network_rig("1.21.11", server_links=LINKS)
    _login_configuring(rig)
    _after_join(rig)
    rig.server_send(_links(rig, "play", 1 << 20, b""))
    assert rig.bridge.states.closed
    assert "malformed" in (rig.bridge.close_reason or "")


@pytest.mark.parametrize(("entry", "says"), [
    ({"label": "Map", "url": "ftp://map.example.org"}, "field 'server_links.0.url'"),
    ({"label": "Map", "url": "https://map example.org"}, "server_links.0.url"),
    ({"url": "https://example.org"}, "give either a label"),
    ({"label": "Map", "kind": "news", "url": "https://example.org"}, "give either a label"),
    ({"kind": "blog", "url": "https://example.org"}, "field 'server_links.0.kind'"),
    ({"label": "", "url": "https://example.org"}, "server_links.0.label"),
])
def test_a_bad_link_names_the_field_and_the_file(tmp_path: Path, entry: dict, says: str) -> None:
    path = tmp_path / "proxy.json"
    path.write_text(json.dumps({"server_links": [entry]}), encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load(path)
    assert str(path) in str(caught.value) and says in str(caught.value)
