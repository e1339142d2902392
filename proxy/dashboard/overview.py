"""The overview page's data: who plays, routing, model use, traffic and reflexes, as one frozen snapshot.

How this works: ``overview(server, rates, now)`` reads the running proxy once and
returns an ``Overview`` of frozen attrs values; ``to_json`` turns it into plain
dicts at the edge. Nothing here holds a reference into a session after it
returns, writes to the proxy, or knows about HTTP. What may leave the proxy is
decided here, field by field: counters, names of modules and milestones,
numbers; never a chat line, a key, a token or a config secret (the routing
diagnostics are the structured form of ``/system routing``: module, language
and scores of the latest match, not its text).
"""
from __future__ import annotations

import math
from collections import deque
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from proxy.connection.core import Connection
    from proxy.server import ProxyServer, TrafficTotals

RATE_WINDOW = 5.0   # seconds the frames and bytes per second are averaged over


@attrs.frozen
class PlayerRow:
    name: str
    version: str
    backend: str
    server: str | None             # the network's name for the backend; None in front of one server
    ping_ms: float | None          # the player's own round trip, from the keep-alives relayed to them
    backend_ping_ms: float | None  # the proxy's round trip to the backend (the last status probe)
    connected_seconds: float
    assistant_mode: str | None     # None: no assistant in this session
    ai_enabled: bool | None
    autopilot: bool
    provider: str
    goal: str | None               # the milestone the autopilot works toward
    milestone: int                 # milestones reached (0..9)
    driving: str | None            # a command driver (goto, follow) when one moves the player
    reflexes: tuple[str, ...]


@attrs.frozen
class LatestMatch:
    module: str
    language: str
    score: float
    margin: float
    coverage: float
    reason: str


@attrs.frozen
class RoutingView:
    mode: str | None
    counters: tuple[tuple[str, int], ...]
    latest: LatestMatch | None


@attrs.frozen
class ModelUsage:
    configured: bool
    calls_today: int               # calls admitted since midnight (the budget's time zone)
    tokens_today: int
    daily_budget: int
    time_zone: str
    in_flight: int
    calls: tuple[tuple[str, int], ...]   # since the proxy started: sent, answered, failed_*, refused_*


@attrs.frozen
class Rates:
    c2s_frames: float
    s2c_frames: float
    c2s_bytes: float
    s2c_bytes: float


@attrs.frozen
class NetworkMoves:
    moves: int                     # players moved to another server (switches, failovers, transfers kept inside)
    failovers: int                 # players sent on because their server went away, in play or at login
    login_failovers: int           # ... of them at login


@attrs.frozen
class Overview:
    now: float
    uptime: float
    players: tuple[PlayerRow, ...]
    connections: int
    logins: int
    routing: RoutingView | None
    model: ModelUsage
    rates: Rates
    reflex_firings: tuple[tuple[str, int], ...]
    autopilots_running: int
    servers: tuple[str, ...]       # the network's servers an admin may send a player to (none with one backend)
    network: NetworkMoves | None   # None in front of one server


class RateMeter:
    """Frames and bytes per second from the proxy's running totals, averaged over ``window`` seconds."""

    def __init__(self, window: float = RATE_WINDOW) -> None:
        self.window = window
        self._samples: deque[tuple[float, int, int, int, int]] = deque()

    def sample(self, now: float, totals: "TrafficTotals") -> Rates:
        self._samples.append((now, totals.c2s_packets, totals.s2c_packets, totals.c2s_bytes, totals.s2c_bytes))
        while len(self._samples) > 2 and now - self._samples[1][0] >= self.window:
            self._samples.popleft()
        first, last = self._samples[0], self._samples[-1]
        span = last[0] - first[0]
        if span <= 0:
            return Rates(0.0, 0.0, 0.0, 0.0)
        return Rates(*(round((b - a) / span, 1) for a, b in zip(first[1:], last[1:])))


