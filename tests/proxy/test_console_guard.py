"""The TCP console resists token guessing: back-off per address, a deadline for the token,
and a summary in the log instead of a line per guess."""
from __future__ import annotations


from twisted.internet.address import IPv4Address
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport

from proxy.operations.console_io import TcpConsole, TcpConsoleFactory
from proxy.operations.login_throttle import LoginThrottle

TOKEN = "correct-horse-battery"


class _Commands:
    def execute(self, line: str) -> list[str]:
        return [f"ran {line}"]

    def complete(self, prefix: str) -> list[str]:
        return []


def _factory() -> tuple[TcpConsoleFactory, Clock, list[tuple[str, int, float]]]:
    clock = Clock()
    factory = TcpConsoleFactory(_Commands(), TOKEN, clock)  # type: ignore[arg-type]
    reports: list[tuple[str, int, float]] = []
    factory.throttle.report = lambda host, count, wait: reports.append((host, count, wait))
    return factory, clock, reports


def _connect(factory: TcpConsoleFactory, host: str = "10.0.0.9") -> tuple[TcpConsole, StringTransport]:
    console = factory.buildProtocol(IPv4Address("TCP", host, 4000))
    transport = StringTransport(peerAddress=IPv4Address("TCP", host, 4000))
    console.makeConnection(transport)
    return console, transport


def _try(factory: TcpConsoleFactory, token: str, host: str = "10.0.0.9") -> tuple[bytes, bool]:
    console, transport = _connect(factory, host)
    if not transport.disconnecting:
        console.dataReceived(token.encode() + b"\n")
    return transport.value(), bool(transport.disconnecting)


def test_five_hundred_guesses_are_throttled_and_summarised() -> None:
    factory, clock, reports = _factory()
    outcomes = [_try(factory, f"guess-{i}") for i in range(500)]
    checked = sum(1 for out, _ in outcomes if b"wrong token" in out and b"too many" not in out)
    assert checked == 4  # three free tries, then one that starts the lock; the rest wait
    assert all(closed for _, closed in outcomes)
    # Even the right token is refused while locked: the lock is not a hint.
    out, closed = _try(factory, TOKEN)
    assert b"too many wrong tokens" in out and closed
    assert len(reports) == 1  # the first failure; the rest arrive as one summary
    clock.advance(60)
    assert len(reports) == 2 and reports[1][1] == 500


def test_the_lock_doubles_then_expires_and_the_right_token_gets_in() -> None:
    factory, clock, _ = _factory()
    for _ in range(3):
        _try(factory, "nope")
    waits = []
    for _ in range(3):
        _try(factory, "nope")
        waits.append(factory.throttle.locked_for("10.0.0.9"))
        clock.advance(waits[-1])
    assert waits == [1.0, 2.0, 4.0]
    out, closed = _try(factory, TOKEN)
    assert b"welcome" in out and not closed
    assert factory.throttle.locked_for("10.0.0.9") == 0.0


def test_other_addresses_are_not_locked_out() -> None:
    factory, _, _ = _factory()
    for _ in range(10):
        _try(factory, "nope", host="10.0.0.66")
    out, closed = _try(factory, TOKEN, host="10.0.0.7")
    assert b"welcome" in out and not closed


def test_a_connection_that_sends_no_token_is_closed_after_a_few_seconds() -> None:
    factory, clock, _ = _factory()
    console, transport = _connect(factory)
    clock.advance(TcpConsole.AUTH_SECONDS - 0.1)
    assert not transport.disconnecting
    clock.advance(0.2)
    assert transport.disconnecting and b"no token within" in transport.value()
    # An authenticated console is never timed out.
    console, transport = _connect(factory, "10.0.0.10")
    console.dataReceived(TOKEN.encode() + b"\n")
    clock.advance(3600)
    assert not transport.disconnecting


def test_the_throttle_table_stays_bounded() -> None:
    clock = Clock()
    throttle = LoginThrottle(clock, lambda *a: None)
    for i in range(30_000):
        throttle.failed(f"10.{i // 65536}.{i // 256 % 256}.{i % 256}")
    assert len(throttle.backoff) <= 10_000
