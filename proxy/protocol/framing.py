"""Sans-IO framing for one leg: decryption, length prefixes and compression.

How this works: ``feed(bytes)`` appends (decrypted) bytes to a ``bytearray``
with a read offset, so parsing stays linear however the bytes arrive. ``frames()``
yields complete ``Frame`` objects; a frame keeps the exact bytes it arrived as,
so the proxy can forward it without re-packing. ``Frame.packet_id`` looks only at
the first bytes (inflating at most a few bytes of a compressed frame), and
``Frame.packet`` gives the whole uncompressed packet when someone decodes it.
``drain``/``drain_read`` split what is buffered into runs to forward unseen and frames to
surface (the fast path; ``drain_read`` scans a read where it is, without copying a read that
is all such runs). ``Writer.frame(packet)`` frames an outgoing packet with this leg's compression.
Every size limit is checked here, in one place, and a violation is a PeerError.
"""
from __future__ import annotations

import zlib
from typing import Callable, Container, Iterator

from proxy.protocol import frame_scan
from proxy.protocol.frame_scan import MAX_DEFLATE_RATIO, MAX_UNCOMPRESSED
from proxy.protocol.cipher import StreamCipher
from proxy.protocol.errors import PeerError
from proxy.protocol.wire import pack_varint, read_varint

MAX_FRAME = (1 << 21) - 1  # a 3-byte VarInt length, as vanilla allows


class Frame:
    __slots__ = ("raw", "start", "compressed", "_declared", "_packet")

    def __init__(self, raw: bytes, start: int, compressed: bool, declared: int) -> None:
        self.raw = raw  # the whole frame, length prefix included
        self.start = start  # where the payload (after the data-length field) begins
        self.compressed = compressed
        self._declared = declared
        self._packet: bytes | None = None

    @property
    def packet_id(self) -> int:
        if not self.compressed:
            return read_varint(self.raw, self.start)[0]
        if self._packet is not None:
            return read_varint(self._packet, 0)[0]
        try:
            # One byte first, as the fast path's scanner reads it (frame_scan): both stop
            # at the same point of a damaged stream. A one-byte id is the common case.
            inflater = zlib.decompressobj()
            head = inflater.decompress(self.raw[self.start:], 1)
            if head and head[0] & 0x80:
                head += inflater.decompress(inflater.unconsumed_tail, 4)
        except zlib.error as exc:
            raise PeerError(f"bad compressed frame: {exc}") from None
        return read_varint(head, 0)[0]

    @property
    def size(self) -> int:
        """The uncompressed packet's length, known without inflating anything."""
        return self._declared if self.compressed else len(self.raw) - self.start

    @property
    def packet(self) -> bytes:
        """The uncompressed packet: id followed by fields."""
        if self._packet is None:
            if not self.compressed:
                self._packet = self.raw[self.start:]
            else:
                inflater = zlib.decompressobj()
                try:
                    data = inflater.decompress(self.raw[self.start:], self._declared + 1)
                except zlib.error as exc:
                    raise PeerError(f"bad compressed frame: {exc}") from None
                if len(data) != self._declared or not inflater.eof:
                    raise PeerError(
                        f"declared uncompressed length {self._declared} but inflated {len(data)}"
                    )
                self._packet = data
        return self._packet


