"""The two sockets of one proxied connection: thin Twisted protocols around a ``Connection``.

How this works: ``ClientLeg`` is what the listening ``ProxyServer`` builds per client
connection; it creates the sans-IO ``proxy.connection.core.Connection`` and is its
``ConnectionIO``: bytes from the client go to ``Connection.client_data``, and what the
connection writes goes to the client's transport or to the ``ServerLeg``, the upstream
socket, which it opens on request. Only socket matters live here: the read timeout,
TCP_NODELAY, and closing so that a reason reaches the client before the reset.
"""
from __future__ import annotations

import ipaddress
from typing import Any, Callable, Protocol

from zope.interface import implementer

from twisted.internet import protocol
from twisted.internet.defer import Deferred
from twisted.internet.endpoints import HostnameEndpoint, TCP4ClientEndpoint, TCP6ClientEndpoint
from twisted.internet.interfaces import IAddress, IConsumer, IPushProducer
from twisted.logger import Logger
from twisted.python.failure import Failure

from proxy.connection import direct_send
from proxy.connection.core import Connection, Host
from proxy.connection.seams import AccountSession, CandidateSink, Delayed, UpstreamSink

log = Logger(namespace="mcagent.connection")
CLOSE_GRACE_SECONDS = 2.0


class LegHost(Host, Protocol):
    """What the legs ask of the proxy server, beyond what the connection does."""

    connections: set[Connection]
    reactor: Any

    def verify_session(self, player_name: str, digest: str) -> Deferred[Any]: ...
    def account_session(self, account: str) -> Deferred[AccountSession]: ...
    def join_session(self, session: AccountSession, digest: str) -> Deferred[None]: ...


class _Retired:
    """The sink of an upstream the connection has left (a switch moved the player on)."""

    def server_data(self, data: bytes) -> None:
        pass

    def upstream_lost(self, why: str) -> None:
        pass


class ServerLeg(protocol.Protocol):
    """The proxy's connection to a backend for one client; its bytes go to ``sink``: the
    connection, or a switch while it logs in to the next backend (``candidate``)."""

    def __init__(self, client: "ClientLeg", candidate: CandidateSink | None = None) -> None:
        self.client = client
        self.candidate = candidate
        self.sink: UpstreamSink = candidate if candidate is not None else client.connection

    def connectionMade(self) -> None:
        _no_delay(self.transport)
        if self.candidate is not None:
            self.client.candidate_made(self, self.candidate)
        else:
            self.client.upstream_made(self)

    def dataReceived(self, data: bytes) -> None:
        self.sink.server_data(data)

    def connectionLost(self, reason: Failure = protocol.connectionDone) -> None:
        self.sink.upstream_lost(reason.getErrorMessage())

    def retire(self) -> None:
        self.sink = _Retired()
        if self.transport is not None:
            self.transport.loseConnection()


class ServerLegFactory(protocol.Factory):
    noisy = False

    def __init__(self, client: "ClientLeg", candidate: CandidateSink | None = None) -> None:
        self.client = client
        self.candidate = candidate

    def buildProtocol(self, addr: IAddress | None) -> ServerLeg:
        return ServerLeg(self.client, self.candidate)


@implementer(IPushProducer)
class Throttle:
    """Backpressure from one socket to the other: registered as the producer of the
    socket being written to, it pauses the socket being read from while the written
    one's buffer is full, so the proxy holds at most a socket buffer's worth per leg.
    ``on_stall`` runs if the pause lasts ``stall_seconds`` (the reader stopped reading)."""

    def __init__(self, source: Any, clock: Any, stall_seconds: float | None, on_stall: Callable[[], None]) -> None:
        self.source = source  # the transport to pause
        self.clock = clock
        self.stall_seconds = stall_seconds
        self.on_stall = on_stall
        self.paused = False
        self.detached = False  # the source is closing: it is never resumed again
        self._stall: Delayed | None = None

    def pauseProducing(self) -> None:
        if not self.paused and not self.detached:
            self.paused = True
            self.source.pauseProducing()
            if self.stall_seconds is not None:
                self._stall = self.clock.callLater(self.stall_seconds, self.on_stall)

    def resumeProducing(self) -> None:
        if self.paused and not self.detached:
            self.paused = False
            self.source.resumeProducing()
            self.stop_timer()

    def stopProducing(self) -> None:
        self.stop_timer()

    def detach(self) -> None:
        """The source is closing and reads nothing more: leave its reading as it is."""
        self.detached = True
        self.stop_timer()

    def stop_timer(self) -> None:
        if self._stall is not None and self._stall.active():
            self._stall.cancel()
        self._stall = None


