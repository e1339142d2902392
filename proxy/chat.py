"""Chat components: what the proxy shows the player, and plain text from what servers send.

The proxy only ever builds components from plain strings, so nothing a player
or model writes can smuggle formatting or a click action into a message.
"""
from __future__ import annotations

import json
from typing import Any

import attrs

from engine.actions import ChatButton, ReplyToPlayer

PREFIX = {"text": "[mcagent] ", "color": "aqua"}
MAX_LINE = 256


def _clip(text: str) -> str:
    return text if len(text) <= MAX_LINE else text[: MAX_LINE - 1] + "…"


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
    hover = button.hover or button.command
    return {
        "text": f"[{_clip(button.label)}]",
        "color": "green",
        style.click_key: {"action": "run_command", style.command_field: button.command},
        style.hover_key: {"action": "show_text", style.hover_field: {"text": hover}},
    }


def reply_components(action: ReplyToPlayer, style: TextStyle) -> list[dict[str, Any]]:
    """One component per chat line; buttons go on a line of their own."""
    lines = [{"text": "", "extra": [dict(PREFIX), {"text": _clip(line), "color": "white"}]} for line in action.lines]
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
                return component
        else:
            return component
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
