"""A compiled layout: a decode and an encode function, the types they take, and the bounds
every decoder checks before it allocates.

Decoders take the buffer, an offset and the stack of enclosing containers (for
``switch`` and counted arrays that refer to earlier fields) and return the value and
the new offset; encoders append to a bytearray. Bounds are checked here, in one place,
so every kind refuses a lying count the same way.
"""
from __future__ import annotations

from typing import Any, Callable

import attrs

from proxy.protocol.errors import PeerError

Buffer = bytes | bytearray | memoryview
Stack = list[dict[str, Any]]
Decoder = Callable[[Buffer, int, Stack], tuple[Any, int]]
Encoder = Callable[[Any, bytearray, Stack], None]

MAX_ARRAY = 1 << 20
MAX_BUFFER = 1 << 21
# The record arrays of packets the proxy decodes, by field name: far above what a
# vanilla server sends (a section holds 4096 blocks; a container window < 100 slots),
# far below what would stall the reactor. A larger count is refused before decoding.
FIELD_LIMITS: dict[str, int] = {
    "nodes": 1 << 15,       # declare_commands: command tree nodes
    "records": 1 << 12,     # multi_block_change: one section's blocks (1.16.2+); vanilla sends <= 64 before
    "entityIds": 1 << 14,   # entity_destroy
    "items": 1 << 12,       # window_items: slots of one window
}
# Containers nested deeper than this (recursive item stacks holding item stacks)
# are refused as malformed before Python's recursion limit is reached.
MAX_NESTING = 64


def check_count(n: int, data: Buffer, pos: int, what: str) -> None:
    """Refuse a count the rest of the packet cannot hold, before anything is allocated.

    Every element on the wire takes at least one byte, so a count above the bytes
    left is a lie; checking it first keeps decoding work proportional to the bytes
    that actually arrived.
    """
    if n < 0 or n > MAX_ARRAY or n > len(data) - pos:
        raise PeerError(f"{what} of {n} entries in {max(len(data) - pos, 0)} bytes")


@attrs.frozen
class Codec:
    decode: Decoder
    encode: Encoder
    complete: bool = True  # False: decodes only a leading part of the packet

