"""Invariant 8: the API key never reaches a player or a log, in any of its written forms."""
from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from engine.llm.calls import CallPurpose, ChatMessage, Completion, ModelCall
from engine.llm.client import ClientSettings, ModelClient
from engine.llm.secrets import BadKey, Secret, check_key, forms, scrub
from engine.llm.testing import completion_body
from engine.routing.model_hook import RoutingTicket

ODD_KEY = 'sk-live"quote\\slash-0123456789abcd'


def _call() -> ModelCall:
    return ModelCall(RoutingTicket(1, None, "en"), "s1", CallPurpose.CHAT, (ChatMessage("user", "hi"),))


@pytest.mark.parametrize("written", [ODD_KEY, repr(ODD_KEY)[1:-1], json.dumps(ODD_KEY)[1:-1],
                                     json.dumps(ODD_KEY, ensure_ascii=False)[1:-1]])
def test_every_written_form_of_the_key_is_scrubbed(written: str) -> None:
    out = scrub(f"error: Authorization: Bearer {written} refused", ODD_KEY)
    assert all(form not in out for form in forms(ODD_KEY))
    assert "abcd" in out and "Bearer sk-…abcd" in out


def test_a_service_echoing_the_request_headers_never_shows_the_key() -> None:
    def echo(request: httpx.Request) -> httpx.Response:
        headers = json.dumps(dict(request.headers))  # JSON-escapes the key's quote and backslash
        return httpx.Response(200, json=completion_body(f"you sent {request.headers['authorization']} {headers}",
                                                        [("agent_say", {"text": request.headers["authorization"]})]))

    client = ModelClient(ClientSettings(api_key=Secret(ODD_KEY)), transport=httpx.MockTransport(echo))
    reply = asyncio.run(client.complete(_call()))
    assert isinstance(reply, Completion)
    shown = (reply.content or "") + "".join(c.arguments for c in reply.tool_calls)
    assert "sk-…abcd" in shown
    for form in forms(ODD_KEY):
        assert form not in shown


@pytest.mark.parametrize("bad", ["sk-abc\ndef0123456789", "sk-abc\x00def0123456789", "sk-abc\u2028def01234567"])
def test_a_key_with_control_characters_is_refused_with_a_clear_error(bad: str) -> None:
    with pytest.raises(BadKey) as caught:
        check_key(bad, "env DEEPSEEK_API_KEY")
    message = str(caught.value)
    assert "env DEEPSEEK_API_KEY" in message and "control characters" in message
    assert "abc" not in message and "def" not in message
    assert check_key("sk-fine0123456789", "config") == "sk-fine0123456789"
