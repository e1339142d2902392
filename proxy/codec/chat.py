"""Chat components: what the proxy shows the player, and plain text from what servers send.

The proxy only ever builds components from plain strings, so nothing a player
or model writes can smuggle formatting or a click action into a message: legacy
formatting codes (``§4``) are stripped from every text and name shown, and a text
with line breaks becomes one chat line per break, each with the ``[mcagent]``
label, so no line the proxy shows can pass for the server's or another player's.
"""
from __future__ import annotations

import json
import re
from typing import Any

import attrs

from engine.actions import ChatButton, ReplyToPlayer
from proxy.protocol.errors import PeerError

PREFIX = {"text": "[mcagent] ", "color": "aqua"}
MAX_LINE = 256
MAX_LINES = 32  # one reply never floods the chat
# A section sign and the code after it (colours, styles, hex colour digits); then
# every control character, which a client would show as a box or a break.
_FORMATTING = re.compile(r"§.?", re.DOTALL)
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def strip_formatting(text: str) -> str:
    """Plain text: no ``§`` formatting codes, no control characters (line breaks stay)."""
    return _CONTROL.sub("", _FORMATTING.sub("", text))


def _clip(text: str) -> str:
    text = strip_formatting(text).replace("\n", " ")
    return text if len(text) <= MAX_LINE else text[: MAX_LINE - 1] + "…"


def _visual_lines(lines: tuple[str, ...]) -> list[str]:
    out = [part for line in lines for part in strip_formatting(line).split("\n")]
    return out if len(out) <= MAX_LINES else out[: MAX_LINES - 1] + ["…"]


@attrs.frozen
class TextStyle:
    """How a protocol spells click and hover events in a text component (not in minecraft-data)."""

    since: int            # first protocol of this spelling
    click_key: str        # "clickEvent" until 1.21.4, "click_event" from 1.21.5
    command_field: str    # run_command's argument: "value", then "command"
    hover_key: str
    hover_field: str      # show_text's text: "value" until 1.15, "contents" 1.16-1.21.4, "value" again


TEXT_STYLES: tuple[TextStyle, ...] = (
    TextStyle(0, "clickEvent", "value", "hoverEvent", "value"),
    TextStyle(735, "clickEvent", "value", "hoverEvent", "contents"),     # 1.16
    TextStyle(770, "click_event", "command", "hover_event", "value"),    # 1.21.5: snake_case, typed fields
)


def text_style(protocol: int) -> TextStyle:
    return [style for style in TEXT_STYLES if protocol >= style.since][-1]


def button_component(button: ChatButton, style: TextStyle) -> dict[str, Any]:
    hover = strip_formatting(button.hover or button.command)
    return {
        "text": f"[{_clip(button.label)}]",
        "color": "green",
        style.click_key: {"action": "run_command", style.command_field: button.command},
        style.hover_key: {"action": "show_text", style.hover_field: {"text": hover}},
    }


def reply_components(action: ReplyToPlayer, style: TextStyle) -> list[dict[str, Any]]:
    """One component per chat line; buttons go on a line of their own."""
    lines = [{"text": "", "extra": [dict(PREFIX), {"text": _clip(line), "color": "white"}]}
             for line in _visual_lines(action.lines)]
    if action.buttons:
        extra: list[dict[str, Any]] = [dict(PREFIX)]
        for i, button in enumerate(action.buttons):
            if i:
                extra.append({"text": " "})
            extra.append(button_component(button, style))
        lines.append({"text": "", "extra": extra})
    return lines


def plain_text(component: Any) -> str:
    """Flatten a chat component (JSON text, dict or list) to plain text."""
    if isinstance(component, str):
        stripped = component.strip()
        if stripped[:1] in ("{", "[", '"'):
            try:
                component = json.loads(stripped)
            except ValueError:
                return str(component)
            except RecursionError:
                # json's decoder recurses per level: a component nested thousands deep is malformed input.
                raise PeerError("chat component nested too deep") from None
        else:
            return str(component)
    out: list[str] = []
    _flatten(component, out, 0)
    return "".join(out)


def _flatten(node: Any, out: list[str], depth: int) -> None:
    if depth > 64:
        return
    if isinstance(node, str):
        out.append(node)
    elif isinstance(node, list):
        for item in node:
            _flatten(item, out, depth + 1)
    elif isinstance(node, dict):
        if "text" in node:
            out.append(str(node["text"]))
        elif "translate" in node:
            args = node.get("with", [])
            if args:
                texts: list[str] = []
                for arg in args:
                    piece: list[str] = []
                    _flatten(arg, piece, depth + 1)
                    texts.append("".join(piece))
                out.append(_translate(node["translate"], texts))
            else:
                out.append(str(node["translate"]))
        elif "" in node:  # NBT lists of mixed components use an empty key
            out.append(str(node[""]))
        for child in node.get("extra", []):
            _flatten(child, out, depth + 1)


# The few translation keys a chat relay meets; others show their arguments.
_KEYS = {
    "chat.type.text": "<{0}> {1}",
    "chat.type.announcement": "[{0}] {1}",
    "chat.type.emote": "* {0} {1}",
    "commands.message.display.incoming": "{0} whispers to you: {1}",
    "multiplayer.player.joined": "{0} joined the game",
    "multiplayer.player.left": "{0} left the game",
}


def _translate(key: str, args: list[str]) -> str:
    template = _KEYS.get(key)
    if template is None:
        return " ".join(args)
    try:
        return template.format(*args)
    except IndexError:
        return " ".join(args)
