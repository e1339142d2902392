"""A login's chunks are forwarded at once but decoded into the world model in slices,
so one player's view of chunks does not hold everyone else's packets in one reactor turn."""
from __future__ import annotations

import random

from proxy.connection.play import WORLD_BYTES_PER_TURN
from proxy.testing import Rig, build_packet, frame
from tests.proxy.test_chunks import encode_column, random_section

COLUMNS = 40


def _columns(rig: Rig) -> set[tuple[int, int]]:
    assert rig.bridge.session is not None
    return {(cx, cz) for cx, _sy, cz in rig.bridge.session.control.store.keys()}


def _chunk_wire(rig: Rig) -> tuple[bytes, int]:
    table = rig.codec.table
    rng = random.Random(3)
    packets = [encode_column(table, cx, 0, {4: random_section(rng, "many", 4000)}, height=384) for cx in range(COLUMNS)]
    assert sum(map(len, packets)) > 4 * WORLD_BYTES_PER_TURN
    assert rig.upstream is not None
    return b"".join(frame(p, rig.upstream.threshold) for p in packets), len(packets)


def test_a_view_of_chunks_is_forwarded_at_once_and_decoded_over_several_turns() -> None:
    rig = Rig("1.18.2")
    rig.login()
    assert rig.client is not None and rig.upstream is not None
    wire, count = _chunk_wire(rig)
    rig.upstream.proto.dataReceived(wire)  # one read holding every column
    assert len(rig.client.received()) == count  # the client has them all at once
    first_turn = len(_columns(rig))
    assert 0 < first_turn < count  # only this turn's slice was decoded
    turns = 0
    while len(_columns(rig)) < count:  # one reactor turn at a time (Clock.advance runs them all)
        pending = [call for call in rig.reactor.getDelayedCalls() if call.active() and call.getTime() <= rig.reactor.seconds()]
        assert len(pending) == 1
        before = len(_columns(rig))
        rig.reactor.calls.remove(pending[0])
        pending[0].func(*pending[0].args, **pending[0].kw)
        assert before < len(_columns(rig)) < count or len(_columns(rig)) == count
        turns += 1
        assert turns < count
    assert turns >= 3


def test_a_dimension_change_decodes_the_queued_columns_first() -> None:
    # Queued columns belong to the old dimension: decoded after the change, they would
    # land in the new dimension's (cleared) world model.
    rig = Rig("1.18.2")
    rig.login()
    assert rig.client is not None and rig.upstream is not None
    rig.server_send(build_packet(rig.codec, "play", "toClient", "login", dimension={"type": "compound", "name": "",
                                                                                  "value": {}},
                                 worldName="minecraft:overworld"))
    wire, _count = _chunk_wire(rig)
    respawn = build_packet(rig.codec, "play", "toClient", "respawn", worldName="minecraft:the_nether")
    rig.upstream.proto.dataReceived(wire + frame(respawn, rig.upstream.threshold))
    for _ in range(50):
        rig.reactor.advance(0)
    assert _columns(rig) == set()


def test_a_closed_connection_decodes_nothing_more() -> None:
    rig = Rig("1.18.2")
    rig.login()
    assert rig.client is not None and rig.upstream is not None
    wire, count = _chunk_wire(rig)
    rig.upstream.proto.dataReceived(wire)
    decoded = len(_columns(rig))
    rig.bridge.disconnect("bye", "test")
    rig.leg.connectionLost(None)  # type: ignore[arg-type]
    for _ in range(50):
        rig.reactor.advance(0)
    assert len(_columns(rig)) == decoded < count
