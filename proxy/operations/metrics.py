"""Prometheus metrics and a health check, served by Twisted web.

Traffic counters are read from the connections at scrape time by a custom collector,
so the fast path pays nothing per packet; only events that are rare compared
with packets (logins, ticks, routing decisions, model calls) touch
prometheus_client objects directly.
"""
from __future__ import annotations

from collections.abc import Sized
from typing import Any, Iterator, Protocol

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector
from twisted.internet.interfaces import IReactorTime
from twisted.web import resource

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class Traffic(Protocol):
    """Packets and bytes per direction and per path (``proxy.server.TrafficTotals``)."""

    c2s_packets: int
    c2s_bytes: int
    s2c_packets: int
    s2c_bytes: int
    fast: int
    decoded: int
    swallowed: int


class RoutingCounters(Protocol):
    def counters(self) -> dict[str, int]: ...


class NetworkFigures(Protocol):
    """The moves between a network's servers (``proxy.network.switchboard.Switchboard``)."""

    switches: int
    failovers: int
    login_failovers: int

    @property
    def several(self) -> bool: ...


class Watched(Protocol):
    """What a scrape and the health check read of the proxy (``proxy.server.ProxyServer``);
    a protocol so these pages never import the server they watch."""

    clock: IReactorTime
    ticks: int
    last_tick_at: float | None
    listening: bool
    logins: int
    disconnects: dict[str, int]

    @property
    def connections(self) -> Sized: ...
    @property
    def routing(self) -> RoutingCounters | None: ...
    @property
    def network(self) -> NetworkFigures: ...
    def totals(self) -> Traffic: ...
    def player_count(self) -> int: ...
    def reflex_firings(self) -> dict[str, int]: ...
    def autopilot_decisions(self) -> dict[str, int]: ...
    def autopilots_running(self) -> int: ...


class TrafficCollector(Collector):
    def __init__(self, server: Watched) -> None:
        self.server = server

    def collect(self) -> Iterator[Any]:
        server = self.server
        totals = server.totals()
        players = GaugeMetricFamily("mcagent_connected_players", "Players in play through this proxy")
        players.add_metric([], server.player_count())
        yield players
        conns = GaugeMetricFamily("mcagent_open_connections", "Client connections open (any state)")
        conns.add_metric([], len(server.connections))
        yield conns
        logins = CounterMetricFamily("mcagent_logins", "Logins admitted")
        logins.add_metric([], server.logins)
        yield logins
        disconnects = CounterMetricFamily("mcagent_disconnects", "Disconnects by reason", labels=["reason"])
        for reason, count in sorted(server.disconnects.items()):
            disconnects.add_metric([reason], count)
        yield disconnects
        packets = CounterMetricFamily("mcagent_packets", "Packets relayed", labels=["direction"])
        packets.add_metric(["client_to_server"], totals.c2s_packets)
        packets.add_metric(["server_to_client"], totals.s2c_packets)
        yield packets
        octets = CounterMetricFamily("mcagent_bytes", "Bytes on the client leg", labels=["direction"])
        octets.add_metric(["client_to_server"], totals.c2s_bytes)
        octets.add_metric(["server_to_client"], totals.s2c_bytes)
        yield octets
        paths = CounterMetricFamily("mcagent_play_packets", "Play packets by path", labels=["path"])
        paths.add_metric(["fast"], totals.fast)
        paths.add_metric(["decoded"], totals.decoded)
        yield paths
        swallowed = CounterMetricFamily("mcagent_swallowed_chat", "Chat lines answered by the proxy, not forwarded")
        swallowed.add_metric([], totals.swallowed)
        yield swallowed
        ratio = GaugeMetricFamily("mcagent_fast_path_ratio", "Share of play packets forwarded without decoding")
        seen = totals.fast + totals.decoded
        ratio.add_metric([], totals.fast / seen if seen else 1.0)
        yield ratio
        reflexes = CounterMetricFamily("mcagent_reflex_fired", "Reflexes that took over", labels=["reflex"])
        for name, count in sorted(server.reflex_firings().items()):
            reflexes.add_metric([name], count)
        yield reflexes
        decided = CounterMetricFamily("mcagent_autopilot_decisions", "Autopilot decisions applied, by action",
                                      labels=["action"])
        for name, count in sorted(server.autopilot_decisions().items()):
            decided.add_metric([name], count)
        yield decided
        running = GaugeMetricFamily("mcagent_autopilots_running", "Players the autopilot is playing for now")
        running.add_metric([], server.autopilots_running())
        yield running
        routing = server.routing
        if routing is not None:
            decisions = CounterMetricFamily("mcagent_routing_outcomes", "Routing outcomes by dispatch/fallback reason",
                                            labels=["reason"])
            for reason, count in sorted(routing.counters().items()):
                decisions.add_metric([reason], count)
            yield decisions
        network = server.network
        if network.several:  # in front of one server there is nowhere to move
            moves = CounterMetricFamily("mcagent_network_moves", "Players moved to another server of the network "
                                        "(switches, failovers, transfers kept inside)")
            moves.add_metric([], network.switches)
            yield moves
            failovers = CounterMetricFamily("mcagent_network_failovers", "Players sent on to the next server "
                                            "because theirs went away, in play or at login", labels=["when"])
            failovers.add_metric(["play"], network.failovers - network.login_failovers)
            failovers.add_metric(["login"], network.login_failovers)
            yield failovers
        ticks = CounterMetricFamily("mcagent_ticks", "Engine ticks run")
        ticks.add_metric([], server.ticks)
        yield ticks


