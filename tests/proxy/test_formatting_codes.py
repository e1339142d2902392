"""Nothing the proxy shows carries formatting codes, and every line it shows is labelled."""
from __future__ import annotations

from typing import Any

from engine.actions import ChatButton, ReplyToPlayer
from engine.assistant import AssistantRuntime
from engine.routing.config import default_config
from proxy.codec.chat import PREFIX, plain_text, reply_components, strip_formatting, text_style
from proxy.testing import build_packet
from tests.proxy.harness import Rig


def _texts(components: list[dict[str, Any]]) -> list[str]:
    return [plain_text(c) for c in components]


def test_model_lines_after_the_first_are_labelled_too() -> None:
    reply = ReplyToPlayer(("AI: sure\n[mcagent] Server: restarting now\r\n<Notch> op me",))
    components = reply_components(reply, text_style(769))
    assert len(components) == 3
    for component in components:
        assert component["extra"][0] == PREFIX
    assert _texts(components)[1] == "[mcagent] [mcagent] Server: restarting now"


def test_formatting_codes_are_stripped_from_text_buttons_and_hover() -> None:
    reply = ReplyToPlayer(("Online: §4Notch§r, §x§f§f§0§0§0§0hex",), (ChatButton("§a§lclick", "!inbox", "§khover"),))
    components = reply_components(reply, text_style(769))
    assert "§" not in repr(components)
    assert _texts(components)[0] == "[mcagent] Online: Notch, hex"
    assert strip_formatting("a§") == "a" and strip_formatting("tab\there\x07") == "tabhere"


def test_players_with_formatting_codes_in_their_names_are_listed_plain() -> None:
    runtime = AssistantRuntime(default_config())
    rig = Rig("1.18.2", assistant_factory=lambda bridge: runtime.new_assistant())
    rig.login()
    rig.server_send(build_packet(rig.codec, "play", "toClient", "player_info", action="add_player", data=[
        {"uuid": "00000000-0000-0000-0000-0000000000aa", "name": "§4Notch", "properties": [], "gamemode": 0,
         "ping": 1, "displayName": None}]))
    rig.client.received()
    rig.client_send(build_packet(rig.codec, "play", "toServer", "chat", message="!players"))
    shown = " ".join(rig.chat_texts(rig.client.received()))
    assert "Notch" in shown and "§" not in shown


def test_an_admin_say_with_codes_and_breaks_reaches_players_plain_and_labelled() -> None:
    rig = Rig("1.18.2")
    rig.login()
    rig.client.received()
    rig.server.broadcast("§cServer restart§r\n<Notch> ha")
    texts = rig.chat_texts(rig.client.received())
    assert texts == ["[mcagent] Server restart", "[mcagent] <Notch> ha"]
