"""A client <-> proxy <-> server rig on Twisted's memory reactor: no sockets."""
from __future__ import annotations

from typing import Any

from twisted.internet.address import IPv4Address
from twisted.internet.error import ConnectionRefusedError
from twisted.internet.testing import MemoryReactorClock, StringTransport
from twisted.python.failure import Failure

from proxy.bridge import Bridge
from proxy.config import ProxyConfig
from proxy.server import ProxyServer
from proxy.testing import FrameReader, build_packet, codec_for, frame, handshake_packet, packet_id


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
        data = self.transport.value()
        self.transport.clear()
        self.reader.feed(data)
        return data


class Rig:
    def __init__(self, version: str = "1.18.2", assistant_factory: Any = None, **config: Any) -> None:
        self.version = version
        self.codec = codec_for(version)
        self.reactor = MemoryReactorClock()
        config.setdefault("autopilot", {"log_dir": None})  # tests that want logs name a temporary folder
        self.server = ProxyServer(ProxyConfig(**config), self.reactor, assistant_factory=assistant_factory)
        self.client: Leg | None = None
        self.upstream: Leg | None = None

    @property
    def bridge(self) -> Bridge:
        assert self.client is not None
        proto: Bridge = self.client.proto
        return proto

    def connect_client(self, host: str = "10.0.0.1", port: int = 50000) -> Leg:
        bridge = self.server.buildProtocol(IPv4Address("TCP", host, port))
        transport = StringTransport(peerAddress=IPv4Address("TCP", host, port))
        bridge.makeConnection(transport)
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
        transport = StringTransport()
        proto.makeConnection(transport)
        # The endpoint wraps our protocol; feed bytes to the wrapper as the reactor would.
        self.upstream = Leg(proto, transport)
        return self.upstream

    def refuse_upstream(self) -> None:
        host, port, factory, timeout, bind = self.reactor.tcpClients.pop()
        factory.clientConnectionFailed(None, Failure(ConnectionRefusedError("Connection refused")))
        self.reactor.advance(1.0)  # let the endpoint give up on its last address

    def login(self, name: str = "alice", threshold: int = 256) -> None:
        """Handshake, login start, upstream accept, set compression, login success."""
        self.connect_client()
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
        from proxy.chat import plain_text

        out = []
        chat_id = self.codec.table.packet_id("play", "toClient", self.codec.chat_packet)
        for p in packets:
            if packet_id(p) == chat_id:
                fields = self.codec.decode("play", "toClient", self.codec.chat_packet, p)
                out.append(plain_text(fields.get("message") or fields.get("content")))
        return out
