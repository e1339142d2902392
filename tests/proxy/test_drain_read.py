"""``Framing.drain_read`` (a server read scanned where it is) gives what ``feed`` then ``drain``
gives, item for item, over any chunking, compression, encryption and damaged input; and a
read that is one run of frames nobody must see comes back as the read's own bytes object."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from proxy.protocol.errors import PeerError
from proxy.protocol.framing import Frame, Framing, Writer
from proxy.protocol.wire import pack_varint

packet = st.builds(lambda pid, body: pack_varint(pid) + body,
                   st.integers(min_value=0, max_value=0x7FF), st.binary(max_size=600))
packets = st.lists(packet, min_size=1, max_size=12)


def _items(out: list[Frame | bytes]) -> list[tuple[str, bytes]]:
    return [("run", item) if isinstance(item, bytes) else ("frame", item.raw) for item in out]


def _pair(threshold: int, secret: bytes | None) -> tuple[Framing, Framing]:
    pair = (Framing(), Framing())
    for reader in pair:
        reader.threshold = threshold
        if secret is not None:
            reader.enable_encryption(secret)
    return pair


@settings(max_examples=120)
@given(packets, st.sampled_from([-1, 0, 64]), st.lists(st.integers(min_value=1, max_value=400), min_size=1),
       st.sets(st.integers(min_value=0, max_value=0x7F), max_size=40), st.binary(min_size=16, max_size=16) | st.none(),
       st.binary(max_size=6))
def test_drain_read_equals_feed_then_drain(items: list[bytes], threshold: int, cuts: list[int], wanted: set[int],
                                          secret: bytes | None, junk: bytes) -> None:
    writer = Writer()
    writer.threshold = threshold
    if secret is not None:
        writer.enable_encryption(secret)
    wire = writer.seal(b"".join(writer.frame(p) for p in items) + junk)  # junk: a damaged tail, sometimes
    table = bytes(1 if i in wanted else 0 for i in range(128))
    reference, reader = _pair(threshold, secret)
    pos, k = 0, 0
    while pos < len(wire):
        chunk = wire[pos:pos + cuts[k % len(cuts)]]
        pos += len(chunk)
        k += 1
        outcome = []
        for framing, step in ((reference, lambda f: (f.feed(chunk), f.drain(table))[1]),
                              (reader, lambda f: f.drain_read(chunk, table))):
            try:
                outcome.append(("ok", _items(step(framing))))
            except PeerError as exc:
                outcome.append(("error", str(exc)))
        assert outcome[0] == outcome[1]
        if outcome[0][0] == "error":
            return
        assert (reader.frames_in, reader.bytes_in, reader.pending) == (
            reference.frames_in, reference.bytes_in, reference.pending)


def test_a_read_nobody_must_see_is_forwarded_as_its_own_bytes() -> None:
    writer = Writer()
    writer.threshold = 64
    read = b"".join(writer.frame(pack_varint(5) + bytes(n)) for n in (3, 10, 200))
    reader = Framing()
    reader.threshold = 64
    out = reader.drain_read(read, bytes(128))
    assert len(out) == 1 and out[0] is read
    assert reader.frames_in == 3 and reader.pending == 0
    # A frame someone must see surfaces; what comes before it is one run, what follows another.
    seen = writer.frame(pack_varint(7) + b"x")
    out = reader.drain_read(read + seen + read, bytes(7) + b"\x01" + bytes(120))
    assert _items(out) == [("run", read), ("frame", seen), ("run", read)]
    # Part of a frame stays buffered; the next read completes it.
    out = reader.drain_read(read[:5], bytes(128))
    assert out == [] and reader.pending == 5
    assert _items(reader.drain_read(read[5:], bytes(128))) == [("run", read)]
