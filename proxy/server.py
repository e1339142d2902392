"""The listening side: one ``ProxyServer`` owns every bridge, the tick and admission.

How this works: Twisted calls ``buildProtocol`` per client connection; each
``Bridge`` registers itself in ``bridges``. A ``LoopingCall`` at 20 Hz drives
every playing session's ``tick(now)``; the clock is injected, so tests advance a
``task.Clock``. Admission (max players, per-IP login rate) is decided here, at
login start, before any upstream connection is opened.
"""
from __future__ import annotations

from typing import Any, Callable

from twisted.internet import protocol, task
from twisted.internet.endpoints import HostnameEndpoint
from twisted.internet.interfaces import IAddress, IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from engine.session import Assistant
from proxy.bridge import PLAY, Bridge
from proxy.config import ProxyConfig
from proxy.status import ProbeFactory, StatusProbe

log = Logger(namespace="mcagent.server")
TICK_SECONDS = 0.05


class ProxyServer(protocol.ServerFactory):
    noisy = False
    def __init__(
        self,
        config: ProxyConfig,
        reactor: Any,
        clock: IReactorTime | None = None,
        assistant_factory: Callable[[Bridge], Assistant | None] | None = None,
    ) -> None:
        self.config = config
        self.reactor = reactor
        self.clock: IReactorTime = clock if clock is not None else reactor
        self.bridges: set[Bridge] = set()
        self.assistant_factory = assistant_factory
        self.started_at = self.clock.seconds()
        self._last_login: dict[str, float] = {}
        self._keypair: Any = None
        self._tick = task.LoopingCall(self.tick)
        self._tick.clock = self.clock
        self.ticks = 0
        self.last_tick_at: float | None = None

    # -- lifecycle -------------------------------------------------------------------
    def start_ticking(self) -> None:
        if not self._tick.running:
            self._tick.start(TICK_SECONDS, now=False)

    def stop_ticking(self) -> None:
        if self._tick.running:
            self._tick.stop()

    def tick(self) -> None:
        now = self.clock.seconds()
        self.ticks += 1
        self.last_tick_at = now
        for bridge in list(self.bridges):
            try:
                bridge.tick(now)
            except Exception:  # one session's bug must not stop the others' tick
                log.failure("tick failed for {player}", player=bridge.player_name)
                bridge.disconnect("Internal error in the proxy; please reconnect.")

    def buildProtocol(self, addr: IAddress) -> Bridge:
        return Bridge(self)

    # -- admission -------------------------------------------------------------------
    def player_count(self) -> int:
        return sum(1 for b in self.bridges if b.session is not None)

    def admit(self, bridge: Bridge) -> str | None:
        """None to admit; otherwise the reason shown to the refused player."""
        if self.player_count() >= self.config.max_players:
            return f"The server is full ({self.config.max_players} players)."
        if any(b is not bridge and b.player_name == bridge.player_name and b.session is not None for b in self.bridges):
            return f"{bridge.player_name} is already connected through this proxy."
        host = bridge.peer.rsplit(":", 1)[0]
        now = self.clock.seconds()
        limit = self.config.login_rate_limit_seconds
        last = self._last_login.get(host)
        if limit > 0 and last is not None and now - last < limit:
            return f"Too many logins from your address; wait {limit:g} seconds between logins."
        self._last_login[host] = now
        if len(self._last_login) > 10000:
            cutoff = now - limit
            self._last_login = {h: t for h, t in self._last_login.items() if t >= cutoff}
        return None

    @property
    def keypair(self) -> Any:
        if self._keypair is None:
            from quarry.net import crypto

            self._keypair = crypto.make_keypair()
        return self._keypair

    def verify_session(self, player_name: str, digest: str) -> Any:
        """Ask Mojang's session server whether the player joined (online mode)."""
        from quarry.net import auth

        return auth.has_joined(10, digest, player_name)

    def make_assistant(self, bridge: Bridge) -> Assistant | None:
        if self.assistant_factory is None or not self.config.features.assistant:
            return None
        return self.assistant_factory(bridge)

    def session_closed(self, bridge: Bridge) -> None:
        pass

    # -- upstream round trip ---------------------------------------------------------
    def measure_ping(self, bridge: Bridge) -> None:
        up = self.config.upstream
        version = bridge.handshake.protocol if bridge.handshake else 0
        probe = StatusProbe(self.clock, up.host, up.port, version)
        endpoint = HostnameEndpoint(self.reactor, up.host, up.port, timeout=self.config.upstream_connect_timeout)
        endpoint.connect(ProbeFactory(probe)).addErrback(lambda f: probe.result.errback(f) if not probe.result.called else None)
        timeout = self.clock.callLater(5.0, lambda: probe.result.cancel() if not probe.result.called else None)

        def done(result: tuple[dict[str, Any], float]) -> None:
            if timeout.active():
                timeout.cancel()
            bridge.say(f"Ping to the server {up.host}:{up.port}: {result[1] * 1000:.1f} ms round trip.")

        def failed(failure: Failure) -> None:
            if timeout.active():
                timeout.cancel()
            bridge.say(f"Could not ping the server ({failure.getErrorMessage() or 'timed out'}).")

        probe.result.addCallbacks(done, failed)

    def broadcast(self, *lines: str) -> None:
        for bridge in list(self.bridges):
            if bridge.state == PLAY:
                bridge.say(*lines)
