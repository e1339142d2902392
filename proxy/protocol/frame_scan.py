"""The fast path's frame scanner: how far a buffer's frames can be forwarded unseen.

How this works: ``scan(buf, pos, compressed, table, max_frame, entities)`` walks the
whole frames from ``pos`` and stops at the first frame somebody must see, at a frame
not whole yet, or at anything malformed, returning ``(stop, skipped)``. It never
raises for bad input: ``Framing`` reads the frame at ``stop`` itself, which names the
error, so a malformed frame closes its one connection with a reason as before.
``table[id]`` is 0 (forward unseen), 1 (surface) or 2 (surface only when the entity
id, the VarInt after the packet id, is in ``entities``). A compressed frame's id is
learnt by inflating its first byte; ids of two or more bytes always surface.

``scan`` is the C extension ``proxy.protocol._framescan`` when the install built it
(``setup.py``: optional, so an install without a compiler still works) and
``scan_py`` otherwise; the two must agree on every input (tests/proxy/test_frame_scan.py).
``MCAGENT_PURE_PYTHON=1`` forces the Python one (for comparing them).
"""
from __future__ import annotations

import os
import zlib
from typing import Callable, Container

MAX_UNCOMPRESSED = 1 << 23  # vanilla's limit on a declared uncompressed length
# zlib cannot expand more than ~1032:1, so a declared length beyond this ratio is a lie.
MAX_DEFLATE_RATIO = 1040

ScanFn = Callable[[bytearray | bytes, int, bool, bytes, int, "Container[int] | None"], tuple[int, int]]


def _varint(buf: bytearray | bytes, pos: int, end: int) -> tuple[int, int] | None:
    """A VarInt as proxy.protocol.wire reads it; None when truncated or over 5 bytes."""
    result = 0
    shift = 0
    for _ in range(5):
        if pos >= end:
            return None
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            if result >= 1 << 31:
                result -= 1 << 32
            return result, pos
        shift += 7
    return None


def _first_inflated_byte(data: bytes) -> int:
    try:
        head = zlib.decompressobj().decompress(data, 1)
    except zlib.error:
        return -1
    return head[0] if head else -1


def scan_py(buf: bytearray | bytes, pos: int, compressed: bool, table: bytes, max_frame: int,
            entities: Container[int] | None) -> tuple[int, int]:
    end = len(buf)
    table_size = len(table)
    skipped = 0
    if pos < 0:
        pos = end
    while pos < end:
        length = 0
        shift = 0
        whole = False
        i = pos
        while i < end and shift < 21:
            byte = buf[i]
            i += 1
            length |= (byte & 0x7F) << shift
            if not byte & 0x80:
                whole = True
                break
            shift += 7
        if not whole or length == 0 or length > max_frame or length > end - i:
            break
        frame_end = i + length
        id_at = i
        if compressed:
            found = _varint(buf, id_at, frame_end)
            if found is None:
                break
            declared, id_at = found
            if declared != 0:
                packed = frame_end - id_at
                if declared < 0 or declared > MAX_UNCOMPRESSED or declared > packed * MAX_DEFLATE_RATIO + 64:
                    break
                pid = _first_inflated_byte(bytes(buf[id_at:frame_end]))
                if pid < 0:
                    break
                id_at = -1  # deflated: nothing after the id is read here
            else:
                if id_at >= frame_end:
                    break
                pid = buf[id_at]
                id_at += 1
        else:
            pid = buf[id_at]
            id_at += 1
        if pid >= 0x80 or pid >= table_size:
            break
        want = table[pid]
        if want == 2 and id_at >= 0 and entities is not None:
            found = _varint(buf, id_at, frame_end)
            if found is None or found[0] in entities:
                break
        elif want != 0:
            break
        pos = frame_end
        skipped += 1
    return pos, skipped


def _native() -> ScanFn | None:
    if os.environ.get("MCAGENT_PURE_PYTHON") == "1":
        return None
    try:
        from proxy.protocol import _framescan  # type: ignore[attr-defined]
    except ImportError:
        return None
    native: ScanFn = _framescan.scan
    return native


native_scan = _native()
NATIVE = native_scan is not None
scan: ScanFn = native_scan if native_scan is not None else scan_py
