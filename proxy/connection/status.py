"""Server-list pings and the proxy's round-trip measurement to the upstream.

``StatusProbe`` opens its own short connection to the upstream (handshake with
next state 1, status request, ping/pong) so measuring never touches a player's
connection. ``own_status`` is what the proxy answers when the upstream is down.
"""
from __future__ import annotations

import json
import struct
from typing import Any

from twisted.internet import protocol
from twisted.internet.defer import Deferred
from twisted.internet.interfaces import IReactorTime
from twisted.python.failure import Failure

from proxy.protocol.handshake import STATUS, Handshake, build_handshake
from proxy.protocol.errors import PeerError
from proxy.protocol.framing import Framing, Writer
from proxy.protocol.wire import pack_string, pack_varint, read_string, read_varint


class StatusProbe(protocol.Protocol):
    """Fetch the upstream's status JSON and measure one ping round trip."""

    def __init__(self, clock: IReactorTime, host: str, port: int, protocol_version: int) -> None:
        self.clock = clock
        self.host = host
        self.port = port
        self.protocol_version = protocol_version
        self.reader = Framing()
        self.writer = Writer()
        self.result: Deferred[tuple[dict[str, Any], float]] = Deferred()
        self.status: dict[str, Any] | None = None
        self.sent_at = 0.0

    def connectionMade(self) -> None:
        hs = Handshake(self.protocol_version, self.host, self.port, STATUS)
        for packet in (build_handshake(hs), pack_varint(0)):
            self.transport.write(self.writer.seal(self.writer.frame(packet)))  # type: ignore[union-attr]

    def dataReceived(self, data: bytes) -> None:
        try:
            self.reader.feed(data)
            for frame in self.reader.frames():
                packet = frame.packet
                pid, pos = read_varint(packet, 0)
                if pid == 0 and self.status is None:
                    text, _ = read_string(packet, pos, limit=1 << 20)
                    self.status = json.loads(text)
                    self.sent_at = self.clock.seconds()
                    ping = pack_varint(1) + struct.pack(">q", int(self.sent_at * 1000))
                    self.transport.write(self.writer.seal(self.writer.frame(ping)))  # type: ignore[union-attr]
                elif pid == 1 and self.status is not None:
                    rtt = self.clock.seconds() - self.sent_at
                    self.transport.loseConnection()  # type: ignore[union-attr]
                    if not self.result.called:
                        self.result.callback((self.status, rtt))
        except (PeerError, ValueError) as exc:
            self.transport.loseConnection()  # type: ignore[union-attr]
            if not self.result.called:
                self.result.errback(Failure(exc))

    def connectionLost(self, reason: Failure = protocol.connectionDone) -> None:
        if not self.result.called:
            self.result.errback(reason)


class ProbeFactory(protocol.ClientFactory):
    noisy = False
    def __init__(self, probe: StatusProbe) -> None:
        self.probe = probe

    def buildProtocol(self, addr: Any) -> StatusProbe:
        return self.probe


def own_status(motd: str, protocol_version: int, online: int, max_players: int, note: str = "") -> bytes:
    """A status response packet the proxy answers with itself."""
    text = motd if not note else f"{motd}\n§c{note}"
    body = {
        "version": {"name": "mcagent", "protocol": protocol_version},
        "players": {"max": max_players, "online": online, "sample": []},
        "description": {"text": text},
    }
    return pack_varint(0) + pack_string(json.dumps(body))
