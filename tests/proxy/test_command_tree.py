"""/agent in the client's command tree: the command table's names and argument words, each able to take any text,
spliced into the server's tree as the proxy sends it."""
from __future__ import annotations

from typing import Any

from engine.commands.builtin import SESSION_TABLE
from proxy.codec.versioned import VersionCodec
from proxy.protocol.zero_values import zero_value
from proxy.protocol.tables import table_for_version


def _tree(words: Any) -> dict[str, Any]:
    codec = VersionCodec(table_for_version("1.18.2"))
    node = zero_value(codec.table.named_types["command_node"], codec.table.named_types)
    root = {**node, "flags": {**node["flags"], "command_node_type": 0}, "children": [], "extraNodeData": None}
    server_tree = codec.encode("play", "toClient", "declare_commands", {"nodes": [root], "rootIndex": 0})
    rewritten = codec.rewrite("declare_commands", server_tree, words)
    return codec.decode("play", "toClient", "declare_commands", rewritten)


def _child(fields: dict[str, Any], index: int, name: str) -> int:
    nodes = fields["nodes"]
    for i in nodes[index]["children"]:
        data = nodes[i]["extraNodeData"]
        if isinstance(data, dict) and data.get("name") == name:
            return int(i)
    raise AssertionError(f"no {name} under node {index}")


def test_agent_offers_every_player_command_and_its_words() -> None:
    fields = _tree(SESSION_TABLE.completion(admin=False))
    nodes = fields["nodes"]
    agent = _child(fields, fields["rootIndex"], "agent")
    for name in ("help", "ping", "goto", "follow", "stop", "autopilot", "eat", "reflex", "admin"):
        node = nodes[_child(fields, agent, name)]
        assert node["flags"]["command_node_type"] == 1 and node["flags"]["has_command"] == 1
    provider = _child(fields, _child(fields, agent, "autopilot"), "provider")
    mock = _child(fields, provider, "mock")
    # Anything may follow any word (the proxy answers a wrong line with its usage), and anything may
    # follow /agent itself (an unknown command is answered too).
    for index in (agent, provider, mock):
        greedy = [nodes[i] for i in nodes[index]["children"] if nodes[i]["flags"]["command_node_type"] == 2]
        assert len(greedy) == 1 and greedy[0]["extraNodeData"]["properties"] == "GREEDY_PHRASE"
    assert "system" not in {nodes[i]["extraNodeData"]["name"] for i in nodes[agent]["children"]}


def test_admins_see_their_commands_in_the_tree() -> None:
    fields = _tree(SESSION_TABLE.completion(admin=True))
    _child(fields, _child(fields, fields["rootIndex"], "agent"), "system")
