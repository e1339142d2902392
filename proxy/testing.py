"""Test helpers shipped with the proxy: build any packet of any version, frame it,
and read frames back, so tests (ours and extenders') speak the real protocol; drive one
``Connection`` with no I/O at all (``RecordingIO``), or a whole proxy with clients and
upstreams on Twisted's memory reactor (``Rig``, ``Leg``).

``build_packet`` fills every field of a generated layout with a zero value of its
type and applies overrides, so a test names only the fields it cares about.
"""
from __future__ import annotations

from typing import Any

from twisted.internet.address import IPv4Address
from twisted.internet.error import ConnectionRefusedError
from twisted.internet.testing import MemoryReactorClock, StringTransport
from twisted.python.failure import Failure

from proxy.codec.versioned import VersionCodec
from proxy.config import ProxyConfig
from proxy.connection.core import Connection
from proxy.connection.legs import ClientLeg
from proxy.server import ProxyServer
from proxy.protocol.handshake import LOGIN, Handshake, build_handshake
from proxy.protocol.framing import Framing, Writer
from proxy.protocol.tables import table_for_version
from proxy.protocol.wire import read_varint



def codec_for(version: str) -> VersionCodec:
    return VersionCodec(table_for_version(version))


def build_packet(codec: VersionCodec, state: str, direction: str, name: str, **fields: Any) -> bytes:
    return codec.build(state, direction, name, **fields)


def handshake_packet(protocol: int, next_state: int = LOGIN, host: str = "127.0.0.1", port: int = 25566) -> bytes:
    return build_handshake(Handshake(protocol, host, port, next_state))


def frame(packet: bytes, threshold: int = -1) -> bytes:
    writer = Writer()
    writer.threshold = threshold
    return writer.frame(packet)


class FrameReader:
    """Accumulates bytes written to a transport and splits them into packets."""

    def __init__(self) -> None:
        self.framing = Framing()
        self.packets: list[bytes] = []
        self.frames: list[bytes] = []

    def feed(self, data: bytes) -> list[bytes]:
        self.framing.feed(data)
        new = []
        for f in self.framing.frames():
            self.frames.append(f.raw)
            new.append(f.packet)
        self.packets.extend(new)
        return new

    def set_threshold(self, threshold: int) -> None:
        self.framing.threshold = threshold


def packet_id(packet: bytes) -> int:
    return read_varint(packet, 0)[0]


class RecordingIO:
    """A ``proxy.connection.seams.ConnectionIO`` without sockets: it keeps what the connection
    writes and asks for, so a ``Connection`` can be driven by bytes alone."""

    def __init__(self, peer: str = "10.0.0.1:50000") -> None:
        self.to_client = FrameReader()
        self.to_server = FrameReader()
        self.client_bytes = bytearray()
        self.server_bytes = bytearray()
        self.connects = 0
        self.client_closed: bool | None = None  # graceful or not, once closed
        self.upstream_closed = False
        self.verifications: list[tuple[str, str]] = []
        self.account_requests: list[str] = []
        self.joins: list[tuple[Any, str]] = []
        self._peer = peer
        self.candidate_sink: Any = None
        self.candidate_address: tuple[str, int] | None = None
        self.candidate_bytes = bytearray()
        self.candidate_closed = False
        self.adopted = 0

    def write_client(self, data: bytes) -> None:
        self.client_bytes += data
        self.to_client.feed(data)

    def write_server(self, data: bytes) -> None:
        self.server_bytes += data
        self.to_server.feed(data)

    def connect_upstream(self) -> None:
        self.connects += 1

    def close_client(self, graceful: bool) -> None:
        self.client_closed = graceful

    def close_upstream(self) -> None:
        self.upstream_closed = True

    def verify_session(self, player: str, digest: str) -> None:
        self.verifications.append((player, digest))

    def account_session(self, account: str) -> None:
        self.account_requests.append(account)

    def join_session(self, account: Any, digest: str) -> None:
        self.joins.append((account, digest))

    def peer(self) -> str:
        return self._peer

    # A switch's second upstream (proxy.network): what it writes is kept apart.
    def connect_candidate(self, host: str, port: int, sink: Any) -> None:
        self.candidate_sink = sink
        self.candidate_address = (host, port)

    def write_candidate(self, data: bytes) -> None:
        self.candidate_bytes += data

    def close_candidate(self) -> None:
        self.candidate_closed = True

    def adopt_candidate(self) -> None:
        self.adopted += 1


class HalfClosingTransport(StringTransport):
    """A ``StringTransport`` that can half-close, as TCP transports can: the proxy's
    graceful close (``ClientLeg.close_client``) takes that path only on such a transport."""

    write_closed = False

    def loseWriteConnection(self) -> None:
        self.write_closed = True


class Leg:
    """One side of the rig: what we send and what the proxy wrote to us."""

    def __init__(self, proto: Any, transport: StringTransport) -> None:
        self.proto = proto
        self.transport = transport
        self.reader = FrameReader()
        self.threshold = -1

    def received(self) -> list[bytes]:
        data = self.transport.value()
        self.transport.clear()
        return self.reader.feed(data)

    def raw_received(self) -> bytes:
        data: bytes = self.transport.value()
        self.transport.clear()
        self.reader.feed(data)
        return data


