"""Register the proxy's slash commands in the command tree the server sends.

``/ai <text>`` and ``/agent <command>`` become literal nodes under the root, each
with a greedy string argument. A greedy string is not a signed argument, so a
1.19+ client sends these commands unsigned and autocompletes them, which is the
signed-chat-safe way to reach the proxy (as Velocity registers proxy commands).
Under ``/agent`` the player's command table (``engine.commands``) adds a literal
node per command name and argument word, so the client completes them with Tab;
every literal also takes a greedy string, so any line still parses and reaches
the proxy, which answers it (an unknown command, a usage line).

How the rewrite stays cheap: servers send the same tree at every login, and big
ones hold tens of thousands of nodes. ``CommandTreeRewriter.rewrite`` reads each
node only to find where it ends (no node is re-encoded), then splices: the
server's bytes up to the root, the root with two more children, the server's
bytes after it, the new nodes, the root index. The result is cached by the
packet's digest and the command table's words, so the next login with the same
tree costs one hash. The node
count is checked before anything is read, and the root and its children must be
real nodes, or the packet is refused as malformed.
"""
from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Callable

from engine.chat_tap import AGENT_COMMAND, ASSISTANT_COMMAND, SERVER_COMMAND
from engine.commands.args import Word
from proxy.protocol.errors import LayoutError, PeerError
from proxy.protocol.layout_codec import FIELD_LIMITS, Buffer, Codec, check_count
from proxy.protocol.wire import pack_varint, read_varint

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


MAX_NODES = FIELD_LIMITS["nodes"]
CACHED_TREES = 8
CACHED_TREE_BYTES = 1 << 20  # larger trees are rewritten each time rather than kept
Scan = Callable[[Buffer, int], int]


def node_scanner(layout: Any, compile_layout: Callable[[Any], Codec]) -> Scan:
    """A function that returns where the command node at ``pos`` ends, reading no more than it must.

    The node's shape has been the same since 1.13 (flags, children, redirect, name,
    parser, properties, suggestions); the layout supplies what changes: whether the
    parser is a string or a registry id, and each parser's properties. Properties are
    decoded with their compiled layout (most parsers have none), everything else is
    skipped by hand, so a node costs a few varint reads instead of a decoded dict.
    A layout of another shape raises ``LayoutError``; the caller then decodes nodes whole.
    """
    try:
        fields = {f["name"]: f["type"] for f in layout[1]}
        argument = {f["name"]: f["type"] for f in fields["extraNodeData"][1]["fields"]["2"][1]}
        parser = argument["parser"]
        switch = argument["properties"][1]
        if list(argument) != ["name", "parser", "properties", "suggestionType"] or switch["compareTo"] != "parser":
            raise LayoutError("command node arguments of an unknown shape")
    except (KeyError, IndexError, TypeError) as exc:
        raise LayoutError(f"command node of an unknown shape ({exc})") from None
    mapping: dict[int, str] | None = None
    if isinstance(parser, list) and parser[0] == "mapper" and parser[1]["type"] == "varint":
        mapping = {int(k): v for k, v in parser[1]["mappings"].items()}
    elif parser != "string":
        raise LayoutError(f"command node parser of type {parser!r}")
    properties = {name: compile_layout(kind) for name, kind in switch["fields"].items() if kind != "void"}
    default = compile_layout(switch["default"]) if switch.get("default", "void") != "void" else None

    def skip_string(data: Buffer, pos: int) -> int:
        n, pos = read_varint(data, pos)
        if n < 0 or pos + n > len(data):
            raise PeerError("truncated command node")
        return pos + n

    def scan(data: Buffer, pos: int) -> int:
        if pos >= len(data):
            raise PeerError("truncated command tree")
        flags = data[pos]
        kind = flags & 0x03
        pos += 1
        children, pos = read_varint(data, pos)
        check_count(children, data, pos, "command node children")
        for _ in range(children):
            _, pos = read_varint(data, pos)
        if flags & 0x08:  # redirect
            _, pos = read_varint(data, pos)
        if kind == 0:
            return pos
        if kind == 3:
            raise PeerError("command node of unknown type 3")
        pos = skip_string(data, pos)  # name
        if kind == 1:
            return pos
        if mapping is None:
            start = pos
            pos = skip_string(data, pos)
            n, start = read_varint(data, start)
            name = bytes(data[start:pos]).decode("utf-8", "replace")
        else:
            parser_id, pos = read_varint(data, pos)
            name = mapping.get(parser_id, "")
        codec = properties.get(name, default)
        if codec is not None:
            _, pos = codec.decode(data, pos, [{"parser": name}])
        if flags & 0x10:  # custom suggestions
            pos = skip_string(data, pos)
        return pos

    return scan


