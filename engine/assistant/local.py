"""One player's assistant: their scope and switches, their inbox, and one ``@ai`` line routed.

How this works: ``request`` takes one ``@ai`` line through, in order: a reply to the visible
notification's buttons, a typed answer to a write's confirmation card (``CardDesk``), free
chat (mode ``free``: straight to the model), then the router (``engine.routing.router``):
a number picks an option of the last card, a confident read-only match runs its module now,
and anything else picks the last not-sure card's option it names (``CardDesk.option_reply``)
or falls back to the model or the not-sure card (``ModelSeam``). What comes
back is a list of outputs: actions, ``RunLine`` (a command line the player trusted, which the
session runs through the command table) and ``AskModel`` (a call the session hands to the
model runner). Nothing here reads a clock or runs a command line itself.

The command table's handlers come back in through ``run_module`` (a module's ``!command``),
``click_card``/``click_notice`` and the switches (``mode_command``, ``ai_command``,
``memory_command``, ``history_command``).
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from engine.actions import Action, Output, ReplyToPlayer, RunLine
from engine.assistant.cards import CardDesk
from engine.assistant.model_seam import ModelSeam
from engine.assistant.shared import Caller, Preferences, RuntimeParts
from engine.commands.table import Invocation
from engine.llm import messages as lm
from engine.llm.calls import ChatMessage, ModelCall, ModelReply
from engine.llm.cards import CardBook
from engine.llm.confirmations import ConfirmationDesk
from engine.llm.modes import ConversationMode, parse_mode
from engine.llm.notification_buttons import NoticeBoard, Notification
from engine.modules import messages as m
from engine.modules.declarations import ParseContext
from engine.modules.module import InboxMessage, ModuleContext, ModuleResult
from engine.modules.registry import Registered
from engine.routing.language import detect_language, reply_language
from engine.routing.normalize import normalize_text
from engine.routing.router import Candidate, Route, ScopeState
from engine.routing.scores import meets
from engine.routing.stats import Reason
from engine.world.snapshot import WorldSnapshot

INBOX_LIMIT = 50
INBOX_MODULE = "agent:inbox"
AI_WORDS = {"on": True, "enable": True, "开": True, "开启": True, "off": False, "disable": False, "关": False, "关闭": False}


class LocalAssistant:
    def __init__(self, runtime: RuntimeParts, scope: str) -> None:
        self.runtime = runtime
        self.commands = runtime.commands
        self.scope = scope
        self.caller = Caller()
        self.run_generation = 0
        self.memory_generation = 0
        self.preferences = Preferences(runtime.default_mode)
        self.inbox: list[InboxMessage] = []
        self._inbox_seen = 0
        self.language = "en"  # the player's reply language as last seen, for notifications
        self.desk = CardDesk(runtime)
        self.model = ModelSeam(runtime, scope, self.preferences, self.desk, self._run)

    # The switches and the desk's parts, by the names the rest of the engine and the tests use.
    @property
    def mode(self) -> ConversationMode:
        return self.preferences.mode

    @property
    def ai_enabled(self) -> bool:
        return self.preferences.ai_enabled

    @property
    def history(self) -> bool:
        return self.preferences.history

    @property
    def cards(self) -> CardBook:
        return self.desk.cards

    @property
    def confirmations(self) -> ConfirmationDesk:
        return self.desk.confirmations

    @property
    def notices(self) -> NoticeBoard:
        return self.desk.notices

    @property
    def conversation(self) -> deque[ChatMessage]:
        return self.model.conversation

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
        shown = self.desk.inbox_notice(len(self.inbox) - self._inbox_seen, self.language, now)
        return [shown] if shown is not None else []

    def milestone(self, text: str, now: float) -> list[Action]:
        """An autopilot milestone, said with its buttons (status, stop autopilot, dismiss)."""
        return [self.desk.milestone_notice(text, self.language, now)]

    @staticmethod
    def show_notification(notice: Notification) -> ReplyToPlayer:
        return CardDesk.show_notification(notice)

    def clear_scope(self) -> None:
        """Disconnect: forget this scope's cache entries and drop any late model answer."""
        self.runtime.cache.clear_scope(self.scope)
        self.model.clear()
        self.desk.forget(notices=True)
        self.model.conversation.clear()

    def clear_memory(self) -> None:
        """``!memory clear``: the conversation, this player's intent cache, and what was built on them.

        The memory generation moves on, so a cache write or model answer still in flight
        for the old memory is dropped (the seed's "late writes check the generation")."""
        self.memory_generation += 1
        self.runtime.cache.clear_scope(self.scope)
        self.model.clear()
        self.desk.forget()
        self.model.conversation.clear()

    def set_history(self, enabled: bool) -> None:
        """History saving off: the intent cache is neither read nor written (a preference change clears it)."""
        self.preferences.history = enabled
        self.runtime.cache.clear_scope(self.scope)
        if not enabled:
            self.model.conversation.clear()

    def set_mode(self, mode: ConversationMode) -> None:
        self.preferences.mode = mode
        self._preferences_changed()

    def set_ai(self, enabled: bool) -> None:
        """External AI off (or on again): no request leaves the proxy for this player while off;
        an answer still in flight is dropped.

        Like every preference change in the seed, it clears the player's cache scope: what was
        remembered was judged under the old switches, so the next request is routed afresh
        (commands and local direct answers still work with AI off).
        """
        self.preferences.ai_enabled = enabled
        self._preferences_changed()

    def _preferences_changed(self) -> None:
        self.runtime.cache.clear_scope(self.scope)
        self.model.clear()
        self.desk.forget()
        self.model.conversation.clear()

    def scope_state(self) -> ScopeState:
        return ScopeState(self.scope, self.run_generation, self.memory_generation, self.preferences.history)

    # --- what the session and the command table call -----------------------------------

    def run_module(self, entry: Registered, value: Any, inv: Invocation) -> ReplyToPlayer:
        """``!name args`` of a module, parsed by the command table, which checked access."""
        self.runtime.last_now = inv.now
        self.language = inv.lang
        self.caller = Caller(inv.admin, inv.progress)
        return self._run(entry, value, inv.the_snapshot(), inv.lang, inv.now)[0]

    def parse_context(self, snapshot: WorldSnapshot, lang: str) -> Callable[[str], ParseContext]:
        """How the command table's parsers see an argument string: with this runtime's vocabulary."""
        return lambda args: self.runtime.router.parse_context(normalize_text(args), snapshot, lang)

    def request(self, text: str, snapshot: WorldSnapshot, now: float, caller: Caller | None = None) -> Sequence[Output]:
        self.runtime.last_now = now
        self.caller = caller or Caller()
        language = detect_language(text, snapshot.locale)
        lang = reply_language(snapshot.locale, language)
        self.language = lang
        answered = self.desk.notice_reply(text, language, lang, now)
        if answered is None:
            answered = self.desk.answer(text, language, lang, now)
        if answered is not None:
            return answered
        if self.preferences.mode is ConversationMode.FREE and self.model.blocker() is None:
            self.desk.drop_offered()
            return self.model.chat(text, language, lang, snapshot, now)
        options = self.desk.options(now)
        route = self.runtime.router.route(text, language, self.scope_state(), snapshot, now, options)
        if route.language != language:  # "wo de zuo biao": read as the Chinese it spells, answered so
            lang = self.language = reply_language(snapshot.locale, route.language)
        # Like "@ai <n>", a typed option name applies to the next request only (here, or as chat).
        self.desk.drop_options()
        if route.reason is Reason.OPTION:
            self.desk.drop_offered()
            if route.command_line is None:
                return [ReplyToPlayer((m.say(lang, "option.range", count=len(options)),))]
            return [RunLine(route.command_line)]
        if route.module_id is not None:
            entry = self.runtime.registry.get(route.module_id)
            if entry is not None:
                if not self._below_free_chat(route):
                    self.desk.drop_offered()
                    return [self._run(entry, route.args, snapshot, lang, now)[0]]
                route = self._demoted(route, entry)
        # Not answered here: the name of an option of the last not-sure card picks it, as a click would.
        picked = self.desk.option_reply(text, language, now, typed=False)
        if picked is not None:
            return picked
        self.desk.drop_offered()
        return self.model.fall_back(text, route, snapshot, lang, now)

    def model_answered(self, call: ModelCall, reply: ModelReply, snapshot: WorldSnapshot, now: float,
                       caller: Caller | None = None) -> list[Action]:
        """The reply to an ``AskModel`` this assistant returned; [] when the call is stale (``ModelSeam``)."""
        self.runtime.last_now = now
        self.caller = caller or Caller()
        return self.model.answered(call, reply, snapshot, now)

    def confirm_write(self, line: str, what: str, lang: str, now: float) -> ReplyToPlayer:
        return self.desk.confirm_write(line, what, lang, now)

    def expects_answer(self, now: float) -> bool:
        """A write's confirmation card is visible, so ordinary chat may be its typed answer."""
        return self.desk.expects_answer(now)

    def may_answer(self, text: str, now: float) -> bool:
        """Cheap: could this ordinary chat line answer a visible confirmation, notification or card?"""
        return self.desk.may_answer(text, now)

    def answer_typed(self, text: str, snapshot: WorldSnapshot, now: float) -> Sequence[Action | RunLine] | None:
        """Ordinary chat (no prefix) while a confirmation, a notification or a not-sure card is
        visible: what answering it does, or None when the line is not clearly one of its buttons
        and must go to the server untouched."""
        if not self.desk.may_answer(text, now):
            return None
        language = detect_language(text, snapshot.locale)
        return self.desk.typed_reply(text, language, reply_language(snapshot.locale, language), now)

    def click_card(self, args: str, lang: str, now: float) -> Sequence[Action | RunLine]:
        return self.desk.click_card(args, lang, now)

    def click_notice(self, args: str, lang: str, now: float) -> Sequence[Action | RunLine]:
        return self.desk.click_notice(args, lang, now)

    # --- the assistant's switches (``!mode``, ``!memory``, ``!history``, ``!ai``) --------------

    def mode_command(self, word: str, lang: str) -> list[Action]:
        if not word:
            mode = self.preferences.mode
            return [ReplyToPlayer((lm.say(lang, "mode.now", mode=mode.value, explain=lm.say(lang, f"mode.{mode.value}")),))]
        parsed = parse_mode(word)
        if parsed is None:
            return [ReplyToPlayer((lm.say(lang, "mode.usage"),))]
        self.set_mode(parsed)
        return [ReplyToPlayer((lm.say(lang, "mode.set", mode=parsed.value,
                                      explain=lm.say(lang, f"mode.{parsed.value}")),))]

    def memory_command(self, word: str, lang: str) -> list[Action]:
        """``!memory clear``."""
        self.clear_memory()
        return [ReplyToPlayer((lm.say(lang, "memory.cleared"),))]

    def history_command(self, word: str, lang: str) -> list[Action]:
        """``!history on|off|status``: whether the intent cache is read and written for this player."""
        if word in ("on", "off"):
            self.set_history(word == "on")
        return [ReplyToPlayer((lm.say(lang, "history.on" if self.preferences.history else "history.off"),))]

    def ai_command(self, word: str, lang: str) -> list[Action]:
        if word == "status":
            enabled = self.preferences.ai_enabled
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

    # --- running a module -----------------------------------------------------------------

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

    def _run(self, entry: Registered, value: Any, snapshot: WorldSnapshot, lang: str, now: float
             ) -> tuple[ReplyToPlayer, ModuleResult]:
        assert entry.module is not None, f"{entry.id} is a command-table write: routing never runs it"
        result = entry.module.execute(value, self._context(snapshot, lang, now))
        if entry.id == INBOX_MODULE:
            self._inbox_seen = len(self.inbox)
        return ReplyToPlayer(result.lines, result.buttons), result

    def _below_free_chat(self, route: Route) -> bool:
        """Extended mode: a direct match must also clear the higher free-chat threshold."""
        if self.preferences.mode is not ConversationMode.EXTENDED or route.match is None:
            return False
        if route.reason is Reason.LEARNED:
            return True  # the thresholds refused it: free chat needs more than that
        if route.reason is not Reason.DIRECT:
            return False
        free = self.runtime.free_chat
        return not (meets(route.match.score, free.score) and meets(route.match.margin, free.margin))

    @staticmethod
    def _demoted(route: Route, entry: Registered) -> Route:
        """A direct route that extended mode does not trust: its module stays the top candidate."""
        command = entry.first_command()
        line = command.line(route.args) if command is not None else None
        label = entry.routing.shortcuts[0].label_key if entry.routing.shortcuts else (
            entry.routing.profile.choice_label if entry.routing.profile is not None else None)
        score = route.match.score if route.match is not None else 0.0
        top = Candidate(entry.id, score, True, line, label)
        return attrs.evolve(route, module_id=None, args=None, candidates=(top,))
