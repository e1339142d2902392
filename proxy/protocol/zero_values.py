"""The zero value of any protodef type: what a packet the proxy builds holds in the fields it does not set.

Building a packet from its layout's zero values and filling in a few fields is how the
proxy writes packets whose other fields differ between versions, without knowing them.
"""
from __future__ import annotations

from typing import Any

ZERO_UUID = "00000000-0000-0000-0000-000000000000"

_ZERO_NUMBERS = {"varint", "varlong", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"}
_NBT = {"nbt", "optionalNbt", "anonymousNbt", "anonOptionalNbt"}


def zero_value(layout: Any, named: dict[str, Any]) -> Any:
    """The zero value of a protodef type: 0, "", False, None for options, empty arrays."""
    if isinstance(layout, str):
        if layout in _ZERO_NUMBERS:
            return 0
        if layout in ("f32", "f64"):
            return 0.0
        if layout == "bool":
            return False
        if layout == "UUID":
            return ZERO_UUID
        if layout == "void" or layout in _NBT:
            return None
        if layout == "restBuffer":
            return b""
        if layout == "string":
            return ""
        if layout == "lpVec3":
            return {"x": 0.0, "y": 0.0, "z": 0.0}
        if layout in named:
            return zero_value(named[layout], named)
        raise KeyError(f"no zero value for {layout}")
    kind, args = layout
    if kind == "container":
        out: dict[str, Any] = {}
        for field in args:
            value = zero_value(field["type"], named)
            if field.get("anon"):
                if isinstance(value, dict):
                    out.update(value)
            else:
                out[field["name"]] = value
        return out
    if kind == "option":
        return None
    if kind == "array":
        return []
    if kind == "pstring":
        return ""
    if kind == "buffer":
        return b"\x00" * args["count"] if isinstance(args.get("count"), int) else b""
    if kind == "mapper":
        return next(iter(args["mappings"].values()))
    if kind == "switch":
        return zero_value(args["default"], named) if "default" in args else None
    if kind == "bitflags":
        return {"_value": 0}
    if kind == "bitfield":
        return {f["name"]: 0 for f in args}
    if kind == "entityMetadataLoop":
        return bytes([args["endVal"]])      # kept as raw bytes: no entries, just the end marker
    raise KeyError(f"no zero value for {kind}")
