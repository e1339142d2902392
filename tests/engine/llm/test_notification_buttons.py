"""Typed replies to a visible notification: own word features, 0.9 / 0.9 / 0.15, trusted actions only."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import events as ev
from engine.llm.notification_buttons import (
    ButtonIndex, ButtonMatcher, Dismiss, Hit, Miss, NoticeBoard, NoticeButton, Notification, RunCommand,
    features, load_phrases,
)
from engine.session import Session
from tests.engine.llm.conftest import RigFactory, buttons, text

ROOT = Path(__file__).resolve().parents[3]
PHRASES = load_phrases(ROOT / "config" / "notification-buttons.json")
INBOX_BUTTONS = (NoticeButton("notice.open_inbox", "Open inbox", RunCommand("!inbox")),
                 NoticeButton("notice.dismiss", "Dismiss", Dismiss()))


def notice(buttons: tuple[NoticeButton, ...] = INBOX_BUTTONS) -> Notification:
    return Notification(1, ("New message",), buttons, "en", 100.0)


def test_the_shipped_file_has_both_languages_for_every_key() -> None:
    assert set(PHRASES) >= {"notice.open_inbox", "notice.dismiss", "notice.confirm", "notice.cancel", "notice.details"}
    assert all(set(per_lang) == {"en", "zh"} for per_lang in PHRASES.values())


@pytest.mark.parametrize("reply,key", [("open", "notice.open_inbox"), ("Open inbox", "notice.open_inbox"),
                                       ("please open it", "notice.open_inbox"), ("dismiss", "notice.dismiss"),
                                       ("ignore it", "notice.dismiss"), ("打开", "notice.open_inbox"),
                                       ("请打开收件箱", "notice.open_inbox"), ("忽略", "notice.dismiss")])
def test_close_replies_hit_their_button(reply: str, key: str) -> None:
    lang = "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in reply) else "en"
    hit = ButtonMatcher(PHRASES).match(notice(), reply, lang)
    assert isinstance(hit, Hit) and hit.key == key
    assert hit.score >= 0.9 and hit.coverage >= 0.9 and hit.lead >= 0.15


@pytest.mark.parametrize("reply,miss", [
    ("don't open it", Miss.FILTERED), ("不要打开", Miss.FILTERED), ("open it if it is from steve", Miss.FILTERED),
    ("open the door to the nether", Miss.LOW_SCORE), ("where am i", Miss.LOW_SCORE), ("", Miss.EMPTY),
])
def test_negations_conditions_and_unknown_topics_fall_back(reply: str, miss: Miss) -> None:
    assert ButtonMatcher(PHRASES).match(notice(), reply, "zh" if "不" in reply else "en") is miss


def test_features_keep_the_original_verb() -> None:
    # No write-unifying aliases: "claim" and "buy" stay themselves, unlike the routing vocabulary.
    assert "claim" in features("claim it") and "buy" in features("buy it")
    index = ButtonIndex([("claim", "claim"), ("buy", "buy")])
    assert index.match("claim") == Hit("claim", pytest.approx(1.0), 1.0, pytest.approx(1.0))


def test_duplicate_texts_for_different_actions_fall_back() -> None:
    twins = (NoticeButton("a", "OK", RunCommand("!inbox")), NoticeButton("b", "OK", Dismiss()))
    assert ButtonMatcher().match(notice(twins), "ok", "en") is Miss.DUPLICATE


def test_a_lead_below_015_falls_back() -> None:
    close = (NoticeButton("a", "open inbox now", RunCommand("!inbox")), NoticeButton("b", "open inbox later", Dismiss()))
    assert ButtonMatcher().match(notice(close), "open inbox", "en") in (Miss.LOW_LEAD, Miss.LOW_SCORE)


def test_the_index_of_a_button_set_is_built_once() -> None:
    matcher = ButtonMatcher(PHRASES)
    for _ in range(5):
        matcher.match(notice(), "open", "en")
    matcher.match(notice(), "打开", "zh")
    assert matcher.builds == 2


def test_board_shows_only_the_latest_for_its_lifetime() -> None:
    board = NoticeBoard(seconds=60.0)
    first = board.post(("one",), INBOX_BUTTONS, "en", 0.0)
    second = board.post(("two",), INBOX_BUTTONS, "en", 1.0)
    assert board.visible(2.0) == second
    assert board.take(first.notice_id, "notice.dismiss", 2.0) is None
    assert board.visible(61.0) is None


def test_inbox_arrival_shows_a_notification_and_a_typed_reply_runs_its_action(rig_factory: RigFactory) -> None:
    rig = rig_factory(phrases=PHRASES)
    assistant = rig.assistant()
    session = Session("Tester", assistant=assistant)
    shown = session.handle(ev.ServerChatSeen("Steve whispers to you: meet at spawn", "Steve", private=True), 1000.0)
    assert "New message kept in your inbox (1 unread)." in text(shown)
    open_button, dismiss_button = buttons(shown)
    assert open_button.label == "Open inbox" and open_button.command == "/agent notice 1 notice.open_inbox"
    # A second whisper while it is visible: kept, no second notification.
    assert session.handle(ev.ServerChatSeen("Steve whispers to you: hurry", "Steve", private=True), 1001.0) == []
    reply = rig.ask(assistant, "open it", now=1002.0)
    assert "Inbox: 2 message(s), 2 new." in text(reply) and "meet at spawn" in text(reply)
    assert rig.calls == 0
    # Used: the same words are now an ordinary request again (no notification visible).
    assert "Inbox:" not in text(rig.ask(assistant, "open it", now=1003.0))


def test_a_reply_after_the_lifetime_is_ordinary_routing(rig_factory: RigFactory) -> None:
    rig = rig_factory(phrases=PHRASES, key=False)
    assistant = rig.assistant()
    assistant.notify("Steve whispers to you: hi", 1000.0)
    assert "Inbox:" not in text(rig.ask(assistant, "open it", now=1000.0 + 61.0))


def test_clicking_a_notification_button_runs_only_its_trusted_action(rig_factory: RigFactory) -> None:
    rig = rig_factory(phrases=PHRASES)
    assistant = rig.assistant()
    shown = assistant.notify("Steve whispers to you: hi", 1000.0)
    _, dismiss = buttons(shown)
    assert text(rig.command(assistant, dismiss.command, now=1001.0)) == "Dismissed."
    assert "no longer shown" in text(rig.command(assistant, dismiss.command, now=1002.0))
    assert "no longer shown" in text(rig.command(assistant, "/agent notice 1 notice.unknown", now=1002.0))


def test_phrases_file_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "buttons.json"
    bad.write_text(json.dumps({"buttons": {"x": {"fr": ["oui"]}}}))
    with pytest.raises(ValueError, match="buttons.json"):
        load_phrases(bad)
    assert load_phrases(tmp_path / "absent.json") == {}
