"""Conversation modes (!mode) and the per-player external-AI switch (!ai on|off)."""
from __future__ import annotations

from engine.llm.modes import ConversationMode, parse_mode
from engine.llm.testing import text_body, tool_body
from tests.engine.conftest import make_snapshot
from tests.engine.llm.conftest import RigFactory, asks, text
from tests.engine.routing.line_models import sure_of

UNSURE = "where in the world am i yeet"
CHIT_CHAT = "hey assistant how is your day going"
BORDERLINE = "is the autopilot on"  # goes direct with margin 0.16: enough for standard, not for extended


def test_mode_command_shows_sets_and_explains(rig_factory: RigFactory) -> None:
    rig = rig_factory()
    assistant = rig.assistant()
    assert "Conversation mode: standard." in text(rig.command(assistant, "!mode"))
    assert "Conversation mode is now free." in text(rig.command(assistant, "!mode free"))
    assert assistant.mode is ConversationMode.FREE
    assert "Usage: !mode offline|standard|extended|free" in text(rig.command(assistant, "!mode loud"))
    assert parse_mode("离线") is ConversationMode.OFFLINE
    assert ("!mode offline|standard|extended|free", "conversation mode (offline: never ask the model; free: chat)") \
        in assistant.commands.help_rows("en", admin=False)


def test_offline_never_calls_the_model_but_answers_locally(rig_factory: RigFactory) -> None:
    rig = rig_factory(default=tool_body("agent_position"))
    assistant = rig.assistant()
    rig.command(assistant, "!mode offline")
    card = text(rig.ask(assistant, UNSURE))
    assert "offline mode" in card and "1. !pos - where am I" in card
    assert "You are at" in text(rig.ask(assistant, "where am i"))
    assert rig.calls == 0


def test_standard_answers_borderline_locally_extended_asks_the_model(rig_factory: RigFactory) -> None:
    rig = rig_factory(default=tool_body("agent_progress"))
    assistant = rig.assistant()
    assert "Autopilot not started" in text(rig.ask(assistant, BORDERLINE))
    assert rig.calls == 0
    rig.command(assistant, "!mode extended")
    assert "Autopilot not started" in text(rig.ask(assistant, BORDERLINE))
    assert rig.calls == 1  # the free-chat threshold sent it to the model
    # A confident match still goes direct in extended mode.
    assert "You are at" in text(rig.ask(assistant, "where am i"))
    assert rig.calls == 1


def test_extended_asks_the_model_what_only_the_line_model_was_sure_of(rig_factory: RigFactory) -> None:
    rig = rig_factory(default=tool_body("agent_position"))
    assistant = rig.assistant()
    assert rig.runtime.index is not None
    rig.runtime.index.line_model = sure_of("agent:position", "en", ("w:yeet",))
    assert "You are at" in text(rig.ask(assistant, UNSURE))
    assert rig.calls == 0  # standard: the line model's answer goes direct
    rig.command(assistant, "!mode extended")
    assert "You are at" in text(rig.ask(assistant, UNSURE))
    assert rig.calls == 1  # extended: the thresholds refused it, so the model is asked


def test_extended_chats_when_nothing_routes_and_keeps_the_conversation(rig_factory: RigFactory) -> None:
    rig = rig_factory(text_body("Llamas spit when annoyed."), text_body("They also hum."))
    assistant = rig.assistant()
    rig.command(assistant, "!mode extended")
    assert text(rig.ask(assistant, "tell me about llamas")) == "AI: Llamas spit when annoyed."
    assert text(rig.ask(assistant, "what else do they do")) == "AI: They also hum."
    second = rig.service.requests[1]["messages"]
    assert {"role": "user", "content": "tell me about llamas"} in second
    assert {"role": "assistant", "content": "Llamas spit when annoyed."} in second
    assert "tools" in rig.service.requests[1]  # still a routing call first


def test_standard_keeps_no_conversation(rig_factory: RigFactory) -> None:
    rig = rig_factory(text_body("One."), text_body("Two."))
    assistant = rig.assistant()
    rig.ask(assistant, "tell me about llamas")
    rig.ask(assistant, "what else do they do")
    assert len(rig.service.requests[1]["messages"]) == 3  # system, requestContext, the request


