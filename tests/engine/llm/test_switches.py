"""Issue 14's switches as command-table entries, and typed answers to a write's confirmation card.

The player's switches (``!memory clear``, ``!history off|on``, also as ``/agent ...``), the owner's
(``!system routing mode ...``, the same function as the console's ``routing mode``), and ordinary
chat that answers a visible write card ("yes", "取消", "details") or, when it is no answer, is
forwarded untouched.
"""
from __future__ import annotations

from pathlib import Path

from engine import events as ev
from engine.actions import Action, ForwardChat, ReplyToPlayer
from engine.assistant import ANSWER_SECONDS, LocalAssistant
from engine.llm.notification_buttons import load_phrases
from engine.llm.testing import tool_body
from engine.routing.config import Mode
from engine.routing.stats import Reason
from engine.session import Session
from tests.engine.conftest import make_snapshot
from tests.engine.llm.conftest import Rig, RigFactory, buttons, click, text

PHRASES = load_phrases(Path(__file__).resolve().parents[3] / "config" / "notification-buttons.json")
QUESTION = "torches how many do i have"
GOTO = tool_body("agent_goto", {"x": 10, "y": 64, "z": 10})
WRITE_REQUEST = "please bring me over to 10 64 10"


def session_for(rig: Rig, admin: bool = False) -> tuple[Session, LocalAssistant]:
    assistant = rig.assistant()
    return Session("Tester", assistant=assistant, admin=admin), assistant


def say(session: Session, line: str, now: float = 1000.0) -> list[Action]:
    return session.handle(ev.ChatTyped(line), now)


def forwarded(actions: list[Action]) -> bool:
    return actions == [ForwardChat()]


def proposed_goto(rig: Rig, assistant: LocalAssistant, now: float = 1000.0) -> list[Action]:
    shown = rig.ask(assistant, WRITE_REQUEST, now=now)
    assert buttons(shown)[0].label == "!goto 10 64 10", text(shown)
    return shown


# -- the player's switches -------------------------------------------------------------------

def test_memory_clear_forgets_conversation_cache_and_cards(rig_factory: RigFactory) -> None:
    rig = rig_factory(tool_body("agent_inventory", {"item": "torch"}), GOTO, tool_body("agent_inventory", {"item": "torch"}))
    session, assistant = session_for(rig)
    rig.ask(assistant, QUESTION)
    assert rig.runtime.cache.entries_for(assistant.scope) == 1
    card = buttons(proposed_goto(rig, assistant))[0]
    generation = assistant.memory_generation
    reply = session.run_command("memory clear", 1001.0)
    assert "Memory cleared" in text(reply)
    assert assistant.memory_generation == generation + 1
    assert rig.runtime.cache.entries_for(assistant.scope) == 0 and not assistant.conversation
    assert "out of date" in text(click(session, card.command, 1002.0))  # cards built on the old memory
    assert forwarded(say(session, "yes", 1002.0))  # nothing left to answer: ordinary chat
    rig.ask(assistant, QUESTION)
    assert rig.calls == 3  # the question costs a model call again


def test_history_off_means_a_repeated_question_costs_a_model_call_again(rig_factory: RigFactory) -> None:
    inventory = tool_body("agent_inventory", {"item": "torch"})
    rig = rig_factory(inventory, inventory, inventory)
    session, assistant = session_for(rig)
    assert "History is off" in text(session.run_command("history off", 1000.0))
    rig.ask(assistant, QUESTION)
    rig.ask(assistant, QUESTION)
    assert rig.calls == 2 and rig.runtime.cache.entries_for(assistant.scope) == 0  # neither read nor written
    assert Reason.CACHE_WRITE not in rig.runtime.stats.counters
    assert "History is on" in text(session.run_command("history on", 1000.0))
    rig.ask(assistant, QUESTION)
    rig.ask(assistant, QUESTION)
    assert rig.calls == 3 and rig.runtime.stats.counters[Reason.CACHE_HIT] == 1
    assert "History is on" in text(session.run_command("history status", 1000.0))
    assert "Usage: !history on|off|status" in text(session.run_command("history sideways", 1000.0))


