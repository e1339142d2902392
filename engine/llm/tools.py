"""The tools catalog: every module the model may choose, with an argument schema.

A module's arguments are declared here for the built-ins (typed: numbers for
coordinates, an enum for on/off) and otherwise derived from its usage line:
``<name>`` is a required string, ``[name]`` an optional one, ``a|b`` an enum,
a bare word a required string. The schema only shapes what the model sends;
the module's own command parser re-reads the resulting command line, so a
wrong schema can make a choice fail, never make it unsafe.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from engine.llm.calls import ParamType, ToolParam, ToolSpec
from engine.routing.model_hook import CatalogEntry

_S = ParamType.STRING
_N = ParamType.NUMBER

KNOWN_PARAMS: dict[str, tuple[ToolParam, ...]] = {
    "agent:goto": (ToolParam("x", _N), ToolParam("y", _N), ToolParam("z", _N)),
    "agent:follow": (ToolParam("player", _S, description="an online player's name"),),
    "agent:autopilot": (ToolParam("state", ParamType.ENUM, choices=("on", "off")),),
    "agent:item": (ToolParam("name", _S, description="the item's name as the player said it, or its registry id"),),
    "agent:inventory": (ToolParam("item", _S, required=False, description="count only this item"),),
    "agent:players": (ToolParam("name", _S, required=False, description="one player to locate"),),
}

_WIRE_NAME = re.compile(r"[^A-Za-z0-9_-]")
_PLACEHOLDER = re.compile(r"^[<\[]([^>\]]+)[>\]]$")


def wire_name(module_id: str) -> str:
    return _WIRE_NAME.sub("_", module_id)[:64]


def params_from_usage(usage: str) -> tuple[ToolParam, ...]:
    """``!item <name>`` → (name: required string); ``!autopilot on|off`` → (state: enum)."""
    params: list[ToolParam] = []
    for n, token in enumerate(usage.split()[1:]):
        found = _PLACEHOLDER.match(token)
        if found is not None:
            name = _WIRE_NAME.sub("_", found.group(1)) or f"arg{n}"
            params.append(ToolParam(name, _S, required=token.startswith("<")))
        elif "|" in token:
            params.append(ToolParam(f"arg{n}" if params else "state", ParamType.ENUM, choices=tuple(token.split("|"))))
        else:
            params.append(ToolParam(_WIRE_NAME.sub("_", token) or f"arg{n}", _S))
    return tuple(params)


def describe(entry: CatalogEntry) -> str:
    parts = [entry.description or entry.usage, f"(command {entry.usage})"]
    if entry.read_only:
        parts.append("Read-only: answers from live game state.")
    else:
        parts.append("Changes the game: it is shown to the player to confirm, never run directly.")
    if entry.explicit_only:
        parts.append("explicitOnly: true (choose it only when the player asked for exactly this).")
    return " ".join(parts)


def tool_specs(catalog: Iterable[CatalogEntry]) -> tuple[ToolSpec, ...]:
    specs: list[ToolSpec] = []
    used: set[str] = set()
    for entry in catalog:
        command = entry.usage.split()[0].lstrip("!/") if entry.usage.strip() else ""
        if not command:
            continue
        name = wire_name(entry.module_id)
        while name in used:
            name = name[:60] + "_" + str(len(used))
        used.add(name)
        params = KNOWN_PARAMS.get(entry.module_id, params_from_usage(entry.usage))
        specs.append(ToolSpec(name, entry.module_id, command, describe(entry), params, entry.read_only,
                              entry.explicit_only))
    return tuple(specs)
