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

from proxy.operations.console import ConsoleCommands

log = Logger(namespace="mcagent.console")
PROMPT = b"mcagent> "
END_OF_REPLY = "\x1e"  # record separator: marks the end of one command's output


class TerminalConsole(HistoricRecvLine):
    """The console on the proxy's own terminal (raw mode). Ctrl-C stops the proxy, as it stops
    any server; Ctrl-D on an empty line leaves the console: the terminal gets its normal mode
    back, log lines print as usual and the proxy runs on until Ctrl-C or SIGTERM."""

    ps = (PROMPT, b"... ")

    def __init__(self, commands: ConsoleCommands, on_interrupt: Callable[[], None] = lambda: None,
                 on_leave: Callable[[], None] = lambda: None) -> None:
        super().__init__()
        self.commands = commands
        self.on_interrupt = on_interrupt
        self.on_leave = on_leave
        self.active = True

    def keystrokeReceived(self, keyID: Any, modifier: Any) -> None:
        if keyID == b"\x03":  # Ctrl-C: raw mode delivers it as a byte, not as SIGINT
            self.terminal.write(b"^C\r\n")
            self.on_interrupt()
            return
        if keyID == b"\x04":  # Ctrl-D
            if not self.lineBuffer:
                self.terminal.write(b"\r\nleaving the console; the proxy keeps running (Ctrl-C stops it)\r\n")
                self.active = False
                self.on_leave()
            return
        super().keystrokeReceived(keyID, modifier)  # type: ignore[no-untyped-call]

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
        if not self.active:
            print(text, flush=True)
            return
        self.terminal.eraseLine()
        self.terminal.cursorBackward(len(self.lineBuffer) + len(self.ps[self.pn]))
        self.terminal.write(text.encode("utf-8", "replace") + b"\r\n")
        self.terminal.write(self.ps[self.pn] + b"".join(self.lineBuffer))


def start_terminal_console(commands: ConsoleCommands, reactor: Any,
                           on_interrupt: Callable[[], None] = lambda: None) -> TerminalConsole | None:
    """Run the console on this process's terminal; None (quietly) when stdin is not one."""
    if not sys.stdin.isatty():
        return None
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setraw(fd)

    def restore() -> None:
        termios.tcsetattr(fd, termios.TCSANOW, saved)

    reactor.addSystemEventTrigger("after", "shutdown", restore)
    holder: list[TerminalConsole] = []
    stdio: list[Any] = []

    def leave() -> None:
        restore()  # cooked mode again: Ctrl-C is SIGINT, which the CLI turns into a clean stop
        if stdio:
            stdio[0].loseConnection()

    def make() -> TerminalConsole:
        console = TerminalConsole(commands, on_interrupt, leave)
        holder.append(console)
        return console

    stdio.append(StandardIO(ServerProtocol(make), reactor=reactor))
    return holder[0] if holder else None


class TcpConsole(LineReceiver):
    """One TCP console connection: the token first (within ``AUTH_SECONDS``), then commands.

    Wrong tokens are throttled per address by the factory's ``LoginThrottle``; while
    an address is locked its attempts are refused without looking at the token.
    """

    delimiter = b"\n"
    MAX_LENGTH = 4096
    AUTH_SECONDS = 5.0

    def __init__(self, factory: "TcpConsoleFactory") -> None:
        self.factory = factory
        self.commands = factory.commands
        self.authenticated = False
        self._deadline: Any = None

    @property
    def host(self) -> str:
        peer = self.transport.getPeer() if self.transport is not None else None
        return str(getattr(peer, "host", "?"))

    def connectionMade(self) -> None:
        wait = self.factory.throttle.locked_for(self.host)
        if wait > 0:
            self.factory.throttle.refused(self.host)
            self._deny(f"denied: too many wrong tokens from your address; try again in {wait:.0f} s")
            return
        self.sendLine(b"mcagent console: send the token")  # type: ignore[no-untyped-call]
        self._deadline = self.factory.clock.callLater(self.AUTH_SECONDS, self._too_slow)

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.authenticated:
            self._deny(f"denied: no token within {self.AUTH_SECONDS:g} s")

    def _deny(self, text: str) -> None:
        self.sendLine(text.encode())  # type: ignore[no-untyped-call]
        self.transport.loseConnection()  # type: ignore[union-attr]

    def connectionLost(self, reason: Any = None) -> None:
        if self._deadline is not None and self._deadline.active():
            self._deadline.cancel()
        self._deadline = None

    def lineReceived(self, line: bytes) -> None:
        text = line.decode("utf-8", "replace").rstrip("\r")
        if not self.authenticated:
            self._check_token(text)
            return
        if text.startswith("?complete "):
            self._reply(["completions: " + " ".join(self.commands.complete(text[len("?complete "):]))])
            return
        self._reply(self.commands.execute(text))

    def _check_token(self, text: str) -> None:
        throttle, host = self.factory.throttle, self.host
        wait = throttle.locked_for(host)
        if wait > 0:  # another connection from this address is guessing too
            throttle.refused(host)
            self._deny(f"denied: too many wrong tokens from your address; try again in {wait:.0f} s")
            return
        if hmac.compare_digest(text.encode(), self.factory.token.encode()):
            throttle.succeeded(host)
            self.authenticated = True
            if self._deadline is not None and self._deadline.active():
                self._deadline.cancel()
            self._deadline = None
            self._reply(["welcome; type 'help' for commands"])
            return
        throttle.failed(host)
        self._deny("denied: wrong token")

    def _reply(self, lines: list[str]) -> None:
        for out in lines:
            self.sendLine(out.encode("utf-8"))  # type: ignore[no-untyped-call]
        self.sendLine(END_OF_REPLY.encode())  # type: ignore[no-untyped-call]


def _report_refusals(host: str, failures: int, locked_for: float) -> None:
    if failures == 1 and locked_for == 0:
        log.warn("console login refused from {host}: wrong token (further refusals are summarised)", host=host)
    else:
        log.warn("console: {count} more refused logins from {host} (wrong or throttled token); "
                 "locked for {wait:.0f} s", count=failures, host=host, wait=locked_for)


class TcpConsoleFactory(protocol.Factory):
    noisy = False

    def __init__(self, commands: ConsoleCommands, token: str, clock: Any = None) -> None:
        from proxy.operations.login_throttle import LoginThrottle

        if clock is None:
            from twisted.internet import reactor as clock
        self.commands = commands
        self.token = token
        self.clock = clock
        self.throttle = LoginThrottle(clock, _report_refusals)

    def buildProtocol(self, addr: Any) -> TcpConsole:
        return TcpConsole(self)


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
