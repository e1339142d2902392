"""Issue 23: typed replies to what is visible, matched as the seed's notification button vectors.

A not-sure card's option picked by typing its name (after ``@ai`` or as ordinary chat), a
visible notification's button (inbox, reflex and death notices, autopilot milestones) answered
by ordinary chat, and the conservative side of both: long lines, negations, conditions and
anything that is not clearly one button go on as before (to routing, or to the server untouched).
"""
from __future__ import annotations

from pathlib import Path

from engine import events as ev
from engine.actions import Action, ForwardChat
from engine.assistant import ANSWER_SECONDS, LocalAssistant
from engine.llm.notification_buttons import NOTICE_SECONDS, TYPED_REPLY_CHARS, load_phrases
from engine.session import Session
from tests.engine.llm.conftest import Rig, RigFactory, buttons, click, text

PHRASES = load_phrases(Path(__file__).resolve().parents[3] / "config" / "notification-buttons.json")
SHORTCUTS_CARD = "my garden"  # nothing matches: the card lists every read-only shortcut
INVENTORY_CARD = "what do i carry on my trip"  # one candidate, !inv, below the direct threshold
INVENTORY = "Your inventory is empty"
MILESTONE = "Autopilot: milestone 2/9 reached (log)."


def session_for(rig: Rig) -> tuple[Session, LocalAssistant]:
    assistant = rig.assistant()
    return Session("Tester", assistant=assistant), assistant


def say(session: Session, line: str, now: float) -> list[Action]:
    return session.handle(ev.ChatTyped(line), now)


def forwarded(actions: list[Action]) -> bool:
    return actions == [ForwardChat()]


# -- a not-sure card's option, by its name -------------------------------------------------------

def test_typing_an_options_name_picks_it_like_a_click(rig_factory: RigFactory) -> None:
    rig = rig_factory(key=False, phrases=PHRASES)
    for typed in ("inventory", "背包", "inv", "my inventory please"):
        session, _ = session_for(rig)
        card = say(session, f"@ai {SHORTCUTS_CARD}", 1000.0)
        assert "!inv" in [b.label for b in buttons(card)]
        before = dict(rig.runtime.stats.counters)
        assert session.may_take(typed, 1001.0)
        picked = say(session, typed, 1001.0)
        assert INVENTORY in text(picked), typed
        assert rig.runtime.stats.counters == before  # a pick is a click: no routing
        assert forwarded(say(session, typed, 1002.0))  # the card was used: the same word is chat again
    assert rig.calls == 0


def test_an_options_label_in_either_language_picks_the_only_candidate(rig_factory: RigFactory) -> None:
    rig = rig_factory(key=False, phrases=PHRASES)
    for typed in ("held item and inventory", "手持物品和背包", "inventory"):
        session, _ = session_for(rig)
        card = say(session, f"@ai {INVENTORY_CARD}", 1000.0)
        assert "1. !inv - held item and inventory" in text(card)
        assert INVENTORY in text(say(session, typed, 1001.0)), typed


def test_at_ai_with_an_options_name_picks_it_when_routing_would_not_answer(rig_factory: RigFactory) -> None:
    rig = rig_factory(key=False, phrases=PHRASES)
    assistant = rig.assistant()
    assert "not sure" in text(rig.ask(assistant, "held item and inventory"))  # no card: routing is not sure
    rig.ask(assistant, SHORTCUTS_CARD)
    assert INVENTORY in text(rig.ask(assistant, "held item and inventory", now=1001.0))
    assert rig.calls == 0


