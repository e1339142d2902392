"""What a player can click or answer: option cards, write confirmations, notifications.

How this works: three kinds of clickable chat, each ending in a trusted command line the
session runs through the command table (a ``RunLine``), never in anything taken from what
the player typed:

* the not-sure **card** (the seed's "command to be confirmed"): why, then this request's
  read-only candidates, numbered so ``@ai 2`` picks one for ``OPTION_SECONDS``, each a
  button ``/agent card <id> <version> <n>``; without candidates, every read-only shortcut.
  Typing an option's name picks it too: the card's options are matched as a notification's
  buttons (``ButtonMatcher``, same thresholds; negations and conditions fall back), after
  ``@ai`` while ``@ai <n>`` may pick, as ordinary chat only within ``ANSWER_SECONDS``;
* the **write confirmation**: a write the model proposed, shown as a single-use card that a
  click or a typed "yes"/"cancel"/"details" (within ``ANSWER_SECONDS``) answers;
* the **notification** with its buttons (an inbox arrival, which reflex and death notices
  raise: open, dismiss; an autopilot milestone: status, stop autopilot, dismiss), answered by a
  click ``/agent notice <id> <key>`` or a typed reply close to one button's phrasings.

Ordinary chat (no ``@ai``) is read as an answer only while one of these is visible, and only
a short line (``TYPED_REPLY_CHARS``) for a card or a notification; a line that is not
clearly one button goes to the server untouched. ``CardDesk`` holds them for one player;
``LocalAssistant`` clears it when memory, a preference or the connection goes.
"""
from __future__ import annotations

from collections.abc import Sequence

import attrs

from engine.actions import Action, ChatButton, ReplyToPlayer, RunLine
from engine.llm import messages as lm
from engine.llm.cards import Card, CardBook, CardError, CardOption, parse_click
from engine.llm.confirmations import CANCEL, CONFIRM, Answer, Confirmation, ConfirmationDesk
from engine.llm.notification_buttons import (TYPED_REPLY_CHARS, Dismiss, Hit, NoticeBoard, NoticeButton,
                                             Notification, RunCommand)
from engine.assistant.shared import RuntimeParts
from engine.modules import messages as m
from engine.modules.module import Access
from engine.modules.registry import Registered
from engine.routing.router import Route
from engine.routing.stats import Reason

OPTION_SECONDS = 300.0
CARD_OPTIONS = 3
# A typed answer ("yes", "取消") counts only this long after its card was shown: chat scrolls, and a
# "yes" said minutes later to another player must not confirm a write (a click still works until
# the card itself expires).
ANSWER_SECONDS = 60.0
BUTTON_LANGUAGES = ("en", "zh")  # the languages button phrasings are written in


@attrs.frozen
class _Offered:
    """The last not-sure card, while typing an option's name may pick one of its options."""

    card: Card
    language: str
    shown_at: float