class ClientLeg(protocol.Protocol):
    def __init__(self, server: LegHost) -> None:
        self.server = server
        self.connection = Connection(server, self)
        self.upstream: ServerLeg | None = None
        self.candidate: ServerLeg | None = None  # the next backend while a switch logs in to it
        self._wanted: CandidateSink | None = None  # the switch whose connection is being opened
        self._timers: list[Delayed] = []
        self._read_timer: Delayed | None = None
        self._frame_at = 0.0  # when the client's last whole frame came (the read timeout counts from it)
        self._throttles: list[Throttle] = []

    # -- Twisted's side ------------------------------------------------------------------
    def connectionMade(self) -> None:
        _no_delay(self.transport)
        self.server.connections.add(self.connection)
        self._frame_at = self.server.clock.seconds()
        self._read_timer = self.server.clock.callLater(self.server.config.read_timeout_seconds, self.timeoutConnection)
        self._later(self.server.config.limits.login_deadline_seconds, self._login_deadline)

    def dataReceived(self, data: bytes) -> None:
        conn = self.connection
        if conn.states.closed:
            return
        # Only whole packets count as activity: a trickle of bytes (slowloris) does not
        # keep a connection open past the read timeout. The timer is not moved on every read
        # (three calls into the reactor per read): it looks at the last frame's time when due.
        frames = conn.reader.frames_in
        conn.client_data(data)
        if conn.reader.frames_in != frames:
            self._frame_at = self.server.clock.seconds()

    def timeoutConnection(self) -> None:
        """Nothing whole from the client for read_timeout_seconds (else wait from its last frame)."""
        clock = self.server.clock
        left = self._frame_at + self.server.config.read_timeout_seconds - clock.seconds()
        if left > 0.001:  # (a millisecond: not a float's last bits of the same instant)
            self._read_timer = clock.callLater(left, self.timeoutConnection)
            return
        conn = self.connection
        log.info("{player} from {peer} timed out", player=conn.player_name or "?", peer=self.peer())
        if self._waiting_for_server():
            conn.upstream_silent()
            return
        conn.disconnect(f"Timed out: nothing received for {self.server.config.read_timeout_seconds:g} seconds.",
                        "timeout")

    def _login_deadline(self) -> None:
        conn = self.connection
        if conn.states.closed or conn.states.playing or conn.switch is not None:
            return  # (a move to another backend has its own deadline)
        if self._waiting_for_server():
            conn.upstream_silent()
            return
        seconds = self.server.config.limits.login_deadline_seconds
        log.info("{peer} ({player}) did not reach play within {seconds:g} s", peer=self.peer(),
                 player=conn.player_name or "?", seconds=seconds)
        conn.disconnect(f"Timed out: logging in took longer than {seconds:g} seconds.", "login_timeout")

    def _waiting_for_server(self) -> bool:
        """The upstream accepted the connection and has said nothing yet."""
        conn = self.connection
        return conn.upstream_open and conn.server_reader.bytes_in == 0

    def _client_stalled(self) -> None:
        seconds = self.server.config.limits.stalled_client_seconds
        log.info("{player} from {peer} read nothing for {seconds:g} s", player=self.connection.player_name or "?",
                 peer=self.peer(), seconds=seconds)
        self.connection.disconnect(f"Your client stopped reading for {seconds:g} seconds.", "client_stalled")
        transport: Any = self.transport
        if transport is not None:  # its buffer is full: the reason cannot pass
            getattr(transport, "abortConnection", transport.loseConnection)()

    def _later(self, seconds: float, call: Callable[[], None]) -> None:
        self._timers = [t for t in self._timers if t.active()]
        self._timers.append(self.server.clock.callLater(seconds, call))

    def connectionLost(self, reason: Failure = protocol.connectionDone) -> None:
        for timer in [*self._timers, self._read_timer]:
            if timer is not None and timer.active():
                timer.cancel()
        for throttle in self._throttles:
            throttle.stop_timer()
        self.server.connections.discard(self.connection)
        self.connection.client_lost()

    # -- ConnectionIO ----------------------------------------------------------------------
    def peer(self) -> str:
        # Read each time: behind a PROXY-protocol load balancer the real address is
        # known only once the header has arrived, after connectionMade.
        if self.transport is None:
            return "?"
        address = self.transport.getPeer()
        return f"{getattr(address, 'host', '?')}:{getattr(address, 'port', '?')}"

    def write_client(self, data: bytes) -> None:
        if self.transport is not None:
            direct_send.write(self.transport, data)

    def write_server(self, data: bytes) -> None:
        if self.upstream is not None and self.upstream.transport is not None:
            direct_send.write(self.upstream.transport, data)

    def connect_upstream(self) -> None:
        config = self.server.config
        up = self.connection.backend if self.connection.backend is not None else config.upstream
        endpoint = backend_endpoint(self.server.reactor, up.host, up.port, config.upstream_connect_timeout)
        d = endpoint.connect(ServerLegFactory(self))
        d.addErrback(lambda failure: self.connection.upstream_failed(failure.getErrorMessage()))

    def upstream_made(self, leg: ServerLeg) -> None:
        self.upstream = leg
        self._throttle(leg)
        self._later(self.server.config.limits.upstream_answer_seconds, self.connection.upstream_silent)
        self.connection.upstream_connected()

    def _throttle(self, leg: ServerLeg) -> None:
        for throttle in self._throttles:
            throttle.stop_timer()
        if self._throttles and self.transport is not None:
            IConsumer(self.transport).unregisterProducer()
        self._throttles = []
        if self.transport is not None and leg.transport is not None:
            limits = self.server.config.limits
            clock = self.server.clock
            # Server -> client: a client that stops reading pauses the upstream, then is closed.
            to_client = Throttle(leg.transport, clock, limits.stalled_client_seconds, self._client_stalled)
            # Client -> server: a server that stops reading pauses the client (no deadline: its own).
            to_server = Throttle(self.transport, clock, None, lambda: None)
            self._throttles = [to_client, to_server]
            IConsumer(self.transport).registerProducer(to_client, True)
            IConsumer(leg.transport).registerProducer(to_server, True)

    # -- a switch's next backend (SwitchIO) --------------------------------------------------
    def connect_candidate(self, host: str, port: int, sink: CandidateSink) -> None:
        self._wanted = sink
        endpoint = backend_endpoint(self.server.reactor, host, port, self.server.config.upstream_connect_timeout)
        d = endpoint.connect(ServerLegFactory(self, sink))
        d.addErrback(lambda failure: sink.candidate_failed(failure.getErrorMessage()))

    def candidate_made(self, leg: ServerLeg, sink: CandidateSink) -> None:
        if sink is not self._wanted or self.connection.states.closed:
            leg.retire()  # a switch that was given up meanwhile
            return
        self.candidate = leg
        sink.candidate_connected()

    def write_candidate(self, data: bytes) -> None:
        if self.candidate is not None and self.candidate.transport is not None:
            self.candidate.transport.write(data)

    def close_candidate(self) -> None:
        self._wanted = None
        if self.candidate is not None:
            self.candidate.retire()
        self.candidate = None

    def adopt_candidate(self) -> None:
        """The next backend becomes the upstream; the old one is closed without a word to the
        connection (its loss is no failover)."""
        leg, self.candidate, self._wanted = self.candidate, None, None
        if leg is None:
            return
        old, self.upstream = self.upstream, leg
        if old is not None:
            old.retire()
        leg.sink = self.connection
        self._throttle(leg)

    def close_upstream(self) -> None:
        if self.upstream is not None and self.upstream.transport is not None:
            self.upstream.transport.loseConnection()

    def close_client(self, graceful: bool) -> None:
        """Close so the reason arrives: a full close while the client is still sending
        makes the kernel answer with a reset, and the client may drop the unread
        disconnect packet. So half-close (FIN after our bytes), let the client close
        its side, and abort only if it has not within two seconds. Nothing more is read
        from it meanwhile: the connection is over, and a flooder kicked for its rate
        would otherwise have the reactor read and drop whatever it sends in the grace
        (about 1 GB in two seconds on loopback). A client that closes is noticed at the abort."""
        transport: Any = self.transport
        if transport is None:
            return
        half_close = getattr(transport, "loseWriteConnection", None)
        if not graceful or half_close is None:
            transport.loseConnection()  # stops reading too
            return
        for throttle in self._throttles:
            if throttle.source is transport:
                throttle.detach()  # a draining upstream must not resume reading the client
        transport.pauseProducing()
        half_close()
        self._later(CLOSE_GRACE_SECONDS, getattr(transport, "abortConnection", transport.loseConnection))

    def verify_session(self, player: str, digest: str) -> None:
        d = self.server.verify_session(player, digest)
        d.addCallbacks(lambda answer: self.connection.session_verified(answer, None),
                       lambda failure: self.connection.session_verified(None, failure.getErrorMessage() or "failed"))

    def account_session(self, account: str) -> None:
        d = self.server.account_session(account)
        d.addCallbacks(lambda session: self.connection.account_ready(session, None),
                       lambda failure: self.connection.account_ready(None, failure.getErrorMessage()))

    def join_session(self, account: AccountSession, digest: str) -> None:
        d = self.server.join_session(account, digest)
        d.addCallbacks(lambda _: self.connection.session_joined(None),
                       lambda failure: self.connection.session_joined(failure.getErrorMessage() or "failed"))


def backend_endpoint(reactor: Any, host: str, port: int, timeout: float) -> Any:
    """The endpoint for a backend: a plain TCP one for an address, HostnameEndpoint for a name.

    HostnameEndpoint reports a refused connection to its only address one attempt tick late
    (0.3 s against 0.001 s, measured): a failover through a dead backend of the table paid that.
    """
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return HostnameEndpoint(reactor, host, port, timeout=timeout)
    if address.version == 4:
        return TCP4ClientEndpoint(reactor, host, port, timeout=timeout)
    return TCP6ClientEndpoint(reactor, host, port, timeout=timeout)


def _no_delay(transport: Any) -> None:
    # Small game packets must not wait for Nagle's algorithm (it added ~20 ms to
    # keep-alives after a stall); a relay should add as little latency as it can.
    set_no_delay = getattr(transport, "setTcpNoDelay", None)
    if set_no_delay is not None:
        try:
            set_no_delay(True)
        except OSError:
            pass