def test_switches_work_as_agent_subcommands_and_are_in_help_and_completion(rig_factory: RigFactory) -> None:
    rig = rig_factory()
    session, assistant = session_for(rig)
    assert "History is off" in text(session.handle(ev.CommandTyped("agent history off"), 1000.0))
    assert assistant.history is False
    assert "Memory cleared" in text(session.handle(ev.CommandTyped("agent memory clear"), 1000.0))
    assert "Usage: !memory clear" in text(session.run_command("memory", 1000.0))
    en = text([session.own_commands.help("en")])
    zh = text([session.own_commands.help("zh")])
    assert "!memory clear - forget our conversation" in en and "!history on|off|status - off:" in en
    assert "!memory clear - 忘记对话" in zh and "!history on|off|status - 关闭后" in zh
    assert assistant.commands.complete(["memory", ""]) == ["clear"]
    assert assistant.commands.complete(["history", ""]) == ["off", "on", "status"]


# -- the owner's switch ------------------------------------------------------------------------

def test_system_routing_mode_is_for_admins_and_is_the_consoles_function(rig_factory: RigFactory) -> None:
    rig = rig_factory()
    player, _ = session_for(rig)
    admin, _ = session_for(rig, admin=True)
    refused = text(player.run_command("system routing mode shadow", 1000.0))
    assert "Not permitted" in refused and rig.runtime.config.mode is Mode.ENFORCE
    assert "routing mode is now SHADOW" in text(admin.run_command("system routing mode shadow", 1000.0))
    assert rig.runtime.config.mode is Mode.SHADOW
    assert "mode SHADOW" in text(admin.run_command("system routing", 1000.0))
    assert "Usage: !system routing" in text(admin.run_command("system routing mode loud", 1000.0))
    # The console's `routing mode` calls the same function (proxy.agent.assistant_factory.RoutingSurface).
    assert rig.runtime.set_routing_mode("enforce") == ["routing mode is now ENFORCE (until the next reload or restart)"]
    assert rig.runtime.set_routing_mode("loud")[0].startswith("unknown routing mode")


def test_shadow_mode_from_the_command_stops_direct_answers(rig_factory: RigFactory) -> None:
    rig = rig_factory(tool_body("agent_position"))
    admin, assistant = session_for(rig, admin=True)
    rig.ask(assistant, "where am i")
    assert rig.calls == 0 and rig.runtime.stats.counters[Reason.DIRECT] == 1
    admin.run_command("system routing mode shadow", 1000.0)
    rig.ask(assistant, "where am i")
    assert rig.calls == 1 and rig.runtime.stats.counters[Reason.SHADOW_DIRECT] == 1


# -- typed answers to a write's confirmation card ----------------------------------------------

def test_typed_yes_runs_the_cards_write_once_and_is_not_forwarded(rig_factory: RigFactory) -> None:
    rig = rig_factory(GOTO, phrases=PHRASES)
    session, assistant = session_for(rig)
    assert not session.may_take("yes", 1000.0)  # no card: ordinary chat is not even read
    shown = proposed_goto(rig, assistant)
    assert "type yes to confirm" in text(shown).lower()
    assert session.may_take("yes", 1001.0) and session.may_take("hello there", 1001.0)
    ran = say(session, "yes", 1001.0)
    assert ForwardChat() not in ran
    assert "Cannot go there" in text(ran)  # the goto command ran (this test world has no terrain)
    assert "already used" in text(click(session, buttons(shown)[0].command, 1002.0))  # single use, as a click
    assert forwarded(say(session, "yes", 1002.0)) and not session.may_take("yes", 1002.0)


def test_chat_that_is_no_answer_is_forwarded_while_the_card_stays(rig_factory: RigFactory) -> None:
    rig = rig_factory(GOTO, phrases=PHRASES)
    session, assistant = session_for(rig)
    proposed_goto(rig, assistant)
    for line in ("hello there", "don't do it", "yes if it is safe", "where am i", "/ok", "yes and then eat"):
        assert forwarded(say(session, line, 1001.0)), line
    assert session.may_take("ok", 1001.0)
    assert "Cannot go there" in text(say(session, "ok", 1001.0))


