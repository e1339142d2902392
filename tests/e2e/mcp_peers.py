"""Drive the protocol-level peers (peers/mcp_server.js, peers/mcp_client.js) from tests.

Both are bare minecraft-protocol endpoints (no world), for versions mineflayer and
flying-squid cannot speak (26.1) and for protocol corners they never exercise
(reconfiguration: start_configuration in play). The JSON-line protocols are
documented at the top of each script; the process plumbing is
``tests.e2e.peers.JsonLineProcess``.

    server = McpServer().start(version="26.1")
    client = McpClient().connect(port=server.port, username="alice", version="26.1")
    client.chat("hello")
    server.wait_chat("hello", player="alice")
"""
from __future__ import annotations

from typing import Any

from tests.e2e.peers import PEERS_SRC, ClientProcess, Event, PeerError, PeerExited, ServerProcess, node_executable

MCP_SERVER_JS = PEERS_SRC / "mcp_server.js"
MCP_CLIENT_JS = PEERS_SRC / "mcp_client.js"


class McpServer(ServerProcess):
    """A scripted server: login, configuration, a minimal play state, chat taps."""

    name = "mcp-server"

    def start(self, version: str, port: int | None = None, commands: tuple[str, ...] = ("somecommand",),
              command_tree: bool = True, timeout: float = 20.0) -> "McpServer":
        """Start and wait until it listens. ``commands`` are the root names of the
        command tree it sends; ``command_tree=False`` sends no declare_commands at all."""
        argv = [node_executable(), str(MCP_SERVER_JS), "--port", str(port or 0), "--version", version,
                "--commands", ",".join(commands), "--command-tree", "yes" if command_tree else "no"]
        self.name = f"mcp-server-{version}"
        self.start_server(argv, version, timeout)
        return self

    def wait_command(self, command: str, player: str | None = None, timeout: float = 10.0,
                     since: int = 0) -> Event:
        fields: dict[str, Any] = {"command": command}
        if player is not None:
            fields["player"] = player
        return self.wait_for("command", timeout=timeout, since=since, **fields)

    def say(self, text: str) -> int:
        """System chat to every player in play; returns how many got it."""
        return int(self.request("say", text=text)["count"])

    def reconfigure(self, player: str | None = None, known_packs: bool = True, timeout: float = 25.0) -> list[str]:
        """Send every player in play (or ``player``) back through configuration; returns
        the players that came back to play. A step that times out raises PeerError."""
        params: dict[str, Any] = {"known_packs": known_packs}
        if player is not None:
            params["player"] = player
        return list(self.request("reconfigure", timeout=timeout, **params)["players"])

    def players(self) -> list[str]:
        return list(self.request("players")["players"])


class McpClient(ClientProcess):
    """A bare minecraft-protocol client: login, configuration, play, chat, reconfiguration."""

    name = "mcp-client"

    def __init__(self) -> None:
        super().__init__()
        self.username: str | None = None

    def start_process(self, port: int, username: str, version: str, host: str = "127.0.0.1",
                      extra_args: tuple[str, ...] = ()) -> "McpClient":
        """``extra_args``: more of mcp_client.js's options (``--certificates URL --access-token T``
        to sign chat with the account's chat key)."""
        if len(username) > 16:
            raise ValueError(f"Minecraft usernames have at most 16 characters: {username!r}")
        self.username = username
        self.name = f"mcp-client-{username}"
        self.spawn([node_executable(), str(MCP_CLIENT_JS), "--host", host, "--port", str(port),
                    "--username", username, "--version", version, *extra_args])
        return self

    def connect(self, port: int, username: str, version: str, host: str = "127.0.0.1",
                timeout: float = 20.0, extra_args: tuple[str, ...] = ()) -> "McpClient":
        """Start and wait until in play; PeerError (with the reason) if kicked first."""
        self.start_process(port, username, version, host, extra_args)
        return self.wait_play(timeout)

    def sent_packets(self, name: str, since: int = 0) -> list[str]:
        """Hex of each chat packet ``name`` this client wrote (id and body), in order."""
        return [str(e["hex"]) for e in self.find_all("sent_packet", since=since, name=name)]

    def wait_play(self, timeout: float = 20.0) -> "McpClient":
        try:
            event = self.wait_for(lambda e: e.get("event") in ("play", "kicked", "end") or bool(e.get("fatal")),
                                  timeout=timeout)
        except PeerExited as exc:
            raise PeerError(f"{self.name} exited before reaching play\n{self.tail()}") from exc
        if event["event"] != "play":
            detail = event.get("reason") or event.get("message")
            raise PeerError(f"{self.name} did not reach play: {event['event']}: {detail}\n{self.tail()}")
        return self

    def chat(self, text: str) -> None:
        """Send a chat line ("/..." goes as the version's command packet)."""
        self.request("chat", text=text)

    def chat_on_configuration(self, text: str) -> None:
        """Send ``text`` as play chat when the next start_configuration arrives, before
        the client acknowledges it (several calls queue several lines)."""
        self.request("chat_on_configuration", text=text)

    def bad_packets(self, since: int = 0) -> list[Event]:
        """Packets that arrived with an id their protocol state does not have."""
        return self.find_all("bad_packet", since=since)

    def wait_reconfigured(self, timeout: float = 20.0, since: int = 0) -> Event:
        event = self.wait_for(lambda e: e.get("event") in ("reconfigured", "kicked", "end"), timeout=timeout,
                              since=since)
        if event["event"] != "reconfigured":
            raise PeerError(f"{self.name} did not come back to play: {event}\n{self.tail()}")
        return event

    def command_names(self, since: int = 0) -> list[str] | None:
        """Root command names of the last command tree received, or None."""
        trees = self.find_all("commands", since=since)
        return list(trees[-1]["names"]) if trees else None

    def quit(self, timeout: float = 5.0) -> int | None:
        if self.alive:
            try:
                self.send({"cmd": "quit"})
            except PeerExited:
                pass
        return self.close(grace=timeout)
