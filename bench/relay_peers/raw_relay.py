"""Path (b) of the relay benchmark: a TCP byte relay on the same I/O stack as mcagent.

How this works: Twisted on the asyncio reactor (as ``mcagent run``), one upstream
connection per client connection, every read written to the other leg as it
came. Each leg's transport is registered as the other's streaming producer, so a
full write buffer pauses reading on the other side (no unbounded buffering).
Nothing is parsed: this is the ceiling for any relay written on this stack.
Prints one JSON line ``{"event": "listening", "port": N}`` when ready.
"""
from __future__ import annotations

import argparse
import json
import sys

from twisted.internet import asyncioreactor

asyncioreactor.install()

from twisted.internet import protocol, reactor  # noqa: E402
from twisted.internet.endpoints import TCP4ClientEndpoint, TCP4ServerEndpoint  # noqa: E402


class UpstreamLeg(protocol.Protocol):
    def __init__(self, client: "ClientLeg") -> None:
        self.client = client

    def connectionMade(self) -> None:
        self.client.upstream_ready(self)

    def dataReceived(self, data: bytes) -> None:
        self.client.transport.write(data)

    def connectionLost(self, reason=protocol.connectionDone) -> None:
        self.client.transport.loseConnection()


class ClientLeg(protocol.Protocol):
    upstream: UpstreamLeg | None = None

    def connectionMade(self) -> None:
        self.transport.pauseProducing()  # read nothing until the upstream is there
        endpoint = TCP4ClientEndpoint(reactor, self.factory.upstream_host, self.factory.upstream_port)
        factory = protocol.Factory.forProtocol(lambda: UpstreamLeg(self))
        endpoint.connect(factory).addErrback(lambda _: self.transport.loseConnection())

    def upstream_ready(self, upstream: UpstreamLeg) -> None:
        if not self.connected:
            upstream.transport.loseConnection()
            return
        self.upstream = upstream
        self.transport.registerProducer(upstream.transport, True)
        upstream.transport.registerProducer(self.transport, True)
        self.transport.resumeProducing()

    def dataReceived(self, data: bytes) -> None:
        self.upstream.transport.write(data)

    def connectionLost(self, reason=protocol.connectionDone) -> None:
        if self.upstream is not None:
            self.upstream.transport.loseConnection()


def main() -> None:
    parser = argparse.ArgumentParser(description="byte relay for bench/relay.py")
    parser.add_argument("--listen-port", type=int, default=0)
    parser.add_argument("--upstream", required=True, help="HOST:PORT")
    args = parser.parse_args()
    host, _, port = args.upstream.rpartition(":")
    factory = protocol.ServerFactory.forProtocol(ClientLeg)
    factory.noisy = False
    factory.upstream_host, factory.upstream_port = host, int(port)

    def listening(port_obj) -> None:
        sys.stdout.write(json.dumps({"event": "listening", "port": port_obj.getHost().port}) + "\n")
        sys.stdout.flush()

    TCP4ServerEndpoint(reactor, args.listen_port, interface="127.0.0.1").listen(factory).addCallback(listening)
    reactor.run()


if __name__ == "__main__":
    main()
