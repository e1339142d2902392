"""The assistant's "take me to the survival server" card: a confirmation card, then the same move as
/server (its permission check, its list for an unknown name); nothing moves without the answer."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.assistant import AssistantRuntime
from engine.commands.builtin import parse_server_text
from engine.llm.notification_buttons import load_phrases
from engine.modules.declarations import ParseContext
from engine.routing.config import default_config
from engine.routing.normalize import normalize_text
from proxy.config import ConfigError, load
from proxy.network.backends import Network
from proxy.testing import build_packet, frame
from tests.engine.conftest import make_snapshot
from tests.proxy.network.helpers import SURVIVAL, join, network_rig

PHRASES = load_phrases(Path(__file__).resolve().parents[3] / "config" / "notification-buttons.json")
SERVERS = {"lobby": "127.0.0.1:25565", "survival": {"address": "127.0.0.1:25570", "aliases": ["生存", "smp"]},
           "staff": {"address": "127.0.0.1:25575", "allow": ["@admins"], "aliases": ["hub"]}}


@pytest.fixture(scope="module")
def runtime() -> AssistantRuntime:
    return AssistantRuntime(default_config(), button_phrases=PHRASES)  # no model: the router proposes the card


def _rig(runtime: AssistantRuntime, version: str = "1.20.1", locale: str = "en_us"):
    rig = network_rig(version, servers=SERVERS, try_order=["lobby"],
                      assistant_factory=lambda bridge: runtime.new_assistant())
    rig.login("alice")
    join(rig, 1)
    settings = build_packet(rig.codec, "play", "toServer", "settings", locale=locale, viewDistance=2)
    rig.client_send(settings)
    rig.client.received()
    return rig


def _say(rig, text: str) -> list[str]:
    name = "chat_message" if rig.codec.table.packet_id("play", "toServer", "chat_message") is not None else "chat"
    rig.leg.dataReceived(frame(build_packet(rig.codec, "play", "toServer", name, message=text), rig.client.threshold))
    return rig.chat_texts(rig.client.received())


def _moving(rig) -> bool:
    return rig.bridge.switch is not None


@pytest.mark.parametrize(("text", "name"), [
    ("take me to the survival server", "survival"), ("send me to lobby", "lobby"), ("带我去生存服", "生存"),
    ("带我去大厅", "大厅"), ("move me to the smp server", "smp"), ("switch server", None),
    ("send me to lobby or survival", None),
])
def test_the_server_is_read_from_the_request(runtime: AssistantRuntime, text: str, name: str | None) -> None:
    normalized = normalize_text(text)
    snapshot = make_snapshot()
    analysis = runtime.router.analyze(normalized, snapshot)
    assert parse_server_text(text, ParseContext(snapshot, "en", analysis)) == name


@pytest.mark.parametrize("version", ["1.12.2", "1.20.1", "1.21.11"])
def test_take_me_to_the_survival_server_is_a_card_and_yes_moves_the_player(runtime: AssistantRuntime,
                                                                           version: str) -> None:
    rig = _rig(runtime, version)
    said = " ".join(_say(rig, "@ai take me to the survival server"))
    assert "You asked for !server survival" in said and "click to confirm" in said
    assert not _moving(rig) and rig.reactor.tcpClients == []  # nothing moves on the request
    said = " ".join(_say(rig, "yes"))
    assert "Moving you to survival..." in said
    assert _moving(rig) and tuple(rig.reactor.tcpClients[-1][:2]) == SURVIVAL


def test_the_chinese_request_uses_the_servers_alias(runtime: AssistantRuntime) -> None:
    rig = _rig(runtime, locale="zh_cn")
    said = " ".join(_say(rig, "@ai 带我去生存服"))
    assert "!server 生存" in said and not _moving(rig)
    assert "Moving you to survival..." in " ".join(_say(rig, "确认"))
    assert tuple(rig.reactor.tcpClients[-1][:2]) == SURVIVAL


def test_cancel_or_other_chat_never_moves(runtime: AssistantRuntime) -> None:
    rig = _rig(runtime)
    _say(rig, "@ai send me to lobby")
    _say(rig, "hello everyone")  # not an answer: to the server, and the card stays
    assert not _moving(rig)
    assert "cancel" in " ".join(_say(rig, "cancel")).lower()
    assert not _moving(rig) and rig.reactor.tcpClients == []


def test_an_unknown_server_answers_with_the_list(runtime: AssistantRuntime) -> None:
    rig = _rig(runtime)
    assert "!server creative" in " ".join(_say(rig, "@ai take me to the creative server"))
    said = " ".join(_say(rig, "yes"))
    assert "No server 'creative' for you; yours: lobby, survival." in said and not _moving(rig)


def test_the_permission_check_is_the_same_as_server(runtime: AssistantRuntime) -> None:
    rig = _rig(runtime)
    assert "!server hub" in " ".join(_say(rig, "@ai send me to the hub"))  # the staff server's alias
    assert "No server 'hub' for you; yours: lobby, survival." in " ".join(_say(rig, "yes"))
    assert not _moving(rig)


def test_the_model_sees_the_server_card_in_its_catalog(runtime: AssistantRuntime) -> None:
    catalog = {entry.module_id: entry for entry in runtime.new_assistant().model.catalog()}
    server = catalog["agent:server"]
    assert server.usage == "!server [name]" and not server.read_only


@pytest.mark.parametrize(("aliases", "says"), [
    ({"lobby": "h:1", "survival": {"address": "h:2", "aliases": ["lobby"]}}, "'lobby' already names the server 'lobby'"),
    ({"a": {"address": "h:1", "aliases": ["x"]}, "b": {"address": "h:2", "aliases": ["X"]}}, "servers.a.aliases: 'x' already names the server 'b'"),
    ({"a": {"address": "h:1", "aliases": ["two words"]}}, "field 'servers.a.aliases'"),
])
def test_bad_aliases_name_the_field_and_the_file(tmp_path: Path, aliases: dict, says: str) -> None:
    path = tmp_path / "proxy.json"
    path.write_text(json.dumps({"servers": aliases}), encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load(path)
    assert str(path) in str(caught.value) and says in str(caught.value)


def test_aliases_match_in_any_case(tmp_path: Path) -> None:
    path = tmp_path / "proxy.json"
    path.write_text(json.dumps({"servers": SERVERS}), encoding="utf-8")
    network = Network(load(path))
    assert network.get("SMP") is network.backends["survival"] and network.get("生存") is network.backends["survival"]
