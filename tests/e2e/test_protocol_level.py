"""minecraft-protocol client -> mcagent -> scripted minecraft-protocol server.

The protocol-level check for versions mineflayer/flying-squid cannot speak (26.1,
``versions.PROTOCOL_ONLY``) and for what they never do (a server sending the player
back to configuration mid-play). The peers are peers/mcp_client.js and
peers/mcp_server.js, driven through ``tests.e2e.mcp_peers``; the proxy is the real
``mcagent run`` (``proxy_factory``).

The command tree (declare_commands, which the proxy splices, with
/ai and /agent added) has its own test; the chat and reconfiguration tests run
against a server that sends no command tree, so a failure in one of these areas
does not hide the state of the others.
"""
from __future__ import annotations

import os
from typing import Any, Callable, Iterator

import pytest

from proxy.protocol.tables import table_for_version
from proxy.protocol.versions import PROTOCOL_ONLY, SUPPORTED
from tests.e2e.matrix import END_TO_END_WORLD
from tests.e2e.mcp_peers import McpClient, McpServer
from tests.e2e.proxy_process import ProxyProcess

# The rows versions.json says are verified here, the rows proven end to end on the world
# server (which never sends a client back to configuration), and 1.21.4 as a control.
_wanted = [v for v in os.environ.get("MCAGENT_E2E_VERSIONS", "").split(",") if v and v != "all"]
VERSIONS = [v.name for v in SUPPORTED
            if v.verified in (PROTOCOL_ONLY, END_TO_END_WORLD) and (not _wanted or v.name in _wanted)]
if not _wanted or "1.21.4" in _wanted:
    VERSIONS.append("1.21.4")
# The server sending the client back to configuration exists from 1.20.2 on.
CONFIGURATION_VERSIONS = [v for v in VERSIONS if table_for_version(v).has_configuration]
# The command tree (declare_commands) exists from 1.13 on.
COMMAND_TREE_VERSIONS = [v for v in VERSIONS if table_for_version(v).packet_id("play", "toClient", "declare_commands")
                         is not None]
PING_REPLY = "[mcagent] Ping to the server"
LOG_TAIL = 40
ProxyFactory = Callable[..., ProxyProcess]


class McpPeers:
    """Starts scripted servers and clients; closes clients first, then servers."""

    def __init__(self) -> None:
        self.servers: list[McpServer] = []
        self.clients: list[McpClient] = []

    def server(self, version: str, **kwargs: Any) -> McpServer:
        server = McpServer()
        self.servers.append(server)
        return server.start(version=version, **kwargs)

    def client(self, port: int, username: str, version: str) -> McpClient:
        client = McpClient()
        self.clients.append(client)
        return client.connect(port, username, version)

    def close(self) -> None:
        for client in self.clients:
            client.quit(timeout=2)
        for server in self.servers:
            server.close(grace=2)


@pytest.fixture
def mcp(peers_installed: object) -> Iterator[McpPeers]:
    peers = McpPeers()
    try:
        yield peers
    finally:
        peers.close()


TROUBLE = ("Internal error", "internal error", "Traceback", "malformed", "bad input", "Bad packet")


def _log_tail(proxy: ProxyProcess) -> str:
    return "proxy log (last lines):\n" + "\n".join(proxy.lines[-LOG_TAIL:])


def _check_proxy(proxy: ProxyProcess) -> None:
    """No proxy log line says something went wrong for a player."""
    trouble = [line for line in proxy.lines if any(w in line for w in TROUBLE)]
    assert not trouble, "proxy reported errors:\n" + "\n".join(trouble) + "\n" + _log_tail(proxy)


def _connect(version: str, mcp: McpPeers, proxy_factory: ProxyFactory, username: str,
             **server_options: Any) -> tuple[McpServer, ProxyProcess, McpClient]:
    server = mcp.server(version, **server_options)
    assert server.port is not None
    proxy = proxy_factory(server.port)
    try:
        client = mcp.client(proxy.port, username, version)
        server.wait_login(username)
    except Exception as exc:
        raise AssertionError(f"{username} did not reach play through the proxy: {exc}\n{_log_tail(proxy)}") from exc
    return server, proxy, client


