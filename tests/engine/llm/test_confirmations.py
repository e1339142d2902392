"""Typed answers to a write's confirmation card: only the visible card, within its lifetime, never when two are pending."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.llm.confirmations import CANCEL, CONFIRM, DETAILS, Answer, Confirmation, ConfirmationDesk, Refused
from engine.llm.notification_buttons import ButtonMatcher, load_phrases

BUTTONS = Path(__file__).resolve().parents[3] / "config" / "notification-buttons.json"


@pytest.fixture(scope="module")
def matcher() -> ButtonMatcher:
    return ButtonMatcher(load_phrases(BUTTONS))


def goto(card_id: int = 1, expires_at: float = 60.0, language: str = "en") -> Confirmation:
    return Confirmation(card_id, 1, "!goto 10 64 10", language, expires_at)


@pytest.mark.parametrize(
    "text, language, key",
    [("yes", "en", CONFIRM), ("ok", "en", CONFIRM), ("go ahead", "en", CONFIRM), ("确认", "zh", CONFIRM),
     ("好的", "zh", CONFIRM), ("cancel", "en", CANCEL), ("取消", "zh", CANCEL), ("details", "en", DETAILS),
     ("详情", "zh", DETAILS), ("yes please", "en", CONFIRM)],
)
def test_a_typed_button_answers_the_visible_card(matcher: ButtonMatcher, text: str, language: str, key: str) -> None:
    desk = ConfirmationDesk()
    desk.show(goto(language=language))
    answer = desk.answer(text, language, now=1.0, matcher=matcher)
    assert isinstance(answer, Answer) and answer.key == key and answer.confirmation.command_line == "!goto 10 64 10"


@pytest.mark.parametrize("text", ["don't do it", "yes if i'm hungry", "where am i", "yes and then eat", "不要确认"])
def test_anything_not_clearly_a_button_goes_to_routing(matcher: ButtonMatcher, text: str) -> None:
    desk = ConfirmationDesk()
    desk.show(goto())
    assert desk.answer(text, "zh" if any("\u4e00" <= c <= "\u9fff" for c in text) else "en", 1.0, matcher) is Refused.NOT_A_BUTTON


def test_nothing_to_answer_without_a_visible_card(matcher: ButtonMatcher) -> None:
    desk = ConfirmationDesk()
    assert desk.answer("yes", "en", 0.0, matcher) is Refused.NOTHING
    desk.show(goto())
    desk.settle(1)  # clicked
    assert desk.answer("yes", "en", 1.0, matcher) is Refused.NOTHING


def test_only_within_the_cards_lifetime(matcher: ButtonMatcher) -> None:
    desk = ConfirmationDesk()
    desk.show(goto(expires_at=60.0))
    assert desk.answer("yes", "en", 60.0, matcher) is Refused.EXPIRED
    assert desk.answer("yes", "en", 61.0, matcher) is Refused.NOTHING  # gone for good


def test_not_while_busy_with_another_confirmation(matcher: ButtonMatcher) -> None:
    desk = ConfirmationDesk()
    desk.show(goto(card_id=1))
    desk.show(Confirmation(2, 1, "!eat", "en", 60.0))
    assert desk.answer("yes", "en", 1.0, matcher) is Refused.BUSY  # which one? the player clicks
    desk.settle(1)  # the first was clicked
    answer = desk.answer("yes", "en", 2.0, matcher)
    assert isinstance(answer, Answer) and answer.confirmation.command_line == "!eat"


def test_a_lapsed_older_card_does_not_keep_the_player_busy(matcher: ButtonMatcher) -> None:
    desk = ConfirmationDesk()
    desk.show(goto(card_id=1, expires_at=10.0))
    desk.show(Confirmation(2, 1, "!eat", "en", 100.0))
    answer = desk.answer("ok", "en", 20.0, matcher)
    assert isinstance(answer, Answer) and answer.confirmation.card_id == 2


def test_reload_swaps_the_phrasings(tmp_path: Path) -> None:
    matcher = ButtonMatcher({})
    desk = ConfirmationDesk()
    desk.show(goto())
    assert desk.answer("make it so", "en", 1.0, matcher) is Refused.NOT_A_BUTTON
    file = tmp_path / "notification-buttons.json"
    file.write_text(json.dumps({"buttons": {CONFIRM: {"en": ["make it so"]}}}), encoding="utf-8")
    matcher.replace(load_phrases(file))
    answer = desk.answer("make it so", "en", 2.0, matcher)
    assert isinstance(answer, Answer) and answer.key == CONFIRM
