"""What a client sees in the chat components the proxy sends: the buttons' commands and hover texts."""
from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any


def nodes(component: Any) -> Iterator[dict[str, Any]]:
    """Every component in a chat component tree (JSON text or already parsed), depth first."""
    if isinstance(component, str):
        try:
            component = json.loads(component)
        except ValueError:
            return
    if isinstance(component, dict):
        yield component
        for child in component.get("extra", []) or []:
            yield from nodes(child)
    elif isinstance(component, list):
        for child in component:
            yield from nodes(child)


def clicks(component: Any) -> list[str]:
    """Every run_command value: what the buttons run when clicked."""
    found: list[str] = []
    for node in nodes(component):
        event = node.get("clickEvent") or node.get("click_event")
        if isinstance(event, dict) and event.get("action") == "run_command":
            found.append(str(event.get("value") or event.get("command")))
    return found


def hovers(component: Any) -> list[str]:
    """Every hover text: a card's buttons say there what each option is."""
    found: list[str] = []
    for node in nodes(component):
        event = node.get("hoverEvent") or node.get("hover_event")
        if isinstance(event, dict):
            contents = event.get("contents", event.get("value"))
            found.append(contents.get("text", "") if isinstance(contents, dict) else str(contents))
    return found
