"""The model seam: whether the model may be asked for a player, the call, and its answer re-checked.

How this works: a request routing could not answer goes to ``fall_back``. Before the model
is asked, in this order: no model service, AI off, offline mode, no key (``blocker``), then
the limits, rate, concurrency and budget (``admit``); any of them gives the not-sure card
instead of a call. Otherwise a ticket is issued (at most ``PENDING_LIMIT`` wait per player,
the oldest dropped first) and an ``AskModel`` goes back to the session, which hands its call
to the model runner; nothing here waits or reads a clock.

The reply comes back through ``answered``. It counts only for the ticket it was asked with
(``clear``, a memory or preference change, drops them all): a failure gives the card the
player would have got without a model, text is rendered plain and capped, and a chosen
command is re-checked by the execution layer (``_choice``): never a structured-only or admin
module, its arguments parsed again; a read runs now, a write becomes a confirmation card.
"""
from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable
from typing import Any

import attrs

from engine.actions import Action, AskModel, Output, ReplyToPlayer
from engine.assistant.cards import CardDesk
from engine.assistant.shared import Preferences, RuntimeParts
from engine.llm import messages as lm
from engine.llm.calls import ChatMessage, ModelCall, ModelFailure, ModelReply
from engine.llm.cards import CardOption
from engine.llm.limits import Limit
from engine.llm.modes import ConversationMode
from engine.llm.render import render_reply
from engine.llm.service import failure_message_key
from engine.llm.validation import Chose, Rejected, Said, decide
from engine.modules import messages as m
from engine.modules.module import Access, ModuleResult
from engine.modules.registry import Registered
from engine.routing.language import locale_language, reply_language
from engine.routing.model_hook import CatalogEntry, ModelCandidate, ModelRoutingRequest, RoutingTicket
from engine.routing.normalize import normalize_text
from engine.routing.router import Route
from engine.routing.scores import meets
from engine.routing.stats import Reason
from engine.world.snapshot import WorldSnapshot

PENDING_LIMIT = 16
UNPARSED = "unparsed"  # the model's command line did not parse: a card, like any rejected answer

# Runs a read-only module for the player: the reply and the module's own result.
RunModule = Callable[[Registered, Any, WorldSnapshot, str, float], tuple[ReplyToPlayer, ModuleResult]]


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


