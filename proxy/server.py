"""The listening side: one ``ProxyServer`` owns every connection, the tick and admission.

How this works: Twisted calls ``buildProtocol`` per client connection; each
client leg (``proxy.connection.legs.ClientLeg``) registers its ``Connection`` in ``connections``. A ``LoopingCall`` at 20 Hz drives
every playing session's ``tick(now)``; the clock is injected, so tests advance a
``task.Clock``. Admission (max players, per-IP login rate) is decided here, at
login start, before any upstream connection is opened.
"""
from __future__ import annotations

import time
from collections import deque
from typing import TYPE_CHECKING, Any, Callable, Protocol

import attrs

from twisted.internet import protocol, task
from twisted.internet.defer import Deferred, fail
from twisted.internet.endpoints import HostnameEndpoint
from twisted.internet.interfaces import IAddress, IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from engine.admin_proof import AdminProof
from engine.backoff import Backoff
from engine.session import Assistant
from proxy.protocol import key_exchange
from proxy.agent.autopilot_host import AutopilotHost
from proxy.connection.core import Connection
from proxy.connection.legs import ClientLeg
from proxy.protocol.states import State
from proxy.config import ProxyConfig
from proxy.connection.forwarding import Forwarding
from proxy.connection.status import ProbeFactory, StatusProbe
from proxy.network.backends import Network
from proxy.network.switchboard import Switchboard

if TYPE_CHECKING:
    from proxy.connection.account_source import AccountSource
    from proxy.connection.seams import AccountSession
    from proxy.agent.assistant_factory import RoutingSurface
    from prometheus_client import Histogram
    from proxy.agent.model_service import ModelService


class Metrics(Protocol):
    """What the server does with the proxy's metrics (``proxy.operations.metrics.Metrics``):
    times its tick, and hands itself over to be read at each scrape."""

    tick_seconds: "Histogram"

    def collect(self, server: "ProxyServer") -> None: ...

log = Logger(namespace="mcagent.server")
CONNECTION_LOG = Logger(namespace="mcagent.connection")


@attrs.define
class TrafficTotals:
    """Packets and bytes per direction, and how many took the fast path."""

    c2s_packets: int = 0
    c2s_bytes: int = 0
    s2c_packets: int = 0
    s2c_bytes: int = 0
    fast: int = 0
    decoded: int = 0
    swallowed: int = 0

    def add(self, conn: Connection) -> None:
        self.c2s_packets += conn.reader.frames_in
        self.c2s_bytes += conn.reader.bytes_in
        self.s2c_packets += conn.writer.frames_out
        self.s2c_bytes += conn.writer.bytes_out
        self.fast += conn.fast_frames
        self.decoded += conn.decoded_frames
        self.swallowed += conn.swallowed

    def merge(self, other: "TrafficTotals") -> None:
        for field in attrs.fields(TrafficTotals):
            setattr(self, field.name, getattr(self, field.name) + getattr(other, field.name))
@attrs.frozen
class ClosedSession:
    """What is kept of a finished session: a few numbers, never its world model or engine."""

    player: str
    version: str
    connected_at: float
    closed_at: float
    category: str
    reason: str
    c2s_frames: int
    s2c_frames: int
    c2s_bytes: int
    s2c_bytes: int

    @classmethod
    def of(cls, conn: Connection, now: float) -> "ClosedSession":
        return cls(conn.player_name or "?", conn.codec.version if conn.codec is not None else "?",
                   conn.connected_at, now, conn.close_category, (conn.close_reason or "")[:200],
                   conn.reader.frames_in, conn.writer.frames_out, conn.reader.bytes_in, conn.writer.bytes_out)


class AccountUnavailableHere(Exception):
    """The proxy was started without an account store but asked for an account."""


TICK_SECONDS = 0.05
# After the last player left: long enough for the transports to let go of the closed
# connections, short enough that the memory is back before an owner looks.
RELEASE_AFTER_SECONDS = 1.0
UPSTREAM_PROBE_SECONDS = 30.0