class CardDesk:
    def __init__(self, parts: RuntimeParts) -> None:
        self.parts = parts
        self.cards = CardBook()
        self.confirmations = ConfirmationDesk()  # write cards a typed "yes"/"cancel" may answer
        self.notices = NoticeBoard()
        self._options: tuple[str, ...] = ()
        self._options_until = 0.0
        self._offered: _Offered | None = None

    def forget(self, notices: bool = False) -> None:
        """Memory, a preference or the connection went: no card shown so far may still be used."""
        self._options = ()
        self._offered = None
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

    def drop_offered(self) -> None:
        """The player moved on (another request, or a pick): the last card's names no longer pick."""
        self._offered = None

    def card_options(self, route: Route, lang: str) -> tuple[CardOption, ...]:
        """This request's read-only candidates whose arguments parsed, best first."""
        picked = [self._option(c.command_line, c.label_key, c.module_id, lang)
                  for c in route.candidates if c.read_only and c.command_line is not None]
        return tuple(picked[:CARD_OPTIONS])

    def _option(self, line: str, key: str | None, module_id: str, lang: str) -> CardOption:
        """One option: its line, its label's text, and the words that name it when typed."""
        entry = self.parts.registry.get(module_id)
        words: list[str] = []
        if entry is not None:
            if key is not None:
                words += entry.routing.label_text(key).texts
            command = entry.first_command()
            if command is not None:
                words += [command.name, *command.aliases, *command.phrases]
        if key is not None and key in m.MESSAGES:
            words += m.MESSAGES[key]
        return CardOption(line, self._label(key, entry, module_id, lang), key=key or module_id,
                          phrases=tuple(dict.fromkeys(w for w in words if w)))

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
            card = self.cards.issue(self._shortcuts(lang), now)
            shortcuts = card.options
            lines.append(m.say(lang, "fallback.shortcuts", commands=", ".join(o.command_line for o in shortcuts)))
        if write_hint is not None:
            lines.append(m.say(lang, "fallback.writes", commands=write_hint))
        lines.append(m.say(lang, "fallback.help"))
        self._offered = _Offered(card, lang, now)
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

    def _shortcuts(self, lang: str) -> tuple[CardOption, ...]:
        """Every read-only module's shortcut as an option."""
        shortcuts: list[CardOption] = []
        for entry in self.parts.registry.modules():
            command = entry.first_command()
            if entry.access is not Access.READ or command is None or entry.routing.is_structured_only:
                continue
            for shortcut in entry.routing.shortcuts:
                shortcuts.append(self._option(command.line(shortcut.value), shortcut.label_key, entry.id, lang))
        return tuple(shortcuts)

    @staticmethod
    def _label(key: str | None, entry: Registered | None, module_id: str, lang: str) -> str:
        """A label's text: the module's own (declared with its key), else the reply table's, else
        what its command does. Never the key itself: that is a name for code, not for players."""
        if entry is not None and key is not None:
            declared = entry.routing.label_text(key).say(lang)
            if declared:
                return declared
        if key is not None and key in m.MESSAGES:
            return m.say(lang, key)
        command = entry.first_command() if entry is not None else None
        if command is not None:
            return (command.description_zh if lang == "zh" else "") or command.description or command.usage
        return module_id

    def click_card(self, args: str, lang: str, now: float) -> Sequence[Action | RunLine]:
        parsed = parse_click(args)
        if parsed is None:
            return [ReplyToPlayer((lm.say(lang, "card.syntax"),))]
        option = self.cards.resolve(*parsed, now)
        self.confirmations.settle(parsed[0])  # clicked: a typed answer no longer applies to it
        if self._offered is not None and self._offered.card.card_id == parsed[0]:
            self._offered = None  # nor does a typed option name
        if isinstance(option, CardError):
            key = "card.syntax" if option is CardError.SYNTAX else f"card.{option.value}"
            return [ReplyToPlayer((lm.say(lang, key),))]
        # A new explicit request: the stored command line runs, no routing, no model.
        return [RunLine(option.command_line)]

    def option_reply(self, text: str, language: str, now: float, typed: bool) -> Sequence[Action | RunLine] | None:
        """An option of the last not-sure card named by what the player typed (its label, its
        command, a phrasing of its key), exactly like a click on it; None when the line is not
        clearly one option. ``typed``: ordinary chat, so only a short line within ``ANSWER_SECONDS``."""
        offered = self._offered
        if offered is None or now >= offered.card.expires_at:
            return None
        if typed and (now >= offered.shown_at + ANSWER_SECONDS or len(text) > TYPED_REPLY_CHARS):
            return None
        if not typed and (now >= offered.shown_at + OPTION_SECONDS or len(text) > self.parts.config.max_characters):
            return None
        notice, numbers = self._card_as_notice(offered)
        hit = self.parts.buttons.match(notice, text, language if language in BUTTON_LANGUAGES else offered.language)
        if not isinstance(hit, Hit):
            return None  # not clearly one option: ordinary routing, or chat for the server
        self._offered = None
        self._options = ()
        option = self.cards.resolve(offered.card.card_id, offered.card.version, numbers[hit.key], now)
        if isinstance(option, CardError):
            return [ReplyToPlayer((lm.say(offered.language, f"card.{option.value}"),))]
        return [RunLine(option.command_line)]

    @staticmethod
    def _card_as_notice(offered: _Offered) -> tuple[Notification, dict[str, int]]:
        """The card's options as buttons (keyed by their label keys, for the phrasings file)."""
        buttons: list[NoticeButton] = []
        numbers: dict[str, int] = {}
        for n, option in enumerate(offered.card.options, 1):
            key = option.key if option.key and option.key not in numbers else f"option.{n}"
            numbers[key] = n
            buttons.append(NoticeButton(key, option.label, RunCommand(option.command_line), option.phrases))
        card = offered.card
        return Notification(card.card_id, (), tuple(buttons), offered.language, card.expires_at, "card"), numbers

    def offers_options(self, now: float) -> bool:
        """The last card is recent enough for ordinary chat to name one of its options."""
        offered = self._offered
        return offered is not None and now < min(offered.card.expires_at, offered.shown_at + ANSWER_SECONDS)

    # --- a write's confirmation card and its typed answers -----------------------------------

    def confirm_write(self, line: str, what: str, lang: str, now: float, by_model: bool = True) -> ReplyToPlayer:
        """A write the model (or, without one, the router) proposed: shown for the player to confirm
        with one click or a typed "yes", never run here. ``line`` must be one the command table
        parsed (the caller's check)."""
        card = self.cards.issue((CardOption(line, what, write=True),), now, single_use=True)
        self.confirmations.show(Confirmation(card.card_id, card.version, line, lang,
                                             min(card.expires_at, now + ANSWER_SECONDS)))
        text = lm.say(lang, "card.write" if by_model else "card.write_local", command=line, what=what)
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

    def milestone_notice(self, text: str, lang: str, now: float) -> ReplyToPlayer:
        """An autopilot milestone, with what a player may want then: its status, stopping it, or
        nothing. Each button's command is fixed here, never taken from a reply."""
        notice = self.notices.post(
            (text,),
            (NoticeButton("notice.autopilot_status", lm.say(lang, "notice.autopilot_status"),
                          RunCommand("!autopilot status")),
             NoticeButton("notice.stop_autopilot", lm.say(lang, "notice.stop_autopilot"), RunCommand("!autopilot off")),
             NoticeButton("notice.dismiss", lm.say(lang, "notice.dismiss"), Dismiss())),
            lang, now, kind="milestone")
        return self.show_notification(notice)

    def typed_reply(self, text: str, language: str, lang: str, now: float) -> Sequence[Action | RunLine] | None:
        """Ordinary chat (no ``@ai``): an answer to what is visible, in the order ``@ai`` takes
        them, or None (the line goes to the server unchanged)."""
        short = len(text) <= TYPED_REPLY_CHARS
        answered = self.notice_reply(text, language, lang, now) if short else None
        if answered is None:
            answered = self.answer(text, language, lang, now)
        if answered is None and short:
            answered = self.option_reply(text, language, now, typed=True)
        return answered

    def may_answer(self, text: str, now: float) -> bool:
        """Cheap (no matching): could this ordinary chat line answer something visible? The proxy
        asks for every chat line; False means it goes to the server unread."""
        if self.expects_answer(now):
            return True
        if len(text) > TYPED_REPLY_CHARS:
            return False
        return self.notices.visible(now) is not None or self.offers_options(now)

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
