"""Write to a TCP transport at once when nothing is queued on it.

How this works: Twisted's ``transport.write`` never sends: it queues the bytes and
registers the socket for writability (an ``epoll_ctl``); the next reactor turn reports the
socket writable, ``doWrite`` sends, and the emptied socket is unregistered (another
``epoll_ctl``). A relay writes after nearly every read, so that is two system calls and a
reactor turn per read and leg (a sixth of the features-off proxy's CPU, py-spy, 40 players).
``write`` sends straight to the socket when the transport holds nothing unsent, which
is the usual case for a game's small packets; whatever the kernel does not take at once
(a full socket buffer), or any error, goes through ``transport.write`` as before, so the
order of the bytes, backpressure (``Throttle``, the transport's ``bufferSize``) and the
handling of a lost connection stay Twisted's. Anything that is not a plain connected
Twisted TCP transport (tests' ``StringTransport``, TLS) always takes ``transport.write``.
"""
from __future__ import annotations

from typing import Any

from twisted.internet import tcp

EAGAIN_ERRORS = (BlockingIOError, InterruptedError)


def write(transport: Any, data: bytes) -> None:
    if not _idle_tcp(transport):
        transport.write(data)
        return
    try:
        sent = transport.socket.send(data)
    except EAGAIN_ERRORS:
        sent = 0
    except OSError:
        sent = 0  # a lost connection: Twisted's own write path notices it and closes as usual
    if sent < len(data):
        transport.write(data[sent:] if sent else data)


def _idle_tcp(transport: Any) -> bool:
    """A connected TCP transport with nothing queued, not closing (its own write would only
    queue the bytes behind nothing)."""
    return (type(transport) in _PLAIN_TCP and transport.connected and not transport.disconnecting
            and not transport._writeDisconnecting and not transport.TLS and not transport._tempDataLen
            and len(transport.dataBuffer) == transport.offset)


# Twisted's TCP transports exactly: a subclass (TLS wraps differently) may queue elsewhere.
_PLAIN_TCP = frozenset({tcp.Server, tcp.Client})
