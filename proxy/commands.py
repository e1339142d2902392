"""Register the proxy's slash commands in the command tree the server sends.

``/ai <text>`` and ``/agent <command>`` become literal nodes under the root, each
with a greedy string argument. A greedy string is not a signed argument, so a
1.19+ client sends these commands unsigned and autocompletes them, which is the
signed-chat-safe way to reach the proxy (as Velocity registers proxy commands).
"""
from __future__ import annotations

from typing import Any

from engine.chat_tap import AGENT_COMMAND, ASSISTANT_COMMAND

LITERAL = 1
ARGUMENT = 2


def _flags(template: dict[str, Any], node_type: int, executable: bool) -> dict[str, int]:
    # Start from the server's own flag names, all cleared: versions add flags
    # (26.1 added allows_restricted), and a node must carry every one of them.
    flags = {name: 0 for name in template}
    flags.update({"command_node_type": node_type, "has_command": 1 if executable else 0})
    return flags


def _literal(template: dict[str, Any], name: str, children: list[int], executable: bool) -> dict[str, Any]:
    return {"flags": _flags(template, LITERAL, executable), "children": children, "redirectNode": None,
            "extraNodeData": {"name": name}}


def _greedy(template: dict[str, Any], name: str) -> dict[str, Any]:
    return {"flags": _flags(template, ARGUMENT, True), "children": [], "redirectNode": None,
            "extraNodeData": {"name": name, "parser": "brigadier:string", "properties": "GREEDY_PHRASE",
                              "suggestionType": None}}


def inject(fields: dict[str, Any]) -> dict[str, Any]:
    """Return the declare-commands fields with /ai and /agent added under the root.

    A server that already declares either name keeps its own node: the proxy
    never shadows a server command in the tree.
    """
    nodes: list[dict[str, Any]] = list(fields["nodes"])
    root_index = int(fields["rootIndex"])
    root = dict(nodes[root_index])
    existing = {nodes[i].get("extraNodeData", {}).get("name") for i in root["children"]
                if isinstance(nodes[i].get("extraNodeData"), dict)}
    children = list(root["children"])
    template = root["flags"]
    for name, argument, executable in ((ASSISTANT_COMMAND, "question", False), (AGENT_COMMAND, "command", True)):
        if name in existing:
            continue
        arg_index = len(nodes)
        nodes.append(_greedy(template, argument))
        children.append(len(nodes))
        nodes.append(_literal(template, name, [arg_index], executable))
    root["children"] = children
    nodes[root_index] = root
    return {**fields, "nodes": nodes}
