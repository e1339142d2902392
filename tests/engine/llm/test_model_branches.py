"""Every branch of a model fallback, against httpx.MockTransport: what the player sees, what was sent."""
from __future__ import annotations

import asyncio

import httpx
import pytest

from engine.llm.calls import CallPurpose, ChatMessage, Completion, FailureKind, ModelCall, ModelFailure
from engine.llm.client import ClientSettings, ModelClient
from engine.llm.limits import LimitSettings
from engine.llm.secrets import Secret
from engine.llm.testing import completion_body, text_body, tool_body
from engine.routing.model_hook import RoutingTicket
from engine.routing.stats import Reason
from tests.engine.conftest import make_snapshot
from engine.actions import SetControl
from engine.session import Session
from tests.engine.llm.conftest import KEY, SLEPT, RigFactory, buttons, click, text

UNSURE = "where in the world am i yeet"  # local routing is not sure (LOW_SCORE, agent:position the top candidate)


def test_model_choice_of_a_read_module_runs_it(rig_factory: RigFactory) -> None:
    rig = rig_factory(tool_body("agent_position"))
    reply = rig.ask(rig.assistant(), UNSURE)
    assert "You are at 10.5, 64, -20.2" in text(reply)
    assert rig.calls == 1
    assert rig.runtime.stats.counters[Reason.MODEL_FALLBACK] == 1


def test_free_text_answer_is_rendered_plain(rig_factory: RigFactory) -> None:
    rig = rig_factory(text_body("§cHello **there**, I can tell you where you are."))
    reply = rig.ask(rig.assistant(), "hey assistant how is your day going")
    assert text(reply) == "AI: Hello there, I can tell you where you are."
    assert buttons(reply) == []


def test_bad_tool_arguments_are_rejected_with_a_card(rig_factory: RigFactory) -> None:
    rig = rig_factory(tool_body("agent_goto", {"x": "ten", "y": 64, "z": 10}))
    reply = rig.ask(rig.assistant(), "please bring me over to 10 64 10")
    shown = text(reply)
    assert "could not be used (its arguments did not fit)" in shown
    assert "Not available yet" not in shown  # nothing ran


def test_unknown_module_is_rejected(rig_factory: RigFactory) -> None:
    rig = rig_factory(tool_body("agent_teleport", {"x": 1}))
    reply = rig.ask(rig.assistant(), UNSURE)
    shown = text(reply)
    assert "it named a module that does not exist" in shown
    # The card still offers this request's read-only candidate, as a button carrying card id and version.
    assert "1. !pos - where am I" in shown
    assert buttons(reply)[0].command.startswith("/agent card ")


def test_admin_module_is_not_in_the_catalog_so_choosing_it_is_rejected(rig_factory: RigFactory) -> None:
    rig = rig_factory(tool_body("agent_routing"))
    reply = rig.ask(rig.assistant(), UNSURE)
    assert "does not exist" in text(reply)
    assert "counters:" not in text(reply)


def test_write_chosen_by_the_model_needs_confirmation(rig_factory: RigFactory) -> None:
    rig = rig_factory(tool_body("agent_goto", {"x": 10, "y": 64, "z": 10}))
    assistant = rig.assistant()
    reply = rig.ask(assistant, "please bring me over to 10 64 10")
    assert "The model suggests !goto 10 64 10" in text(reply) and "Nothing was done yet" in text(reply)
    assert not any(isinstance(a, SetControl) for a in reply)  # nothing moved
    (button,) = buttons(reply)
    assert button.label == "!goto 10 64 10"
    # Clicking is the confirmation: !goto runs in the player's session as an explicit request (no model call).
    session = Session("Tester", assistant=assistant)
    clicked = click(session, button.command)
    assert "Cannot go there: no block data for this Minecraft version." in text(clicked)
    assert rig.calls == 1
    assert "already used" in text(click(session, button.command))


def test_timeout_gives_the_card(rig_factory: RigFactory) -> None:
    rig = rig_factory(httpx.ReadTimeout("slow"))
    reply = rig.ask(rig.assistant(), UNSURE)
    assert "did not answer in time" in text(reply)
    assert "1. !pos - where am I" in text(reply)
    assert rig.llm.counters["failed_timeout"] == 1