def test_chat_that_names_no_option_is_forwarded_and_the_card_stays(rig_factory: RigFactory) -> None:
    rig = rig_factory(key=False, phrases=PHRASES)
    session, _ = session_for(rig)
    say(session, f"@ai {SHORTCUTS_CARD}", 1000.0)
    for line in ("hello", "not inventory", "inventory if you can", "pos and inventory", "ok"):
        assert forwarded(say(session, line, 1001.0)), line
    long_line = "inventory " * (TYPED_REPLY_CHARS // 10 + 1)
    assert not session.may_take(long_line, 1001.0)  # too long to be a button's name: not even read
    assert forwarded(say(session, long_line, 1001.0))
    assert INVENTORY in text(say(session, "inventory", 1001.0))


def test_a_typed_name_lapses_before_the_card_and_with_a_preference_change(rig_factory: RigFactory) -> None:
    rig = rig_factory(key=False, phrases=PHRASES)
    session, assistant = session_for(rig)
    card = say(session, f"@ai {SHORTCUTS_CARD}", 1000.0)
    late = 1000.0 + ANSWER_SECONDS
    assert not session.may_take("inventory", late) and forwarded(say(session, "inventory", late))
    # After @ai it counts as long as @ai <n> may pick.
    assert INVENTORY in text(rig.ask(assistant, "held item and inventory", now=late))
    session, assistant = session_for(rig)
    card = say(session, f"@ai {SHORTCUTS_CARD}", 1000.0)
    say(session, "!mode extended", 1000.5)  # a preference change: every card shown so far is stale
    assert forwarded(say(session, "inventory", 1001.0))
    assert "out of date" in text(click(session, buttons(card)[0].command, 1001.0))


# -- notifications answered by ordinary chat ----------------------------------------------------

def test_ordinary_chat_answers_the_inbox_notice_of_a_private_message(rig_factory: RigFactory) -> None:
    rig = rig_factory(key=False, phrases=PHRASES)
    session, assistant = session_for(rig)
    assert not session.may_take("open inbox", 1000.0)  # nothing visible: not even read
    shown = session.handle(ev.ServerChatSeen("dave whispers to you: meet me at the well", private=True), 1000.0)
    assert [b.label for b in buttons(shown)] == ["Open inbox", "Dismiss"]
    assert session.may_take("open inbox", 1001.0)
    opened = say(session, "open inbox", 1001.0)
    assert "meet me at the well" in text(opened) and ForwardChat() not in opened
    assert forwarded(say(session, "open inbox", 1002.0))  # used: the notice is gone, so it is chat
    session.handle(ev.ServerChatSeen("dave whispers to you: hurry", private=True), 1003.0)
    assert text(say(session, "忽略", 1004.0)) == "已忽略。"
    assert assistant.notices.visible(1004.0) is None


def test_ordinary_chat_that_is_no_button_goes_to_the_server_and_the_notice_stays(rig_factory: RigFactory) -> None:
    rig = rig_factory(key=False, phrases=PHRASES)
    session, assistant = session_for(rig)
    session.handle(ev.ServerChatSeen("dave whispers to you: hi", private=True), 1000.0)
    for line in ("hi dave", "don't open it", "open it if it is from dave", "yes", "on my way to the well"):
        assert forwarded(say(session, line, 1001.0)), line
    assert not session.may_take("I will read my inbox after this fight, thanks", 1001.0)
    assert assistant.notices.visible(1001.0) is not None
    late = 1000.0 + NOTICE_SECONDS
    assert not session.may_take("open inbox", late) and forwarded(say(session, "open inbox", late))


def test_a_reflex_or_death_notice_is_answered_by_typing_a_button(rig_factory: RigFactory) -> None:
    rig = rig_factory(key=False, phrases=PHRASES)
    session, assistant = session_for(rig)
    # What the session does with a reflex's or the autopilot's death notice: said, and kept.
    shown = assistant.notify("Autopilot: you died (1 so far); respawning and starting again.", 1000.0)
    assert [b.label for b in buttons(shown)] == ["Open inbox", "Dismiss"]
    assert "you died" in text(say(session, "show inbox", 1001.0))


def test_a_milestone_notice_has_status_stop_and_dismiss_and_typing_them_acts(rig_factory: RigFactory) -> None:
    rig = rig_factory(key=False, phrases=PHRASES)
    session, assistant = session_for(rig)
    shown = assistant.milestone(MILESTONE, 1000.0)
    assert MILESTONE in text(shown)
    labels = {b.label: b.command for b in buttons(shown)}
    assert list(labels) == ["Autopilot status", "Stop autopilot", "Dismiss"]
    assert "The autopilot is off" in text(click(session, labels["Autopilot status"], 1000.5))  # the command it carries
    assistant.milestone(MILESTONE, 1001.0)
    assert "The autopilot is off" in text(say(session, "status", 1002.0))
    assistant.milestone(MILESTONE, 1003.0)
    stopped = say(session, "stop autopilot", 1004.0)
    assert ForwardChat() not in stopped and "The autopilot is not running." in text(stopped)
    assistant.milestone(MILESTONE, 1005.0)
    assert forwarded(say(session, "don't stop", 1006.0))
    assert text(say(session, "dismiss", 1006.0)) == "Dismissed."
    assert assistant.notices.visible(1006.0) is None
    assert "Your inbox is empty." in text(rig.command(assistant, "!inbox"))  # a milestone is not kept


def test_an_options_name_applies_to_the_next_line_only(rig_factory: RigFactory) -> None:
    rig = rig_factory(key=False, phrases=PHRASES)
    session, _ = session_for(rig)
    say(session, f"@ai {SHORTCUTS_CARD}", 1000.0)
    assert "your position" in text(say(session, "@ai where am i", 1001.0))  # another request, answered
    assert not session.may_take("inventory", 1002.0) and forwarded(say(session, "inventory", 1002.0))
    card = say(session, f"@ai {SHORTCUTS_CARD}", 1003.0)
    inv = next(b for b in buttons(card) if b.label == "!inv")
    assert INVENTORY in text(click(session, inv.command, 1004.0))  # a click answered the card
    assert forwarded(say(session, "inventory", 1005.0))