def _ms(seconds: float | None) -> float | None:
    return round(seconds * 1000, 1) if seconds is not None else None


def player_row(conn: "Connection", backend: str, ping: float | None, now: float,
               server_named: bool = False) -> PlayerRow | None:
    session = conn.session
    if session is None or not conn.player_name:
        return None
    assistant = session.assistant
    pilot = session.pilot
    autopilot = pilot.autopilot
    return PlayerRow(
        name=conn.player_name,
        version=conn.codec.version if conn.codec is not None else "?",
        backend=backend,
        server=conn.backend.name if conn.backend is not None and server_named else None,
        ping_ms=_ms(conn.play.client_ping.rtt) if conn.play is not None else None,
        backend_ping_ms=_ms(ping),
        connected_seconds=round(now - conn.connected_at, 1),
        assistant_mode=assistant.mode.value if assistant is not None else None,
        ai_enabled=assistant.ai_enabled if assistant is not None else None,
        autopilot=pilot.active,
        provider=pilot.provider_name,
        goal=autopilot.ladder.current if autopilot is not None else None,
        milestone=len(autopilot.ladder.first) if autopilot is not None else 0,
        driving=session.driver.name if session.driver is not None else None,
        reflexes=tuple(sorted(session.control.reflexes.enabled)),
    )


def routing_view(routing: Any) -> RoutingView | None:
    """``/system routing`` as values: the counters and the latest match's module and scores."""
    if routing is None:
        return None
    runtime = routing.runtime
    latest = runtime.stats.latest
    match = None if latest is None else LatestMatch(
        latest.module_id, latest.language, round(latest.score, 3), round(latest.margin, 3),
        round(latest.coverage, 3), latest.reason.value)
    counters = tuple(sorted(routing.counters().items()))
    return RoutingView(runtime.config.mode.value, counters, match)


def model_usage(routing: Any, now: float) -> ModelUsage:
    llm = routing.runtime.llm if routing is not None else None
    if llm is None:
        return ModelUsage(False, 0, 0, 0, "UTC", 0, ())
    limits = llm.limits
    calls, tokens = limits.today(now)
    return ModelUsage(True, calls, tokens, limits.settings.daily_tokens, limits.settings.time_zone,
                      limits.in_flight, tuple(sorted(llm.counters.items())))


def _backend_of(conn: "Connection", default: str) -> str:
    ref = conn.backend
    return default if ref is None else f"{ref.name} ({ref.host}:{ref.port})"


def overview(server: "ProxyServer", rates: RateMeter, now: float) -> Overview:
    up = server.config.upstream
    default = f"{up.host}:{up.port}"
    # On a network each player is on a server of its own (named in the config); else the one upstream.
    several = server.network.network.several
    rows = [player_row(c, _backend_of(c, default) if several else default, server.upstream_rtt, now, several)
            for c in server.connections]
    return Overview(
        now=now,
        uptime=round(now - server.started_at, 1),
        players=tuple(sorted((r for r in rows if r is not None), key=lambda r: r.name.lower())),
        connections=len(server.connections),
        logins=server.logins,
        routing=routing_view(server.routing),
        model=model_usage(server.routing, now),
        rates=rates.sample(now, server.totals()),
        reflex_firings=tuple(sorted(server.reflex_firings().items())),
        autopilots_running=server.autopilots_running(),
        servers=tuple(server.network.network.backends) if several else (),
        network=NetworkMoves(server.network.switches, server.network.failovers, server.network.login_failovers)
        if several else None,
    )


def to_json(value: Any) -> Any:
    """A snapshot as plain JSON values (tuples of pairs stay lists; the page knows which are pairs)."""
    if attrs.has(type(value)):
        return {f.name: to_json(getattr(value, f.name)) for f in attrs.fields(type(value))}
    if isinstance(value, (tuple, list)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, float) and not math.isfinite(value):
        return None  # flying-squid sends NaN now and then; JSON has no NaN
    return value