def test_overall_deadline_covers_a_hung_service() -> None:
    async def hang(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(30)
        return httpx.Response(200, json=text_body("late"))

    client = ModelClient(ClientSettings(api_key=Secret(KEY), timeout=0.2), transport=httpx.MockTransport(hang))
    reply = asyncio.run(client.complete(_call()))
    assert isinstance(reply, ModelFailure) and reply.kind is FailureKind.TIMEOUT


def test_429_then_success_retries_once_after_the_servers_delay(rig_factory: RigFactory) -> None:
    SLEPT.clear()
    rig = rig_factory(httpx.Response(429, headers={"Retry-After": "2"}, json={}), tool_body("agent_position"))
    reply = rig.ask(rig.assistant(), UNSURE)
    assert "You are at" in text(reply)
    assert rig.calls == 2 and SLEPT == [2.0]


def test_500_twice_is_final_after_one_retry(rig_factory: RigFactory) -> None:
    SLEPT.clear()
    rig = rig_factory(500, 502, tool_body("agent_position"))
    reply = rig.ask(rig.assistant(), UNSURE)
    assert "unavailable right now" in text(reply)
    assert rig.calls == 2 and SLEPT == [0.5]
    assert rig.llm.counters["failed_server_error"] == 1


def test_429_twice_is_final(rig_factory: RigFactory) -> None:
    rig = rig_factory(429, 429)
    assert "unavailable right now" in text(rig.ask(rig.assistant(), UNSURE))
    assert rig.llm.counters["failed_rate_limited"] == 1


def test_401_is_not_retried_and_says_check_the_key(rig_factory: RigFactory) -> None:
    rig = rig_factory(401)
    assert "check its API key" in text(rig.ask(rig.assistant(), UNSURE))
    assert rig.calls == 1


def test_budget_exhausted_gives_a_card_and_sends_nothing(rig_factory: RigFactory) -> None:
    rig = rig_factory(completion_body(None, [("agent_position", {})], prompt_tokens=900, completion_tokens=200),
                      limits=LimitSettings(daily_tokens=1000))
    assistant = rig.assistant()
    assert "You are at" in text(rig.ask(assistant, UNSURE))
    reply = rig.ask(assistant, "hey assistant how is your day going")
    assert "budget is used up" in text(reply)
    assert rig.calls == 1
    assert rig.runtime.stats.counters[Reason.NO_MODEL] == 1


def test_key_missing_gives_a_card_and_sends_nothing(rig_factory: RigFactory) -> None:
    rig = rig_factory(key=False)
    reply = rig.ask(rig.assistant(), UNSURE)
    assert "no API key configured" in text(reply)
    assert "1. !pos - where am I" in text(reply)
    assert rig.calls == 0


def test_not_json_is_a_bad_response(rig_factory: RigFactory) -> None:
    rig = rig_factory(httpx.Response(200, text="<html>gateway</html>"))
    assert "unavailable right now" in text(rig.ask(rig.assistant(), UNSURE))
    assert rig.llm.counters["failed_bad_response"] == 1


def test_connection_refused_is_unreachable_and_scrubbed() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError(f"refused while sending {request.headers['authorization']}")

    client = ModelClient(ClientSettings(api_key=Secret(KEY)), transport=httpx.MockTransport(refuse))
    reply = asyncio.run(client.complete(_call()))
    assert isinstance(reply, ModelFailure) and reply.kind is FailureKind.UNREACHABLE
    assert KEY not in reply.detail and "sk-…cdef" in reply.detail


def test_the_request_carries_the_key_only_in_the_header_and_follows_no_redirect() -> None:
    seen: list[httpx.Request] = []

    def redirect(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(307, headers={"Location": "https://elsewhere.test/steal"})

    client = ModelClient(ClientSettings(base_url="https://model.test/v1/", model="m1", api_key=Secret(KEY)),
                         transport=httpx.MockTransport(redirect))
    reply = asyncio.run(client.complete(_call()))
    assert isinstance(reply, ModelFailure) and reply.kind is FailureKind.REFUSED
    assert len(seen) == 1
    (request,) = seen
    assert str(request.url) == "https://model.test/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert KEY.encode() not in request.content


def test_usage_missing_is_estimated_so_the_budget_still_counts() -> None:
    body = text_body("hello")
    del body["usage"]
    client = ModelClient(ClientSettings(api_key=Secret(KEY)), transport=httpx.MockTransport(
        lambda r: httpx.Response(200, json=body)))
    reply = asyncio.run(client.complete(_call()))
    assert isinstance(reply, Completion) and reply.total_tokens > 0


def test_no_key_in_the_client_never_sends() -> None:
    sent: list[httpx.Request] = []
    client = ModelClient(ClientSettings(api_key=None), transport=httpx.MockTransport(
        lambda r: sent.append(r) or httpx.Response(200, json=text_body("x"))))
    reply = asyncio.run(client.complete(_call()))
    assert isinstance(reply, ModelFailure) and sent == []


@pytest.mark.parametrize("locale,request_text,language", [("zh_cn", "我现在到底在世界的哪个角落", "zh"),
                                                          ("en_us", UNSURE, "en"), ("fr_fr", UNSURE, "fr"),
                                                          ("zh_cn", UNSURE, "zh")])
def test_routing_call_has_catalog_and_trusted_player_language(
    rig_factory: RigFactory, locale: str, request_text: str, language: str
) -> None:
    rig = rig_factory(text_body("ok"))
    rig.ask(rig.assistant(), request_text, make_snapshot(locale))
    (sent,) = rig.service.requests
    tools = {t["function"]["name"]: t["function"] for t in sent["tools"]}
    assert {"agent_position", "agent_item", "agent_goto", "agent_inventory"} <= set(tools)
    assert "agent_routing" not in tools  # admin: never offered
    assert tools["agent_goto"]["parameters"]["required"] == ["x", "y", "z"]
    assert "confirm" in tools["agent_goto"]["description"]
    assert tools["agent_item"]["parameters"]["properties"]["name"]["type"] == "string"
    context = [m["content"] for m in sent["messages"] if m["content"].startswith("requestContext:")]
    assert f'"playerLanguage": "{language}"' in context[0]
    # The player's words only in the last (user) message.
    assert sent["messages"][-1] == {"role": "user", "content": request_text}
    assert all(request_text not in m["content"] for m in sent["messages"][:-1])


def _call() -> ModelCall:
    return ModelCall(RoutingTicket(1, None, "en"), "s1", CallPurpose.CHAT, (ChatMessage("user", "hi"),))