class Framing:
    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self.max_frame = max_frame
        self.threshold = -1  # compression off until Set Compression
        self._buffer = bytearray()
        self._offset = 0
        self._cipher: StreamCipher | None = None
        self.bytes_in = 0
        self.frames_in = 0
        # Sees every read's plain bytes (after decryption) when a session is recorded
        # (proxy.connection.recording); None otherwise, which costs one test per read.
        self.tap: Callable[[bytes], None] | None = None

    def enable_encryption(self, shared_secret: bytes) -> None:
        self._cipher = StreamCipher(shared_secret)

    @property
    def encrypted(self) -> bool:
        return self._cipher is not None

    def feed(self, data: bytes) -> None:
        self.bytes_in += len(data)
        if self._cipher is not None:
            data = self._cipher.decrypt(data)
        if self.tap is not None:
            self.tap(data)
        if self._offset and self._offset >= len(self._buffer) // 2:
            del self._buffer[: self._offset]
            self._offset = 0
        self._buffer += data

    def _plain(self, data: bytes) -> bytes:
        """A read counted, decrypted and shown to the tap (``feed``'s first half)."""
        self.bytes_in += len(data)
        if self._cipher is not None:
            data = self._cipher.decrypt(data)
        if self.tap is not None:
            self.tap(data)
        return data

    def _length_at(self, pos: int) -> tuple[int, int] | None:
        """The frame length VarInt at ``pos`` and where the frame body starts;
        None while the prefix is incomplete (not an error: more bytes will come)."""
        buf = self._buffer
        end = len(buf)
        length = 0
        shift = 0
        i = pos
        while True:
            if i >= end:
                return None
            byte = buf[i]
            i += 1
            length |= (byte & 0x7F) << shift
            if not byte & 0x80:
                break
            shift += 7
            if shift >= 21:
                raise PeerError("frame length prefix longer than 3 bytes")
        if length > self.max_frame:
            raise PeerError(f"frame of {length} bytes exceeds {self.max_frame}")
        if length == 0:
            raise PeerError("empty frame")
        return length, i

    def next_frame(self) -> Frame | None:
        buf = self._buffer
        pos = self._offset
        end = len(buf)
        if pos >= end:  # nothing buffered (after most reads)
            return None
        found = self._length_at(pos)
        if found is None:
            return None
        length, i = found
        frame_end = i + length
        if frame_end > end:
            return None
        raw = bytes(buf[pos:frame_end])
        self._offset = frame_end
        self.frames_in += 1
        body = i - pos
        if self.threshold < 0:
            return Frame(raw, body, False, 0)
        declared, start = read_varint(raw, body)
        if declared == 0:
            return Frame(raw, start, False, 0)
        if declared < 0 or declared > MAX_UNCOMPRESSED:
            raise PeerError(f"declared uncompressed length {declared} out of range")
        if declared > (len(raw) - start) * MAX_DEFLATE_RATIO + 64:
            raise PeerError(
                f"declared uncompressed length {declared} is impossible for {len(raw) - start} compressed bytes"
            )
        return Frame(raw, start, True, declared)

    def whole_frames(self, limit: int) -> int:
        """How many whole frames are buffered, counting no further than ``limit``; reads
        only the length prefixes and consumes nothing (a bad prefix ends the count: the
        frames themselves report it when read). For checking a read against a rate limit
        before any of its frames is handled: work bounded by ``limit`` frames."""
        buf = self._buffer
        end = len(buf)
        pos = self._offset
        count = 0
        while count < limit and pos < end:
            try:
                found = self._length_at(pos)
            except PeerError:
                break
            if found is None:
                break
            length, body = found
            if body + length > end:
                break
            pos = body + length
            count += 1
        return count

    def drain(self, interesting: bytes, entities: Container[int] | None = None) -> list["Frame | bytes"]:
        """Split everything buffered into runs of raw frames and surfaced ``Frame``s.

        ``interesting[packet_id]`` is 1 for ids someone must see, 2 for entity packets
        someone must see only when their entity id is in ``entities``, 0 otherwise; every
        other complete frame joins a run of consecutive raw frames, returned as one
        ``bytes`` to forward with a single write. This is the fast path: the runs are
        found by ``frame_scan.scan`` (native when built), which builds no object per
        frame. Ids past the table, multi-byte ids and anything malformed surface as
        ``Frame``s (read by ``next_frame``, which names the error), so nothing is ever
        forwarded unseen by mistake.
        """
        buf = self._buffer
        compressed = self.threshold >= 0
        pos = run_start = self._offset
        out: list[Frame | bytes] = []
        count = 0
        while True:
            pos, skipped = frame_scan.scan(buf, pos, compressed, interesting, self.max_frame, entities)
            count += skipped
            if pos >= len(buf):
                break
            if pos > run_start:
                out.append(bytes(buf[run_start:pos]))
            self._offset = pos
            frame = self.next_frame()
            if frame is None:  # not whole yet
                run_start = pos
                break
            out.append(frame)
            pos = run_start = self._offset
        if pos > run_start:
            out.append(bytes(buf[run_start:pos]))
        self._offset = pos
        self.frames_in += count
        return out

    def drain_read(self, data: bytes, interesting: bytes,
                   entities: Container[int] | None = None) -> list["Frame | bytes"]:
        """``feed(data)`` then ``drain``, without copying what needs no copy: when nothing of an
        earlier read is pending, ``data`` is scanned where it is, so a read of whole frames
        nobody must see (most reads) comes back as ``[data]`` itself, and only from the first
        frame that surfaces on is it buffered."""
        if self._offset < len(self._buffer):  # a frame begun in an earlier read
            self.feed(data)
            return self.drain(interesting, entities)
        data = self._plain(data)
        pos, skipped = frame_scan.scan(data, 0, self.threshold >= 0, interesting, self.max_frame, entities)
        self.frames_in += skipped
        if pos >= len(data):
            return [data]
        del self._buffer[:]
        self._buffer += data
        self._offset = pos
        return ([data[:pos]] if pos else []) + self.drain(interesting, entities)

    def frames(self) -> Iterator[Frame]:
        while True:
            frame = self.next_frame()
            if frame is None:
                return
            yield frame

    @property
    def pending(self) -> int:
        return len(self._buffer) - self._offset


class Writer:
    """The sending half of a leg: frames packets and encrypts what goes out."""

    def __init__(self) -> None:
        self.threshold = -1
        self._cipher: StreamCipher | None = None
        self.bytes_out = 0
        self.frames_out = 0

    def enable_encryption(self, shared_secret: bytes) -> None:
        self._cipher = StreamCipher(shared_secret)

    def frame(self, packet: bytes) -> bytes:
        if self.threshold < 0:
            return pack_varint(len(packet)) + packet
        if len(packet) >= self.threshold:
            body = pack_varint(len(packet)) + zlib.compress(packet)
        else:
            body = b"\x00" + packet
        return pack_varint(len(body)) + body

    def seal(self, frame_bytes: bytes, frames: int = 1) -> bytes:
        """Count and encrypt framed packets (ours, or forwarded as they came)."""
        self.bytes_out += len(frame_bytes)
        self.frames_out += frames
        if self._cipher is not None:
            return self._cipher.encrypt(frame_bytes)
        return frame_bytes
