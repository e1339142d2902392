"""Typed answers to a write's confirmation card ("yes", "ok", "确认", "cancel", "取消", "details").

How this works: when the assistant shows a card asking the player to confirm
a write (goto, follow, autopilot, eat), it also puts the card on this desk.
A later line is offered to ``answer``: an ``@ai`` line before ordinary
routing, and ordinary chat while a confirmation is visible (the player's
Session asks first and forwards the line untouched when it is no answer); it is
matched with the seed's notification button vectors (``ButtonMatcher``:
every button's label and the per-key phrasings of notification-buttons.json,
similarity ≥ 0.9, coverage ≥ 0.9, lead ≥ 0.15, negations and conditions
refused) against the three buttons of the confirmation: ``notice.confirm``,
``notice.cancel`` and ``notice.details``. The rules, each with its refusal:

* only while the card is visible: the latest confirmation shown, not yet
  answered, clicked or cancelled (``NOTHING``);
* within its lifetime (``EXPIRED``);
* not while the player is busy with another confirmation: when a second
  write card is shown before the first was settled, a typed "yes" could mean
  either, so typing answers neither until one is settled by a click (``BUSY``);
* anything that is not clearly one of the buttons goes to ordinary routing
  (``NOT_A_BUTTON``).

A hit names the card; the caller runs its option through ``CardBook.resolve``
like a click, so the card's version (memory cleared, mode changed) and
single use still hold. The desk keeps card ids and command lines the
assistant itself made, never the player's text.
"""
from __future__ import annotations

import enum

import attrs

from engine.llm.notification_buttons import ButtonMatcher, Dismiss, Hit, NoticeButton, Notification, RunCommand

CONFIRM = "notice.confirm"
CANCEL = "notice.cancel"
DETAILS = "notice.details"
LABELS = {
    "en": {CONFIRM: "confirm", CANCEL: "cancel", DETAILS: "details"},
    "zh": {CONFIRM: "确认", CANCEL: "取消", DETAILS: "详情"},
}


@attrs.frozen
class Confirmation:
    card_id: int
    version: int
    command_line: str  # the write the card proposes, e.g. "!goto 10 64 10"
    language: str
    expires_at: float


class Refused(enum.Enum):
    NOTHING = "nothing"            # no confirmation visible
    EXPIRED = "expired"
    BUSY = "busy"                  # two confirmations pending: a typed answer could mean either
    NOT_A_BUTTON = "not_a_button"  # not clearly confirm/cancel/details: ordinary routing


@attrs.frozen
class Answer:
    key: str  # CONFIRM, CANCEL or DETAILS
    confirmation: Confirmation
    score: float


class ConfirmationDesk:
    """One player's pending write confirmations."""

    def __init__(self) -> None:
        self._pending: dict[int, Confirmation] = {}
        self._visible: int | None = None

    def show(self, confirmation: Confirmation) -> None:
        self._pending[confirmation.card_id] = confirmation
        self._visible = confirmation.card_id

    def settle(self, card_id: int) -> None:
        """The card was clicked, answered or cancelled: it is no longer pending."""
        self._pending.pop(card_id, None)
        if self._visible == card_id:
            self._visible = max(self._pending) if self._pending else None

    def clear(self) -> None:
        self._pending.clear()
        self._visible = None

    def visible(self, now: float) -> Confirmation | None:
        """The confirmation a typed answer could be meant for, if one is shown and has not lapsed.

        Cheap (no matching): the proxy asks it for every chat line to know whether
        ordinary chat must be read at all."""
        if self._visible is None:
            return None
        shown = self._pending[self._visible]
        return shown if now < shown.expires_at else None

    def answer(self, text: str, language: str, now: float, matcher: ButtonMatcher) -> Answer | Refused:
        if self._visible is None:
            return Refused.NOTHING
        visible = self._pending[self._visible]
        if now >= visible.expires_at:
            self.settle(visible.card_id)
            return Refused.EXPIRED
        for card_id, pending in list(self._pending.items()):
            if now >= pending.expires_at:
                self.settle(card_id)  # an older card that lapsed no longer makes the player busy
        if len(self._pending) > 1:
            return Refused.BUSY
        lang = language if language in LABELS else visible.language
        hit = matcher.match(_as_notification(visible, lang), text, lang)
        if not isinstance(hit, Hit):
            return Refused.NOT_A_BUTTON
        return Answer(hit.key, visible, hit.score)


def _as_notification(confirmation: Confirmation, language: str) -> Notification:
    labels = LABELS.get(language, LABELS["en"])
    buttons = (
        NoticeButton(CONFIRM, labels[CONFIRM], RunCommand(confirmation.command_line)),
        NoticeButton(CANCEL, labels[CANCEL], Dismiss()),
        NoticeButton(DETAILS, labels[DETAILS], Dismiss()),
    )
    return Notification(confirmation.card_id, (), buttons, language, confirmation.expires_at, kind="confirm")