def _wait_spawned(client: McpClient, proxy: ProxyProcess, since: int = 0) -> None:
    """The server sends login, [declare_commands,] position: wait for the position."""
    seen = client.wait_for(lambda e: e.get("event") in ("position", "kicked", "end"), since=since)
    assert seen["event"] == "position", f"client got {seen} instead of its position\n{_log_tail(proxy)}"


def test_versions_are_in_the_table() -> None:
    names = {v.name for v in SUPPORTED}
    assert set(VERSIONS) <= names


@pytest.mark.parametrize("version", VERSIONS)
def test_peers_meet_directly(version: str, mcp: McpPeers) -> None:
    """The scripted peers work without the proxy (so a failure below is the proxy's)."""
    server = mcp.server(version)
    assert server.port is not None
    client = mcp.client(server.port, "direct", version)
    server.wait_login("direct")
    client.wait_for("position")
    if version in COMMAND_TREE_VERSIONS:
        assert client.command_names() == ["somecommand"]
    client.chat("hello directly")
    server.wait_chat("hello directly", player="direct")
    client.chat("/somecommand x")
    server.wait_command("somecommand x", player="direct")
    assert server.say("from the server") == 1
    client.wait_chat("from the server")
    if version not in CONFIGURATION_VERSIONS:
        return
    assert server.reconfigure() == ["direct"]
    client.wait_reconfigured()
    client.chat("after reconfiguration")
    server.wait_chat("after reconfiguration", player="direct")


@pytest.mark.parametrize("version", COMMAND_TREE_VERSIONS)
def test_command_tree_gets_proxy_commands(version: str, mcp: McpPeers, proxy_factory: ProxyFactory) -> None:
    """The server's declare_commands reaches the client with /ai and /agent added,
    at login and again after a reconfiguration."""
    server, proxy, client = _connect(version, mcp, proxy_factory, "carol")
    _wait_spawned(client, proxy)
    names = client.command_names()
    assert names is not None and {"somecommand", "ai", "agent"} <= set(names), names
    client.chat("/somecommand still works")
    server.wait_command("somecommand still works", player="carol")
    if version not in CONFIGURATION_VERSIONS:
        _check_proxy(proxy)
        return

    mark = client.mark()
    assert server.reconfigure() == ["carol"]
    client.wait_reconfigured(since=mark)
    _wait_spawned(client, proxy, since=mark)
    names = client.command_names(since=mark)
    assert names is not None and {"somecommand", "ai", "agent"} <= set(names), names
    _check_proxy(proxy)


@pytest.mark.parametrize("version", VERSIONS)
def test_login_chat_and_proxy_commands(version: str, mcp: McpPeers, proxy_factory: ProxyFactory) -> None:
    server, proxy, client = _connect(version, mcp, proxy_factory, "alice", command_tree=False)
    proxy.wait_log("alice logged in from")
    _wait_spawned(client, proxy)

    # Chat both ways, exactly.
    line = "hello through the proxy, 1 + 1 = 2 \u00e9\u4f60"
    client.chat(line)
    server.wait_chat(line, player="alice")
    assert server.say("welcome from the scripted server") == 1
    client.wait_chat("welcome from the scripted server")

    # !ping, /agent ping and /ai are the proxy's: answered, never seen by the server.
    server_mark = server.mark()
    mark = client.mark()
    client.chat("!ping")
    client.wait_chat(PING_REPLY, since=mark)
    mark = client.mark()
    client.chat("/agent ping")
    client.wait_chat(PING_REPLY, since=mark)
    mark = client.mark()
    client.chat("/ai hello")
    client.wait_chat("[mcagent]", since=mark)

    # An ordinary command still reaches the server as a command.
    client.chat("/somecommand with arguments")
    server.wait_command("somecommand with arguments", player="alice", since=server_mark)
    # A marker after everything: when it arrives, anything forwarded earlier has too.
    client.chat("marker after the proxy commands")
    server.wait_chat("marker after the proxy commands", player="alice", since=server_mark)
    assert server.chats(since=server_mark) == ["marker after the proxy commands"]
    assert server.commands(since=server_mark) == ["somecommand with arguments"]
    _check_proxy(proxy)


