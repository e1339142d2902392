"""One builder per protodef kind (container, switch, array, ...) and the primitive types.

A builder takes the kind's arguments from the layout JSON and ``build``, which compiles
the layouts nested in them (``LayoutCompiler.compile``: named types, caching, recursion),
and returns the ``Codec`` for that kind: two closures over what was compiled, so decoding
does no lookups. ``BUILDERS`` is the table the compiler dispatches on; a kind not in it is
a ``LayoutError`` at compile time. Adding a kind is one function and one entry.
"""
from __future__ import annotations

import struct
import uuid as uuid_mod
from typing import Any, Callable

from proxy.protocol import lp_vec3, nbt
from proxy.protocol.errors import LayoutError, PeerError
from proxy.protocol.layout_codec import (FIELD_LIMITS, MAX_ARRAY, MAX_BUFFER, MAX_NESTING, Buffer, Codec, Decoder,
                                         Encoder, Stack, check_count)
from proxy.protocol.wire import FIXED, pack_varint, pack_varlong, read_varint, read_varlong

Build = Callable[[Any], Codec]
Builder = Callable[[Build, Any], Codec]


def _resolve(path: str, stack: Stack) -> Any:
    level = len(stack) - 1
    node: Any = None
    parts = path.split("/")
    i = 0
    while i < len(parts) and parts[i] == "..":
        level -= 1
        i += 1
    if level < 0:
        raise LayoutError(f"compareTo {path!r} climbs above the packet")
    node = stack[level]
    for part in parts[i:]:
        if not isinstance(node, dict) or part not in node:
            raise PeerError(f"switch field {path!r} not present")
        node = node[part]
    return node


