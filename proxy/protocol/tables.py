"""Per-version packet tables, loaded from the generated ``proxy/data/protocol.json``.

Nothing here knows what a packet means: it maps (state, direction, name) to ids
and compiled layouts for one protocol version. Layouts compile on first use and
are cached; one that cannot compile is reported once and treated as absent.
"""
from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from proxy.protocol.errors import LayoutError
from proxy.protocol.layout import LayoutCompiler
from proxy.protocol.layout_codec import Codec

STATES = ("handshaking", "status", "login", "configuration", "play")
TO_CLIENT = "toClient"
TO_SERVER = "toServer"


@cache
def _document() -> dict[str, Any]:
    text = resources.files("proxy").joinpath("data/protocol.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


class ProtocolTable:
    def __init__(self, version: str, entry: dict[str, Any], pools: dict[str, Any], item_names: list[str]) -> None:
        self.version = version
        self.protocol: int = entry["protocol"]
        self._ids: dict[str, dict[str, dict[str, int]]] = pools["ids"][entry["ids"]]
        self._names: dict[tuple[str, str], dict[int, str]] = {
            (state, direction): {pid: name for name, pid in mapping.items()}
            for state, by_dir in self._ids.items()
            for direction, mapping in by_dir.items()
        }
        self._layouts: dict[str, dict[str, dict[str, str]]] = pools["layout_sets"][entry["layouts"]]
        self._pools = pools
        named = {name: pools["types"][key] for name, key in pools["type_sets"][entry["types"]].items()}
        self.named_types: dict[str, Any] = named
        self._compiler = LayoutCompiler(named, set(entry["natives"]))
        self._codecs: dict[tuple[str, str, str], Codec | None] = {}
        self.layout_errors: dict[tuple[str, str, str], str] = {}
        self.items: dict[int, str] = _expand_names(pools["items"][entry["items"]], item_names)
        self.entities: dict[int, tuple[str, str]] = {
            int(k): (v[0], v[1]) for k, v in pools["entities"][entry["entities"]].items()
        }
        # Until 1.13, spawn_entity carries an object id (items, arrows, TNT) from its own table.
        self.objects: dict[int, tuple[str, str]] = {
            int(k): (v[0], v[1]) for k, v in pools["entities"].get(entry.get("objects", ""), {}).items()
        }

    @property
    def has_configuration(self) -> bool:
        return "configuration" in self._ids

    def packet_id(self, state: str, direction: str, name: str) -> int | None:
        return self._ids.get(state, {}).get(direction, {}).get(name)

    def packet_name(self, state: str, direction: str, packet_id: int) -> str | None:
        return self._names.get((state, direction), {}).get(packet_id)

    def ids(self, state: str, direction: str) -> dict[str, int]:
        return dict(self._ids.get(state, {}).get(direction, {}))

    def raw_layout(self, state: str, direction: str, name: str) -> Any:
        key = self._layouts.get(state, {}).get(direction, {}).get(name)
        return None if key is None else self._pools["layouts"][key]

    def named_codec(self, name: str) -> Codec:
        """The compiled codec of one of this version's named types (``command_node``)."""
        return self._compiler.compile(name)

    def compile_layout(self, layout: Any) -> Codec:
        return self._compiler.compile(layout)

    def codec(self, state: str, direction: str, name: str) -> Codec | None:
        key = (state, direction, name)
        if key in self._codecs:
            return self._codecs[key]
        layout_key = self._layouts.get(state, {}).get(direction, {}).get(name)
        codec: Codec | None = None
        if layout_key is not None:
            try:
                codec = self._compiler.compile_prefix(self._pools["layouts"][layout_key])
            except LayoutError as exc:
                self.layout_errors[key] = str(exc)
        self._codecs[key] = codec
        return codec


def _expand_names(runs: list[list[int]], names: list[str]) -> dict[int, str]:
    """Undo gen_protocol.name_runs: ``[first, length]`` names ids from the shared list, ``[0, n]`` skips n ids."""
    out: dict[int, str] = {}
    next_id = 0
    for first, length in runs:
        if first:
            out.update(zip(range(next_id, next_id + length), names[first:first + length]))
        next_id += length
    return out


@cache
def table_for_version(version: str) -> ProtocolTable:
    doc = _document()
    return ProtocolTable(version, doc["versions"][version], doc["pools"], doc["item_names"])


def known_versions() -> list[tuple[str, int]]:
    doc = _document()
    return [(name, entry["protocol"]) for name, entry in doc["versions"].items()]


def minecraft_data_version() -> str:
    return str(_document()["minecraft_data"])