@pytest.mark.parametrize("version", CONFIGURATION_VERSIONS)
def test_reconfiguration_mid_play(version: str, mcp: McpPeers, proxy_factory: ProxyFactory) -> None:
    server, proxy, client = _connect(version, mcp, proxy_factory, "bob", command_tree=False)
    _wait_spawned(client, proxy)
    client.chat("before reconfiguration")
    server.wait_chat("before reconfiguration", player="bob")

    # start_configuration -> configuration_acknowledged (play) -> select_known_packs both
    # ways -> registry_data -> finish_configuration both ways -> play 'login' and position.
    mark = client.mark()
    try:
        assert server.reconfigure() == ["bob"]
        client.wait_reconfigured(since=mark)
    except Exception as exc:
        raise AssertionError(f"reconfiguration failed: {exc}\n{_log_tail(proxy)}") from exc
    assert client.find("configuration", since=mark) is not None
    _wait_spawned(client, proxy, since=mark)

    # Chat still works both ways, and the proxy still answers.
    server_mark = server.mark()
    client.chat("after reconfiguration")
    server.wait_chat("after reconfiguration", player="bob", since=server_mark)
    assert server.say("server after reconfiguration") == 1
    client.wait_chat("server after reconfiguration", since=mark)
    client_mark = client.mark()
    client.chat("!ping")
    client.wait_chat(PING_REPLY, since=client_mark)
    client.chat("marker after ping")
    server.wait_chat("marker after ping", player="bob", since=server_mark)
    assert "!ping" not in server.chats(since=server_mark)

    # A second round trip through configuration works too.
    mark = client.mark()
    assert server.reconfigure() == ["bob"]
    client.wait_reconfigured(since=mark)
    client.chat("after the second reconfiguration")
    server.wait_chat("after the second reconfiguration", player="bob", since=server_mark)
    _check_proxy(proxy)


@pytest.mark.parametrize("version", CONFIGURATION_VERSIONS)
def test_proxy_replies_across_start_configuration(version: str, mcp: McpPeers, proxy_factory: ProxyFactory) -> None:
    """Chat the client typed just before the server's start_configuration reached it.

    On the wire (client -> proxy): chat_message lines, then configuration_acknowledged.
    The proxy forwarded start_configuration before these arrive, so from then on the
    client reads configuration packets: a reply must not reach it as a play packet
    (a vanilla client disconnects on an id its state lacks), and must not be lost
    either (invariant 1: answered means the player sees the answer), so it belongs
    after the client is back in play. Ordinary chat still reaches the server.
    """
    server, proxy, client = _connect(version, mcp, proxy_factory, "dave", command_tree=False)
    _wait_spawned(client, proxy)
    server_mark = server.mark()
    mark = client.mark()
    client.chat_on_configuration("!help")  # answered at once by the proxy
    client.chat_on_configuration("!ping")  # answered after a status round trip to the server
    client.chat_on_configuration("typed just before the reconfiguration")
    assert server.reconfigure() == ["dave"]
    client.wait_reconfigured(since=mark)
    assert len(client.find_all("sent_before_ack", since=mark)) == 3
    server.wait_chat("typed just before the reconfiguration", player="dave", since=server_mark)

    bad = client.bad_packets(since=mark)
    kinds = sorted({(e["state"], e["id"]) for e in bad})
    assert not bad, (f"the proxy sent the client {len(bad)} packets with ids its state does not have "
                     f"(state, id): {kinds}\n{_log_tail(proxy)}")
    for reply in ("[mcagent] Proxy commands", PING_REPLY):
        try:
            client.wait_chat(reply, since=mark, timeout=5)
        except TimeoutError as exc:
            raise AssertionError(f"the proxy's reply {reply!r} never reached the client: {exc}\n"
                                 f"{_log_tail(proxy)}") from exc
    assert server.chats(since=server_mark) == ["typed just before the reconfiguration"]
    _check_proxy(proxy)
