"""The fast path's frame scanner: the native one and the pure-Python one agree on every
input (whole streams cut at every byte, corrupted bytes, malformed VarInts, lying
compressed lengths), and what they skip is exactly what the reference framer would
have forwarded unseen."""
from __future__ import annotations

import os
import random
import zlib
from typing import Callable

import pytest

from proxy.protocol import frame_scan
from proxy.protocol.errors import PeerError
from proxy.protocol.framing import MAX_FRAME, Framing
from proxy.protocol.wire import pack_varint, read_varint
from proxy.protocol.states import State
from proxy.testing import Rig, frame

SCANNERS = [pytest.param(frame_scan.scan_py, id="python")]
if frame_scan.native_scan is not None:
    SCANNERS.append(pytest.param(frame_scan.native_scan, id="native"))


def _frame(packet: bytes, threshold: int) -> bytes:
    if threshold < 0:
        return pack_varint(len(packet)) + packet
    if len(packet) >= threshold:
        body = pack_varint(len(packet)) + zlib.compress(packet)
    else:
        body = b"\x00" + packet
    return pack_varint(len(body)) + body


def _packet(rng: random.Random) -> bytes:
    pid = rng.choice([0, 1, 2, 3, 5, 7, 0x7F, 0x80, 0x81])
    entity = pack_varint(rng.choice([0, 1, 5, 300, -1, 1 << 30]))
    size = rng.choice([0, 1, 3, 40, 300, 2000])
    return pack_varint(pid) + entity + rng.randbytes(size)[: size // 2] + bytes(size - size // 2)


def _stream(rng: random.Random, threshold: int) -> bytes:
    return b"".join(_frame(_packet(rng), threshold) for _ in range(rng.randint(1, 8)))


def _corrupt(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        kind = rng.random()
        at = rng.randrange(len(out))
        if kind < 0.4:
            out[at] = rng.randrange(256)
        elif kind < 0.6:
            out[at:at] = b"\xff" * rng.randint(1, 6)  # an over-long VarInt
        elif kind < 0.8:
            out[at:at] = b"\x00"  # an empty frame
        else:
            out[at:at] = pack_varint(rng.choice([1 << 22, 1 << 24, 99999])) + b"\x78\x9c"  # lying lengths
    return bytes(out)


TABLE = bytes([0, 1, 0, 2, 0, 2, 0, 0] + [0] * 119 + [1])
ENTITIES = frozenset({5, -1})


def test_the_two_scanners_agree_on_every_cut_of_random_and_corrupted_streams() -> None:
    if frame_scan.native_scan is None:
        # CI's machines have gcc and zlib's headers: there a missing build is a broken build.
        assert os.environ.get("CI") != "true", "the native frame scanner was not built by the install"
        pytest.skip("the native scanner was not built (no compiler at install)")
    native = frame_scan.native_scan
    rng = random.Random(25)
    cases = 0
    for round_ in range(400):
        threshold = rng.choice([-1, 0, 64, 256])
        data = _stream(rng, threshold)
        if round_ % 2:
            data = _corrupt(rng, data)
        compressed = threshold >= 0
        entities = rng.choice([ENTITIES, None, frozenset()])
        cuts = range(len(data) + 1) if len(data) < 400 else rng.sample(range(len(data) + 1), 200)
        for cut in cuts:
            buf = bytearray(data[:cut])
            for pos in (0, rng.randrange(cut + 1)):
                want = frame_scan.scan_py(buf, pos, compressed, TABLE, MAX_FRAME, entities)
                assert native(buf, pos, compressed, TABLE, MAX_FRAME, entities) == want, (data[:cut].hex(), pos)
                cases += 1
    assert cases > 10000


@pytest.mark.parametrize("scan", SCANNERS)
def test_a_scan_skips_exactly_what_the_reference_framer_would_forward_unseen(scan: frame_scan.ScanFn) -> None:
    rng = random.Random(2)
    for _ in range(300):
        threshold = rng.choice([-1, 0, 256])
        data = _corrupt(rng, _stream(rng, threshold)) if rng.random() < 0.5 else _stream(rng, threshold)
        entities = rng.choice([ENTITIES, None])
        stop, skipped = scan(bytearray(data), 0, threshold >= 0, TABLE, MAX_FRAME, entities)
        framing = Framing()
        framing.threshold = threshold
        framing.feed(data)
        expected = end_of_skipped = 0
        try:
            while (frame := framing.next_frame()) is not None:
                pid = frame.packet_id
                first = (zlib.decompressobj().decompress(frame.raw[frame.start:], 1)[0] if frame.compressed
                         else frame.raw[frame.start])
                # an id of more than one byte (even a long-winded small one) always surfaces
                want = TABLE[pid] if first < 0x80 and 0 <= pid < 0x80 else 1
                if want == 2 and entities is not None and not frame.compressed:
                    want = 1 if read_varint(frame.packet, 1)[0] in entities else 0
                if want:
                    break
                expected += 1
                end_of_skipped = len(data) - framing.pending
        except PeerError:
            pass
        assert (stop, skipped) == (end_of_skipped, expected), data.hex()


@pytest.mark.parametrize("scan", SCANNERS)
@pytest.mark.parametrize("bad", [b"\x80\x80\x80\x01", b"\x00", b"\xff\xff\xff\xff", b"\x80\x80\x81\x00"])
def test_a_malformed_length_stops_the_scan_without_raising(scan: frame_scan.ScanFn, bad: bytes) -> None:
    good = _frame(b"\x02abc", -1)
    data = bytearray(good * 3 + bad + good)
    assert scan(data, 0, False, TABLE, MAX_FRAME, None) == (len(good) * 3, 3)


@pytest.mark.parametrize("scan", SCANNERS)
def test_a_compressed_frame_is_skipped_by_its_inflated_id_and_a_broken_one_stops(scan: frame_scan.ScanFn) -> None:
    skipped_chunk = _frame(b"\x02" + bytes(900), 256)  # id 2: not interesting
    watched = _frame(b"\x01" + bytes(900), 256)  # id 1: interesting
    assert skipped_chunk[1] != 0  # really compressed
    data = bytearray(skipped_chunk * 2 + watched)
    assert scan(data, 0, True, TABLE, MAX_FRAME, None) == (2 * len(skipped_chunk), 2)
    broken = bytearray(skipped_chunk)
    broken[4:8] = b"\xde\xad\xbe\xef"  # inside the zlib stream's header
    assert scan(bytearray(skipped_chunk + broken), 0, True, TABLE, MAX_FRAME, None) == (len(skipped_chunk), 1)


@pytest.mark.parametrize("scan", SCANNERS)
def test_an_entity_packet_surfaces_only_for_a_kept_entity(scan: frame_scan.ScanFn) -> None:
    mob = _frame(b"\x03" + pack_varint(300) + bytes(20), -1)
    player = _frame(b"\x03" + pack_varint(5) + bytes(20), -1)
    data = bytearray(mob * 3 + player + mob)
    assert scan(data, 0, False, TABLE, MAX_FRAME, ENTITIES) == (3 * len(mob), 3)
    assert scan(data, 0, False, TABLE, MAX_FRAME, None) == (0, 0)  # no entity set: every one surfaces
    assert scan(data, 0, False, TABLE, MAX_FRAME, {}) == (len(data), 5)  # a dict works as the set


def test_a_malformed_frame_in_a_drained_run_still_raises_with_a_reason() -> None:
    framing = Framing()
    good = _frame(b"\x02abc", -1)
    framing.feed(good * 2 + b"\x80\x80\x80\x01")
    with pytest.raises(PeerError, match="longer than 3 bytes"):
        framing.drain(TABLE)


def test_through_the_proxy_compressed_frames_nobody_reads_go_out_byte_identical_in_one_run() -> None:
    rig = Rig("1.20.1", features={"assistant": False, "reflexes": False, "autopilot": False, "world": False})
    rig.login(threshold=256)
    assert rig.client is not None and rig.upstream is not None
    rig.client.received()
    pid = rig.codec.table.packet_id(State.PLAY, "toClient", "custom_payload")  # a plugin message
    assert pid is not None and pid < 0x80
    payload = pack_varint(pid) + pack_varint(10) + b"bench:load" + bytes(range(256)) * 4
    wire = frame(payload, 256) * 3
    assert wire[1] != 0  # compressed on the wire
    fast, decoded = rig.bridge.fast_frames, rig.bridge.decoded_frames
    writes: list[bytes] = []
    transport = rig.client.transport
    write: Callable[[bytes], None] = transport.write

    def counted(data: bytes) -> None:
        writes.append(data)
        write(data)

    transport.write = counted  # type: ignore[method-assign]
    rig.upstream.proto.dataReceived(wire)
    assert writes == [wire]  # one run, one write: no frame was surfaced on its own
    assert rig.client.raw_received() == wire
    assert (rig.bridge.fast_frames - fast, rig.bridge.decoded_frames - decoded) == (3, 0)
