"""What a player can click or answer: option cards, write confirmations, notifications.

How this works: three kinds of clickable chat, each ending in a trusted command line the
session runs through the command table (a ``RunLine``), never in anything taken from what
the player typed:

* the not-sure **card** (the seed's "command to be confirmed"): why, then this request's
  read-only candidates, numbered so ``@ai 2`` picks one for ``OPTION_SECONDS``, each a
  button ``/agent card <id> <version> <n>``; without candidates, every read-only shortcut;
* the **write confirmation**: a write the model proposed, shown as a single-use card that a
  click or a typed "yes"/"cancel"/"details" (within ``ANSWER_SECONDS``) answers;
* the **notification** with its buttons (an inbox arrival: open, dismiss), answered by a click
  ``/agent notice <id> <key>`` or a typed reply close to one button's phrasings.

``CardDesk`` holds them for one player; ``LocalAssistant`` clears it when memory, a preference
or the connection goes.
"""
from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action, ChatButton, ReplyToPlayer, RunLine
from engine.llm import messages as lm
from engine.llm.cards import Card, CardBook, CardError, CardOption, parse_click
from engine.llm.confirmations import CANCEL, CONFIRM, Answer, Confirmation, ConfirmationDesk
from engine.llm.notification_buttons import Dismiss, Hit, NoticeBoard, NoticeButton, Notification, RunCommand
from engine.assistant.shared import RuntimeParts
from engine.modules import messages as m
from engine.modules.module import Access
from engine.routing.router import Route
from engine.routing.stats import Reason

OPTION_SECONDS = 300.0
CARD_OPTIONS = 3
# A typed answer ("yes", "取消") counts only this long after its card was shown: chat scrolls, and a
# "yes" said minutes later to another player must not confirm a write (a click still works until
# the card itself expires).
ANSWER_SECONDS = 60.0


