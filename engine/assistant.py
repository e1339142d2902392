"""The assistant behind ``@ai`` and the ``!`` commands: router + module registry.

How this works: one ``AssistantRuntime`` per proxy process holds what all
players share and what is built once at start: the frozen module registry,
the vocabulary, the semantic index, the intent cache (bounded globally and
per player), the counters and the current config. ``runtime.new_assistant()``
gives each connection a ``LocalAssistant`` with its own scope id,
generations, inbox and current option card; it implements the Session's
``Assistant`` protocol.

``request`` routes one ``@ai`` line (``engine.routing.router``) and either
runs a module now (option number, explicit phrase, cache hit, confident
read-only match) or falls back: to the model service (``engine.llm``) when
it may be asked, else to an honest "not sure" card listing read-only
commands. ``command`` runs ``!name args`` explicitly. Nothing here reads a
clock.

The model is never called from here: a fallback returns an ``AskModel``;
the player's Session hands its call to the model runner it was given
(``engine.llm.runner``) and, on a later tick, calls ``model_answered`` with the
reply, which re-checks the choice (a write becomes a card to confirm, never an
action).
Per player: the conversation mode (``!mode``), the external-AI switch
(``!ai on|off``), the option cards (``/agent card <id> <version> <n>``) and the
visible notification whose buttons a typed reply may match
(``/agent notice <id> <key>``). Before the model is asked, in this order:
no model service, AI off, offline mode, no key, then the limits (rate,
concurrency, budget); any of them gives a card instead of a call.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable
from collections import deque
from pathlib import Path
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from engine.actions import Action, AskModel, ChatButton, Output, ReplyToPlayer, RunLine
from engine.commands.table import Invocation
from engine.commands.builtin import ROUTED_COMMANDS, full_table
from engine.llm import messages as lm
from engine.llm.calls import ChatMessage, ModelCall, ModelFailure, ModelReply
from engine.llm.cards import Card, CardBook, CardError, CardOption, parse_click
from engine.llm.confirmations import CANCEL, CONFIRM, Answer, Confirmation, ConfirmationDesk
from engine.llm.limits import Limit
from engine.llm.modes import ConversationMode, ModeThresholds, parse_mode
from engine.llm.notification_buttons import (
    ButtonMatcher, Dismiss, Hit, NoticeBoard, NoticeButton, Notification, Phrases, RunCommand, load_phrases,
)
from engine.llm.render import render_reply
from engine.llm.service import LlmService, failure_message_key
from engine.llm.validation import Chose, Rejected, Said, decide
from engine.modules import messages as m
from engine.modules.builtin import register_builtins
from engine.modules.extensions import EntryPointLike, ExtensionReport, load_extensions
from engine.modules.items import ItemTable
from engine.modules.module import Access, InboxMessage, ModuleContext, ModuleResult
from engine.modules.declarations import ParseContext
from engine.modules.registry import ModuleRegistry, Registered
from engine.routing.cache import IntentCache
from engine.routing.config import ALGORITHM, Mode, ReloadReport, SemanticConfig, load_or_create, reload
from engine.routing.language import detect_language, locale_language, reply_language
from engine.routing.lexical_index import DEFAULT_BACKEND, Backend
from engine.routing.model_hook import CatalogEntry, ModelCandidate, ModelRoutingRequest, RoutingTicket
from engine.routing.normalize import normalize_text
from engine.routing.router import Candidate, Route, Router, ScopeState
from engine.routing.scores import meets
from engine.routing.semantic_index import SemanticIndex
from engine.routing.stats import Reason, RoutingStats
from engine.routing.vocabulary import Vocabulary
from engine.world.snapshot import WorldSnapshot

INBOX_LIMIT = 50
OPTION_SECONDS = 300.0
CARD_OPTIONS = 3
PENDING_LIMIT = 16
INBOX_MODULE = "agent:inbox"
UNPARSED = "unparsed"  # the model's command line did not parse: a card, like any rejected answer
# A typed answer ("yes", "取消") counts only this long after its card was shown: chat scrolls, and a
# "yes" said minutes later to another player must not confirm a write (a click still works until
# the card itself expires).
ANSWER_SECONDS = 60.0
AI_WORDS = {"on": True, "enable": True, "开": True, "开启": True, "off": False, "disable": False, "关": False, "关闭": False}


@attrs.frozen
class Caller:
    """What the player's session knows about them that modules read."""

    admin: bool = False
    progress: str | None = None  # the autopilot's ladder progress; None before the first episode


