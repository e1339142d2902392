"""Compile minecraft-data (protodef) packet layouts into decode and encode functions.

How this works: a layout is JSON such as ``["container", [{"name": "x", "type":
"f64"}, ...]]``. ``LayoutCompiler.compile`` walks it once and returns a ``Codec``
holding two closures; decoding a packet is then a chain of direct calls over one
buffer with a moving offset. A name is a primitive or one of the version's named
types (compiled once and cached); a ``[kind, args]`` pair goes to the kind's builder
in ``layout_kinds.BUILDERS``. Containers decode to dicts; ``switch`` looks up its
``compareTo`` path in the stack of enclosing containers (``..`` climbs one level),
as protodef defines it. A type we do not implement raises ``LayoutError`` at
compile time, so a version whose layout we cannot read is known at start-up,
never mid-game.
"""
from __future__ import annotations

from typing import Any

from proxy.protocol import layout_kinds
from proxy.protocol.errors import LayoutError
from proxy.protocol.layout_codec import Buffer, Codec, Stack


def container_fields(layout: Any) -> list[dict[str, Any]] | None:
    """A packet layout's fields when it is a plain ``["container", [field, ...]]`` of field
    objects (the shape the one-struct readers compile); None for anything else."""
    if not (isinstance(layout, list) and len(layout) == 2 and layout[0] == "container"):
        return None
    fields = layout[1]
    if not isinstance(fields, list) or not fields or any(not isinstance(f, dict) for f in fields):
        return None
    return fields


class LayoutCompiler:
    """Compiles layouts of one protocol version (its named types are given)."""

    def __init__(self, named_types: dict[str, Any], natives: set[str] | None = None) -> None:
        self.named = named_types
        self.natives = natives or set()
        self._cache: dict[str, Codec] = {}

    def compile(self, layout: Any) -> Codec:
        if isinstance(layout, str):
            if layout in self._cache:
                return self._cache[layout]
            # Named types can be recursive (1.20.5+ item stacks hold item stacks):
            # while one compiles, references to it go through a forwarder.
            self._cache[layout] = self._forward(layout)
            try:
                codec = self._compile_named(layout)
            except LayoutError:
                del self._cache[layout]
                raise
            self._cache[layout] = codec
            return codec
        if isinstance(layout, list) and len(layout) == 2:
            kind, args = layout
            builder = layout_kinds.BUILDERS.get(kind) if isinstance(kind, str) else None
            if builder is not None:
                return builder(self.compile, args)
            if isinstance(kind, str) and kind in self.named:
                raise LayoutError(f"parametrized type {kind!r} is not supported")
            raise LayoutError(f"unsupported layout type {kind!r}")
        raise LayoutError(f"unsupported layout {layout!r}")

    def _forward(self, name: str) -> Codec:
        cache = self._cache

        def dec_forward(data: Buffer, pos: int, stack: Stack) -> tuple[Any, int]:
            return cache[name].decode(data, pos, stack)

        def enc_forward(value: Any, out: bytearray, stack: Stack) -> None:
            cache[name].encode(value, out, stack)

        return Codec(dec_forward, enc_forward)

    def compile_prefix(self, layout: Any) -> Codec:
        """Compile a packet container up to its first field we cannot read.

        Decoding then yields the leading fields and ignores the tail, which is
        enough for packets whose useful fields come first (entity spawns before
        their metadata). Such a codec is for reading only: the proxy forwards the
        original bytes of these packets, never a re-encoding.
        """
        try:
            return self.compile(layout)
        except LayoutError:
            if not (isinstance(layout, list) and layout and layout[0] == "container"):
                raise
        fields: list[dict[str, Any]] = []
        for field in layout[1]:
            try:
                self.compile(field["type"])
            except LayoutError:
                break
            fields.append(field)
        if not fields:
            raise LayoutError("no leading field can be decoded")
        prefix = layout_kinds.container(self.compile, fields)

        def refuse(value: Any, out: bytearray, stack: Stack) -> None:
            raise LayoutError("a prefix layout cannot encode")

        return Codec(prefix.decode, refuse, complete=False)

    def _compile_named(self, name: str) -> Codec:
        primitive = layout_kinds.primitive(name)
        if primitive is not None:
            return primitive
        if name in self.named:
            return self.compile(self.named[name])
        raise LayoutError(f"unknown type {name!r}")