def test_free_mode_chats_without_routing_and_commands_still_work(rig_factory: RigFactory) -> None:
    rig = rig_factory(text_body("You are somewhere lovely."))
    assistant = rig.assistant()
    rig.command(assistant, "!mode free")
    assert text(rig.ask(assistant, "where am i")) == "AI: You are somewhere lovely."
    (sent,) = rig.service.requests
    assert "tools" not in sent and sent["messages"][-1]["content"] == "where am i"
    assert "You are at" in text(rig.command(assistant, "!pos"))
    assert rig.calls == 1


def test_ai_off_means_no_request_leaves_and_local_paths_still_work(rig_factory: RigFactory) -> None:
    rig = rig_factory(default=tool_body("agent_position"))
    assistant = rig.assistant()
    assert "External AI is off" in text(rig.command(assistant, "!ai off"))
    card = text(rig.ask(assistant, UNSURE))
    assert "External AI is off for you (!ai on turns it back on)" in card and "1. !pos" in card
    assert "You are at" in text(rig.ask(assistant, "where am i"))        # local direct
    assert "You are at" in text(rig.command(assistant, "!pos"))          # explicit command
    rig.command(assistant, "!mode free")
    assert "You are at" in text(rig.ask(assistant, "where am i"))        # free mode falls back to routing
    assert rig.calls == 0
    rig.command(assistant, "!mode standard")
    assert "External AI is on" in text(rig.command(assistant, "!ai on"))
    assert "You are at" in text(rig.ask(assistant, UNSURE))
    assert rig.calls == 1
    assert "what the assistant can answer" not in text(rig.command(assistant, "!ai status"))
    assert "I answer these from live game state" in text(rig.command(assistant, "!ai"))  # !ai alone is help


def test_ai_off_while_a_call_is_in_flight_drops_the_answer(rig_factory: RigFactory) -> None:
    rig = rig_factory(tool_body("agent_position"))
    assistant = rig.assistant()
    (ask,) = asks(assistant.request(UNSURE, make_snapshot(), 1000.0))
    rig.command(assistant, "!ai off")
    reply = rig.driver.loop.run_until_complete(rig.driver.client.complete(ask.call))
    rig.runtime.model_finished(ask.call, reply, 1001.0)
    assert assistant.model_answered(ask.call, reply, make_snapshot(), 1001.0) == []


def test_ai_off_and_on_clear_the_players_cache_scope(rig_factory: RigFactory) -> None:
    """The seed: changing preferences cleans up the player's scope; !ai is a preference."""
    rig = rig_factory(default=tool_body("agent_position"))
    assistant, other = rig.assistant(), rig.assistant()
    assert "You are at" in text(rig.ask(assistant, UNSURE))
    assert "You are at" in text(rig.ask(other, UNSURE))
    assert rig.runtime.cache.entries_for(assistant.scope) == 1 and rig.calls == 2
    rig.command(assistant, "!ai off")
    assert rig.runtime.cache.entries_for(assistant.scope) == 0
    assert rig.runtime.cache.entries_for(other.scope) == 1  # another player's entries stay
    card = text(rig.ask(assistant, UNSURE))  # nothing remembered, and the model may not be asked
    assert "External AI is off" in card and "You are at" not in card and rig.calls == 2
    rig.command(assistant, "!ai on")
    assert "You are at" in text(rig.ask(assistant, UNSURE))
    assert rig.calls == 3  # asked afresh, and remembered again
    rig.command(assistant, "!ai on")  # switching on again is still a preference change
    assert rig.runtime.cache.entries_for(assistant.scope) == 0
    assert "You are at" in text(rig.ask(assistant, UNSURE)) and rig.calls == 4


def test_a_mode_change_clears_the_players_cache_scope(rig_factory: RigFactory) -> None:
    rig = rig_factory(tool_body("agent_position"))
    assistant = rig.assistant()
    rig.ask(assistant, UNSURE)
    assert len(rig.runtime.cache) == 1
    rig.command(assistant, "!mode standard")  # the same mode again is still a preference change
    assert len(rig.runtime.cache) == 0
