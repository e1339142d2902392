"""A proxy in front of two backends on Twisted's memory reactor, for the network's tests."""
from __future__ import annotations

from typing import Any

from proxy.protocol.handshake import parse_handshake
from proxy.testing import Leg, Rig, build_packet, packet_id

LOBBY = ("127.0.0.1", 25565)
SURVIVAL = ("127.0.0.1", 25570)
SERVERS = {"lobby": "127.0.0.1:25565", "survival": "127.0.0.1:25570"}


def network_rig(version: str, **config: Any) -> Rig:
    config.setdefault("servers", SERVERS)
    config.setdefault("try_order", ["lobby", "survival"])
    config.setdefault("login_rate_limit_seconds", 0)
    return Rig(version, **config)


def playing(rig: Rig, entity_id: int = 1) -> None:
    """Logged in to the first backend and in its world."""
    rig.login("alice")
    join(rig, entity_id)
    assert rig.client is not None
    rig.client.received()


def join(rig: Rig, entity_id: int, **fields: Any) -> None:
    rig.server_send(build_packet(rig.codec, "play", "toClient", "login", entityId=entity_id, **fields))


def next_connection(rig: Rig) -> tuple[str, int]:
    host, port = rig.reactor.tcpClients[-1][:2]
    return str(host), int(port)


def candidate_login(rig: Rig, threshold: int = 256, name: str = "alice") -> tuple[Leg, Leg, list[bytes]]:
    """Accept the switch's connection to the next backend and log it in: (old, new, what it was sent)."""
    old = rig.upstream
    assert old is not None
    new = rig.accept_upstream()
    sent = new.received()
    if threshold >= 0:
        rig.server_send(build_packet(rig.codec, "login", "toClient", "compress", threshold=threshold))
        new.threshold = threshold
        new.reader.set_threshold(threshold)
    rig.server_send(build_packet(rig.codec, "login", "toClient", "success", username=name))
    return old, new, sent


def names(rig: Rig, packets: list[bytes], state: str = "play", direction: str = "toClient") -> list[str]:
    table = rig.codec.table
    return [table.packet_name(state, direction, packet_id(p)) or "?" for p in packets]


def handshake_host(packet: bytes) -> str:
    return parse_handshake(packet).host
