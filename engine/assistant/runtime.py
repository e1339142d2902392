"""The process-wide half of the assistant: what every player shares, built once at start.

How this works: one ``AssistantRuntime`` per proxy process holds the frozen module registry,
the command table, the vocabulary, the semantic index, the intent cache (bounded globally and
per player), the counters and the current config. ``new_assistant()`` gives each connection a
``LocalAssistant`` (``engine.assistant.local``) with its own scope id, which reads this runtime
only through ``RuntimeParts`` (``engine.assistant.shared``). ``reload`` re-reads the config and
the notification phrasings; ``set_routing_mode`` is the one function behind the console's
``routing mode`` and ``!system routing mode``.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from engine.assistant.local import LocalAssistant
from engine.commands.builtin import ROUTED_COMMANDS, full_table
from engine.commands.table import Command
from engine.llm.calls import ModelCall, ModelReply
from engine.llm.modes import ConversationMode, ModeThresholds
from engine.llm.notification_buttons import ButtonMatcher, Phrases, load_phrases
from engine.llm.service import LlmService
from engine.modules.builtin import register_builtins
from engine.modules.extensions import EntryPointLike, ExtensionReport, load_extensions
from engine.modules.items import ItemTable
from engine.modules.registry import ModuleRegistry
from engine.routing.cache import IntentCache
from engine.routing.filters import BLOCKING_KINDS
from engine.routing.config import ALGORITHM, ROUTING_MODES, Mode, ReloadReport, SemanticConfig, load_or_create, reload
from engine.routing import line_model
from engine.routing.lexical_index import DEFAULT_BACKEND, Backend
from engine.routing.pinyin_lines import PinyinReader
from engine.routing.router import Router
from engine.routing.semantic_index import IndexSpec, SemanticIndex
from engine.routing.stats import RoutingStats
from engine.routing.vocabulary import Vocabulary


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
        commands: Sequence[Command[Any]] = (),
    ) -> None:
        """``perf_counter`` times routing alone; each duration goes to ``observe_routing_seconds``.

        ``extensions``: entry points of the ``mcagent.modules`` group (or a function
        listing them, e.g. ``installed_entry_points``) loaded before the registry
        freezes; a broken one is reported in ``warnings`` and left out.

        ``commands``: player commands beyond ``engine.commands.builtin``'s, each one entry
        with its handler; a routed one becomes a routing target and a model tool too.
        """
        self.items = items or ItemTable.builtin()
        if registry is None:
            registry = ModuleRegistry()
            register_builtins(registry, self.items, ROUTED_COMMANDS)
        for command in commands:
            if command.routing is not None:
                registry.register_command(command)
        self.extensions = ExtensionReport((), ())
        if extensions is not None:
            self.extensions = load_extensions(registry, extensions)
        registry.freeze()
        self.registry = registry
        self.commands = full_table(registry.commands(), commands)
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
        pinyin: PinyinReader | None = None
        specs = registry.index_specs(config.examples)
        model_warning: tuple[str, ...] = ()
        if config.mode is not Mode.OFF:
            model = None
            if config.line_model is not None:
                try:
                    model = line_model.builtin()
                except line_model.LineModelError as exc:
                    model_warning = (f"line model not loaded, the thresholds alone decide: {exc}",)
            self.index = SemanticIndex(
                self.vocabulary, specs, config.languages, backend, model)
            if "zh" in config.languages:
                pinyin = self._pinyin_reader(specs)
        self.cache = IntentCache(config.cache_entries, config.entries_per_player, config.cache_seconds)
        self.stats = RoutingStats(observe_routing_seconds)
        self.router = Router(config, registry, self.vocabulary, self.index, self.cache, self.stats, perf_counter,
                             pinyin)
        self.warnings = tuple(
            f"examples for {key} ignored: no module with a semantic profile has that id"
            for key in registry.unknown_example_targets(config.examples)
        ) + tuple(f"extension {name} not loaded: {why}" for name, why in self.extensions.failed) + model_warning
        self._scopes = itertools.count(1)

    def _pinyin_reader(self, specs: Sequence[IndexSpec]) -> PinyinReader:
        """What a pinyin line spells is guessed from the Chinese the assistant itself knows; built
        only beside the index, which a line must reach for its reading to matter."""
        phrases = self.vocabulary.chinese_phrases()
        chinese = [*phrases, *(s for spec in specs for s in spec.examples.get("zh", ()))]
        stopping = frozenset(p for p, kind in phrases.items() if len(p) == 1 and kind in BLOCKING_KINDS)
        return PinyinReader(self.vocabulary.readings, chinese, self.vocabulary.dictionary, stopping)

    @classmethod
    def from_file(cls, path: Path | str, **kwargs: Any) -> "AssistantRuntime":
        """Load (or create on first run) ``system-semantic.json`` and build the runtime from it."""
        return cls(load_or_create(path), config_path=path, **kwargs)

    @property
    def config(self) -> SemanticConfig:
        return self.router.config

    def new_assistant(self) -> LocalAssistant:
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
            return [f"unknown routing mode {word!r}: expected {', '.join(ROUTING_MODES[:-1])} or {ROUTING_MODES[-1]}"]
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
