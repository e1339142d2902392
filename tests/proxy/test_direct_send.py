"""``direct_send.write``: bytes reach the socket at once when nothing is queued, and in every
other case go through Twisted's own queue, in order, with its backpressure (issue 25's
write lever). A real loopback TCP pair under Twisted's TCP transport, on a memory reactor
whose writability is driven by hand."""
from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from twisted.internet import protocol, tcp
from twisted.internet.testing import MemoryReactor, StringTransport

from proxy.connection import direct_send


class _Producer:
    def __init__(self) -> None:
        self.paused = 0

    def pauseProducing(self) -> None:
        self.paused += 1

    def resumeProducing(self) -> None:
        pass

    def stopProducing(self) -> None:
        pass


@pytest.fixture()
def pair() -> Iterator[tuple[tcp.Server, socket.socket, MemoryReactor]]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    peer = socket.socket()
    # Small fixed buffers (no autotuning), so a large write cannot all fit in the kernel.
    peer.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 * 1024)
    peer.connect(listener.getsockname())
    ours, address = listener.accept()
    listener.close()
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 64 * 1024)
    ours.setblocking(False)
    peer.settimeout(5)
    reactor = MemoryReactor()
    transport = tcp.Server(ours, protocol.Protocol(), address, None, 1, reactor)  # type: ignore[arg-type]
    transport.connected = 1
    yield transport, peer, reactor
    peer.close()
    ours.close()


def _read(peer: socket.socket, size: int) -> bytes:
    got = b""
    while len(got) < size:
        chunk = peer.recv(size - len(got))
        assert chunk, "peer closed"
        got += chunk
    return got


def test_nothing_queued_goes_to_the_socket_at_once(pair) -> None:  # type: ignore[no-untyped-def]
    transport, peer, reactor = pair
    direct_send.write(transport, b"hello")
    assert _read(peer, 5) == b"hello"
    assert transport not in reactor.writers  # no writability wait, no reactor turn
    assert transport._tempDataLen == 0 and transport.dataBuffer == b""


def test_bytes_queued_first_keep_their_order(pair) -> None:  # type: ignore[no-untyped-def]
    transport, peer, reactor = pair
    transport.write(b"first ")  # Twisted queues it until the socket is reported writable
    direct_send.write(transport, b"second")
    assert transport in reactor.writers
    peer.setblocking(False)
    with pytest.raises(BlockingIOError):
        peer.recv(100)  # nothing overtook the queued bytes
    peer.settimeout(5)
    transport.doWrite()
    assert _read(peer, 12) == b"first second"


def test_what_the_kernel_does_not_take_is_queued_with_backpressure(pair) -> None:  # type: ignore[no-untyped-def]
    transport, peer, reactor = pair
    producer = _Producer()
    transport.registerProducer(producer, True)
    transport.bufferSize = 1024
    # Far more than the two socket buffers take while the peer reads nothing.
    data = bytes(range(256)) * (40 * 1024)
    direct_send.write(transport, data)
    queued = transport._tempDataLen
    assert 0 < queued < len(data)  # part went at once, the rest waits in Twisted's queue
    assert producer.paused == 1  # and the side feeding this leg is paused, as transport.write does
    direct_send.write(transport, b"tail")  # queued behind, never sent ahead
    assert transport._tempDataLen == queued + 4
    got = b""
    want = len(data) + 4
    while len(got) < want:
        transport.doWrite()
        peer.setblocking(False)
        try:
            while True:
                chunk = peer.recv(1 << 20)
                if not chunk:
                    break
                got += chunk
        except BlockingIOError:
            pass
    assert got == data + b"tail"


def test_closing_and_non_tcp_transports_take_twisteds_write(pair) -> None:  # type: ignore[no-untyped-def]
    transport, peer, reactor = pair
    transport.loseConnection()  # disconnecting: what is written now is queued before the close
    direct_send.write(transport, b"bye")
    assert transport._tempDataLen == 3
    memory = StringTransport()
    direct_send.write(memory, b"abc")
    assert memory.value() == b"abc"


def test_a_send_error_leaves_the_bytes_to_twisted(pair, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    transport, peer, reactor = pair

    class Broken:
        def send(self, data: bytes) -> int:
            raise ConnectionResetError("reset by peer")

    monkeypatch.setattr(transport, "socket", Broken())
    direct_send.write(transport, b"lost?")
    assert transport._tempDataLen == 5  # Twisted's doWrite meets the error and closes as usual
    assert transport in reactor.writers