def node_name(data: Buffer, pos: int) -> str | None:
    """The name of the literal or argument node at ``pos`` (None for a root node)."""
    flags = data[pos]
    children, pos = read_varint(data, pos + 1)
    for _ in range(children):
        _, pos = read_varint(data, pos)
    if flags & 0x08:
        _, pos = read_varint(data, pos)
    if flags & 0x03 == 0:
        return None
    n, pos = read_varint(data, pos)
    return bytes(data[pos:pos + n]).decode("utf-8", "replace")


def proxy_nodes(template: dict[str, Any], first: int, existing: set[str | None],
                agent_words: Sequence[Word] = (),
                servers: Sequence[str] | None = None) -> tuple[list[dict[str, Any]], list[int]]:
    """The nodes the proxy appends (numbered from ``first``) and which of them hang under the root:
    ``/ai <question>`` and ``/agent``, under which a literal per command-table word (each with its own
    words below it, ``agent_words``) and a greedy string for anything else; in front of several
    servers (``servers`` not None) also ``/server``, with a literal per server the player may join.

    A server that already declares /ai or /agent keeps its own node: the proxy never
    shadows a server command in the tree.
    """
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

    under_root: list[int] = []
    ours: list[tuple[str, str, bool, Sequence[Word]]] = [(ASSISTANT_COMMAND, "question", False, ()),
                                                         (AGENT_COMMAND, "command", True, agent_words)]
    if servers is not None:
        ours.append((SERVER_COMMAND, "server", True, [Word(name) for name in servers]))
    for name, argument, executable, words in ours:
        if name in existing:
            continue
        below = level(words, argument)
        added.append(_literal(template, name, below, executable))
        under_root.append(first + len(added) - 1)
    return added, under_root


class CommandTreeRewriter:
    """Adds /ai and /agent to one protocol version's ``declare_commands`` packets."""

    def __init__(self, node: Codec, scan: Scan | None = None) -> None:
        self.node = node
        if scan is None:
            decode = node.decode

            def scan(data: Buffer, pos: int) -> int:
                return decode(data, pos, [])[1]
        self.scan = scan
        self._cache: OrderedDict[tuple[bytes, tuple[Word, ...], tuple[str, ...] | None], bytes] = OrderedDict()

    def rewrite(self, packet: bytes, agent_words: Sequence[Word] = (), servers: Sequence[str] | None = None) -> bytes:
        """``agent_words``: the player's command table's words (an admin's has more); ``servers``: the
        servers for ``/server`` (None: no such node); both part of the key."""
        key = (hashlib.sha256(packet).digest(), tuple(agent_words), None if servers is None else tuple(servers))
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        result = self._rewrite(packet, key[1], key[2])
        if len(result) > CACHED_TREE_BYTES:
            return result
        self._cache[key] = result
        while len(self._cache) > CACHED_TREES:
            self._cache.popitem(last=False)
        return result

    def _rewrite(self, packet: bytes, agent_words: Sequence[Word], servers: Sequence[str] | None) -> bytes:
        pid_end = read_varint(packet, 0)[1]
        count, pos = read_varint(packet, pid_end)
        if count > MAX_NODES:
            raise PeerError(f"command tree of {count} nodes, more than the {MAX_NODES} the proxy accepts")
        check_count(count, packet, pos, "command tree")
        scan = self.scan
        starts = [0] * (count + 1)
        for i in range(count):
            starts[i] = pos
            pos = scan(packet, pos)
        starts[count] = pos
        root_index, end = read_varint(packet, pos)
        if end != len(packet):
            raise PeerError(f"{len(packet) - end} bytes after the command tree")
        if not 0 <= root_index < count:
            raise PeerError(f"command tree root {root_index} is not one of its {count} nodes")
        root, _ = self.node.decode(packet, starts[root_index], [])
        if not isinstance(root, dict):
            raise PeerError("command node did not decode to fields")
        children = [int(c) for c in root.get("children") or []]
        if any(not 0 <= c < count for c in children):
            raise PeerError(f"command tree root names a child outside its {count} nodes")
        existing = {node_name(packet, starts[c]) for c in children}
        added, ours = proxy_nodes(root["flags"], count, existing, agent_words, servers)
        children += ours
        if not added:
            return packet
        out = bytearray(packet[:pid_end])
        out += pack_varint(count + len(added))
        out += packet[starts[0]:starts[root_index]]
        self.node.encode({**root, "children": children}, out, [])
        out += packet[starts[root_index + 1]:starts[count]]
        for node in added:
            self.node.encode(node, out, [])
        out += pack_varint(root_index)
        return bytes(out)