class Rig:
    """A ``ProxyServer`` on Twisted's memory reactor, and one player's two legs.

    ``another()`` gives a second rig on the same server and reactor, for tests with
    several players (admission, one bad connection among good ones)."""

    def __init__(self, version: str = "1.18.2", assistant_factory: Any = None, *,
                 reactor: MemoryReactorClock | None = None, routing: Any = None, model_service: Any = None,
                 metrics: Any = None, client_transport: type[StringTransport] = StringTransport,
                 accounts: Any = None, **config: Any) -> None:
        """``config``: ProxyConfig fields; the keywords before it are the server's collaborators
        (``client_transport``: ``HalfClosingTransport`` for tests of the graceful close)."""
        self.version = version
        self.client_transport = client_transport
        self.codec = codec_for(version)
        self.reactor = reactor if reactor is not None else MemoryReactorClock()
        config.setdefault("autopilot", {"log_dir": None})  # tests that want logs name a temporary folder
        self.server = ProxyServer(ProxyConfig(**config), self.reactor, assistant_factory=assistant_factory,
                                  routing=routing, model_service=model_service, metrics=metrics,
                                  accounts=accounts)
        self.client: Leg | None = None
        self.upstream: Leg | None = None

    def another(self) -> "Rig":
        """A second client of the same proxy (same server, reactor and version)."""
        other = object.__new__(Rig)
        other.version, other.codec, other.reactor, other.server = self.version, self.codec, self.reactor, self.server
        other.client_transport = self.client_transport
        other.client = None
        other.upstream = None
        return other

    @property
    def bridge(self) -> Connection:
        """The sans-IO connection of the client leg."""
        return self.leg.connection

    @property
    def leg(self) -> ClientLeg:
        assert self.client is not None
        proto: ClientLeg = self.client.proto
        return proto

    def connect_client(self, host: str = "10.0.0.1", port: int = 50000) -> Leg:
        bridge = self.server.buildProtocol(IPv4Address("TCP", host, port))
        if bridge is None:
            raise ConnectionRefusedError(f"the proxy refused a connection from {host}")
        transport = self.client_transport(peerAddress=IPv4Address("TCP", host, port))
        bridge.makeConnection(transport)  # type: ignore[no-untyped-call]
        self.client = Leg(bridge, transport)
        return self.client

    def client_send(self, packet: bytes) -> None:
        assert self.client is not None
        self.client.proto.dataReceived(frame(packet, self.client.threshold))

    def server_send(self, packet: bytes) -> None:
        assert self.upstream is not None
        self.upstream.proto.dataReceived(frame(packet, self.upstream.threshold))

    def accept_upstream(self) -> Leg:
        host, port, factory, timeout, bind = self.reactor.tcpClients.pop()
        proto = factory.buildProtocol(IPv4Address("TCP", host, port))
        assert proto is not None
        transport = StringTransport()
        proto.makeConnection(transport)
        # The endpoint wraps our protocol; feed bytes to the wrapper as the reactor would.
        self.upstream = Leg(proto, transport)
        return self.upstream

    def refuse_upstream(self) -> None:
        host, port, factory, timeout, bind = self.reactor.tcpClients.pop()
        factory.clientConnectionFailed(None, Failure(ConnectionRefusedError("Connection refused")))  # type: ignore[arg-type]
        self.reactor.advance(1.0)  # let the endpoint give up on its last address

    def login(self, name: str = "alice", threshold: int = 256, host: str = "10.0.0.1", port: int = 50000) -> None:
        """Handshake, login start, upstream accept, set compression, login success."""
        self.connect_client(host, port)
        self.client_send(handshake_packet(self.codec.protocol))
        self.client_send(build_packet(self.codec, "login", "toServer", "login_start", username=name))
        upstream = self.accept_upstream()
        upstream.received()  # handshake + login start
        if threshold >= 0:
            self.server_send(build_packet(self.codec, "login", "toClient", "compress", threshold=threshold))
            upstream.threshold = threshold
            upstream.reader.set_threshold(threshold)
            assert self.client is not None
            self.client.received()
            self.client.threshold = threshold
            self.client.reader.set_threshold(threshold)
        self.server_send(build_packet(self.codec, "login", "toClient", "success", username=name))
        assert self.client is not None
        self.client.received()
        if self.codec.table.has_configuration:  # 1.20.2+: login ack, then configuration
            self.client_send(build_packet(self.codec, "login", "toServer", "login_acknowledged"))
            self.server_send(build_packet(self.codec, "configuration", "toClient", "finish_configuration"))
            self.client_send(build_packet(self.codec, "configuration", "toServer", "finish_configuration"))
            self.client.received()
            upstream.received()

    def chat_texts(self, packets: list[bytes]) -> list[str]:
        from proxy.codec.chat import plain_text

        out = []
        chat_id = self.codec.table.packet_id("play", "toClient", self.codec.chat_packet)
        for p in packets:
            if packet_id(p) == chat_id:
                fields = self.codec.decode("play", "toClient", self.codec.chat_packet, p)
                out.append(plain_text(fields.get("message") or fields.get("content")))
        return out
