"""Register the proxy's slash commands in the command tree the server sends.

``/ai <text>`` and ``/agent <command>`` become literal nodes under the root, each
with a greedy string argument. A greedy string is not a signed argument, so a
1.19+ client sends these commands unsigned and autocompletes them, which is the
signed-chat-safe way to reach the proxy (as Velocity registers proxy commands).
Under ``/agent`` the player's command table (``engine.commands``) adds a literal
node per command name and argument word, so the client completes them with Tab;
every literal also takes a greedy string, so any line still parses and reaches
the proxy, which answers it (an unknown command, a usage line).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.chat_tap import AGENT_COMMAND, ASSISTANT_COMMAND
from engine.commands.table import Word

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


def proxy_nodes(template: dict[str, Any], existing: set[str | None], first: int,
                agent_words: Sequence[Word] = ()) -> tuple[list[dict[str, Any]], list[int]]:
    """The nodes to append to a tree whose next free index is ``first``, and the root's new children:
    ``/ai <question>`` and ``/agent``, under which a literal per command-table word (each with its own
    words below it) and a greedy string for anything else. A name in ``existing`` is the server's and kept."""
    added: list[dict[str, Any]] = []

    def level(words: Sequence[Word], argument: str) -> list[int]:
        children: list[int] = []
        for word in words:
            below = level(word.then, "args")
            added.append(_literal(template, word.text, below, True))
            children.append(first + len(added) - 1)
        added.append(_greedy(template, argument))
        children.append(first + len(added) - 1)
        return children

    roots: list[int] = []
    for name, argument, executable, words in ((ASSISTANT_COMMAND, "question", False, ()),
                                              (AGENT_COMMAND, "command", True, agent_words)):
        if name in existing:
            continue
        below = level(words, argument)
        added.append(_literal(template, name, below, executable))
        roots.append(first + len(added) - 1)
    return added, roots


def inject(fields: dict[str, Any], agent_words: Sequence[Word] = ()) -> dict[str, Any]:
    """Return the declare-commands fields with /ai and /agent added under the root.

    ``agent_words`` are the command table's completion words: the commands under
    ``/agent`` and their argument words. A server that already declares either
    name keeps its own node: the proxy never shadows a server command in the tree.
    """
    nodes: list[dict[str, Any]] = list(fields["nodes"])
    root_index = int(fields["rootIndex"])
    root = dict(nodes[root_index])
    existing = {nodes[i].get("extraNodeData", {}).get("name") for i in root["children"]
                if isinstance(nodes[i].get("extraNodeData"), dict)}
    added, roots = proxy_nodes(root["flags"], existing, len(nodes), agent_words)
    root["children"] = list(root["children"]) + roots
    nodes[root_index] = root
    return {**fields, "nodes": nodes + added}