class CardDesk:
    def __init__(self, parts: RuntimeParts) -> None:
        self.parts = parts
        self.cards = CardBook()
        self.confirmations = ConfirmationDesk()  # write cards a typed "yes"/"cancel" may answer
        self.notices = NoticeBoard()
        self._options: tuple[str, ...] = ()
        self._options_until = 0.0

    def forget(self, notices: bool = False) -> None:
        """Memory, a preference or the connection went: no card shown so far may still be used."""
        self._options = ()
        self.cards.invalidate()
        self.confirmations.clear()
        if notices:
            self.notices.clear()

    # --- the not-sure card and its numbered options -----------------------------------------

    def options(self, now: float) -> tuple[str, ...]:
        """The last card's numbered command lines while ``@ai <n>`` may still pick one."""
        return self._options if now < self._options_until else ()

    def drop_options(self) -> None:
        self._options = ()

    def card_options(self, route: Route, lang: str) -> tuple[CardOption, ...]:
        """This request's read-only candidates whose arguments parsed, best first."""
        picked = [CardOption(c.command_line, self._label(c.label_key, c.module_id, lang))
                  for c in route.candidates if c.read_only and c.command_line is not None]
        return tuple(picked[:CARD_OPTIONS])

    def write_hint(self, route: Route) -> str | None:
        top = route.candidates[0] if route.candidates else None
        if top is None or top.read_only or route.reason not in (Reason.FILTERED_WRITE, Reason.NOT_DIRECT):
            return None
        entry = self.parts.registry.get(top.module_id)
        command = entry.first_command() if entry is not None else None
        return (top.command_line or command.usage) if command is not None else None

    def card(self, lang: str, now: float, head: list[str], options: tuple[CardOption, ...],
             write_hint: str | None) -> ReplyToPlayer:
        """The seed's "command to be confirmed": why, then clickable read-only options (or the shortcuts)."""
        lines = list(head)
        if options:
            card = self.cards.issue(options, now)
            # Candidates of this request whose arguments parsed: numbered, so "@ai 2" picks one.
            lines.append(m.say(lang, "fallback.try"))
            for n, option in enumerate(options, 1):
                lines.append(m.say(lang, "fallback.option", n=n, command=option.command_line, label=option.label))
            lines.append(m.say(lang, "fallback.pick"))
            self._options = tuple(o.command_line for o in options)
            self._options_until = now + OPTION_SECONDS
        else:
            shortcuts = tuple(CardOption(line, label) for line, label in self._shortcuts(lang))
            card = self.cards.issue(shortcuts, now)
            lines.append(m.say(lang, "fallback.shortcuts", commands=", ".join(o.command_line for o in shortcuts)))
        if write_hint is not None:
            lines.append(m.say(lang, "fallback.writes", commands=write_hint))
        lines.append(m.say(lang, "fallback.help"))
        return ReplyToPlayer(tuple(lines), self._buttons(card))

    def rejected(self, lang: str, reason: str, options: tuple[CardOption, ...], write_hint: str | None,
                 now: float) -> ReplyToPlayer:
        """The card for a model answer the execution layer refused (``reason`` a reject reason's value)."""
        head = [m.say(lang, "fallback.unsure"), lm.say(lang, "why.rejected", reason=lm.reject_reason(lang, reason))]
        return self.card(lang, now, head, options, write_hint)

    @staticmethod
    def _buttons(card: Card) -> tuple[ChatButton, ...]:
        return tuple(ChatButton(o.command_line, card.button_command(n), f"{o.command_line} - {o.label}")
                     for n, o in enumerate(card.options, 1))

    def _shortcuts(self, lang: str) -> list[tuple[str, str]]:
        """Every read-only module's shortcut as (command line, label)."""
        shortcuts: list[tuple[str, str]] = []
        for entry in self.parts.registry.modules():
            command = entry.first_command()
            if entry.access is not Access.READ or command is None or entry.routing.is_structured_only:
                continue
            for shortcut in entry.routing.shortcuts:
                shortcuts.append((command.line(shortcut.value), self._label(shortcut.label_key, entry.id, lang)))
        return shortcuts

    @staticmethod
    def _label(key: str | None, fallback: str, lang: str) -> str:
        if key is not None and key in m.MESSAGES:
            return m.say(lang, key)
        return key or fallback

    def click_card(self, args: str, lang: str, now: float) -> Sequence[Action | RunLine]:
        parsed = parse_click(args)
        if parsed is None:
            return [ReplyToPlayer((lm.say(lang, "card.syntax"),))]
        option = self.cards.resolve(*parsed, now)
        self.confirmations.settle(parsed[0])  # clicked: a typed answer no longer applies to it
        if isinstance(option, CardError):
            key = "card.syntax" if option is CardError.SYNTAX else f"card.{option.value}"
            return [ReplyToPlayer((lm.say(lang, key),))]
        # A new explicit request: the stored command line runs, no routing, no model.
        return [RunLine(option.command_line)]

    # --- a write's confirmation card and its typed answers -----------------------------------

    def confirm_write(self, line: str, what: str, lang: str, now: float) -> ReplyToPlayer:
        """A write the model proposed: shown for the player to confirm with one click or a typed
        "yes", never run here. ``line`` must be one the command table parsed (the caller's check)."""
        card = self.cards.issue((CardOption(line, what, write=True),), now, single_use=True)
        self.confirmations.show(Confirmation(card.card_id, card.version, line, lang,
                                             min(card.expires_at, now + ANSWER_SECONDS)))
        text = lm.say(lang, "card.write", command=line, what=what)
        return ReplyToPlayer((text, lm.say(lang, "card.type")), self._buttons(card))

    def expects_answer(self, now: float) -> bool:
        """A write's confirmation card is visible, so ordinary chat may be its typed answer."""
        return self.confirmations.visible(now) is not None

    def answer(self, text: str, language: str, lang: str, now: float) -> Sequence[Action | RunLine] | None:
        """What a typed line does to the visible confirmation card; None when it is not clearly an answer."""
        if len(text) > self.parts.config.max_characters:
            return None
        answer = self.confirmations.answer(text, language, now, self.parts.buttons)
        if not isinstance(answer, Answer):
            return None  # nothing visible, lapsed, two pending (busy), or not a button
        shown = answer.confirmation
        if answer.key == CONFIRM:
            self.confirmations.settle(shown.card_id)
            # Exactly a click on the card's button: its version and single use are checked again,
            # and the line it runs is the card's own, re-parsed and re-checked by the command table.
            option = self.cards.resolve(shown.card_id, shown.version, 1, now)
            if isinstance(option, CardError):
                return [ReplyToPlayer((lm.say(lang, f"card.{option.value}"),))]
            return [RunLine(option.command_line)]
        if answer.key == CANCEL:
            self.confirmations.settle(shown.card_id)
            self.cards.withdraw(shown.card_id)
            return [ReplyToPlayer((lm.say(lang, "card.cancelled", command=shown.command_line),))]
        return [self._details(shown, lang)]

    def _details(self, shown: Confirmation, lang: str) -> ReplyToPlayer:
        """"details": what the card would run, from the command table; the card stays open."""
        found = self.parts.commands.find(shown.command_line.lstrip("!"))
        what = found[0].help.say(lang) if found is not None else shown.command_line
        card = self.cards.get(shown.card_id)
        buttons = self._buttons(card) if card is not None else ()
        return ReplyToPlayer((lm.say(lang, "card.details", command=shown.command_line, what=what),
                              lm.say(lang, "card.type")), buttons)

    # --- notifications and their buttons -------------------------------------------------------

    def inbox_notice(self, unread: int, lang: str, now: float) -> ReplyToPlayer | None:
        """The inbox notification (open, dismiss), unless one about the inbox is still visible."""
        visible = self.notices.visible(now)
        if visible is not None and visible.kind == "inbox":
            return None
        notice = self.notices.post(
            (lm.say(lang, "notice.inbox", unread=unread),),
            (NoticeButton("notice.open_inbox", lm.say(lang, "notice.open_inbox"), RunCommand("!inbox")),
             NoticeButton("notice.dismiss", lm.say(lang, "notice.dismiss"), Dismiss())),
            lang, now, kind="inbox")
        return self.show_notification(notice)

    @staticmethod
    def show_notification(notice: Notification) -> ReplyToPlayer:
        buttons = tuple(ChatButton(b.label, notice.button_command(b.key),
                                   b.action.line if isinstance(b.action, RunCommand) else b.label)
                        for b in notice.buttons)
        return ReplyToPlayer(notice.lines, buttons)

    def notice_reply(self, text: str, language: str, lang: str, now: float) -> Sequence[Action | RunLine] | None:
        notice = self.notices.visible(now)
        if notice is None or len(text) > self.parts.config.max_characters:
            return None  # nothing to answer, or too long to be a button's text: ordinary routing
        hit = self.parts.buttons.match(notice, text, language if language in ("en", "zh") else lang)
        if not isinstance(hit, Hit):
            return None  # not sure it is a reply to the notification: ordinary routing
        button = self.notices.take(notice.notice_id, hit.key, now)
        if button is None:
            return None
        return self._trusted(button, lang)

    def click_notice(self, args: str, lang: str, now: float) -> Sequence[Action | RunLine]:
        notice_id, _, key = args.strip().partition(" ")
        button = self.notices.take(int(notice_id), key.strip(), now) if notice_id.isdigit() else None
        if button is None:
            return [ReplyToPlayer((lm.say(lang, "notice.gone"),))]
        return self._trusted(button, lang)

    def _trusted(self, button: NoticeButton, lang: str) -> Sequence[Action | RunLine]:
        """Run the action the notification itself carried (never anything taken from the reply's text)."""
        if isinstance(button.action, RunCommand):
            return [RunLine(button.action.line)]
        return [ReplyToPlayer((lm.say(lang, "notice.dismissed"),))]
