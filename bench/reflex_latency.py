#!/usr/bin/env python3
"""Reflex latency: from the packet that puts the player in danger to the first
movement packet the proxy injects, through the real Bridge, codec, Session and
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.motion.worlds import WorldBuilder  # noqa: E402
from proxy.testing import build_packet, packet_id  # noqa: E402
from tests.proxy.harness import Rig  # noqa: E402


def one_run(version: str, world: WorldBuilder) -> tuple[float, float]:
    rig = Rig(version, features={"reflexes": True})
    rig.login()
    session = rig.bridge.session
    session.control.store = world.store
    session.control.terrain = world.terrain()
    rig.server_send(build_packet(rig.codec, "play", "toClient", "login", entityId=1, gameMode=0))
    rig.server_send(build_packet(rig.codec, "play", "toClient", "update_health", health=20.0, food=20,
                                 foodSaturation=5.0))
    rig.server_send(build_packet(rig.codec, "play", "toClient", "position", x=11.5, y=5.0, z=23.5, teleportId=1))
    rig.upstream.received()
    rig.client.received()
    move_id = rig.codec.table.packet_id("play", "toServer", "position_look")
    # Trigger 1: the server teleports the player into the lava pool.
    packet = build_packet(rig.codec, "play", "toClient", "position", x=19.5, y=4.0, z=23.5, teleportId=2)
    started = time.perf_counter()
    rig.server_send(packet)
    teleport = time.perf_counter() - started
    assert any(packet_id(p) == move_id for p in rig.upstream.received()), "no injected move"
    # Trigger 2: the player walks into the lava themselves (a fresh session).
    rig2 = Rig(version, features={"reflexes": True})
    rig2.login()
    s2 = rig2.bridge.session
    s2.control.store = world.store
    s2.control.terrain = world.terrain()
    rig2.server_send(build_packet(rig2.codec, "play", "toClient", "login", entityId=1, gameMode=0))
    rig2.server_send(build_packet(rig2.codec, "play", "toClient", "update_health", health=20.0, food=20,
                                  foodSaturation=5.0))
    rig2.server_send(build_packet(rig2.codec, "play", "toClient", "position", x=16.5, y=5.0, z=23.5, teleportId=1))
    rig2.upstream.received()
    walk = build_packet(rig2.codec, "play", "toServer", "position", x=17.2, y=4.2, z=23.5, onGround=False)
    started = time.perf_counter()
    rig2.client_send(walk)
    walked = time.perf_counter() - started
    got = rig2.upstream.received()
    assert any(packet_id(p) == move_id for p in got), "no injected move after walking in"
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