def test_chinese_cancel_withdraws_the_card(rig_factory: RigFactory) -> None:
    rig = rig_factory(GOTO, phrases=PHRASES)
    session, assistant = session_for(rig)
    shown = proposed_goto(rig, assistant)
    cancelled = say(session, "取消", 1001.0)
    assert "已取消：!goto 10 64 10 没有执行" in text(cancelled)
    assert "unknown" in text(click(session, buttons(shown)[0].command, 1002.0))
    assert forwarded(say(session, "确认", 1002.0))


def test_details_keeps_the_card_and_a_later_confirm_runs_it(rig_factory: RigFactory) -> None:
    rig = rig_factory(GOTO, phrases=PHRASES)
    session, assistant = session_for(rig)
    proposed_goto(rig, assistant)
    details = say(session, "details", 1001.0)
    assert "!goto 10 64 10: walk there" in text(details) and buttons(details)
    assert "Cannot go there" in text(say(session, "confirm", 1002.0))


def test_a_typed_answer_lapses_before_the_card(rig_factory: RigFactory) -> None:
    rig = rig_factory(GOTO, phrases=PHRASES)
    session, assistant = session_for(rig)
    shown = proposed_goto(rig, assistant)
    late = 1000.0 + ANSWER_SECONDS
    assert not session.may_take("yes", late)
    assert forwarded(say(session, "yes", late))
    assert "Cannot go there" in text(click(session, buttons(shown)[0].command, late))  # the button still works


def test_two_pending_confirmations_make_the_player_busy(rig_factory: RigFactory) -> None:
    rig = rig_factory(GOTO, tool_body("agent_goto", {"x": 1, "y": 64, "z": 1}), phrases=PHRASES)
    session, assistant = session_for(rig)
    first = proposed_goto(rig, assistant)
    rig.ask(assistant, "please bring me over to 1 64 1")
    assert forwarded(say(session, "yes", 1001.0))  # it could mean either card
    assert "Cannot go there" in text(click(session, buttons(first)[0].command, 1001.0))
    answered = say(session, "yes", 1002.0)  # one left: the answer is for it
    assert ForwardChat() not in answered and "Cannot go there" in text(answered)


def test_at_ai_yes_answers_the_card_too(rig_factory: RigFactory) -> None:
    rig = rig_factory(GOTO, phrases=PHRASES)
    session, assistant = session_for(rig)
    proposed_goto(rig, assistant)
    answered = say(session, "@ai yes", 1001.0)
    assert "Cannot go there" in text(answered) and rig.calls == 1


def test_the_execution_layer_rechecks_the_cards_line(rig_factory: RigFactory) -> None:
    """A typed yes is a click: a card of an older version (mode changed) runs nothing."""
    rig = rig_factory(GOTO, phrases=PHRASES)
    session, assistant = session_for(rig)
    proposed_goto(rig, assistant)
    assistant.cards.invalidate()  # as a mode or AI switch does, without clearing the desk
    stale = say(session, "yes", 1001.0)
    assert "out of date" in text(stale) and not any(isinstance(a, ReplyToPlayer) and "Going" in text([a])
                                                    for a in stale)


def test_the_desk_keeps_no_player_text(rig_factory: RigFactory) -> None:
    rig = rig_factory(GOTO, phrases=PHRASES)
    session, assistant = session_for(rig)
    proposed_goto(rig, assistant)
    say(session, "hello there my secret plan", 1001.0)
    shown = assistant.confirmations.visible(1001.0)
    assert shown is not None and shown.command_line == "!goto 10 64 10"
    assert "secret" not in repr(vars(assistant.confirmations))
    snapshot = make_snapshot("zh_cn")
    assert assistant.answer_typed("好的", snapshot, 1001.0) is not None


def test_system_routing_mode_completes_for_admins_only(rig_factory: RigFactory) -> None:
    table = rig_factory().assistant().commands
    assert table.complete(["system", "routing", ""]) == ["mode", "reload"]
    assert table.complete(["system", "routing", "mode", "sh"]) == ["shadow"]
    assert table.complete(["system", ""], admin=False) == []