class Metrics:
    """The proxy's Prometheus registry: histograms fed as things happen, and the server's
    counters read at each scrape (``collect``)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.tick_seconds = Histogram("mcagent_tick_seconds", "Time for one 20 Hz engine tick over all sessions",
                                      registry=self.registry,
                                      buckets=(0.0001, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1))
        self.routing_seconds = Histogram("mcagent_routing_seconds", "Local routing decision time",
                                         registry=self.registry,
                                         buckets=(0.00005, 0.0001, 0.0002, 0.0005, 0.001, 0.005, 0.01))
        self.model_seconds = Histogram("mcagent_model_seconds", "Model service call time", registry=self.registry,
                                       buckets=(0.1, 0.25, 0.5, 1, 2, 5, 10, 30))
        self.model_calls = Counter("mcagent_model_calls", "Model service calls by outcome", ["outcome"],
                                   registry=self.registry)

    def collect(self, server: Watched) -> None:
        """Read ``server``'s traffic, reflex, autopilot and routing counters at each scrape."""
        self.registry.register(TrafficCollector(server))

    def render(self) -> bytes:
        return generate_latest(self.registry)


class MetricsResource(resource.Resource):
    isLeaf = True

    def __init__(self, metrics: Metrics) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.metrics = metrics

    def render_GET(self, request: Any) -> bytes:
        request.setHeader(b"Content-Type", CONTENT_TYPE.encode())
        return self.metrics.render()


class HealthResource(resource.Resource):
    """200 while the listener is up and the tick loop ran within the last second."""

    isLeaf = True

    def __init__(self, server: Watched) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.proxy = server  # not ``server``: twisted.web sets that attribute itself

    def render_GET(self, request: Any) -> bytes:
        now = self.proxy.clock.seconds()
        last = self.proxy.last_tick_at
        ok = self.proxy.listening and last is not None and now - last < 1.0
        request.setResponseCode(200 if ok else 503)
        request.setHeader(b"Content-Type", b"text/plain; charset=utf-8")
        return b"ok\n" if ok else b"unhealthy: listener down or tick loop stalled\n"


def site(server: Watched, metrics: Metrics) -> Any:
    from twisted.web.server import Site

    class QuietSite(Site):
        def log(self, request: Any) -> None:
            pass  # scrapes are not worth a log line each

    root = resource.Resource()
    root.putChild(b"metrics", MetricsResource(metrics))
    root.putChild(b"healthz", HealthResource(server))
    factory = QuietSite(root)  # type: ignore[no-untyped-call]
    factory.noisy = False
    return factory
