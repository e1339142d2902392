"""An OpenAI-compatible chat-completions client on ``httpx.AsyncClient``.

How this works: ``complete(call)`` posts ``call.payload(model)`` to
``{base_url}/chat/completions`` with the key as a bearer token and returns a
``Completion`` or a ``ModelFailure``; it never raises for anything the
network or the service does (httpx's exceptions are mapped here, once).

* One overall deadline (``timeout``) covers every attempt and the backoff.
* A 429 or 5xx is retried once after a backoff (``Retry-After`` when the
  service sends one, capped); a second failure is final. Timeouts and
  connection errors are not retried: they already cost the player the wait.
* Redirects are not followed, so the Authorization header only ever goes to
  the configured host.
* The key lives in a ``Secret`` and is revealed only into the header; every
  failure text is scrubbed of it anyway.

The transport is injectable (``httpx.MockTransport`` in unit tests, a real
local server in integration tests), and so is ``sleep`` for the backoff.
"""
from __future__ import annotations

import asyncio
import importlib
import json
from collections.abc import Awaitable, Callable

import attrs
import httpx
import pydantic

from engine.llm.calls import Completion, FailureKind, ModelCall, ModelFailure, ModelReply
from engine.llm.secrets import Secret, scrub
from engine.llm.wire import WireResponse

DEFAULT_BASE_URL = "https://api.deepseek.com"
DEFAULT_MODEL = "deepseek-chat"
MAX_RESPONSE_BYTES = 1 << 20

Sleep = Callable[[float], Awaitable[None]]


@attrs.frozen
class ClientSettings:
    base_url: str = DEFAULT_BASE_URL
    model: str = DEFAULT_MODEL
    api_key: Secret | None = None
    timeout: float = 20.0
    retries: int = 1
    backoff: float = 1.0
    max_backoff: float = 5.0

    @property
    def endpoint(self) -> str:
        return self.base_url.rstrip("/") + "/chat/completions"


@attrs.frozen
class _Retryable:
    failure: ModelFailure
    retry_after: float | None


class ModelClient:
    def __init__(
        self,
        settings: ClientSettings,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.settings = settings
        self._transport = transport
        self._sleep = sleep
        self._http: httpx.AsyncClient | None = None
        self.attempts = 0  # HTTP requests sent, retries included (tests and the status line read it)

    def _client(self) -> httpx.AsyncClient:
        if self._http is None:
            self._http = httpx.AsyncClient(
                transport=self._transport,
                timeout=httpx.Timeout(self.settings.timeout),
                follow_redirects=False,
                headers={"User-Agent": "mcagent"},
            )
        return self._http

    def prepare(self) -> None:
        """Do the slow first-use work now (TLS context, the async backend's imports), not mid-game.

        Building the TLS context and importing the async backend take tens of
        milliseconds; done lazily they would stall the event loop, and so
        the proxy's forwarding, during the first call of a session.
        """
        self._client()
        for name in ("httpcore._backends.anyio", "anyio._backends._asyncio"):
            try:
                importlib.import_module(name)
            except ImportError:  # another backend layout: the first call pays the import
                pass
        WireResponse.model_validate(
            {"choices": [{"message": {"content": "", "tool_calls": [{"function": {"name": "x", "arguments": "{}"}}]}}]})

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    async def complete(self, call: ModelCall) -> ModelReply:
        key = self.settings.api_key
        if key is None or not key.reveal():
            return ModelFailure(FailureKind.REFUSED, "no API key configured")
        try:
            return await asyncio.wait_for(self._attempts(call, key), self.settings.timeout)
        except asyncio.TimeoutError:
            return ModelFailure(FailureKind.TIMEOUT, f"no answer within {self.settings.timeout:g} s")
        except Exception as exc:  # a bug or an unexpected library error: still a failure, never a crash
            return ModelFailure(FailureKind.BAD_RESPONSE, scrub(f"{type(exc).__name__}: {exc}", key.reveal())[:200])

    async def _attempts(self, call: ModelCall, key: Secret) -> ModelReply:
        attempt = 0
        while True:
            result = await self._once(call, key)
            if not isinstance(result, _Retryable):
                return result
            if attempt >= self.settings.retries:
                return result.failure
            delay = self.settings.backoff * (2 ** attempt)
            if result.retry_after is not None:
                delay = result.retry_after
            await self._sleep(max(0.0, min(delay, self.settings.max_backoff)))
            attempt += 1

    async def _once(self, call: ModelCall, key: Secret) -> ModelReply | _Retryable:
        secret = key.reveal()
        self.attempts += 1
        try:
            response = await self._client().post(
                self.settings.endpoint,
                json=call.payload(self.settings.model),
                headers={"Authorization": f"Bearer {secret}"},
            )
            body = await response.aread()
        except httpx.TimeoutException:
            return ModelFailure(FailureKind.TIMEOUT, f"no answer within {self.settings.timeout:g} s")
        except httpx.HTTPError as exc:
            return ModelFailure(FailureKind.UNREACHABLE, scrub(f"{type(exc).__name__}: {exc}", secret)[:200])
        status = response.status_code
        if status == 429 or status >= 500:
            kind = FailureKind.RATE_LIMITED if status == 429 else FailureKind.SERVER_ERROR
            return _Retryable(ModelFailure(kind, f"HTTP {status}", status), _retry_after(response))
        if status >= 300:
            hint = " (check the API key)" if status in (401, 403) else ""
            return ModelFailure(FailureKind.REFUSED, f"HTTP {status}{hint}", status)
        if len(body) > MAX_RESPONSE_BYTES:
            return ModelFailure(FailureKind.BAD_RESPONSE, f"response larger than {MAX_RESPONSE_BYTES} bytes", status)
        try:
            parsed = WireResponse.model_validate(json.loads(body))
        except (ValueError, pydantic.ValidationError):
            return ModelFailure(FailureKind.BAD_RESPONSE, "not a chat-completions response", status)
        completion: Completion = parsed.completion(call.prompt_characters() // 4 + 1)
        return _without_key(completion, secret)


def _without_key(completion: Completion, secret: str) -> Completion:
    """A service that echoes the request (its headers, a debugging proxy) must not show the
    player the key: the answer's text and tool arguments are scrubbed before anyone reads them."""
    content = scrub(completion.content, secret) if completion.content is not None else None
    calls = tuple(attrs.evolve(c, name=scrub(c.name, secret), arguments=scrub(c.arguments, secret))
                  for c in completion.tool_calls)
    if content == completion.content and calls == completion.tool_calls:
        return completion
    return attrs.evolve(completion, content=content, tool_calls=calls)


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None  # an HTTP date: use our own backoff