class ModelSeam:
    def __init__(self, parts: RuntimeParts, scope: str, preferences: Preferences, desk: CardDesk,
                 run_module: RunModule) -> None:
        self.parts = parts
        self.scope = scope
        self.preferences = preferences
        self.desk = desk
        self.run_module = run_module
        self._tickets = itertools.count(1)
        self._pending: dict[int, RoutingTicket] = {}
        self._calls: dict[int, PendingCall] = {}
        turns = parts.llm.settings.history_turns if parts.llm is not None else 6
        self.conversation: deque[ChatMessage] = deque(maxlen=2 * max(0, turns))

    def clear(self) -> None:
        """Drop every call still waiting: its answer, when it comes, is stale."""
        self._pending.clear()
        self._calls.clear()

    # --- before the call ------------------------------------------------------------------------

    def blocker(self) -> str | None:
        """Why the model may not be asked for this player now (message key), before any limit is used."""
        llm = self.parts.llm
        if llm is None:
            return "fallback.no_model"
        if not self.preferences.ai_enabled:
            return "why.ai_off"
        if self.preferences.mode is ConversationMode.OFFLINE:
            return "why.offline"
        if not llm.has_key:
            return "why.no_key"
        return None

    def _admit(self, snapshot: WorldSnapshot, lang: str, now: float) -> str | None:
        """Reserve a call under the limits; the reason line when a limit stops it."""
        llm = self.parts.llm
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

    @staticmethod
    def _reason_line(key: str, lang: str) -> str:
        return m.say(lang, key) if key in m.MESSAGES else lm.say(lang, key)

    def _new_ticket(self, key: Any, language: str) -> RoutingTicket:
        ticket = RoutingTicket(next(self._tickets), key, language)
        self._pending[ticket.request_id] = ticket
        while len(self._pending) > PENDING_LIMIT:
            oldest = next(iter(self._pending))
            del self._pending[oldest]
            self._calls.pop(oldest, None)
        return ticket

    def fall_back(self, text: str, route: Route, snapshot: WorldSnapshot, lang: str, now: float) -> list[Output]:
        parts = self.parts
        options = self.desk.card_options(route, lang)
        write_hint = self.desk.write_hint(route)
        blocked = self.blocker()
        why = self._reason_line(blocked, lang) if blocked is not None else self._admit(snapshot, lang, now)
        if why is not None:
            parts.stats.count(Reason.NO_MODEL)
            proposed = self._local_write(route, lang, now)
            if proposed is not None:
                return [proposed]
            if route.reason is Reason.TOO_LONG:
                head = [m.say(lang, "fallback.too_long", limit=parts.config.max_characters)]
            else:
                head = [m.say(lang, "fallback.unsure"), why]
            return [self.desk.card(lang, now, head, options, write_hint)]
        ticket = self._new_ticket(route.key, route.language)
        parts.stats.count(Reason.MODEL_FALLBACK)
        request = ModelRoutingRequest(
            ticket, text, route.language,
            tuple(ModelCandidate(c.module_id, c.score, c.read_only, c.command_line) for c in route.candidates),
            self.catalog(),
        )
        mode = self.preferences.mode
        self._calls[ticket.request_id] = PendingCall(ticket, text, lang, mode, options, write_hint)
        assert parts.llm is not None  # blocker said the model may be asked
        language = self._player_language(snapshot, route.language)
        return [AskModel(parts.llm.routing_call(request, self.scope, language, mode, self._history()))]

    def _local_write(self, route: Route, lang: str, now: float) -> ReplyToPlayer | None:
        """Without a model: a request the router matched to a write that asks for it
        (``RoutingProfile.confirmed_without_model``) as surely as it sends a read direct, with the
        write's arguments read from the text ("take me to the survival server": ``!server
        survival``), gets that write's confirmation card. The player's click or typed "yes" runs
        it, never the match (invariant 2)."""
        match = route.match
        top = route.candidates[0] if route.candidates else None
        if (route.reason is not Reason.FILTERED_WRITE or match is None or top is None or top.read_only
                or top.command_line is None or top.module_id != match.module_id):
            return None
        limits = self.parts.config.thresholds(match.module_id, route.language)
        if not (meets(match.score, limits.score) and meets(match.margin, limits.margin)
                and meets(match.coverage, limits.coverage)):
            return None
        entry = self.parts.registry.get(top.module_id)
        command = entry.first_command() if entry is not None else None
        if entry is None or command is None or entry.routing.profile is None \
                or not entry.routing.profile.card_without_model:
            return None
        return self.desk.confirm_write(top.command_line, command.description or top.module_id, lang, now,
                                       by_model=False)

    def chat(self, text: str, language: str, lang: str, snapshot: WorldSnapshot, now: float) -> list[Output]:
        """Free mode: the request goes to the model as conversation, no routing."""
        llm = self.parts.llm
        if llm is None:
            head = [m.say(lang, "fallback.unsure"), m.say(lang, "fallback.no_model")]
            return [self.desk.card(lang, now, head, (), None)]
        why = self._admit(snapshot, lang, now)
        if why is not None:
            return [self.desk.card(lang, now, [m.say(lang, "fallback.unsure"), why], (), None)]
        ticket = self._new_ticket(None, language)
        mode = self.preferences.mode
        self._calls[ticket.request_id] = PendingCall(ticket, text, lang, mode, chat=True)
        language = self._player_language(snapshot, language)
        return [AskModel(llm.chat_call(ticket, text, self.scope, language, mode, self._history()))]

    @staticmethod
    def _player_language(snapshot: WorldSnapshot, detected: str) -> str:
        """``requestContext.playerLanguage``: the client's own setting (trusted), the text's script only without one."""
        return locale_language(snapshot.locale) or detected

    def _history(self) -> tuple[ChatMessage, ...]:
        if not self.preferences.history or not self.preferences.mode.keeps_conversation:
            return ()
        return tuple(self.conversation)

    def _remember_turn(self, pending: PendingCall, answer: str) -> None:
        if self.preferences.history and pending.mode.keeps_conversation and self.conversation.maxlen:
            self.conversation.append(ChatMessage("user", pending.text))
            self.conversation.append(ChatMessage("assistant", answer[:1000]))

    def catalog(self) -> tuple[CatalogEntry, ...]:
        """Every module and routed command the model may choose, with its arguments (its tools)."""
        out: list[CatalogEntry] = []
        for entry in self.parts.registry.modules():
            command = entry.first_command()
            if not entry.model_visible or command is None or entry.access is Access.ADMIN:
                continue
            out.append(CatalogEntry(entry.id, command.usage, command.description, entry.access is Access.READ,
                                    entry.routing.is_explicit_only, command.arguments))
        return tuple(out)

    # --- the answer -------------------------------------------------------------------------------

    def answered(self, call: ModelCall, reply: ModelReply, snapshot: WorldSnapshot, now: float) -> list[Action]:
        """The reply to an ``AskModel`` this seam returned; [] when the call is stale.

        Stale: the scope was cleared (disconnect), memory or a preference
        changed, or the call belongs to another scope. A failure gives the
        card the player would have got without a model; a choice is
        re-checked by ``_choice``; text is rendered plain and capped.
        """
        rid = call.ticket.request_id
        if call.scope != self.scope:
            return []
        pending = self._calls.pop(rid, None)
        if pending is None or pending.ticket != call.ticket or self._pending.get(rid) != call.ticket:
            return []
        lang = pending.lang
        llm = self.parts.llm
        if isinstance(reply, ModelFailure):
            self._pending.pop(rid, None)
            head = [m.say(lang, "fallback.unsure"), lm.say(lang, failure_message_key(reply))]
            return [self.desk.card(pending.lang, now, head, pending.options, pending.write_hint)]
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
        return [self._rejected(pending, decision, now)]

    def _rejected(self, pending: PendingCall, decision: Rejected | str, now: float) -> ReplyToPlayer:
        reason = decision.reason.value if isinstance(decision, Rejected) else decision
        return self.desk.rejected(pending.lang, reason, pending.options, pending.write_hint, now)

    def _choice(self, ticket: RoutingTicket, text: str, command_line: str, snapshot: WorldSnapshot, now: float,
                pending: PendingCall | None) -> list[Action]:
        if self._pending.pop(ticket.request_id, None) != ticket:
            return []
        parts = self.parts
        lang = reply_language(snapshot.locale, ticket.language)
        name, _, args = command_line.strip().lstrip("!/").partition(" ")
        found = parts.registry.command(name, args)
        value = None
        if found is not None:
            entry, command, rest = found
            # The execution layer's own check: never structured-only or admin modules from a model.
            if (not entry.routing.is_structured_only and entry.access is not Access.ADMIN
                    and len(rest) <= parts.config.max_characters):
                ctx = parts.router.parse_context(normalize_text(rest), snapshot, ticket.language)
                value = command.parse(rest, ctx)
        if found is None or value is None:
            if pending is None:
                return [ReplyToPlayer((m.say(lang, "fallback.unsure"),))]
            return [self._rejected(pending, UNPARSED, now)]
        if entry.access is not Access.READ:
            return [self.desk.confirm_write(command.line(value), command.description or entry.id, lang, now)]
        reply = self.run_module(entry, value, snapshot, lang, now)
        if reply[1].completed:
            parts.router.remember(ticket.key, text, entry.id, value, snapshot, now)
        return [reply[0]]
