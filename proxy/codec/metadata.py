"""Entity metadata: the leading entries of an ``entity_metadata`` packet, read by the version's layout.

How this works: the proxy keeps a packet's metadata as raw bytes (``layout_kinds.entity_metadata_loop``),
since an entry's value type varies by version. ``entries`` reads entries from the start while it can
size their values: the version's ``entityMetadata`` layout says how an entry's key and type are written
(1.8: one byte, type << 5 | index, ending at 0x7f; 1.9-1.12: an index byte and a type byte; 1.13+: an
index byte and a VarInt type, ending at 0xff) and its switch maps each type to a layout; the fixed-size
primitives and VarInts are read, and the first entry of any other type (text, items, particles) ends the
reading. Vanilla sends only the entries that changed (``SynchedEntityData.packDirty``), so a sheep's
shearing comes as its wool byte alone.

``wool_index`` is the sheep's wool byte (0x10: sheared, the low four bits its colour): its index follows
the entity class tree of each version, from minecraft-data's ``entities.json`` ``metadataKeys`` where it
has them (1.19.4-1.21.11: 17, 26.1: 18; minecraft-data 3.119.0) and the class tree before (wiki.vg's
"Entity metadata" pages: 1.8 16, 1.9 12, 1.10-1.13 13, 1.14 15, 1.15-1.16 16, 1.17+ 17).
"""
from __future__ import annotations

import functools
import struct
from typing import Any

from proxy.protocol.tables import ProtocolTable
from proxy.protocol.wire import read_varint

SIZES = {"i8": 1, "u8": 1, "bool": 1, "i16": 2, "i32": 4, "f32": 4, "f64": 8, "i64": 8, "position": 8}
VARINTS = frozenset({"varint", "optvarint", "varlong"})
SHEARED_BIT = 0x10
# (first protocol, index) pairs, newest last: the sheep's wool byte.
_WOOL_INDEX = ((47, 16), (107, 12), (210, 13), (477, 15), (573, 16), (755, 17), (775, 18))


def wool_index(protocol: int) -> int:
    return next(index for first, index in reversed(_WOOL_INDEX) if protocol >= first)


@functools.cache
def _layout(table: ProtocolTable) -> tuple[bool, bool, int, dict[int, str]]:
    """(1.8's packed key byte, a type of one byte (1.9-1.12), the end byte, type id → value layout
    name) of a version."""
    named = table.named_types
    loop = named.get("entityMetadata")
    if not (isinstance(loop, list) and len(loop) == 2 and isinstance(loop[1], dict)):
        raise ValueError(f"protocol {table.protocol}: no entityMetadata loop in its layout")
    end = int(loop[1].get("endVal", 0xFF))
    entry: Any = loop[1]["type"]
    if isinstance(entry, str):
        entry = named[entry]
    packed = "bitfield" in repr(entry)
    mappings: dict[str, str] = {}
    switch: Any = None
    fields_of_entry = list(entry[1])
    for field in list(fields_of_entry):
        kind = field["type"]
        if field.get("anon") and isinstance(kind, list) and kind[0] == "container":
            fields_of_entry += kind[1]          # 1.9-1.18: key and type in an anonymous container
    one_byte = any(f.get("name") == "type" and f["type"] == "i8" for f in fields_of_entry)
    for field in fields_of_entry:
        kind = field["type"]
        if isinstance(kind, list) and kind[0] == "mapper":
            mappings = kind[1]["mappings"]
        if field.get("name") == "value":
            switch = kind
    if isinstance(switch, list) and switch[0] != "switch":
        switch = named[switch[0]]          # ["entityMetadataItem", {"compareTo": "type"}]
    if not (isinstance(switch, list) and switch[0] == "switch"):
        raise ValueError(f"protocol {table.protocol}: no entity metadata value switch in its layout")
    fields: dict[str, Any] = switch[1]["fields"]
    types: dict[int, str] = {}
    for key, layout in fields.items():
        if isinstance(layout, str):
            types.update({int(i): layout for i, name in mappings.items() if name == key} if mappings
                         else {int(key): layout})
    return packed, one_byte, end, types


def entries(table: ProtocolTable, raw: bytes) -> dict[int, int | float]:
    """The leading entries of ``raw`` (index → value) up to the first whose size is not known."""
    packed, one_byte, end, types = _layout(table)
    out: dict[int, int | float] = {}
    pos = 0
    while pos < len(raw):
        key = raw[pos]
        pos += 1
        if key == end:
            break
        if packed:
            type_id, index = key >> 5, key & 0x1F
        else:
            index = key
            if one_byte:
                if pos >= len(raw):
                    break
                type_id = raw[pos]
                pos += 1
            else:
                type_id, pos = read_varint(raw, pos)
        layout = types.get(type_id)
        if layout == "string":                   # a name, text before 1.13: skipped
            length, pos = read_varint(raw, pos)
            pos += length
            if pos > len(raw):
                break
        elif layout in VARINTS:
            value, pos = read_varint(raw, pos)
            out[index] = value
        elif layout in SIZES and pos + SIZES[layout] <= len(raw):
            size = SIZES[layout]
            chunk = raw[pos:pos + size]
            pos += size
            if layout == "f32":
                out[index] = struct.unpack(">f", chunk)[0]
            elif layout in ("i8", "i16", "i32", "i64"):
                out[index] = int.from_bytes(chunk, "big", signed=True)
            else:
                out[index] = int.from_bytes(chunk, "big")
        else:
            break
    return out
