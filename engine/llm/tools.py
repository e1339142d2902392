"""The tools catalog: every module the model may choose, with an argument schema.

A tool's parameters are its command's declared arguments (``engine.commands.args``:
numbers for coordinates, an enum for a choice, strings otherwise), so the
command table is the one place they are written; a command that declares none
has them read off its usage line (``<name>`` a required string, ``[name]`` an
optional one, ``a|b`` an enum). The schema only shapes what the model sends;
the module's own command parser re-reads the resulting command line, so a
wrong schema can make a choice fail, never make it unsafe.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from engine.commands.args import Arg, ArgKind, args_from_usage
from engine.llm.calls import ParamType, ToolParam, ToolSpec
from engine.routing.model_hook import CatalogEntry

_WIRE_NAME = re.compile(r"[^A-Za-z0-9_-]")
_TYPES = {ArgKind.NUMBER: ParamType.NUMBER, ArgKind.CHOICE: ParamType.ENUM}


def wire_name(module_id: str) -> str:
    return _WIRE_NAME.sub("_", module_id)[:64]


def tool_params(args: Sequence[Arg]) -> tuple[ToolParam, ...]:
    """A command's arguments as the model's parameters, in the order the command line takes them."""
    return tuple(ToolParam(_WIRE_NAME.sub("_", arg.name) or f"arg{n}", _TYPES.get(arg.kind, ParamType.STRING),
                           required=not arg.optional, choices=arg.choices, description=arg.description)
                 for n, arg in enumerate(args))


def params_from_usage(usage: str) -> tuple[ToolParam, ...]:
    """``!item <name>`` → (name: required string); ``!autopilot on|off`` → (state: enum)."""
    return tool_params(args_from_usage(usage))


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
        params = tool_params(entry.args if entry.args is not None else args_from_usage(entry.usage))
        specs.append(ToolSpec(name, entry.module_id, command, describe(entry), params, entry.read_only,
                              entry.explicit_only))
    return tuple(specs)
