#!/usr/bin/env python3
"""Reflex latency: from the packet that puts the player in danger to the first
movement packet the proxy injects, through the real Connection, codec, Session and
reflex engine (Twisted's memory reactor, no sockets: this is processing time).

    .venv/bin/python bench/reflex_latency.py [--runs 300] [--version 1.18.2]

Prints p50/p99 in microseconds and the ratio to one 50 ms tick.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.motion.worlds import WorldBuilder  # noqa: E402
from proxy.testing import build_packet, packet_id  # noqa: E402
from proxy.testing import Rig  # noqa: E402


def _standing_at(version: str, world: WorldBuilder, x: float) -> Rig:
    """A logged-in survival player with full health, standing at (x, 5, 23.5)."""
    rig = Rig(version, features={"reflexes": True})
    rig.login()
    session = rig.bridge.session
    session.control.store = world.store
    session.control.terrain = world.terrain()
    rig.server_send(build_packet(rig.codec, "play", "toClient", "login", entityId=1, gameMode=0))
    rig.server_send(build_packet(rig.codec, "play", "toClient", "update_health", health=20.0, food=20,
                                 foodSaturation=5.0))
    rig.server_send(build_packet(rig.codec, "play", "toClient", "position", x=x, y=5.0, z=23.5, teleportId=1))
    rig.upstream.received()
    rig.client.received()
    return rig


def _timed(rig: Rig, send: Callable[[bytes], None], packet: bytes) -> float:
    move_id = rig.codec.table.packet_id("play", "toServer", "position_look")
    started = time.perf_counter()
    send(packet)
    elapsed = time.perf_counter() - started
    assert any(packet_id(p) == move_id for p in rig.upstream.received()), "no injected move"
    return elapsed


def one_run(version: str, world: WorldBuilder) -> tuple[float, float]:
    # Trigger 1: the server teleports the player into the lava pool.
    rig = _standing_at(version, world, 11.5)
    into = build_packet(rig.codec, "play", "toClient", "position", x=19.5, y=4.0, z=23.5, teleportId=2)
    teleport = _timed(rig, rig.server_send, into)
    # Trigger 2: the player walks into the lava themselves.
    rig = _standing_at(version, world, 16.5)
    walk = build_packet(rig.codec, "play", "toServer", "position", x=17.2, y=4.2, z=23.5, onGround=False)
    walked = _timed(rig, rig.client_send, walk)
    return teleport, walked


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--version", default="1.18.2")
    args = parser.parse_args()
    world = WorldBuilder(args.version, x=(-16, 48), y=(0, 32), z=(-16, 48))
    world.fill(-16, 0, -16, 47, 0, 47, "bedrock").fill(-16, 1, -16, 47, 3, 47, "dirt")
    world.fill(-16, 4, -16, 47, 4, 47, "grass_block").fill(17, 4, 21, 21, 4, 25, "lava")
    for _ in range(20):  # warm caches (node tables, compiled layouts)
        one_run(args.version, world)
    teleports, walks = [], []
    for _ in range(args.runs):
        t, w = one_run(args.version, world)
        teleports.append(t * 1e6)
        walks.append(w * 1e6)
    for label, values in (("server teleports the player into lava", teleports),
                          ("player walks into lava", walks)):
        values.sort()
        p50 = statistics.median(values)
        p99 = values[int(len(values) * 0.99) - 1]
        print(f"{label:<40} p50 {p50:8.0f} us   p99 {p99:8.0f} us   p99 / one tick (50 ms) = {p99 / 50000:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
