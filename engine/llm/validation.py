"""Checking the model's answer against the catalog it was given.

``decide(call, completion)`` returns one of:

* ``Chose``: exactly one tool call naming a tool of *this* call, with a JSON
  object of arguments that fits the tool's schema (required present, no
  extras, numbers finite, strings short and on one line, enums in range);
  turned into the explicit command line the module's own parser reads next.
  ``read_only`` False means a write: the assistant shows it as a card to
  confirm, never runs it.
* ``Said``: no tool call, non-empty text.
* ``Rejected``: anything else (unknown module, bad arguments, several
  choices, nothing at all), with the reason for the counters and the log.

Nothing here executes anything; ``LocalAssistant.model_answered`` re-checks the
command line with the registry and the module's parser.
"""
from __future__ import annotations

import enum
import json
import math
import re
from typing import Any

import attrs

from engine.llm.calls import CallPurpose, Completion, ModelCall, ParamType, ToolSpec

MAX_STRING = 64
_SAFE_STRING = re.compile(r"^[^\x00-\x1f\x7f!/§]+$")


class RejectReason(enum.Enum):
    UNKNOWN_MODULE = "unknown_module"
    BAD_ARGUMENTS = "bad_arguments"
    SEVERAL_CHOICES = "several_choices"
    EMPTY = "empty"
    TOOL_IN_CHAT = "tool_in_chat"


@attrs.frozen
class Chose:
    module_id: str
    command_line: str
    read_only: bool


@attrs.frozen
class Said:
    text: str


@attrs.frozen
class Rejected:
    reason: RejectReason
    detail: str = ""


Decision = Chose | Said | Rejected


def decide(call: ModelCall, completion: Completion) -> Decision:
    calls = completion.tool_calls
    text = (completion.content or "").strip()
    if calls and call.purpose is CallPurpose.CHAT:
        return Said(text) if text else Rejected(RejectReason.TOOL_IN_CHAT)
    if len({(c.name, c.arguments) for c in calls}) > 1:
        return Rejected(RejectReason.SEVERAL_CHOICES, f"{len(calls)} tool calls")
    if calls:
        chosen = calls[0]
        spec = call.tool(chosen.name)
        if spec is None:
            return Rejected(RejectReason.UNKNOWN_MODULE, chosen.name[:64])
        line = command_line(spec, chosen.arguments)
        if isinstance(line, Rejected):
            return line
        return Chose(spec.module_id, line, spec.read_only)
    if text:
        return Said(text)
    return Rejected(RejectReason.EMPTY)


def command_line(spec: ToolSpec, arguments: str) -> str | Rejected:
    """The explicit command the arguments stand for, or why they do not fit the schema."""
    try:
        values: Any = json.loads(arguments) if arguments.strip() else {}
    except ValueError:
        return Rejected(RejectReason.BAD_ARGUMENTS, "arguments are not JSON")
    if not isinstance(values, dict):
        return Rejected(RejectReason.BAD_ARGUMENTS, "arguments are not an object")
    known = {p.name for p in spec.params}
    extra = sorted(set(values) - known)
    if extra:
        return Rejected(RejectReason.BAD_ARGUMENTS, f"unexpected argument {extra[0][:32]}")
    parts: list[str] = []
    for param in spec.params:
        value = values.get(param.name)
        if value is None or value == "":
            if param.required:
                return Rejected(RejectReason.BAD_ARGUMENTS, f"missing {param.name}")
            continue
        rendered = _render(param.type, param.choices, value)
        if rendered is None:
            return Rejected(RejectReason.BAD_ARGUMENTS, f"bad value for {param.name}")
        parts.append(rendered)
    return " ".join([f"!{spec.command}", *parts]).strip()


def _render(kind: ParamType, choices: tuple[str, ...], value: Any) -> str | None:
    if kind is ParamType.NUMBER:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            return None
        if abs(value) > 3.0e7:  # beyond the world border
            return None
        number = float(value)
        return str(int(number)) if number.is_integer() else f"{number:g}"
    if not isinstance(value, str):
        return None
    text = " ".join(value.split())
    if kind is ParamType.ENUM:
        return text.lower() if text.lower() in choices else None
    if not text or len(text) > MAX_STRING or not _SAFE_STRING.match(text):
        return None
    return text
