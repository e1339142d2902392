"""The admin console's commands, independent of where they are typed.

``ConsoleCommands.execute(line)`` returns the lines to show; the local terminal,
the TCP console and in-game ``!system`` all call it, so every surface offers the
same commands with the same errors. Nothing here writes to a terminal.

The commands are entries of an engine command table (``engine.commands.table``,
``Access.CONSOLE``): each declares its usage, help and arguments there, and
``help`` and tab completion (players' names included) are derived from the
entries. Their handlers stay here because they need the proxy server; a handler
takes the line's words (split as a shell would) and answers with lines, or raises
``UsageError``.
"""
from __future__ import annotations

import json
import platform
import shlex
import time
from collections import deque
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Callable

import attrs

from engine.actions import Action, ReplyToPlayer, RunLine
from engine.commands.args import Arg, ArgKind, Word
from engine.commands.builtin import AUTOPILOT
from engine.commands.table import Access, Command, CommandTable, Invocation, Text
from engine.modules.declarations import ParseContext
from engine.decision.provider_names import PROVIDERS
from engine.routing.config import ROUTING_MODES
from proxy.protocol import versions

if TYPE_CHECKING:
    from proxy.server import ProxyServer

SECRET_KEYS = ("token", "key", "secret", "password")


ConsoleRun = Callable[[list[str]], list[str]]  # the line's words after the command's name → the lines to show


def _words(args: str, _ctx: ParseContext) -> list[str] | None:
    try:
        return shlex.split(args)
    except ValueError:
        return None


def console_command(name: str, usage: str, help: str, run: ConsoleRun, args: Sequence[Arg] = (),
                    words: tuple[Word, ...] = ()) -> Command[list[str]]:
    """One console command as an entry of the engine's command table."""
    def handler(_inv: Invocation, argv: list[str]) -> Sequence[Action | RunLine]:
        return [ReplyToPlayer(tuple(run(argv)))]

    return Command(name, _words, handler, Text(usage), Text(help), access=Access.CONSOLE, args=tuple(args),
                   words=words)


def _answer(actions: Sequence[Action | RunLine]) -> list[str]:
    return [line for action in actions if isinstance(action, ReplyToPlayer) for line in action.lines]


_PLAYER = Arg("player", ArgKind.PLAYER)


class LogRing:
    """The last log events, for ``log tail``; a twisted.logger observer."""

    def __init__(self, size: int = 500) -> None:
        self.events: deque[tuple[float, str, str | None]] = deque(maxlen=size)

    def __call__(self, event: dict[str, Any]) -> None:
        from twisted.logger import formatEvent

        text = formatEvent(event)
        if not text:
            return
        player = event.get("player")
        self.events.append((float(event.get("log_time", time.time())), text, str(player) if player else None))

    def tail(self, player: str | None, count: int = 20) -> list[str]:
        rows = [(t, text) for t, text, who in self.events if player is None or who == player or (player in text)]
        return [time.strftime("%H:%M:%S", time.localtime(t)) + " " + text for t, text in rows[-count:]]


def redact(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: ("<redacted>" if any(s in k.lower() for s in SECRET_KEYS) and v else redact(v))
                for k, v in value.items()}
    if isinstance(value, list):
        return [redact(v) for v in value]
    return value


class UsageError(Exception):
    pass


