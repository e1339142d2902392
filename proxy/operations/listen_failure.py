"""A port that cannot be opened at start: the reason in one line, and a prompt stop.

Twisted's ``listen`` fails its Deferred at once, while ``mcagent run`` is still setting up and
before the reactor runs; the proxy, its metrics, console and dashboard all open ports that way.
"""
from __future__ import annotations

from typing import Any

from twisted.internet.error import ReactorNotRunning


def listen_error(failure: Any) -> str:
    """Why a port could not be opened, without Twisted's repetition of the address."""
    return str(getattr(failure.value, "socketError", None) or failure.getErrorMessage())


def stop_soon(reactor: Any) -> None:
    """Stop the reactor now if it runs, else as soon as it starts.

    A bare ``reactor.stop()`` before ``reactor.run()`` raises ReactorNotRunning, and the process
    then runs on, serving nothing. Stopping twice (a signal during the stop) is harmless."""

    def stop() -> None:
        try:
            reactor.stop()
        except ReactorNotRunning:
            pass

    reactor.callWhenRunning(stop)
