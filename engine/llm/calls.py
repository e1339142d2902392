"""What one model call is, and what comes back from it, as frozen values.

``ModelCall`` is built by the engine (``prompt``) and handed to a model
runner (``runner``); it holds everything the HTTP client needs
except the key and the endpoint, which only the client has. The reply is a
``Completion`` (the service answered) or a ``ModelFailure`` (it did not);
the client never raises for a network or service problem.
"""
from __future__ import annotations

import enum
from typing import Any

import attrs

from engine.routing.model_hook import RoutingTicket


class CallPurpose(enum.Enum):
    ROUTE = "route"  # choose one module from the tools, or answer in text
    CHAT = "chat"    # free conversation, no tools


@attrs.frozen
class ChatMessage:
    role: str  # "system" | "user" | "assistant"
    content: str

    def wire(self) -> dict[str, str]:
        return {"role": self.role, "content": self.content}


class ParamType(enum.Enum):
    STRING = "string"
    NUMBER = "number"
    ENUM = "enum"


@attrs.frozen
class ToolParam:
    name: str
    type: ParamType
    required: bool = True
    choices: tuple[str, ...] = ()  # ENUM only
    description: str = ""

    def schema(self) -> dict[str, Any]:
        if self.type is ParamType.ENUM:
            out: dict[str, Any] = {"type": "string", "enum": list(self.choices)}
        else:
            out = {"type": self.type.value}
        if self.description:
            out["description"] = self.description
        return out


@attrs.frozen
class ToolSpec:
    """One callable module as the model sees it, and how to turn its arguments into a command."""

    name: str         # wire name: letters, digits, "_" and "-" only
    module_id: str
    command: str      # the explicit command name, e.g. "goto"
    description: str
    params: tuple[ToolParam, ...]
    read_only: bool
    explicit_only: bool

    def schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {p.name: p.schema() for p in self.params},
            "required": [p.name for p in self.params if p.required],
            "additionalProperties": False,
        }

    def wire(self) -> dict[str, Any]:
        return {"type": "function", "function": {"name": self.name, "description": self.description,
                                                 "parameters": self.schema()}}


@attrs.frozen
class ModelCall:
    ticket: RoutingTicket
    scope: str  # the player's scope: a late reply for another scope is never delivered
    purpose: CallPurpose
    messages: tuple[ChatMessage, ...]
    tools: tuple[ToolSpec, ...] = ()
    max_tokens: int = 300
    temperature: float = 0.2

    def tool(self, name: str) -> ToolSpec | None:
        for spec in self.tools:
            if spec.name == name:
                return spec
        return None

    def payload(self, model: str) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": model,
            "messages": [m.wire() for m in self.messages],
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
            "stream": False,
        }
        if self.tools:
            body["tools"] = [t.wire() for t in self.tools]
            body["tool_choice"] = "auto"
        return body

    def prompt_characters(self) -> int:
        return sum(len(m.content) for m in self.messages)


@attrs.frozen
class ToolCall:
    name: str
    arguments: str  # JSON text as the service sent it; validated later


@attrs.frozen
class Completion:
    content: str | None
    tool_calls: tuple[ToolCall, ...] = ()
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str | None = None

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class FailureKind(enum.Enum):
    TIMEOUT = "timeout"
    RATE_LIMITED = "rate_limited"  # 429 from the service, still after the retry
    SERVER_ERROR = "server_error"  # 5xx, still after the retry
    REFUSED = "refused"            # 4xx other than 429: bad key, bad model name, bad request
    UNREACHABLE = "unreachable"    # DNS, connection refused, TLS
    BAD_RESPONSE = "bad_response"  # not the chat-completions shape
    NOT_RUNNING = "not_running"    # the proxy could not start the call at all


@attrs.frozen
class ModelFailure:
    kind: FailureKind
    detail: str  # short, for the log; never contains the key
    status: int | None = None


ModelReply = Completion | ModelFailure
