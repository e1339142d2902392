"""The client's movement packets read with one ``struct`` call instead of the layout decoder.

How this works: a client sends a movement packet (``position``, ``position_look``, ``look``,
``flying``) about every game tick, and the proxy reads each one for the player's position,
features on or off: they are most of the client packets it decodes. Every supported version
lays them out the same way: x, y, z as f64, yaw and pitch as f32, then the on-ground flag,
a bool until 1.21.2 and ``MovementFlags`` (a u8 whose ``onGround`` bit is the flag) since.
``MovementReader`` checks each packet's layout in this version's table against that shape
when it is built and compiles one ``struct`` per packet; ``events(name, packet)`` then gives
the events ``translators.events`` gives for ``codec.decode``'s fields, or None for anything it
was not compiled for (another shape, a multi-byte packet id, a packet too short), which the
caller then reads with the layout decoder as before, so an error is named the same way.
Bytes after the fields are ignored, as the layout decoder ignores them.
"""
from __future__ import annotations

import math
import struct
from typing import Any

from engine import events as ev
from proxy.codec.subscriptions import CLIENT_MOVEMENT
from proxy.codec.versioned import VersionCodec
from proxy.protocol.layout import container_fields
from proxy.protocol.states import State
from proxy.protocol.tables import TO_SERVER

_FORMATS = {"x": "d", "y": "d", "z": "d", "yaw": "f", "pitch": "f"}
_ORDERS = (("x", "y", "z"), ("x", "y", "z", "yaw", "pitch"), ("yaw", "pitch"), ())


class _Compiled:
    __slots__ = ("pid", "layout", "size", "ground_bit", "has_position", "has_look")

    def __init__(self, pid: int, fields: tuple[str, ...], ground_bit: int) -> None:
        self.pid = pid
        self.layout = struct.Struct(">" + "".join(_FORMATS[f] for f in fields) + "B")
        self.size = 1 + self.layout.size  # the one-byte packet id first
        self.ground_bit = ground_bit
        self.has_position = "x" in fields
        self.has_look = "yaw" in fields


class MovementReader:
    def __init__(self, codec: VersionCodec) -> None:
        self._compiled: dict[str, _Compiled] = {}
        table = codec.table
        for name in CLIENT_MOVEMENT:
            pid = table.packet_id(State.PLAY, TO_SERVER, name)
            if pid is None or pid >= 0x80:
                continue
            shape = _shape(table.raw_layout(State.PLAY, TO_SERVER, name), table.named_types)
            if shape is not None:
                self._compiled[name] = _Compiled(pid, *shape)

    @property
    def compiled(self) -> frozenset[str]:
        """The packets read here (the others go to the layout decoder)."""
        return frozenset(self._compiled)

    def events(self, name: str, packet: bytes) -> list[ev.Event] | None:
        found = self._compiled.get(name)
        if found is None or len(packet) < found.size or packet[0] != found.pid:
            return None
        values = found.layout.unpack_from(packet, 1)
        on_ground = bool(values[-1] & found.ground_bit)
        if found.has_position:
            if found.has_look:
                x, y, z, yaw, pitch, _ = values
                return [ev.PositionSet(x, y, z, yaw, pitch, from_server=False, on_ground=on_ground)]
            x, y, z, _ = values
            return [ev.PositionSet(x, y, z, math.nan, math.nan, from_server=False, on_ground=on_ground)]
        if found.has_look:
            yaw, pitch, _ = values
            return [ev.LookSet(yaw, pitch, on_ground)]
        return []


def _shape(layout: Any, named: dict[str, Any]) -> tuple[tuple[str, ...], int] | None:
    """The fields before the on-ground flag and the flag's bit, when ``layout`` is one of the
    shapes above; None otherwise."""
    fields = container_fields(layout)
    if fields is None:
        return None
    names = tuple(f.get("name") for f in fields[:-1])
    if names not in _ORDERS or any(f.get("type") != {"d": "f64", "f": "f32"}[_FORMATS[n]]
                                   for f, n in zip(fields, names)):
        return None
    last = fields[-1]
    if last.get("name") == "onGround" and last.get("type") == "bool":
        return names, 0xFF  # a bool is true for any byte but 0
    if last.get("name") == "flags" and isinstance(last.get("type"), str):
        kind = named.get(last["type"])
        if (isinstance(kind, list) and len(kind) == 2 and kind[0] == "bitflags" and isinstance(kind[1], dict)
                and kind[1].get("type") == "u8"):
            flags = kind[1].get("flags")
            if isinstance(flags, list) and "onGround" in flags:
                return names, 1 << flags.index("onGround")
            if isinstance(flags, dict) and "onGround" in flags:
                return names, int(flags["onGround"])
    return None
