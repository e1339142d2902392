"""Entity movements read with one ``struct`` call instead of the layout decoder.

How this works: every mob's every step is an entity movement packet (``entity_teleport``,
``sync_entity_position``, ``rel_entity_move``, ``entity_move_look``), the most frequent server
packets, and with a feature on that reads entities the proxy reads each one for the position.
Each is laid out as the entity id (a VarInt) and then fixed-size numbers only. ``EntityMoveReader``
checks each packet's layout in this version's table against that shape when it is built and
compiles one ``struct`` for the numbers; ``events(name, packet)`` then gives the events
``translators.events`` gives for ``codec.decode``'s fields (positions in 1/32 block before 1.9,
deltas in 1/32 or 1/4096 block by their width, as the translators read them), or None for
anything it was not compiled for (another shape, a multi-byte packet id, a packet too short,
a bad entity id), which the caller then reads with the layout decoder as before, so an error is
named the same way. Bytes after the fields are ignored, as the layout decoder ignores them.
"""
from __future__ import annotations

import struct
from typing import Any

from engine import events as ev
from proxy.codec.subscriptions import ENTITY_MOVES
from proxy.codec.versioned import VersionCodec
from proxy.protocol.errors import PeerError
from proxy.protocol.layout import container_fields
from proxy.protocol.states import State
from proxy.protocol.tables import TO_CLIENT
from proxy.protocol.wire import FIXED, read_varint

_FORMATS = {**{name: s.format.lstrip(">") for name, s in FIXED.items()}, "bool": "B"}
_ABSOLUTE = ("x", "y", "z")
_RELATIVE = ("dX", "dY", "dZ")


class _Compiled:
    __slots__ = ("pid", "layout", "picks", "relative", "scale")

    def __init__(self, pid: int, layout: struct.Struct, picks: tuple[int, int, int], relative: bool,
                 scale: float | None) -> None:
        self.pid = pid
        self.layout = layout
        self.picks = picks  # where x, y, z (or their deltas) are among the numbers
        self.relative = relative
        self.scale = scale  # a divisor for integer coordinates or deltas; None: floats as they are


class EntityMoveReader:
    def __init__(self, codec: VersionCodec) -> None:
        self._compiled: dict[str, _Compiled] = {}
        table = codec.table
        wide = codec.field_types(State.PLAY, TO_CLIENT, "rel_entity_move").get("dX") != "i8"
        for name in ENTITY_MOVES:
            pid = table.packet_id(State.PLAY, TO_CLIENT, name)
            if pid is None or pid >= 0x80:
                continue
            compiled = _compile(pid, table.raw_layout(State.PLAY, TO_CLIENT, name), wide)
            if compiled is not None:
                self._compiled[name] = compiled

    @property
    def compiled(self) -> frozenset[str]:
        """The packets read here (the others go to the layout decoder)."""
        return frozenset(self._compiled)

    def events(self, name: str, packet: bytes) -> list[ev.Event] | None:
        found = self._compiled.get(name)
        if found is None or not packet or packet[0] != found.pid:
            return None
        try:
            eid, pos = read_varint(packet, 1)
        except PeerError:
            return None
        if len(packet) - pos < found.layout.size:
            return None
        values = found.layout.unpack_from(packet, pos)
        i, j, k = found.picks
        a, b, c = values[i], values[j], values[k]
        scale = found.scale
        if found.relative and scale is not None:
            return [ev.EntityMovedBy(eid, float(a) / scale, float(b) / scale, float(c) / scale)]
        if scale is not None:
            return [ev.EntityMoved(eid, a / scale, b / scale, c / scale)]
        return [ev.EntityMoved(eid, float(a), float(b), float(c))]


def _compile(pid: int, layout: Any, wide: bool) -> _Compiled | None:
    """The struct and the places of the coordinates, when ``layout`` is the entity id and then
    fixed-size numbers with x, y, z (or dX, dY, dZ) among them; None otherwise."""
    fields = container_fields(layout)
    if fields is None:
        return None
    if fields[0].get("name") != "entityId" or fields[0].get("type") != "varint":
        return None
    rest = fields[1:]
    kinds: list[Any] = [f.get("type") for f in rest]
    if any(not isinstance(k, str) or k not in _FORMATS for k in kinds):
        return None
    names = [f.get("name") for f in rest]
    layout_struct = struct.Struct(">" + "".join(_FORMATS[k] for k in kinds))
    for axes, relative in ((_ABSOLUTE, False), (_RELATIVE, True)):
        if all(a in names for a in axes):
            picks = (names.index(axes[0]), names.index(axes[1]), names.index(axes[2]))
            types = {kinds[p] for p in picks}
            if relative:
                if types & {"f32", "f64", "bool"}:
                    return None
                return _Compiled(pid, layout_struct, picks, True, 4096.0 if wide else 32.0)
            if types <= {"f32", "f64"}:
                return _Compiled(pid, layout_struct, picks, False, None)
            if not types & {"f32", "f64", "bool"}:
                return _Compiled(pid, layout_struct, picks, False, 32.0)  # fixed point, 1/32 block (1.8)
            return None
    return None