class ProxyServer(protocol.ServerFactory):
    noisy = False
    def __init__(
        self,
        config: ProxyConfig,
        reactor: Any,
        clock: IReactorTime | None = None,
        assistant_factory: Callable[[Connection], Assistant | None] | None = None,
        *,
        routing: RoutingSurface | None = None,
        model_service: ModelService | None = None,
        metrics: Metrics | None = None,
        accounts: AccountSource | None = None,
    ) -> None:
        self.config = config
        self.accounts = accounts  # the signed-in Microsoft accounts (upstream_auth microsoft)
        # Read once: the secret file is not re-read per login (a restart applies a new one).
        self.forwarding = Forwarding(config.forwarding.mode, config.forwarding.secret_bytes())
        self.reactor = reactor
        self.clock: IReactorTime = clock if clock is not None else reactor
        self.connection_log = CONNECTION_LOG
        # The servers behind the proxy (each with its forwarding, secrets read once), switching, failover.
        self.network = Switchboard(Network(config), CONNECTION_LOG)
        self.connections: set[Connection] = set()
        self.assistant_factory = assistant_factory
        self.started_at = self.clock.seconds()
        self._last_login: dict[str, float] = {}
        self._keypair: Any = None
        self._tick = task.LoopingCall(self.tick)
        self._tick.clock = self.clock
        self.ticks = 0
        self.last_tick_at: float | None = None
        self.closed_totals = TrafficTotals()
        self.disconnects: dict[str, int] = {}
        self.closed_reflex_firings: dict[str, int] = {}
        self.closed_autopilot_decisions: dict[str, int] = {}
        self.logins = 0
        # Summaries of the last closed sessions; a closed Connection (and its world model) is never kept.
        self.closed_sessions: deque[ClosedSession] = deque(maxlen=64)
        # Run RELEASE_AFTER_SECONDS after the last session closed: `mcagent run` sets
        # proxy.operations.heap.release (memory back to the system once every player left).
        self.release_memory: Callable[[], object] | None = None
        self._release_later: Any = None
        # Told of each closed session with the players still in (`mcagent run`: the gc policy).
        self.session_closed_hook: Callable[[int], object] | None = None
        self.listening = False
        self.upstream_rtt: float | None = None
        self.routing = routing  # routing diagnostics, when the assistant routes locally
        self.metrics = metrics
        if metrics is not None:
            metrics.collect(self)
        self.console: Any = None  # ConsoleCommands, set by the CLI
        self._probe = task.LoopingCall(self.probe_upstream)
        self._probe.clock = self.clock
        self.model_service = model_service  # when the assistant has a model
        self.autopilot = AutopilotHost(config, reactor, self.clock, model_service)
        self.admin_backoff = Backoff(free=3, base=2.0, ceiling=600.0)  # wrong admin secrets, per player name

    # -- lifecycle -------------------------------------------------------------------
    def start_ticking(self) -> None:
        if not self._tick.running:
            self._tick.start(TICK_SECONDS, now=False)
        if not self._probe.running:
            self._probe.start(UPSTREAM_PROBE_SECONDS, now=True)

    def stop_ticking(self) -> None:
        if self._tick.running:
            self._tick.stop()
        if self._probe.running:
            self._probe.stop()

    def tick(self) -> None:
        now = self.clock.seconds()
        started = time.perf_counter()
        self.ticks += 1
        self.last_tick_at = now
        for conn in list(self.connections):
            try:
                conn.tick(now)
            except Exception:  # one session's bug must not stop the others' tick
                log.failure("tick failed for {player}", player=conn.player_name)
                conn.disconnect("Internal error in the proxy; please reconnect.", "internal_error")
        if self.metrics is not None:
            self.metrics.tick_seconds.observe(time.perf_counter() - started)

    def autopilot_decisions(self) -> dict[str, int]:
        """Autopilot decisions applied, by action, over every session so far."""
        total = dict(self.closed_autopilot_decisions)
        for conn in self.connections:
            if conn.session is not None:
                for name, count in conn.session.pilot.decision_counts().items():
                    total[name] = total.get(name, 0) + count
        return total

    def autopilots_running(self) -> int:
        return sum(1 for b in self.connections if b.session is not None and b.session.pilot.active)

    def reflex_firings(self) -> dict[str, int]:
        total = dict(self.closed_reflex_firings)
        for conn in self.connections:
            if conn.session is not None:
                for name, count in conn.session.reflex_firings.items():
                    total[name] = total.get(name, 0) + count
        return total

    def totals(self) -> "TrafficTotals":
        """Traffic of every connection so far, closed and live."""
        total = TrafficTotals()
        total.merge(self.closed_totals)
        for conn in self.connections:
            total.add(conn)
        return total

    def buildProtocol(self, addr: IAddress) -> ClientLeg | None:  # type: ignore[override]
        cap = self.config.limits.connections_per_ip
        host = getattr(addr, "host", None)
        if cap and host is not None and not self.config.proxy_protocol:
            open_here = sum(1 for b in self.connections if b.peer.rsplit(":", 1)[0] == host)
            if open_here >= cap:
                # Refused before any byte is read: Twisted closes the socket at once.
                log.info("refused a connection from {host}: {cap} already open", host=host, cap=cap)
                return None
        return ClientLeg(self)

    # -- admission -------------------------------------------------------------------
    def player_count(self) -> int:
        return sum(1 for b in self.connections if b.session is not None)

    def admit(self, conn: Connection) -> str | None:
        """None to admit; otherwise the reason shown to the refused player. Logins still
        in progress count as players, and names compare case-insensitively (as the game's)."""
        others = [b for b in self.connections if b is not conn and b.admitted and not b.states.closed]
        if len(others) >= self.config.max_players:
            return f"The server is full ({self.config.max_players} players)."
        name = (conn.player_name or "").lower()
        if any((b.player_name or "").lower() == name for b in others):
            return f"{conn.player_name} is already connected through this proxy."
        auth = self.config.upstream_auth
        if auth.mode == "microsoft" and others:
            # Every client plays as the one account: a second login would take over the first.
            return f"The Microsoft account {auth.account} is already playing through this proxy."
        host = conn.peer.rsplit(":", 1)[0]
        now = self.clock.seconds()
        limit = self.config.login_rate_limit_seconds
        last = self._last_login.get(host)
        if limit > 0 and last is not None and now - last < limit:
            return f"Too many logins from your address; wait {limit:g} seconds between logins."
        self._last_login[host] = now
        self.logins += 1
        conn.admitted = True
        if len(self._last_login) > 10000:
            cutoff = now - limit
            self._last_login = {h: t for h, t in self._last_login.items() if t >= cutoff}
        return None

    @property
    def keypair(self) -> Any:
        if self._keypair is None:
            self._keypair = key_exchange.make_keypair()
        return self._keypair

    def verify_session(self, player_name: str, digest: str) -> Any:
        """Ask the session server whether the player joined (online mode): a Deferred
        firing with its JSON answer (the profile), or None when it says no."""
        from proxy.connection.session_server import has_joined

        return has_joined(self.reactor, self.config.session_server, player_name, digest)

    def account_session(self, account: str) -> "Deferred[AccountSession]":
        """The account's session with a fresh access token (refreshed in a thread if needed)."""
        if self.accounts is None:
            return fail(AccountUnavailableHere(
                f"The proxy has no Microsoft account store: run `mcagent login --account {account}` on its "
                "machine, then restart it."))
        return self.accounts.session(account)

    def join_session(self, session: "AccountSession", digest: str) -> "Deferred[None]":
        if self.accounts is None:
            return fail(AccountUnavailableHere("The proxy has no Microsoft account store."))
        return self.accounts.join(session, digest)

    def model_runner(self, player_name: str) -> Any:
        """The model runner a player's Session is given (None without a model service: calls fail at once)."""
        service = self.model_service
        return service.for_player(player_name) if service is not None else None

    def is_admin(self, player_name: str | None) -> bool:
        """Whether a player is an admin from the start of their session: listed in ``admins``
        and, since only online mode verifies names, logged in through online mode."""
        return self.config.online_mode and self.is_listed_admin(player_name)

    def is_listed_admin(self, player_name: str | None) -> bool:
        return (player_name or "").lower() in {name.lower() for name in self.config.admins}

    def admin_proof(self, player_name: str) -> AdminProof | None:
        """What a listed admin proves themselves with in offline mode; None in online mode."""
        if self.config.online_mode:
            return None
        return AdminProof(player_name, self.is_listed_admin(player_name), admin_secret(self.config), self.admin_backoff)

    def make_assistant(self, conn: Connection) -> Assistant | None:
        if self.assistant_factory is None or not self.config.features.assistant:
            return None
        return self.assistant_factory(conn)

    def connection_closed(self, conn: Connection) -> None:
        """Fold a finished connection's counters into the totals."""
        self.closed_totals.add(conn)
        if conn.session is not None or conn.close_category != "client_left":
            self.disconnects[conn.close_category] = self.disconnects.get(conn.close_category, 0) + 1
        if conn.session is not None:
            self.closed_sessions.append(ClosedSession.of(conn, self.clock.seconds()))
            for name, count in conn.session.reflex_firings.items():
                self.closed_reflex_firings[name] = self.closed_reflex_firings.get(name, 0) + count
            for name, count in conn.session.pilot.decision_counts().items():
                self.closed_autopilot_decisions[name] = self.closed_autopilot_decisions.get(name, 0) + count
            if self.session_closed_hook is not None:
                self.session_closed_hook(self.player_count())
            if self.release_memory is not None and self.player_count() == 0 and self._release_later is None:
                # Later, not now: the closing connection (and its world model) is still referenced here.
                self._release_later = self.clock.callLater(RELEASE_AFTER_SECONDS, self._release_if_idle)

    def _release_if_idle(self) -> None:
        self._release_later = None
        if self.release_memory is not None and self.player_count() == 0:
            self.release_memory()

    # -- upstream round trip ---------------------------------------------------------
    def ping_upstream(self, protocol_version: int = 0, backend: Any = None) -> Any:
        """A Deferred firing with the round trip in seconds to ``backend`` (the first of ``try``
        by default), via a status ping of its own."""
        up = backend if backend is not None else self.network.network.first
        probe = StatusProbe(self.clock, up.host, up.port, protocol_version)
        endpoint = HostnameEndpoint(self.reactor, up.host, up.port, timeout=self.config.upstream_connect_timeout)
        endpoint.connect(ProbeFactory(probe)).addErrback(lambda f: probe.result.errback(f) if not probe.result.called else None)
        timeout = self.clock.callLater(5.0, lambda: probe.result.cancel() if not probe.result.called else None)

        def done(result: tuple[dict[str, Any], float]) -> float:
            if timeout.active():
                timeout.cancel()
            self.upstream_rtt = result[1]
            return result[1]

        def failed(failure: Failure) -> Failure:
            if timeout.active():
                timeout.cancel()
            return failure

        return probe.result.addCallbacks(done, failed)

    def probe_upstream(self) -> None:
        self.ping_upstream().addErrback(lambda f: None)

    def measure_ping(self, conn: Connection) -> None:
        up = conn.backend if conn.backend is not None else self.network.network.first
        d = self.ping_upstream(conn.handshake.protocol if conn.handshake else 0, up)
        d.addCallbacks(
            lambda rtt: conn.say(f"Ping to the server {up.host}:{up.port}: {rtt * 1000:.1f} ms round trip."),
            lambda f: conn.say(f"Could not ping the server ({f.getErrorMessage() or 'timed out'})."),
        )

    def admin_command(self, conn: Connection, line: str) -> list[str]:
        """``!system ...`` in game: the console's commands (the Session's command table let only admins ask)."""
        if self.console is None:
            return ["the admin console is not available in this process"]
        if line.split(" ")[0].lower() == "stop":
            return ["stop is only available from the console itself"]
        log.info("{player} ran !system {line}", player=conn.player_name, line=line)
        lines: list[str] = self.console.execute(line)
        return lines

    def broadcast(self, *lines: str) -> None:
        for conn in list(self.connections):
            if conn.state is State.PLAY:
                conn.say(*lines)


ADMIN_SECRET_ENV = "MCAGENT_ADMIN_SECRET"


def admin_secret(config: ProxyConfig) -> str | None:
    import os

    from_env = os.environ.get(ADMIN_SECRET_ENV, "").strip()
    if from_env:
        return from_env
    return config.admin_secret.get_secret_value().strip() or None if config.admin_secret is not None else None
