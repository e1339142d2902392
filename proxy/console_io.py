"""Where the admin console is typed: the proxy's own terminal and a token-guarded TCP port.

The local console uses Twisted conch's ``HistoricRecvLine`` (line editing, history)
on the controlling terminal, and is only started when standard input is a
terminal, so a service or CI run stays quiet. The TCP console is line based: the
first line must be the token; ``?complete PREFIX`` asks for completions, which is
how ``mcagent console`` offers tab completion with readline.
"""
from __future__ import annotations

import hmac
import os
import sys
import termios
import tty
from typing import Any, Callable

from twisted.conch.insults.insults import ServerProtocol
from twisted.conch.recvline import HistoricRecvLine
from twisted.internet import protocol
from twisted.internet.stdio import StandardIO
from twisted.logger import Logger
from twisted.protocols.basic import LineReceiver

from proxy.console import ConsoleCommands

log = Logger(namespace="mcagent.console")
PROMPT = b"mcagent> "
END_OF_REPLY = "\x1e"  # record separator: marks the end of one command's output


class TerminalConsole(HistoricRecvLine):
    ps = (PROMPT, b"... ")

    def __init__(self, commands: ConsoleCommands) -> None:
        super().__init__()
        self.commands = commands

    def initializeScreen(self) -> None:
        # Keep what is already on the screen (start-up lines); just show a prompt.
        self.terminal.write(b"type 'help' for commands\r\n")
        self.terminal.write(self.ps[self.pn])
        self.setInsertMode()  # type: ignore[no-untyped-call]

    def lineReceived(self, line: bytes) -> None:
        for text in self.commands.execute(line.decode("utf-8", "replace")):
            self.terminal.write(text.encode("utf-8") + b"\r\n")
        self.terminal.write(self.ps[self.pn])

    def handle_TAB(self) -> None:
        typed = b"".join(self.lineBuffer).decode("utf-8", "replace")
        options = self.commands.complete(typed)
        if len(options) == 1:
            head, _, _ = typed.rpartition(" ")
            completed = (head + " " if head else "") + options[0] + " "
            self._set_line(completed)
        elif options:
            self.terminal.write(b"\r\n" + "  ".join(options).encode() + b"\r\n")
            self.terminal.write(self.ps[self.pn] + b"".join(self.lineBuffer))

    def _set_line(self, text: str) -> None:
        self.terminal.eraseLine()
        self.terminal.cursorBackward(len(self.lineBuffer) + len(self.ps[self.pn]))
        self.lineBuffer = [bytes([c]) for c in text.encode("utf-8")]
        self.lineBufferIndex = len(self.lineBuffer)
        self.terminal.write(self.ps[self.pn] + text.encode("utf-8"))

    def show_log(self, text: str) -> None:
        """Print a log line above the prompt without losing what is being typed."""
        self.terminal.eraseLine()
        self.terminal.cursorBackward(len(self.lineBuffer) + len(self.ps[self.pn]))
        self.terminal.write(text.encode("utf-8", "replace") + b"\r\n")
        self.terminal.write(self.ps[self.pn] + b"".join(self.lineBuffer))


def start_terminal_console(commands: ConsoleCommands, reactor: Any) -> TerminalConsole | None:
    """Run the console on this process's terminal; None (quietly) when stdin is not one."""
    if not sys.stdin.isatty():
        return None
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setraw(fd)
    reactor.addSystemEventTrigger("after", "shutdown", lambda: termios.tcsetattr(fd, termios.TCSANOW, saved))
    holder: list[TerminalConsole] = []

    def make() -> TerminalConsole:
        console = TerminalConsole(commands)
        holder.append(console)
        return console

    StandardIO(ServerProtocol(make), reactor=reactor)
    return holder[0] if holder else None


class TcpConsole(LineReceiver):
    delimiter = b"\n"
    MAX_LENGTH = 4096

    def __init__(self, commands: ConsoleCommands, token: str) -> None:
        self.commands = commands
        self.token = token
        self.authenticated = False

    def connectionMade(self) -> None:
        self.sendLine(b"mcagent console: send the token")  # type: ignore[no-untyped-call]

    def lineReceived(self, line: bytes) -> None:
        text = line.decode("utf-8", "replace").rstrip("\r")
        if not self.authenticated:
            if hmac.compare_digest(text.encode(), self.token.encode()):
                self.authenticated = True
                self._reply(["welcome; type 'help' for commands"])
            else:
                peer = self.transport.getPeer()  # type: ignore[union-attr]
                log.warn("console login refused from {host}: wrong token", host=getattr(peer, "host", "?"))
                self.sendLine(b"denied: wrong token")  # type: ignore[no-untyped-call]
                self.transport.loseConnection()  # type: ignore[union-attr]
            return
        if text.startswith("?complete "):
            self._reply(["completions: " + " ".join(self.commands.complete(text[len("?complete "):]))])
            return
        self._reply(self.commands.execute(text))

    def _reply(self, lines: list[str]) -> None:
        for out in lines:
            self.sendLine(out.encode("utf-8"))  # type: ignore[no-untyped-call]
        self.sendLine(END_OF_REPLY.encode())  # type: ignore[no-untyped-call]


class TcpConsoleFactory(protocol.Factory):
    noisy = False

    def __init__(self, commands: ConsoleCommands, token: str) -> None:
        self.commands = commands
        self.token = token

    def buildProtocol(self, addr: Any) -> TcpConsole:
        return TcpConsole(self.commands, self.token)


def console_token(configured: str | None) -> str | None:
    return os.environ.get("MCAGENT_CONSOLE_TOKEN") or configured


def attach(host: str, port: int, token: str, lines: Callable[[], str] | None = None) -> int:
    """``mcagent console``: a plain blocking client with readline editing and completion."""
    import socket

    try:
        import readline
    except ImportError:  # pragma: no cover - readline is on every Linux Python
        readline = None  # type: ignore[assignment]
    sock = socket.create_connection((host, port), timeout=10)
    stream = sock.makefile("rwb")

    def send(text: str) -> None:
        stream.write(text.encode("utf-8") + b"\n")
        stream.flush()

    def read_reply() -> list[str] | None:
        out: list[str] = []
        while True:
            raw = stream.readline()
            if not raw:
                return None
            text = raw.decode("utf-8", "replace").rstrip("\r\n")
            if text == END_OF_REPLY:
                return out
            out.append(text)

    stream.readline()  # greeting
    send(token)
    first = read_reply()
    if first is None:
        print("mcagent console: the proxy refused the token", file=sys.stderr)
        return 1
    print("\n".join(first))
    if readline is not None:
        def completer(text: str, state: int) -> str | None:
            send("?complete " + readline.get_line_buffer())
            reply = read_reply() or [""]
            options = reply[0].removeprefix("completions: ").split()
            return options[state] + " " if state < len(options) else None

        readline.set_completer(completer)
        readline.set_completer_delims(" ")
        readline.parse_and_bind("tab: complete")
    prompt = lines or (lambda: input("mcagent> "))
    while True:
        try:
            line = prompt()
        except (EOFError, KeyboardInterrupt):
            print()
            return 0
        if line.strip() in ("quit", "exit"):
            return 0
        send(line)
        reply = read_reply()
        if reply is None:
            print("mcagent console: connection closed")
            return 0
        if reply:
            print("\n".join(reply))
