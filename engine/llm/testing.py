"""A scripted model service and a stand-in for the proxy, shipped for tests (ours and extenders').

* ``completion_body`` / ``tool_body`` / ``text_body``: chat-completions JSON
  as a provider sends it, for any fake server.
* ``ScriptedService``: an ``httpx.MockTransport`` handler answering requests
  from a script (bodies, status codes, exceptions, callables) and recording
  each request it saw.
* ``ModelDriver``: does synchronously what a Session and its model runner do
  over a few ticks: runs every ``AskModel`` with a ``ModelClient``, reports the
  end to the runtime and hands the reply back to the assistant, for tests of
  the assistant on its own (given snapshots, no Session).
* ``SyncRunner``: a ``ModelRunner`` that completes each call before ``run``
  returns (a Session with it answers at its next tick).
"""
from __future__ import annotations

import asyncio
import itertools
import json
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import httpx

from engine.actions import Action, AskModel
from engine.llm.calls import ModelCall, ModelReply
from engine.llm.client import ModelClient

_ids = itertools.count(1)


def completion_body(
    content: str | None = None,
    tool_calls: Iterable[tuple[str, dict[str, Any] | str]] = (),
    prompt_tokens: int = 50,
    completion_tokens: int = 10,
) -> dict[str, Any]:
    calls = [
        {"id": f"call_{next(_ids)}", "type": "function",
         "function": {"name": name, "arguments": args if isinstance(args, str) else json.dumps(args)}}
        for name, args in tool_calls
    ]
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = calls
    return {
        "id": f"chatcmpl-{next(_ids)}", "object": "chat.completion", "model": "scripted",
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }


def tool_body(name: str, arguments: dict[str, Any] | str | None = None, **usage: int) -> dict[str, Any]:
    return completion_body(None, [(name, arguments if arguments is not None else {})], **usage)


def text_body(text: str, **usage: int) -> dict[str, Any]:
    return completion_body(text, (), **usage)


Step = dict[str, Any] | int | httpx.Response | Exception | Callable[[httpx.Request], httpx.Response]


class ScriptedService:
    """Answers each request with the next step: a JSON body (200), a status code, a response, an exception."""

    def __init__(self, *steps: Step, default: Step | None = None) -> None:
        self.steps: deque[Step] = deque(steps)
        self.default = default
        self.requests: list[dict[str, Any]] = []
        self.headers: list[httpx.Headers] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(json.loads(request.content or b"{}"))
        self.headers.append(request.headers)
        step = self.steps.popleft() if self.steps else self.default
        if step is None:
            raise AssertionError("the scripted model service got a request it had no answer for")
        if isinstance(step, Exception):
            raise step
        if isinstance(step, httpx.Response):
            return step
        if isinstance(step, int):
            return httpx.Response(step, json={"error": {"message": f"scripted {step}"}})
        if callable(step):
            return step(request)
        return httpx.Response(200, json=step)

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self)


class SyncRunner:
    """A model runner for tests: the call runs to its end on a private loop inside ``run``."""

    def __init__(self, client: ModelClient, clock: Callable[[], float] = lambda: 0.0) -> None:
        self.client = client
        self.clock = clock
        self.loop = asyncio.new_event_loop()
        self.calls = 0

    def run(self, call: ModelCall, deliver: Callable[[ModelReply, float], None]) -> None:
        self.calls += 1
        deliver(self.loop.run_until_complete(self.client.complete(call)), self.clock())

    def close(self) -> None:
        self.loop.run_until_complete(self.client.aclose())
        self.loop.close()


class ModelDriver:
    """What a Session does with the assistant's ``AskModel``, synchronously, for tests of the assistant alone."""

    def __init__(self, runtime: Any, client: ModelClient) -> None:
        self.runtime = runtime
        self.client = client
        self.loop = asyncio.new_event_loop()
        self.calls = 0

    def close(self) -> None:
        self.loop.run_until_complete(self.client.aclose())
        self.loop.close()

    def perform(self, assistant: Any, actions: Sequence[Any], snapshot: Any, now: float) -> list[Action]:
        """Run the model calls among ``actions``; return every other action, answers included."""
        out: list[Action] = []
        for action in actions:
            if not isinstance(action, AskModel):
                out.append(action)
                continue
            self.calls += 1
            reply = self.loop.run_until_complete(self.client.complete(action.call))
            self.runtime.model_finished(action.call, reply, now)
            out.extend(self.perform(assistant, assistant.model_answered(action.call, reply, snapshot, now), snapshot, now))
        return out
