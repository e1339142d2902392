"""The proxy's own console: Ctrl-C stops the proxy as it stops any server; Ctrl-D leaves the console."""
from __future__ import annotations

from typing import Any

from proxy.operations.console_io import TerminalConsole


class _Terminal:
    def __init__(self) -> None:
        self.written = b""

    def write(self, data: bytes) -> None:
        self.written += data

    def __getattr__(self, name: str) -> Any:
        return lambda *args: None


class _Commands:
    def execute(self, line: str) -> list[str]:
        return []

    def complete(self, prefix: str) -> list[str]:
        return []


def _console() -> tuple[TerminalConsole, list[str]]:
    calls: list[str] = []
    console = TerminalConsole(_Commands(), lambda: calls.append("stop"), lambda: calls.append("leave"))  # type: ignore[arg-type]
    console.terminal = _Terminal()
    console.lineBuffer = []
    console.lineBufferIndex = 0
    return console, calls


def test_ctrl_c_stops_the_proxy() -> None:
    console, calls = _console()
    console.keystrokeReceived(b"\x03", None)
    assert calls == ["stop"]


def test_ctrl_d_on_an_empty_line_leaves_the_console_and_logs_print_plainly(capsys: Any) -> None:
    console, calls = _console()
    console.lineBuffer = [b"x"]
    console.keystrokeReceived(b"\x04", None)
    assert calls == []  # not while something is typed
    console.lineBuffer = []
    console.keystrokeReceived(b"\x04", None)
    assert calls == ["leave"] and not console.active
    console.show_log("a log line")
    assert capsys.readouterr().out == "a log line\n"