class ConsoleCommands:
    def __init__(self, server: "ProxyServer", reload: Callable[[], list[str]], stop: Callable[[], None],
                 logs: LogRing | None = None, more: Iterable[Command[list[str]]] = ()) -> None:
        """``more``: console commands beyond the built-in ones (``console_command`` entries)."""
        self.server = server
        self._reload = reload
        self._stop = stop
        self.logs = logs or LogRing()
        c = console_command
        self.table = CommandTable([
            c("help", "help [COMMAND]", "list commands, or explain one", self._help, (Arg("command", optional=True),)),
            c("status", "status", "uptime, sessions, traffic, upstream latency", self._status),
            c("sessions", "sessions", "connected players", self._sessions),
            c("kick", "kick PLAYER [REASON]", "disconnect a player with a reason", self._kick,
              (_PLAYER, Arg("reason", ArgKind.TEXT, optional=True))),
            c("send", "send PLAYER SERVER", "move a player to another server of the network", self._send,
              (_PLAYER, Arg("server", ArgKind.TEXT))),
            c("say", "say TEXT", "broadcast a proxy message to every player", self._say, (Arg("text", ArgKind.TEXT),)),
            c("routing", f"routing [mode {'|'.join(ROUTING_MODES)}]", "local routing diagnostics, or set its mode",
              self._routing, (Arg("mode", ArgKind.CHOICE, ("mode",), optional=True),
                              Arg("routing_mode", ArgKind.CHOICE, ROUTING_MODES))),
            c("reload", "reload", "re-read and validate the config; keep the old one if invalid", self._reload_cmd),
            # After the player's name, the words of the player's own !autopilot entry.
            c("agent", "agent PLAYER on|off|status|provider NAME", "the autopilot for a player", self._agent,
              (_PLAYER, Arg("autopilot", ArgKind.TEXT)), (Word(_PLAYER.name, AUTOPILOT.completion_words, player=True),)),
            c("reflex", "reflex PLAYER on|off", "reflexes for a player", self._reflex,
              (_PLAYER, Arg("state", ArgKind.CHOICE, ("on", "off")))),
            c("log", "log tail [PLAYER]", "recent log lines, optionally for one player", self._log,
              (Arg("tail", ArgKind.CHOICE, ("tail",)), attrs.evolve(_PLAYER, optional=True))),
            c("dump", "dump", "a redacted diagnostic bundle (JSON)", self._dump),
            c("stop", "stop", "tell players, close upstreams, flush logs, exit", self._stop_cmd),
            *more,
        ]).freeze()

    # -- entry points -------------------------------------------------------------------
    def execute(self, line: str) -> list[str]:
        line = line.strip()
        if not line:
            return []
        try:
            words = shlex.split(line)
        except ValueError as exc:
            return [f"error: {exc}"]
        name, args = words[0].lower(), words[1:]
        command = self.table.get(name)
        if command is None or command.access is not Access.CONSOLE:
            return [f"unknown command {name!r}; type 'help' for the list"]
        inv = Invocation(None, self.server.clock.seconds(), "en", admin=True, prefix="")
        try:
            return _answer(command.handler(inv, args))
        except UsageError as exc:
            return [f"error: {exc}", f"usage: {command.usage.en}"]

    def complete(self, line: str) -> list[str]:
        """Completions for the last word of ``line``, from the entries' words and arguments."""
        return self.table.complete(line.split(" "), admin=True, players=self._players())

    # -- helpers ------------------------------------------------------------------------
    def _players(self) -> list[str]:
        return [b.player_name for b in self.server.connections if b.player_name and b.session is not None]

    def _bridge(self, name: str) -> Any:
        for bridge in self.server.connections:
            if bridge.player_name and bridge.player_name.lower() == name.lower() and bridge.session is not None:
                return bridge
        raise UsageError(f"no player {name!r} is connected")

    # -- commands -----------------------------------------------------------------------
    def _help(self, args: list[str]) -> list[str]:
        if args:
            command = self.table.get(args[0].lower())
            if command is None:
                raise UsageError(f"unknown command {args[0]!r}")
            return [f"{command.usage.en} - {command.help.en}"]
        return [f"{usage:<36} {text}" for usage, text in self.table.help_rows("en", admin=True, prefix="")]

    def _status(self, args: list[str]) -> list[str]:
        s = self.server
        totals = s.totals()
        uptime = s.clock.seconds() - s.started_at
        rtt = s.upstream_rtt
        first = s.network.network.first
        seen = totals.fast + totals.decoded
        return [
            f"uptime {_duration(uptime)}; {s.player_count()} players, {len(s.connections)} connections, "
            f"{s.logins} logins since start",
            f"client->server {totals.c2s_packets} packets / {totals.c2s_bytes} bytes; "
            f"server->client {totals.s2c_packets} packets / {totals.s2c_bytes} bytes",
            f"fast path {totals.fast / seen:.1%} of play packets" if seen else "fast path: no play packets yet",
            f"upstream {first.host}:{first.port} latency "
            + (f"{rtt * 1000:.1f} ms" if rtt is not None else "not measured yet"),
            *self._network_lines(),
        ]

    def _network_lines(self) -> list[str]:
        """In front of several servers: who is where, and the moves so far."""
        board = self.server.network
        if not board.network.several:
            return []
        on: dict[str, int] = {name: 0 for name in board.network.backends}
        for b in self.server.connections:
            if b.session is not None and b.backend is not None:
                on[b.backend.name] = on.get(b.backend.name, 0) + 1
        where = ", ".join(f"{name} {count}" for name, count in on.items())
        return [f"servers (players): {where}; {board.switches} moves, {board.failovers} failovers "
                f"({board.login_failovers} at login)"]

    def _sessions(self, args: list[str]) -> list[str]:
        rows = []
        now = self.server.clock.seconds()
        for b in sorted(self.server.connections, key=lambda b: b.player_name or ""):
            if b.session is None:
                continue
            rows.append(f"{b.player_name:<16} {b.codec.version if b.codec else '?':<8} {b.peer:<21} "
                        f"{_duration(now - b.connected_at):>9}  {b.session.control_summary()}")
        if not rows:
            return ["no players connected"]
        return [f"{'player':<16} {'version':<8} {'address':<21} {'connected':>9}  agent/reflex"] + rows

    def _kick(self, args: list[str]) -> list[str]:
        if not args:
            raise UsageError("which player?")
        bridge = self._bridge(args[0])
        reason = " ".join(args[1:]) or "Kicked by an administrator."
        bridge.disconnect(reason, "kicked_by_admin")
        return [f"kicked {bridge.player_name}: {reason}"]

    def _send(self, args: list[str]) -> list[str]:
        if len(args) != 2:
            raise UsageError("which player, to which server?")
        return self.server.network.send(self._bridge(args[0]), args[1])

    def _say(self, args: list[str]) -> list[str]:
        if not args:
            raise UsageError("say what?")
        text = " ".join(args)
        self.server.broadcast(text)
        return [f"said to {self.server.player_count()} players: {text}"]

    def _routing(self, args: list[str]) -> list[str]:
        routing = self.server.routing
        if routing is None:
            return ["local routing is not enabled in this build or configuration"]
        if not args:
            return list(routing.diagnostics())
        if args[0] == "mode" and len(args) == 2 and args[1].lower() in ROUTING_MODES:
            return list(routing.set_mode(args[1].upper()))
        raise UsageError(f"expected: routing mode {'|'.join(ROUTING_MODES)}")

    def _reload_cmd(self, args: list[str]) -> list[str]:
        return self._reload()

    def _agent(self, args: list[str]) -> list[str]:
        if not (len(args) == 2 and args[1] in ("on", "off", "status")
                or len(args) == 3 and args[1] == "provider"):
            raise UsageError(f"expected: agent PLAYER on|off|status|provider {'|'.join(PROVIDERS)}")
        bridge = self._bridge(args[0])
        actions = bridge.session.admin_agent(" ".join(args[1:]), self.server.clock.seconds())
        bridge.perform(actions)  # the player sees the same answer, and control changes hands
        lines = [line for a in actions if isinstance(a, ReplyToPlayer) for line in a.lines]
        return [f"{bridge.player_name}: {line}" for line in lines] or [f"{bridge.player_name}: done"]

    def _reflex(self, args: list[str]) -> list[str]:
        if len(args) != 2 or args[1] not in ("on", "off"):
            raise UsageError("expected: reflex PLAYER on|off")
        bridge = self._bridge(args[0])
        return list(bridge.session.admin_reflex(args[1] == "on", self.server.clock.seconds()))

    def _log(self, args: list[str]) -> list[str]:
        if not args or args[0] != "tail" or len(args) > 2:
            raise UsageError("expected: log tail [PLAYER]")
        lines = self.logs.tail(args[1] if len(args) == 2 else None)
        return lines or ["no log lines yet"]

    def _dump(self, args: list[str]) -> list[str]:
        from twisted import __version__ as twisted_version

        from proxy.protocol.tables import minecraft_data_version

        try:
            from importlib.metadata import version as dist_version

            quarry_version = dist_version("quarry")
            mcagent_version = dist_version("mcagent")
        except Exception:
            quarry_version = mcagent_version = "unknown"
        totals = self.server.totals()
        bundle = {
            "mcagent": mcagent_version,
            "python": platform.python_version(),
            "twisted": twisted_version,
            "quarry": quarry_version,
            "minecraft_data": minecraft_data_version(),
            # One line: the whole list (46 rows) would push the config past what chat shows.
            "supported_versions": f"{versions.supported_range()}, {len(versions.SUPPORTED)} protocols",
            "config": redact(self.server.config.model_dump()),
            "players": self.server.player_count(),
            "logins": self.server.logins,
            "disconnects": self.server.disconnects,
            "closed_sessions": [attrs.asdict(s) for s in self.server.closed_sessions],
            "traffic": attrs.asdict(totals),
            "ticks": self.server.ticks,
            "routing": self.server.routing.diagnostics() if self.server.routing is not None else None,
        }
        return json.dumps(bundle, indent=2, default=str).splitlines()

    def _stop_cmd(self, args: list[str]) -> list[str]:
        self._stop()
        return ["stopping: players are told, upstreams closed, logs flushed"]


def _duration(seconds: float) -> str:
    seconds = int(max(seconds, 0))
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h}h{m:02d}m{s:02d}s" if h else f"{m}m{s:02d}s"