@attrs.frozen
class PendingCall:
    """What a model call's answer needs to be turned into a reply or a card; dropped when stale."""

    ticket: RoutingTicket
    text: str  # the request, kept only until the answer arrives
    lang: str
    mode: ConversationMode
    options: tuple[CardOption, ...] = ()  # read-only candidates for a card if the call fails
    write_hint: str | None = None
    chat: bool = False


class AssistantRuntime:
    def __init__(
        self,
        config: SemanticConfig,
        *,
        items: ItemTable | None = None,
        registry: ModuleRegistry | None = None,
        config_path: Path | str | None = None,
        backend: Backend = DEFAULT_BACKEND,
        llm: LlmService | None = None,
        button_phrases: Phrases | None = None,
        perf_counter: Callable[[], float] | None = None,
        observe_routing_seconds: Callable[[float], None] | None = None,
        extensions: Iterable[EntryPointLike] | Callable[[], Iterable[EntryPointLike]] | None = None,
        button_phrases_path: Path | str | None = None,
    ) -> None:
        """``perf_counter`` times routing alone; each duration goes to ``observe_routing_seconds``.

        ``extensions``: entry points of the ``mcagent.modules`` group (or a function
        listing them, e.g. ``installed_entry_points``) loaded before the registry
        freezes; a broken one is reported in ``warnings`` and left out.
        """
        self.items = items or ItemTable.builtin()
        if registry is None:
            registry = ModuleRegistry()
            register_builtins(registry, self.items, ROUTED_COMMANDS)
        self.extensions = ExtensionReport((), ())
        if extensions is not None:
            self.extensions = load_extensions(registry, extensions)
        registry.freeze()
        self.registry = registry
        self.commands = full_table(registry.commands())
        self.llm = llm
        self.buttons = ButtonMatcher(button_phrases)
        # notification-buttons.json, re-read by reload (the seed rebuilds after a resource reload).
        self.button_phrases_path = Path(button_phrases_path) if button_phrases_path is not None else None
        self.free_chat = llm.settings.free_chat if llm is not None else ModeThresholds()
        self.default_mode = llm.settings.default_mode if llm is not None else ConversationMode.STANDARD
        self.last_now = 0.0  # the latest time an assistant was called with, for the diagnostics
        self.config_path = Path(config_path) if config_path is not None else None
        self.vocabulary = Vocabulary.builtin(self.items.english_phrases(), self.items.chinese_phrases())
        # The index is built once, from the examples and languages of this start;
        # starting with mode OFF builds none (enabling it later needs a restart).
        self.index: SemanticIndex | None = None
        if config.mode is not Mode.OFF:
            self.index = SemanticIndex(self.vocabulary, registry.index_specs(config.examples), config.languages, backend)
        self.cache = IntentCache(config.cache_entries, config.entries_per_player, config.cache_seconds)
        self.stats = RoutingStats(observe_routing_seconds)
        self.router = Router(config, registry, self.vocabulary, self.index, self.cache, self.stats, perf_counter)
        self.warnings = tuple(
            f"examples for {key} ignored: no module with a semantic profile has that id"
            for key in registry.unknown_example_targets(config.examples)
        ) + tuple(f"extension {name} not loaded: {why}" for name, why in self.extensions.failed)
        self._scopes = itertools.count(1)

    @classmethod
    def from_file(cls, path: Path | str, **kwargs: Any) -> "AssistantRuntime":
        """Load (or create on first run) ``system-semantic.json`` and build the runtime from it."""
        return cls(load_or_create(path), config_path=path, **kwargs)

    @property
    def config(self) -> SemanticConfig:
        return self.router.config

    def new_assistant(self) -> "LocalAssistant":
        """An assistant for one connection, with a scope id no other connection ever gets."""
        return LocalAssistant(self, f"s{next(self._scopes)}")

    def model_finished(self, call: ModelCall, reply: ModelReply, now: float) -> None:
        """Every admitted call ends here exactly once (the proxy calls it), whoever is still connected."""
        if self.llm is not None:
            self.llm.finished(call, reply, now)

    def set_routing_mode(self, word: str) -> list[str]:
        """``routing mode enforce|shadow|off``: the one function behind the console's command and
        ``!system routing mode`` in game. Holds until the next reload or restart."""
        try:
            wanted = Mode(word.upper())
        except ValueError:
            return [f"unknown routing mode {word!r}: expected enforce, shadow or off"]
        if wanted is not Mode.OFF and self.index is None:
            return ["the index was not built at start (mode OFF then); restart to enable local routing"]
        self.router.config = self.config.model_copy(update={"mode": wanted})
        return [f"routing mode is now {wanted.value} (until the next reload or restart)"]

    def reload(self) -> ReloadReport:
        if self.config_path is None:
            raise ValueError("this runtime was not built from a config file")
        report = reload(self.config_path, self.config, self.index is not None)
        fresh = report.config
        self.router.config = fresh
        self.cache.configure(fresh.cache_entries, fresh.entries_per_player, fresh.cache_seconds)
        return report

    def reload_lines(self) -> list[str]:
        try:
            lines = ["routing config reloaded"] + self.reload().lines()
        except ValueError as exc:
            lines = [f"routing config not reloaded: {exc}"]
        return lines + self.reload_buttons()

    def reload_buttons(self) -> list[str]:
        """Re-read notification-buttons.json; a bad file keeps the phrasings in use and says why."""
        if self.button_phrases_path is None:
            return []
        try:
            phrases = load_phrases(self.button_phrases_path)
        except ValueError as exc:
            return [f"notification buttons not reloaded (the old phrasings stay): {exc}"]
        self.buttons.replace(phrases)
        return [f"notification buttons reloaded: phrasings for {len(phrases)} buttons"]

    def diagnostics(self) -> list[str]:
        config = self.config
        if self.index is None:
            status = "index not built (started with mode OFF; a restart is needed to enable it)"
        else:
            counts = ", ".join(f"{lang}: {n}" for lang, n in self.index.example_counts.items())
            status = f"index ready, examples {counts}"
        lines = [
            f"routing: algorithm {ALGORITHM}, mode {config.mode.value}, {status}",
            f"cache: {len(self.cache)} entries (max {config.cache_entries}, {config.entries_per_player} per player, "
            f"ttl {config.cache_seconds:g}s)",
        ]
        if self.llm is not None:
            lines += self.llm.status_lines(self.last_now)
        else:
            lines.append("model service: none (low-confidence requests get a not-sure reply)")
        lines += self.stats.lines()
        lines += [f"extension {name}: modules {', '.join(ids)}" for name, ids in self.extensions.loaded]
        lines += list(self.warnings)
        return lines