def _key(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def registry_entry_holder(build: Build, args: dict[str, Any]) -> Codec:
    """1.20.5+: a VarInt n; n > 0 names registry entry n-1, n == 0 inlines the value."""
    base = args["baseName"]
    other_name = args["otherwise"]["name"]
    inline = build(args["otherwise"]["type"])

    def dec_holder(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
        n, pos = read_varint(data, pos)
        if n != 0:
            return {base: n - 1}, pos
        value, pos = inline.decode(data, pos, stack)
        return {other_name: value}, pos

    def enc_holder(value: Any, out: bytearray, stack: Stack) -> None:
        if value.get(base) is not None:
            out += pack_varint(int(value[base]) + 1)
        else:
            out += pack_varint(0)
            inline.encode(value[other_name], out, stack)

    return Codec(dec_holder, enc_holder)


def registry_entry_holder_set(build: Build, args: dict[str, Any]) -> Codec:
    """1.20.5+: a VarInt n; n == 0 is a tag (the base value), else n-1 inline ids."""
    base_name = args["base"]["name"]
    base = build(args["base"]["type"])
    other_name = args["otherwise"]["name"]
    item = build(args["otherwise"]["type"])

    def dec_set(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
        n, pos = read_varint(data, pos)
        if n == 0:
            value, pos = base.decode(data, pos, stack)
            return {base_name: value}, pos
        check_count(n - 1, data, pos, "registry set")
        items = []
        for _ in range(n - 1):
            entry, pos = item.decode(data, pos, stack)
            items.append(entry)
        return {other_name: items}, pos

    def enc_set(value: Any, out: bytearray, stack: Stack) -> None:
        if value.get(base_name) is not None:
            out += pack_varint(0)
            base.encode(value[base_name], out, stack)
        else:
            entries = value[other_name]
            out += pack_varint(len(entries) + 1)
            for entry in entries:
                item.encode(entry, out, stack)

    return Codec(dec_set, enc_set)


def entity_metadata_loop(build: Build, args: Any) -> Codec:
    """Entity metadata is always a packet's last field; keep it as raw bytes and
    let the codec read the few entries it needs (their value types vary by version)."""
    return _SIMPLE["restBuffer"]


def container(build: Build, fields: list[dict[str, Any]]) -> Codec:
    compiled: list[tuple[str | None, Decoder, Encoder]] = []
    for field in fields:
        kind = field["type"]
        name = None if field.get("anon") else field["name"]
        limit = FIELD_LIMITS.get(name) if name is not None else None
        if limit is not None and isinstance(kind, list) and len(kind) == 2 and kind[0] == "array":
            codec = array(build, kind[1], limit, str(name))
        else:
            codec = build(kind)
        compiled.append((name, codec.decode, codec.encode))
    steps = _fixed_runs(fields, compiled)

    def dec_container(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
        if len(stack) >= MAX_NESTING:
            raise PeerError(f"packet nested more than {MAX_NESTING} levels deep")
        result: dict[str, Any] = {}
        stack.append(result)
        try:
            for name, dec in steps:
                value, pos = dec(data, pos, stack)
                if name is None:
                    if isinstance(value, dict):
                        result.update(value)
                else:
                    result[name] = value
        finally:
            stack.pop()
        return result, pos

    def enc_container(value: Any, out: bytearray, stack: Stack) -> None:
        stack.append(value)
        try:
            for name, _, enc in compiled:
                enc(value if name is None else value.get(name), out, stack)
        finally:
            stack.pop()

    return Codec(dec_container, enc_container)


# Fixed-size kinds a run of fields can read with one struct call (struct's "?" is any nonzero
# byte, as ``_dec_bool``); the name always means the primitive (``LayoutCompiler._compile_named``).
_RUN_FORMATS: dict[str, str] = {**{k: v.format.lstrip(">") for k, v in FIXED.items()}, "bool": "?"}


def _fixed_runs(fields: list[dict[str, Any]],
                compiled: list[tuple[str | None, Decoder, Encoder]]) -> list[tuple[str | None, Decoder]]:
    """The container's decoding steps: two or more named fixed-size fields in a row become one
    step that unpacks them with one struct call and stores them in the container being built
    (the top of the stack), so it is an anonymous step returning None. Movement packets are
    mostly such runs (sync_entity_position: nine numbers and a bool). Same values, same order;
    on a short buffer the fields' own decoders run, so the error is the same too."""
    steps: list[tuple[str | None, Decoder]] = []
    run: list[tuple[str, str, Decoder]] = []

    def close() -> None:
        if len(run) >= 2:
            steps.append((None, _run_decoder([(n, f, d) for n, f, d in run])))
        else:
            steps.extend((n, d) for n, _, d in run)
        run.clear()

    for field, (name, dec, _) in zip(fields, compiled):
        kind = field["type"]
        fmt = _RUN_FORMATS.get(kind) if isinstance(kind, str) else None
        if fmt is None or name is None:
            close()
            steps.append((name, dec))
        else:
            run.append((name, fmt, dec))
    close()
    return steps


def _run_decoder(run: list[tuple[str, str, Decoder]]) -> Decoder:
    names = tuple(n for n, _, _ in run)
    unpack_from = struct.Struct(">" + "".join(f for _, f, _ in run)).unpack_from
    size = struct.calcsize(">" + "".join(f for _, f, _ in run))
    one_by_one = [(n, d) for n, _, d in run]

    def dec_run(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
        top = stack[-1]
        if pos + size > len(data):
            for name, dec in one_by_one:  # raises where the field that does not fit starts
                top[name], pos = dec(data, pos, stack)
            return None, pos
        top.update(zip(names, unpack_from(data, pos)))
        return None, pos + size

    return dec_run


def switch(build: Build, args: dict[str, Any]) -> Codec:
    path = args["compareTo"]
    fields = {str(k): build(v) for k, v in args.get("fields", {}).items()}
    default = build(args["default"]) if "default" in args else _VOID

    def pick(stack: Stack) -> Codec:
        return fields.get(_key(_resolve(path, stack)), default)

    def dec_switch(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
        return pick(stack).decode(data, pos, stack)

    def enc_switch(value: Any, out: bytearray, stack: Stack) -> None:
        pick(stack).encode(value, out, stack)

    return Codec(dec_switch, enc_switch)


def option(build: Build, inner_layout: Any) -> Codec:
    inner = build(inner_layout)

    def dec_option(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
        if pos >= len(data):
            raise PeerError("truncated option")
        if data[pos]:
            return inner.decode(data, pos + 1, stack)
        return None, pos + 1

    def enc_option(value: Any, out: bytearray, stack: Stack) -> None:
        if value is None:
            out.append(0)
        else:
            out.append(1)
            inner.encode(value, out, stack)

    return Codec(dec_option, enc_option)


def _count(build: Build, args: dict[str, Any]) -> tuple[Callable[[Buffer, int, Stack], tuple[int, int]], Callable[[int, bytearray, Stack], None]]:
    if "countType" in args:
        counter = build(args["countType"])

        def read_count(data: Buffer, pos: int, stack: Stack) -> tuple[int, int]:
            n, pos = counter.decode(data, pos, stack)
            return int(n), pos

        def write_count(n: int, out: bytearray, stack: Stack) -> None:
            counter.encode(n, out, stack)

        return read_count, write_count
    count = args.get("count")
    if isinstance(count, int):
        fixed_n = count
        return (lambda data, pos, stack: (fixed_n, pos)), (lambda n, out, stack: None)
    if isinstance(count, str):
        ref = count

        def read_ref(data: Buffer, pos: int, stack: Stack) -> tuple[int, int]:
            return int(_resolve(ref, stack)), pos

        return read_ref, (lambda n, out, stack: None)
    raise LayoutError(f"array without a count: {args!r}")


def array(build: Build, args: dict[str, Any], limit: int = MAX_ARRAY, what: str = "array") -> Codec:
    read_count, write_count = _count(build, args)
    inner = build(args["type"])
    dec_inner, enc_inner = inner.decode, inner.encode

    def dec_array(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
        n, pos = read_count(data, pos, stack)
        if n > limit:
            raise PeerError(f"{what}: {n} entries, more than the {limit} the proxy accepts")
        check_count(n, data, pos, what)
        items = []
        for _ in range(n):
            item, pos = dec_inner(data, pos, stack)
            items.append(item)
        return items, pos

    def enc_array(value: Any, out: bytearray, stack: Stack) -> None:
        write_count(len(value), out, stack)
        for item in value:
            enc_inner(item, out, stack)

    return Codec(dec_array, enc_array)


def pstring(build: Build, args: dict[str, Any]) -> Codec:
    read_count, write_count = _count(build, args)

    def dec_pstring(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
        n, pos = read_count(data, pos, stack)
        if n < 0 or n > MAX_BUFFER or pos + n > len(data):
            raise PeerError(f"string length {n} out of range")
        try:
            return bytes(data[pos:pos + n]).decode("utf-8"), pos + n
        except UnicodeDecodeError as exc:
            raise PeerError(f"invalid UTF-8 in string: {exc.reason}") from None

    def enc_pstring(value: Any, out: bytearray, stack: Stack) -> None:
        raw = value.encode("utf-8")
        write_count(len(raw), out, stack)
        out += raw

    return Codec(dec_pstring, enc_pstring)


def buffer(build: Build, args: dict[str, Any]) -> Codec:
    read_count, write_count = _count(build, args)

    def dec_buffer(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
        n, pos = read_count(data, pos, stack)
        if n < 0 or n > MAX_BUFFER or pos + n > len(data):
            raise PeerError(f"buffer length {n} out of range")
        return bytes(data[pos:pos + n]), pos + n

    fixed = args.get("count") if isinstance(args.get("count"), int) else None

    def enc_buffer(value: Any, out: bytearray, stack: Stack) -> None:
        if fixed is not None and len(value) != fixed:
            raise ValueError(f"buffer must be {fixed} bytes, not {len(value)}")
        write_count(len(value), out, stack)
        out += value

    return Codec(dec_buffer, enc_buffer)


def mapper(build: Build, args: dict[str, Any]) -> Codec:
    inner = build(args["type"])
    forward = {str(k): v for k, v in args["mappings"].items()}
    backward: dict[str, int] = {}
    for k, v in args["mappings"].items():
        backward[v] = int(k, 0) if isinstance(k, str) else int(k)

    def dec_mapper(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
        raw, pos = inner.decode(data, pos, stack)
        return forward.get(str(raw), raw), pos

    def enc_mapper(value: Any, out: bytearray, stack: Stack) -> None:
        inner.encode(backward[value] if isinstance(value, str) else value, out, stack)

    return Codec(dec_mapper, enc_mapper)


def bitflags(build: Build, args: dict[str, Any]) -> Codec:
    inner = build(args["type"])
    flags = args["flags"]
    names: list[tuple[str, int]] = []
    if isinstance(flags, list):
        names = [(name, 1 << i) for i, name in enumerate(flags)]
    else:
        names = [(name, int(bit)) for name, bit in flags.items()]

    def dec_bitflags(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
        raw, pos = inner.decode(data, pos, stack)
        result: dict[str, Any] = {name: bool(raw & bit) for name, bit in names}
        result["_value"] = raw
        return result, pos

    def enc_bitflags(value: Any, out: bytearray, stack: Stack) -> None:
        raw = value.get("_value", 0)
        for name, bit in names:
            if value.get(name):
                raw |= bit
        inner.encode(raw, out, stack)

    return Codec(dec_bitflags, enc_bitflags)


def bitfield(build: Build, fields: list[dict[str, Any]]) -> Codec:
    total = sum(int(f["size"]) for f in fields)
    if total % 8:
        raise LayoutError("bitfield not byte-aligned")
    nbytes = total // 8

    def dec_bitfield(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
        if pos + nbytes > len(data):
            raise PeerError("truncated bitfield")
        raw = int.from_bytes(data[pos:pos + nbytes], "big")
        shift = total
        result: dict[str, Any] = {}
        for f in fields:
            size = int(f["size"])
            shift -= size
            value = (raw >> shift) & ((1 << size) - 1)
            if f.get("signed") and value >= 1 << (size - 1):
                value -= 1 << size
            result[f["name"]] = value
        return result, pos + nbytes

    def enc_bitfield(value: Any, out: bytearray, stack: Stack) -> None:
        raw = 0
        for f in fields:
            size = int(f["size"])
            raw = (raw << size) | (int(value[f["name"]]) & ((1 << size) - 1))
        out += raw.to_bytes(nbytes, "big")

    return Codec(dec_bitfield, enc_bitfield)


def _dec_varint(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
    return read_varint(data, pos)


def _enc_varint(value: Any, out: bytearray, stack: Stack) -> None:
    out += pack_varint(value)


def _dec_varlong(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
    return read_varlong(data, pos)


def _enc_varlong(value: Any, out: bytearray, stack: Stack) -> None:
    out += pack_varlong(value)


def _dec_bool(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
    if pos >= len(data):
        raise PeerError("truncated bool")
    return data[pos] != 0, pos + 1


def _enc_bool(value: Any, out: bytearray, stack: Stack) -> None:
    out.append(1 if value else 0)


def _dec_uuid(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
    if pos + 16 > len(data):
        raise PeerError("truncated UUID")
    return str(uuid_mod.UUID(bytes=bytes(data[pos:pos + 16]))), pos + 16


def _enc_uuid(value: Any, out: bytearray, stack: Stack) -> None:
    out += uuid_mod.UUID(str(value)).bytes


def _dec_void(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
    return None, pos


def _enc_void(value: Any, out: bytearray, stack: Stack) -> None:
    return None


def _dec_rest(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
    return bytes(data[pos:]), len(data)


def _enc_rest(value: Any, out: bytearray, stack: Stack) -> None:
    out += value


def _nbt_codec(named: bool, optional: bool) -> Codec:
    def dec_nbt(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
        return nbt.read_nbt(data, pos, named_root=named)

    def enc_nbt(value: Any, out: bytearray, stack: Stack) -> None:
        out += nbt.write_nbt(value, named_root=named)

    return Codec(dec_nbt, enc_nbt)


_VOID = Codec(_dec_void, _enc_void)
_SIMPLE: dict[str, Codec] = {
    "varint": Codec(_dec_varint, _enc_varint),
    "varlong": Codec(_dec_varlong, _enc_varlong),
    "bool": Codec(_dec_bool, _enc_bool),
    "UUID": Codec(_dec_uuid, _enc_uuid),
    "void": _VOID,
    "restBuffer": Codec(_dec_rest, _enc_rest),
    "nbt": _nbt_codec(named=True, optional=False),
    "optionalNbt": _nbt_codec(named=True, optional=True),
    "anonymousNbt": _nbt_codec(named=False, optional=False),
    "anonOptionalNbt": _nbt_codec(named=False, optional=True),
    "lpVec3": lp_vec3.CODEC,
}


def primitive(name: str) -> Codec | None:
    """The codec of a primitive type (fixed-size numbers, varints, UUIDs, NBT...), None for others."""
    fixed = FIXED.get(name)
    if fixed is None:
        return _SIMPLE.get(name)
    size = fixed.size
    unpack_from = fixed.unpack_from
    pack = fixed.pack

    def dec_fixed(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
        if pos + size > len(data):
            raise PeerError(f"truncated {name}")
        return unpack_from(data, pos)[0], pos + size

    def enc_fixed(value: Any, out: bytearray, stack: Stack) -> None:
        out += pack(value)

    return Codec(dec_fixed, enc_fixed)


BUILDERS: dict[str, Builder] = {
    "container": container,
    "switch": switch,
    "option": option,
    "array": array,
    "pstring": pstring,
    "buffer": buffer,
    "mapper": mapper,
    "bitflags": bitflags,
    "bitfield": bitfield,
    "registryEntryHolder": registry_entry_holder,
    "registryEntryHolderSet": registry_entry_holder_set,
    "entityMetadataLoop": entity_metadata_loop,
}
