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
read-only match) or falls back: to the ``ModelRouter`` when one is
configured, else to an honest "not sure" card listing read-only commands.
``command`` runs ``!name args`` explicitly. Nothing here reads a clock.
"""
from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from engine.actions import Action, ChatButton, ReplyToPlayer
from engine.modules import messages as m
from engine.modules.builtin import register_builtins
from engine.modules.items import ItemTable
from engine.modules.module import Access, InboxMessage, ModuleContext, ModuleResult
from engine.modules.registry import ModuleRegistry, Registered
from engine.routing.cache import IntentCache
from engine.routing.config import ALGORITHM, Mode, ReloadReport, SemanticConfig, load_or_create, reload
from engine.routing.language import detect_language, reply_language
from engine.routing.lexical_index import DEFAULT_BACKEND, Backend
from engine.routing.model_hook import CatalogEntry, ModelCandidate, ModelRouter, ModelRoutingRequest, RoutingTicket
from engine.routing.normalize import normalize_text
from engine.routing.router import Route, Router, ScopeState
from engine.routing.semantic_index import SemanticIndex
from engine.routing.stats import Reason, RoutingStats
from engine.routing.vocabulary import Vocabulary
from engine.world.snapshot import WorldSnapshot

INBOX_LIMIT = 50
OPTION_SECONDS = 300.0
CARD_OPTIONS = 3
PENDING_LIMIT = 16
INBOX_MODULE = "agent:inbox"


class AssistantRuntime:
    def __init__(
        self,
        config: SemanticConfig,
        *,
        model: ModelRouter | None = None,
        items: ItemTable | None = None,
        registry: ModuleRegistry | None = None,
        config_path: Path | str | None = None,
        backend: Backend = DEFAULT_BACKEND,
    ) -> None:
        self.items = items or ItemTable.builtin()
        if registry is None:
            registry = ModuleRegistry()
            register_builtins(registry, self.items)
        registry.freeze()
        self.registry = registry
        self.model = model
        self.config_path = Path(config_path) if config_path is not None else None
        self.vocabulary = Vocabulary.builtin(self.items.english_phrases(), self.items.chinese_phrases())
        # The index is built once, from the examples and languages of this start;
        # starting with mode OFF builds none (enabling it later needs a restart).
        self.index: SemanticIndex | None = None
        if config.mode is not Mode.OFF:
            self.index = SemanticIndex(self.vocabulary, registry.index_specs(config.examples), config.languages, backend)
        self.cache = IntentCache(config.cache_entries, config.entries_per_player, config.cache_seconds)
        self.stats = RoutingStats()
        self.router = Router(config, registry, self.vocabulary, self.index, self.cache, self.stats)
        self.warnings = tuple(
            f"examples for {key} ignored: no module with a semantic profile has that id"
            for key in registry.unknown_example_targets(config.examples)
        )
        self._scopes = itertools.count(1)

    @classmethod
    def from_file(cls, path: Path | str, **kwargs: Any) -> "AssistantRuntime":
        """Load (or create on first run) ``system-semantic.json`` and build the runtime from it."""
        return cls(load_or_create(path), config_path=path, **kwargs)

    @property
    def config(self) -> SemanticConfig:
        return self.router.config

    def new_assistant(self, admin: bool = False) -> "LocalAssistant":
        """An assistant for one connection, with a scope id no other connection ever gets."""
        return LocalAssistant(self, f"s{next(self._scopes)}", admin=admin)

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
            return ["routing config reloaded"] + self.reload().lines()
        except ValueError as exc:
            return [f"routing config not reloaded: {exc}"]

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
            f"model router: {'configured' if self.model is not None else 'none (low-confidence requests get a not-sure reply)'}",
        ]
        lines += self.stats.lines()
        lines += list(self.warnings)
        return lines


class LocalAssistant:
    def __init__(self, runtime: AssistantRuntime, scope: str, *, admin: bool = False) -> None:
        self.runtime = runtime
        self.scope = scope
        self.admin = admin
        self.run_generation = 0
        self.memory_generation = 0
        self.history = True
        self.inbox: list[InboxMessage] = []
        self._inbox_seen = 0
        self._options: tuple[str, ...] = ()
        self._options_until = 0.0
        self._tickets = itertools.count(1)
        self._pending: dict[int, RoutingTicket] = {}

    # --- per-player state -------------------------------------------------

    def notify(self, text: str, now: float) -> None:
        """Keep a message for the inbox (private message while away, reflex or autopilot notice)."""
        self.inbox.append(InboxMessage(text, now))
        if len(self.inbox) > INBOX_LIMIT:
            dropped = len(self.inbox) - INBOX_LIMIT
            del self.inbox[:dropped]
            self._inbox_seen = max(0, self._inbox_seen - dropped)

    def set_admin(self, admin: bool) -> None:
        self.admin = admin

    def clear_scope(self) -> None:
        """Disconnect: forget this scope's cache entries and drop any late model answer."""
        self.runtime.cache.clear_scope(self.scope)
        self._pending.clear()
        self._options = ()

    def clear_memory(self) -> None:
        self.memory_generation += 1
        self.runtime.cache.clear_scope(self.scope)
        self._pending.clear()

    def new_run(self) -> None:
        self.run_generation += 1
        self.runtime.cache.clear_scope(self.scope)

    def set_history(self, enabled: bool) -> None:
        """History saving off: the intent cache is neither read nor written (a preference change clears it)."""
        self.history = enabled
        self.runtime.cache.clear_scope(self.scope)

    def scope_state(self) -> ScopeState:
        return ScopeState(self.scope, self.run_generation, self.memory_generation, self.history)

    # --- Assistant protocol ------------------------------------------------

    def command_help(self) -> list[tuple[str, str]]:
        return [row for row in self.runtime.registry.help_rows() if not row[1].endswith("(admin)") or self.admin]

    def command(self, name: str, args: str, snapshot: WorldSnapshot, now: float) -> list[Action] | None:
        found = self.runtime.registry.command(name, args)
        if found is None:
            return None
        entry, command, rest = found
        lang = reply_language(snapshot.locale)
        ctx = self.runtime.router.parse_context(normalize_text(rest), snapshot, lang)
        value = command.parse(rest, ctx)
        if value is None:
            return [ReplyToPlayer((m.say(lang, "unknown.args", usage=command.usage),))]
        return [self._execute(entry, value, snapshot, lang, now)]

    def request(self, text: str, snapshot: WorldSnapshot, now: float) -> list[Action]:
        language = detect_language(text, snapshot.locale)
        lang = reply_language(snapshot.locale, language)
        options = self._options if now < self._options_until else ()
        route = self.runtime.router.route(text, language, self.scope_state(), snapshot, now, options)
        if route.reason is Reason.OPTION:
            self._options = ()
            if route.command_line is None:
                return [ReplyToPlayer((m.say(lang, "option.range", count=len(options)),))]
            return self._run_line(route.command_line, snapshot, now) or []
        self._options = ()
        if route.module_id is not None:
            entry = self.runtime.registry.get(route.module_id)
            if entry is not None:
                return [self._execute(entry, route.args, snapshot, lang, now)]
        return self._fall_back(text, route, snapshot, lang, now)

    # --- model seam ----------------------------------------------------------

    def model_chose(self, ticket: RoutingTicket, text: str, command_line: str, snapshot: WorldSnapshot, now: float) -> list[Action]:
        """The model's choice for a pending request, as an explicit command line; re-checked here.

        A stale ticket (scope cleared, memory cleared) is discarded. A write is
        never executed: the player gets a button to run it explicitly. A
        read-only module runs, and if it completed its choice may be cached.
        """
        if self._pending.pop(ticket.request_id, None) != ticket:
            return []
        lang = reply_language(snapshot.locale, ticket.language)
        name, _, args = command_line.strip().lstrip("!/").partition(" ")
        found = self.runtime.registry.command(name, args)
        if found is None or found[0].routing.is_structured_only:
            return [ReplyToPlayer((m.say(lang, "fallback.unsure"),))]
        entry, command, rest = found
        ctx = self.runtime.router.parse_context(normalize_text(rest), snapshot, ticket.language)
        value = command.parse(rest, ctx)
        if value is None:
            return [ReplyToPlayer((m.say(lang, "fallback.unsure"),))]
        if entry.access is not Access.READ:
            line = command.line(value)
            return [ReplyToPlayer((m.say(lang, "fallback.writes", commands=line),), (ChatButton(line, line, entry.id),))]
        reply = self._run(entry, value, snapshot, lang, now)
        if reply[1].completed:
            self.runtime.router.remember(ticket.key, text, entry.id, value, snapshot, now)
        return [reply[0]]

    # --- internals -------------------------------------------------------------

    def _run_line(self, line: str, snapshot: WorldSnapshot, now: float) -> list[Action] | None:
        name, _, args = line.strip().lstrip("!").partition(" ")
        return self.command(name, args, snapshot, now)

    def _context(self, snapshot: WorldSnapshot, lang: str, now: float) -> ModuleContext:
        runtime = self.runtime
        return ModuleContext(
            snapshot=snapshot,
            language=lang,
            now=now,
            admin=self.admin,
            items=runtime.items,
            inbox=tuple(self.inbox),
            inbox_unread=len(self.inbox) - self._inbox_seen,
            command_rows=tuple(self.command_help()),
            diagnostics=runtime.diagnostics,
            reload_routing=runtime.reload_lines,
        )

    def _run(self, entry: Registered, value: Any, snapshot: WorldSnapshot, lang: str, now: float) -> tuple[ReplyToPlayer, ModuleResult]:
        result = entry.module.execute(value, self._context(snapshot, lang, now))
        if entry.id == INBOX_MODULE:
            self._inbox_seen = len(self.inbox)
        return ReplyToPlayer(result.lines, result.buttons), result

    def _execute(self, entry: Registered, value: Any, snapshot: WorldSnapshot, lang: str, now: float) -> ReplyToPlayer:
        return self._run(entry, value, snapshot, lang, now)[0]

    def _fall_back(self, text: str, route: Route, snapshot: WorldSnapshot, lang: str, now: float) -> list[Action]:
        runtime = self.runtime
        if runtime.model is not None:
            ticket = RoutingTicket(next(self._tickets), route.key, route.language)
            self._pending[ticket.request_id] = ticket
            while len(self._pending) > PENDING_LIMIT:
                del self._pending[next(iter(self._pending))]
            runtime.stats.count(Reason.MODEL_FALLBACK)
            request = ModelRoutingRequest(
                ticket, text, route.language,
                tuple(ModelCandidate(c.module_id, c.score, c.read_only, c.command_line) for c in route.candidates),
                self._catalog(),
            )
            return runtime.model.route(request, now)
        runtime.stats.count(Reason.NO_MODEL)
        return [self._unsure(route, lang, now)]

    def _catalog(self) -> tuple[CatalogEntry, ...]:
        out: list[CatalogEntry] = []
        for entry in self.runtime.registry.modules():
            command = entry.first_command()
            if not entry.model_visible or command is None or entry.access is Access.ADMIN:
                continue
            out.append(CatalogEntry(entry.id, command.usage, command.description, entry.access is Access.READ,
                                    entry.routing.is_explicit_only))
        return tuple(out)

    def _unsure(self, route: Route, lang: str, now: float) -> ReplyToPlayer:
        """No model: say so, offer read-only commands that may help, never guess."""
        if route.reason is Reason.TOO_LONG:
            lines = [m.say(lang, "fallback.too_long", limit=self.runtime.config.max_characters)]
        else:
            lines = [m.say(lang, "fallback.unsure"), m.say(lang, "fallback.no_model")]
        buttons: list[ChatButton] = []
        picked = [(c.command_line, self._label(c.label_key, c.module_id, lang))
                  for c in route.candidates if c.read_only and c.command_line is not None][:CARD_OPTIONS]
        if picked:
            # Candidates of this request whose arguments parsed: numbered, so "@ai 2" picks one.
            lines.append(m.say(lang, "fallback.try"))
            for n, (line, label) in enumerate(picked, 1):
                lines.append(m.say(lang, "fallback.option", n=n, command=line, label=label))
                buttons.append(ChatButton(line, line, label))
            lines.append(m.say(lang, "fallback.pick"))
            self._options = tuple(line for line, _ in picked if line is not None)
            self._options_until = now + OPTION_SECONDS
        else:
            shortcuts = self._shortcuts(lang)
            lines.append(m.say(lang, "fallback.shortcuts", commands=", ".join(line for line, _ in shortcuts)))
            buttons.extend(ChatButton(line, line, label) for line, label in shortcuts)
        top = route.candidates[0] if route.candidates else None
        if top is not None and not top.read_only and route.reason in (Reason.FILTERED_WRITE, Reason.NOT_DIRECT):
            entry = self.runtime.registry.get(top.module_id)
            command = entry.first_command() if entry is not None else None
            if command is not None:
                lines.append(m.say(lang, "fallback.writes", commands=top.command_line or command.usage))
        lines.append(m.say(lang, "fallback.help"))
        return ReplyToPlayer(tuple(lines), tuple(buttons))

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
