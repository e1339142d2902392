"""Framing and wire types: property tests over arbitrary packets and chunkings."""
from __future__ import annotations

from typing import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proxy.protocol.errors import PeerError
from proxy.protocol.framing import Framing, Writer
from proxy.protocol.wire import _read_var, pack_varint, pack_varlong, read_varint, read_varlong

packet = st.builds(lambda pid, body: pack_varint(pid) + body,
                   st.integers(min_value=0, max_value=0x7FF), st.binary(max_size=3000))
packets = st.lists(packet, min_size=1, max_size=12)


@given(st.integers(min_value=-(1 << 31), max_value=(1 << 31) - 1))
def test_varint_round_trip(value: int) -> None:
    data = pack_varint(value)
    assert read_varint(data, 0) == (value, len(data))


def _varint_outcome(read: Callable[[], tuple[int, int]]) -> tuple[int, int] | str:
    try:
        return read()
    except PeerError as exc:
        return str(exc)


@given(st.binary(max_size=8), st.integers(min_value=0, max_value=9))
def test_read_varint_answers_as_the_loop_does(data: bytes, pos: int) -> None:
    """Its one-byte shortcut gives the general loop's value, or its error, on any bytes."""
    assert (_varint_outcome(lambda: read_varint(data, pos))
            == _varint_outcome(lambda: _read_var(data, pos, 5, 32, "varint")))


def test_read_varint_answers_as_the_loop_does_for_every_first_byte() -> None:
    for first in range(256):
        for tail in (b"", b"\x00", b"\x80\x01", b"\xff" * 5):
            for head in (b"", b"\x05"):
                data = head + bytes([first]) + tail
                for pos in range(len(head) + 2):
                    assert (_varint_outcome(lambda: read_varint(data, pos))
                            == _varint_outcome(lambda: _read_var(data, pos, 5, 32, "varint"))), (data, pos)


@given(st.integers(min_value=-(1 << 63), max_value=(1 << 63) - 1))
def test_varlong_round_trip(value: int) -> None:
    data = pack_varlong(value)
    assert read_varlong(data, 0) == (value, len(data))


@settings(max_examples=60)
@given(packets, st.sampled_from([-1, 0, 64, 256]), st.integers(min_value=1, max_value=97), st.binary(min_size=16, max_size=16) | st.none())
def test_frames_survive_any_chunking(items: list[bytes], threshold: int, chunk: int, secret: bytes | None) -> None:
    writer = Writer()
    writer.threshold = threshold
    reader = Framing()
    reader.threshold = threshold
    if secret is not None:
        writer.enable_encryption(secret)
        reader.enable_encryption(secret)
    wire = b"".join(writer.seal(writer.frame(p)) for p in items)
    got = []
    for i in range(0, len(wire), chunk):
        reader.feed(wire[i:i + chunk])
        got.extend(f.packet for f in reader.frames())
    assert got == items
    assert reader.pending == 0


@settings(max_examples=40)
@given(packets, st.sampled_from([-1, 0, 64]))
def test_raw_frames_are_the_exact_wire_bytes(items: list[bytes], threshold: int) -> None:
    writer = Writer()
    writer.threshold = threshold
    reader = Framing()
    reader.threshold = threshold
    wires = [writer.frame(p) for p in items]
    reader.feed(b"".join(wires))
    frames = list(reader.frames())
    assert [f.raw for f in frames] == wires
    assert [f.packet_id for f in frames] == [read_varint(p, 0)[0] for p in items]


def test_frame_over_the_limit_is_a_peer_error() -> None:
    reader = Framing(max_frame=100)
    reader.feed(pack_varint(101) + b"\x00" * 101)
    with pytest.raises(PeerError, match="exceeds"):
        reader.next_frame()


def test_partial_length_prefix_waits_for_more() -> None:
    reader = Framing()
    reader.feed(b"\x80")
    assert reader.next_frame() is None
    reader.feed(b"\x01" + b"\x07" * 128)
    frame = reader.next_frame()
    assert frame is not None and frame.packet == b"\x07" * 128


def test_bad_zlib_is_a_peer_error() -> None:
    reader = Framing()
    reader.threshold = 0
    payload = pack_varint(50) + b"not zlib at all"
    reader.feed(pack_varint(len(payload)) + payload)
    frame = reader.next_frame()
    assert frame is not None
    with pytest.raises(PeerError):
        _ = frame.packet


@settings(max_examples=80)
@given(packets, st.sampled_from([-1, 0, 64]), st.integers(min_value=1, max_value=97),
       st.sets(st.integers(min_value=0, max_value=0x7FF), max_size=40))
def test_drain_keeps_every_byte_in_order(items: list[bytes], threshold: int, chunk: int, wanted: set[int]) -> None:
    """Runs and surfaced frames, concatenated, are exactly the wire bytes; every
    wanted id surfaces as a Frame; an unwanted one surfaces only when it must
    (compressed, or an id the table cannot hold)."""
    writer = Writer()
    writer.threshold = threshold
    wire = b"".join(writer.frame(p) for p in items)
    table = bytes(1 if i in wanted else 0 for i in range(128))
    reader = Framing()
    reader.threshold = threshold
    out: list = []
    for i in range(0, len(wire), chunk):
        reader.feed(wire[i:i + chunk])
        out.extend(reader.drain(table))
    rebuilt = b"".join(item if isinstance(item, bytes) else item.raw for item in out)
    assert rebuilt == wire
    surfaced = [item.packet_id for item in out if not isinstance(item, bytes)]
    wanted_ids = [read_varint(p, 0)[0] for p in items if read_varint(p, 0)[0] in wanted]
    assert [pid for pid in surfaced if pid in wanted] == wanted_ids
    assert reader.pending == 0


def test_whole_frames_counts_without_consuming_and_stops_at_its_limit() -> None:
    framing = Framing()
    one = pack_varint(3) + b"abc"
    framing.feed(one * 5 + one[:2])  # five whole frames and part of a sixth
    assert framing.whole_frames(100) == 5
    assert framing.whole_frames(3) == 3
    assert len(list(framing.frames())) == 5  # nothing was consumed by counting
    framing.feed(one[2:] + b"\xff\xff\xff\xff")  # the sixth completes; then a bad prefix
    assert framing.whole_frames(100) == 1  # the bad prefix ends the count; reading it raises