class LocalAssistant:
    def __init__(self, runtime: AssistantRuntime, scope: str) -> None:
        self.runtime = runtime
        self.commands = runtime.commands
        self.scope = scope
        self.caller = Caller()
        self.run_generation = 0
        self.memory_generation = 0
        self.history = True
        self.inbox: list[InboxMessage] = []
        self._inbox_seen = 0
        self._options: tuple[str, ...] = ()
        self._options_until = 0.0
        self._tickets = itertools.count(1)
        self._pending: dict[int, RoutingTicket] = {}
        self._calls: dict[int, PendingCall] = {}
        self.mode = runtime.default_mode
        self.ai_enabled = True
        self.language = "en"  # the player's reply language as last seen, for notifications
        self.cards = CardBook()
        self.confirmations = ConfirmationDesk()  # write cards a typed "yes"/"cancel" may answer
        self.notices = NoticeBoard()
        turns = runtime.llm.settings.history_turns if runtime.llm is not None else 6
        self.conversation: deque[ChatMessage] = deque(maxlen=2 * max(0, turns))

    # --- per-player state -------------------------------------------------

    def notify(self, text: str, now: float) -> list[Action]:
        """Keep a message for the inbox (private message while away, reflex or autopilot notice).

        Shows a notification with buttons (open the inbox, dismiss) unless one
        about the inbox is still visible.
        """
        self.inbox.append(InboxMessage(text, now))
        if len(self.inbox) > INBOX_LIMIT:
            dropped = len(self.inbox) - INBOX_LIMIT
            del self.inbox[:dropped]
            self._inbox_seen = max(0, self._inbox_seen - dropped)
        visible = self.notices.visible(now)
        if visible is not None and visible.kind == "inbox":
            return []
        lang = self.language
        notice = self.notices.post(
            (lm.say(lang, "notice.inbox", unread=len(self.inbox) - self._inbox_seen),),
            (NoticeButton("notice.open_inbox", lm.say(lang, "notice.open_inbox"), RunCommand("!inbox")),
             NoticeButton("notice.dismiss", lm.say(lang, "notice.dismiss"), Dismiss())),
            lang, now, kind="inbox")
        return [self.show_notification(notice)]

    @staticmethod
    def show_notification(notice: Notification) -> ReplyToPlayer:
        buttons = tuple(ChatButton(b.label, notice.button_command(b.key),
                                   b.action.line if isinstance(b.action, RunCommand) else b.label)
                        for b in notice.buttons)
        return ReplyToPlayer(notice.lines, buttons)

    def clear_scope(self) -> None:
        """Disconnect: forget this scope's cache entries and drop any late model answer."""
        self.runtime.cache.clear_scope(self.scope)
        self._drop_pending()
        self._options = ()
        self.cards.invalidate()
        self.confirmations.clear()
        self.notices.clear()
        self.conversation.clear()

    def clear_memory(self) -> None:
        """``!memory clear``: the conversation, this player's intent cache, and what was built on them.

        The memory generation moves on, so a cache write or model answer still in flight
        for the old memory is dropped (the seed's "late writes check the generation")."""
        self.memory_generation += 1
        self.runtime.cache.clear_scope(self.scope)
        self._drop_pending()
        self._options = ()
        self.cards.invalidate()
        self.confirmations.clear()
        self.conversation.clear()

    def set_history(self, enabled: bool) -> None:
        """History saving off: the intent cache is neither read nor written (a preference change clears it)."""
        self.history = enabled
        self.runtime.cache.clear_scope(self.scope)
        if not enabled:
            self.conversation.clear()

    def set_mode(self, mode: ConversationMode) -> None:
        self.mode = mode
        self._preferences_changed()

    def set_ai(self, enabled: bool) -> None:
        """External AI off: no request leaves the proxy for this player; an answer still in flight is dropped.

        The intent cache is kept: its entries say what a request means, not
        who may be asked, and with AI off commands, the cache and local direct
        answers are exactly what still works.
        """
        self.ai_enabled = enabled
        self._preferences_changed(clear_cache=False)

    def _preferences_changed(self, clear_cache: bool = True) -> None:
        if clear_cache:
            self.runtime.cache.clear_scope(self.scope)
        self._drop_pending()
        self._options = ()
        self.cards.invalidate()
        self.confirmations.clear()
        self.conversation.clear()

    def _drop_pending(self) -> None:
        self._pending.clear()
        self._calls.clear()

    def scope_state(self) -> ScopeState:
        return ScopeState(self.scope, self.run_generation, self.memory_generation, self.history)

    # --- Assistant protocol ------------------------------------------------

    def run_module(self, entry: Registered, value: Any, inv: "Invocation") -> ReplyToPlayer:
        """``!name args`` of a module, parsed by the command table, which checked access."""
        self.runtime.last_now = inv.now
        self.language = inv.lang
        self.caller = Caller(inv.admin, inv.progress)
        return self._execute(entry, value, inv.snapshot, inv.lang, inv.now)

    def parse_context(self, snapshot: WorldSnapshot, lang: str) -> Callable[[str], ParseContext]:
        """How the command table's parsers see an argument string: with this runtime's vocabulary."""
        return lambda args: self.runtime.router.parse_context(normalize_text(args), snapshot, lang)

    def request(self, text: str, snapshot: WorldSnapshot, now: float, caller: Caller | None = None) -> Sequence[Output]:
        self.runtime.last_now = now
        self.caller = caller or Caller()
        language = detect_language(text, snapshot.locale)
        lang = reply_language(snapshot.locale, language)
        self.language = lang
        answered = self._notice_reply(text, language, lang, now)
        if answered is None:
            answered = self._answer(text, language, lang, now)
        if answered is not None:
            return answered
        if self.mode is ConversationMode.FREE and self._blocker() is None:
            return self._chat(text, language, lang, snapshot, now)
        options = self._options if now < self._options_until else ()
        route = self.runtime.router.route(text, language, self.scope_state(), snapshot, now, options)
        if route.reason is Reason.OPTION:
            self._options = ()
            if route.command_line is None:
                return [ReplyToPlayer((m.say(lang, "option.range", count=len(options)),))]
            return [RunLine(route.command_line)]
        self._options = ()
        if route.module_id is not None:
            entry = self.runtime.registry.get(route.module_id)
            if entry is not None:
                if not self._below_free_chat(route):
                    return [self._execute(entry, route.args, snapshot, lang, now)]
                route = self._demoted(route, entry, lang)
        return self._fall_back(text, route, snapshot, lang, now)

    # --- model seam ----------------------------------------------------------

    def model_answered(self, call: ModelCall, reply: ModelReply, snapshot: WorldSnapshot, now: float,
                       caller: Caller | None = None) -> list[Action]:
        """The reply to an ``AskModel`` this assistant returned; [] when the call is stale.

        Stale: the scope was cleared (disconnect), memory or a preference
        changed, or the call belongs to another scope. A failure gives the
        card the player would have got without a model; a choice is
        re-checked by ``_choice``; text is rendered plain and capped.
        """
        self.runtime.last_now = now
        self.caller = caller or Caller()
        rid = call.ticket.request_id
        if call.scope != self.scope:
            return []
        pending = self._calls.pop(rid, None)
        if pending is None or pending.ticket != call.ticket or self._pending.get(rid) != call.ticket:
            return []
        lang = pending.lang
        llm = self.runtime.llm
        if isinstance(reply, ModelFailure):
            self._pending.pop(rid, None)
            return [self._card(pending.lang, now, [m.say(lang, "fallback.unsure"), lm.say(lang, failure_message_key(reply))],
                               pending.options, pending.write_hint)]
        decision = decide(call, reply)
        if llm is not None:
            llm.count(f"decided_{type(decision).__name__.lower()}")
        if isinstance(decision, Chose):
            return self._choice(call.ticket, pending.text, decision.command_line, snapshot, now, pending)
        self._pending.pop(rid, None)
        if isinstance(decision, Said):
            shown = render_reply(decision.text, llm.settings.reply_chars if llm is not None else 600)
            if not shown.lines:
                return [ReplyToPlayer((lm.say(lang, "chat.empty"),))]
            self._remember_turn(pending, decision.text)
            return [shown]
        return [self._rejected_card(pending, decision, now)]

    def _choice(self, ticket: RoutingTicket, text: str, command_line: str, snapshot: WorldSnapshot, now: float,
                pending: PendingCall | None) -> list[Action]:
        if self._pending.pop(ticket.request_id, None) != ticket:
            return []
        lang = reply_language(snapshot.locale, ticket.language)
        name, _, args = command_line.strip().lstrip("!/").partition(" ")
        found = self.runtime.registry.command(name, args)
        value = None
        if found is not None:
            entry, command, rest = found
            # The execution layer's own check: never structured-only or admin modules from a model.
            if (not entry.routing.is_structured_only and entry.access is not Access.ADMIN
                    and len(rest) <= self.runtime.config.max_characters):
                ctx = self.runtime.router.parse_context(normalize_text(rest), snapshot, ticket.language)
                value = command.parse(rest, ctx)
        if found is None or value is None:
            if pending is None:
                return [ReplyToPlayer((m.say(lang, "fallback.unsure"),))]
            return [self._rejected_card(pending, UNPARSED, now)]
        if entry.access is not Access.READ:
            return [self._write_card(entry, command.line(value), command.description, lang, now)]
        reply = self._run(entry, value, snapshot, lang, now)
        if reply[1].completed:
            self.runtime.router.remember(ticket.key, text, entry.id, value, snapshot, now)
        return [reply[0]]

    # --- internals -------------------------------------------------------------

    def mode_command(self, word: str, lang: str) -> list[Action]:
        if not word:
            return [ReplyToPlayer((lm.say(lang, "mode.now", mode=self.mode.value,
                                           explain=lm.say(lang, f"mode.{self.mode.value}")),))]
        mode = parse_mode(word)
        if mode is None:
            return [ReplyToPlayer((lm.say(lang, "mode.usage"),))]
        self.set_mode(mode)
        return [ReplyToPlayer((lm.say(lang, "mode.set", mode=mode.value, explain=lm.say(lang, f"mode.{mode.value}")),))]

    def memory_command(self, word: str, lang: str) -> list[Action]:
        """``!memory clear``."""
        self.clear_memory()
        return [ReplyToPlayer((lm.say(lang, "memory.cleared"),))]

    def history_command(self, word: str, lang: str) -> list[Action]:
        """``!history on|off|status``: whether the intent cache is read and written for this player."""
        if word in ("on", "off"):
            self.set_history(word == "on")
        return [ReplyToPlayer((lm.say(lang, "history.on" if self.history else "history.off"),))]

    def ai_command(self, word: str, lang: str) -> list[Action]:
        if word == "status":
            enabled = self.ai_enabled
        elif word in AI_WORDS:
            enabled = AI_WORDS[word]
            self.set_ai(enabled)
        else:
            return [ReplyToPlayer((lm.say(lang, "ai.usage"),))]
        lines = [lm.say(lang, "ai.on" if enabled else "ai.off")]
        llm = self.runtime.llm
        if enabled and (llm is None or not llm.has_key):
            lines.append(lm.say(lang, "ai.no_key"))
        return [ReplyToPlayer(tuple(lines))]

    def click_notice(self, args: str, lang: str, now: float) -> Sequence[Action | RunLine]:
        notice_id, _, key = args.strip().partition(" ")
        button = self.notices.take(int(notice_id), key.strip(), now) if notice_id.isdigit() else None
        if button is None:
            return [ReplyToPlayer((lm.say(lang, "notice.gone"),))]
        return self._trusted(button, lang)

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

    # --- typed answers to a write's confirmation card ---------------------------------

    def expects_answer(self, now: float) -> bool:
        """A write's confirmation card is visible, so ordinary chat may be its typed answer."""
        return self.confirmations.visible(now) is not None

    def answer_typed(self, text: str, snapshot: WorldSnapshot, now: float) -> Sequence[Action | RunLine] | None:
        """Ordinary chat (no prefix) while a confirmation card is visible: what answering it does, or
        None when the line is not clearly one of its buttons and must go to the server untouched."""
        if self.confirmations.visible(now) is None:
            return None
        language = detect_language(text, snapshot.locale)
        return self._answer(text, language, reply_language(snapshot.locale, language), now)

    def _answer(self, text: str, language: str, lang: str, now: float) -> Sequence[Action | RunLine] | None:
        if len(text) > self.runtime.config.max_characters:
            return None
        answer = self.confirmations.answer(text, language, now, self.runtime.buttons)
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
        found = self.commands.find(shown.command_line.lstrip("!"))
        what = found[0].help.say(lang) if found is not None else shown.command_line
        card = self.cards.get(shown.card_id)
        buttons = self._buttons(card) if card is not None else ()
        return ReplyToPlayer((lm.say(lang, "card.details", command=shown.command_line, what=what),
                              lm.say(lang, "card.type")), buttons)

    def _notice_reply(self, text: str, language: str, lang: str, now: float) -> Sequence[Action | RunLine] | None:
        notice = self.notices.visible(now)
        if notice is None or len(text) > self.runtime.config.max_characters:
            return None  # nothing to answer, or too long to be a button's text: ordinary routing
        hit = self.runtime.buttons.match(notice, text, language if language in ("en", "zh") else lang)
        if not isinstance(hit, Hit):
            return None  # not sure it is a reply to the notification: ordinary routing
        button = self.notices.take(notice.notice_id, hit.key, now)
        if button is None:
            return None
        return self._trusted(button, lang)

    def _trusted(self, button: NoticeButton, lang: str) -> Sequence[Action | RunLine]:
        """Run the action the notification itself carried (never anything taken from the reply's text)."""
        if isinstance(button.action, RunCommand):
            return [RunLine(button.action.line)]
        return [ReplyToPlayer((lm.say(lang, "notice.dismissed"),))]

    def _context(self, snapshot: WorldSnapshot, lang: str, now: float) -> ModuleContext:
        runtime = self.runtime
        return ModuleContext(
            snapshot=snapshot,
            language=lang,
            now=now,
            admin=self.caller.admin,
            items=runtime.items,
            inbox=tuple(self.inbox),
            inbox_unread=len(self.inbox) - self._inbox_seen,
            command_rows=tuple(self.commands.help_rows(lang, self.caller.admin)),
            diagnostics=runtime.diagnostics,
            reload_routing=runtime.reload_lines,
            set_routing_mode=runtime.set_routing_mode,
            progress=self.caller.progress,
        )

    def _run(self, entry: Registered, value: Any, snapshot: WorldSnapshot, lang: str, now: float) -> tuple[ReplyToPlayer, ModuleResult]:
        assert entry.module is not None, f"{entry.id} is a command-table write: routing never runs it"
        result = entry.module.execute(value, self._context(snapshot, lang, now))
        if entry.id == INBOX_MODULE:
            self._inbox_seen = len(self.inbox)
        return ReplyToPlayer(result.lines, result.buttons), result

    def _execute(self, entry: Registered, value: Any, snapshot: WorldSnapshot, lang: str, now: float) -> ReplyToPlayer:
        return self._run(entry, value, snapshot, lang, now)[0]

    def _below_free_chat(self, route: Route) -> bool:
        """Extended mode: a direct match must also clear the higher free-chat threshold."""
        if self.mode is not ConversationMode.EXTENDED or route.reason is not Reason.DIRECT or route.match is None:
            return False
        free = self.runtime.free_chat
        return not (meets(route.match.score, free.score) and meets(route.match.margin, free.margin))

    def _demoted(self, route: Route, entry: Registered, lang: str) -> Route:
        """A direct route that extended mode does not trust: its module stays the top candidate."""
        command = entry.first_command()
        line = command.line(route.args) if command is not None else None
        label = entry.routing.shortcuts[0].label_key if entry.routing.shortcuts else (
            entry.routing.profile.choice_label if entry.routing.profile is not None else None)
        score = route.match.score if route.match is not None else 0.0
        top = Candidate(entry.id, score, True, line, label)
        return attrs.evolve(route, module_id=None, args=None, candidates=(top,))

    def _blocker(self) -> str | None:
        """Why the model may not be asked for this player now (message key), before any limit is used."""
        runtime = self.runtime
        if runtime.llm is None:
            return "fallback.no_model"
        if not self.ai_enabled:
            return "why.ai_off"
        if self.mode is ConversationMode.OFFLINE:
            return "why.offline"
        if runtime.llm is not None and not runtime.llm.has_key:
            return "why.no_key"
        return None

    def _admit(self, snapshot: WorldSnapshot, lang: str, now: float) -> str | None:
        """Reserve a call under the limits; the reason line when a limit stops it."""
        llm = self.runtime.llm
        if llm is None:
            return None
        player = snapshot.player_name.lower() or self.scope
        limit = llm.admit(player, now, scope=self.scope)
        if limit is None:
            return None
        if limit is Limit.RATE:
            wait = int(llm.limits.seconds_until_allowed(player, now)) + 1
            return lm.say(lang, "why.rate", limit=llm.settings.limits.requests_per_minute, seconds=wait)
        return lm.say(lang, f"why.{limit.value}")

    def _reason_line(self, key: str, lang: str) -> str:
        return m.say(lang, key) if key in m.MESSAGES else lm.say(lang, key)

    def _new_ticket(self, key: Any, language: str) -> RoutingTicket:
        ticket = RoutingTicket(next(self._tickets), key, language)
        self._pending[ticket.request_id] = ticket
        while len(self._pending) > PENDING_LIMIT:
            oldest = next(iter(self._pending))
            del self._pending[oldest]
            self._calls.pop(oldest, None)
        return ticket

    def _fall_back(self, text: str, route: Route, snapshot: WorldSnapshot, lang: str, now: float) -> list[Output]:
        runtime = self.runtime
        options = self._card_options(route, lang)
        write_hint = self._write_hint(route)
        blocked = self._blocker()
        why = self._reason_line(blocked, lang) if blocked is not None else self._admit(snapshot, lang, now)
        if why is not None:
            runtime.stats.count(Reason.NO_MODEL)
            if route.reason is Reason.TOO_LONG:
                head = [m.say(lang, "fallback.too_long", limit=runtime.config.max_characters)]
            else:
                head = [m.say(lang, "fallback.unsure"), why]
            return [self._card(lang, now, head, options, write_hint)]
        ticket = self._new_ticket(route.key, route.language)
        runtime.stats.count(Reason.MODEL_FALLBACK)
        request = ModelRoutingRequest(
            ticket, text, route.language,
            tuple(ModelCandidate(c.module_id, c.score, c.read_only, c.command_line) for c in route.candidates),
            self._catalog(),
        )
        self._calls[ticket.request_id] = PendingCall(ticket, text, lang, self.mode, options, write_hint)
        assert runtime.llm is not None  # _blocker said the model may be asked
        language = self._player_language(snapshot, route.language)
        return [AskModel(runtime.llm.routing_call(request, self.scope, language, self.mode, self._history()))]

    def _chat(self, text: str, language: str, lang: str, snapshot: WorldSnapshot, now: float) -> list[Output]:
        """Free mode: the request goes to the model as conversation, no routing."""
        llm = self.runtime.llm
        if llm is None:
            return [self._card(lang, now, [m.say(lang, "fallback.unsure"), m.say(lang, "fallback.no_model")], (), None)]
        why = self._admit(snapshot, lang, now)
        if why is not None:
            return [self._card(lang, now, [m.say(lang, "fallback.unsure"), why], (), None)]
        ticket = self._new_ticket(None, language)
        self._calls[ticket.request_id] = PendingCall(ticket, text, lang, self.mode, chat=True)
        language = self._player_language(snapshot, language)
        return [AskModel(llm.chat_call(ticket, text, self.scope, language, self.mode, self._history()))]

    @staticmethod
    def _player_language(snapshot: WorldSnapshot, detected: str) -> str:
        """``requestContext.playerLanguage``: the client's own setting (trusted), the text's script only without one."""
        return locale_language(snapshot.locale) or detected

    def _history(self) -> tuple[ChatMessage, ...]:
        if not self.history or not self.mode.keeps_conversation:
            return ()
        return tuple(self.conversation)

    def _remember_turn(self, pending: PendingCall, answer: str) -> None:
        if self.history and pending.mode.keeps_conversation and self.conversation.maxlen:
            self.conversation.append(ChatMessage("user", pending.text))
            self.conversation.append(ChatMessage("assistant", answer[:1000]))

    def _catalog(self) -> tuple[CatalogEntry, ...]:
        out: list[CatalogEntry] = []
        for entry in self.runtime.registry.modules():
            command = entry.first_command()
            if not entry.model_visible or command is None or entry.access is Access.ADMIN:
                continue
            out.append(CatalogEntry(entry.id, command.usage, command.description, entry.access is Access.READ,
                                    entry.routing.is_explicit_only))
        return tuple(out)

    # --- cards ---------------------------------------------------------------

    def _card_options(self, route: Route, lang: str) -> tuple[CardOption, ...]:
        """This request's read-only candidates whose arguments parsed, best first."""
        picked = [CardOption(c.command_line, self._label(c.label_key, c.module_id, lang))
                  for c in route.candidates if c.read_only and c.command_line is not None]
        return tuple(picked[:CARD_OPTIONS])

    def _write_hint(self, route: Route) -> str | None:
        top = route.candidates[0] if route.candidates else None
        if top is None or top.read_only or route.reason not in (Reason.FILTERED_WRITE, Reason.NOT_DIRECT):
            return None
        entry = self.runtime.registry.get(top.module_id)
        command = entry.first_command() if entry is not None else None
        return (top.command_line or command.usage) if command is not None else None

    def _card(self, lang: str, now: float, head: list[str], options: tuple[CardOption, ...],
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

    @staticmethod
    def _buttons(card: Card) -> tuple[ChatButton, ...]:
        return tuple(ChatButton(o.command_line, card.button_command(n), f"{o.command_line} - {o.label}")
                     for n, o in enumerate(card.options, 1))

    def _write_card(self, entry: Registered, line: str, what: str, lang: str, now: float) -> ReplyToPlayer:
        return self.confirm_write(line, what or entry.id, lang, now)

    def confirm_write(self, line: str, what: str, lang: str, now: float) -> ReplyToPlayer:
        """A write the model proposed: shown for the player to confirm with one click or a typed
        "yes", never run here. ``line`` must be one the command table parsed (the caller's check)."""
        card = self.cards.issue((CardOption(line, what, write=True),), now, single_use=True)
        self.confirmations.show(Confirmation(card.card_id, card.version, line, lang,
                                             min(card.expires_at, now + ANSWER_SECONDS)))
        text = lm.say(lang, "card.write", command=line, what=what)
        return ReplyToPlayer((text, lm.say(lang, "card.type")), self._buttons(card))

    def _rejected_card(self, pending: PendingCall, decision: Rejected | str, now: float) -> ReplyToPlayer:
        lang = pending.lang
        reason = decision.reason.value if isinstance(decision, Rejected) else decision
        head = [m.say(lang, "fallback.unsure"), lm.say(lang, "why.rejected", reason=lm.reject_reason(lang, reason))]
        return self._card(lang, now, head, pending.options, pending.write_hint)

    def _shortcuts(self, lang: str) -> list[tuple[str, str]]:
        """Every read-only module's shortcut as (command line, label)."""
        shortcuts: list[tuple[str, str]] = []
        for entry in self.runtime.registry.modules():
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

