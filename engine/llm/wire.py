"""The chat-completions response as it arrives (pydantic: JSON enters here).

Only the fields we use are declared; everything else a provider adds is
ignored. A response that does not fit becomes a ``BAD_RESPONSE`` failure in
the client, never an exception further in.
"""
from __future__ import annotations

import pydantic

from engine.llm.calls import Completion, ToolCall


class _Loose(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="ignore")


class WireFunction(_Loose):
    name: str
    arguments: str | dict[str, object] | None = None


class WireToolCall(_Loose):
    type: str | None = "function"
    function: WireFunction


class WireMessage(_Loose):
    role: str | None = None
    content: str | None = None
    tool_calls: list[WireToolCall] | None = None


class WireChoice(_Loose):
    message: WireMessage
    finish_reason: str | None = None


class WireUsage(_Loose):
    prompt_tokens: int = 0
    completion_tokens: int = 0


class WireResponse(_Loose):
    choices: list[WireChoice] = pydantic.Field(min_length=1)
    usage: WireUsage | None = None

    def completion(self, estimated_prompt_tokens: int) -> Completion:
        import json

        choice = self.choices[0]
        calls: list[ToolCall] = []
        for call in choice.message.tool_calls or ():
            args = call.function.arguments
            text = json.dumps(args) if isinstance(args, dict) else (args or "")
            calls.append(ToolCall(call.function.name, text))
        content = choice.message.content
        if self.usage is not None:
            prompt, completion = self.usage.prompt_tokens, self.usage.completion_tokens
        else:
            # No usage reported: estimate (about four characters a token) so the budget still counts.
            prompt = estimated_prompt_tokens
            completion = (len(content or "") + sum(len(c.arguments) for c in calls)) // 4 + 1
        return Completion(content, tuple(calls), prompt, completion, choice.finish_reason)
