"""The module registry: every module registered once, frozen at start.

From each module's ``ModuleRouting`` the registry derives its entries in the
command table (``commands()``: ``!name`` and aliases, two-word names such as
``system routing``), the exact phrase table, the semantic index specs and the
shortcuts; no other list of built-in profiles exists. A write command of the
command table that declares ``CommandRouting`` becomes a routing target here
(``register_command``) with no module behind it: routing may offer it, only
the command table runs it. Reject samples (``reject``) take part in the margin
but have no module behind them and are never offered as candidates.

A module may go direct only if all hold: its profile was declared with
``RoutingProfile.read`` (direct), its access is READ (no write steps), and it
is neither explicit-only nor structured-only.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from engine.commands.table import Access as CommandAccess
from engine.commands.args import Word
from engine.commands.table import Command, Invocation, Text
from engine.modules.declarations import AgentCommand, ModuleRouting, RoutingProfile
from engine.actions import ReplyToPlayer
from engine.modules.module import Access, Module
from engine.routing.normalize import normalize_text
from engine.routing.semantic_index import REJECT_PREFIX, IndexSpec


class RegistryError(Exception):
    """Our own code misused the registry (duplicate id, registration after start)."""


@attrs.frozen
class Registered:
    id: str
    access: Access
    routing: ModuleRouting[Any]
    module: Module[Any] | None  # None: a command-table write; routing offers it, the table runs it

    @property
    def direct_capable(self) -> bool:
        profile = self.routing.profile
        return (
            profile is not None
            and profile.direct
            and self.access is Access.READ
            and not self.routing.is_explicit_only
            and not self.routing.is_structured_only
        )

    @property
    def model_visible(self) -> bool:
        return not self.routing.is_structured_only

    def first_command(self) -> AgentCommand[Any] | None:
        return self.routing.commands[0] if self.routing.commands else None


class ModuleRegistry:
    def __init__(self) -> None:
        self._modules: dict[str, Registered] = {}
        self._rejects: dict[str, RoutingProfile[Any]] = {}
        self._frozen = False
        self._commands: dict[str, tuple[Registered, AgentCommand[Any]]] = {}
        self._phrases: dict[str, tuple[Registered, AgentCommand[Any]]] = {}

    @property
    def frozen(self) -> bool:
        return self._frozen

    def register(self, module: Module[Any]) -> None:
        self._check_open(module.id)
        if module.id in self._modules:
            raise RegistryError(f"module {module.id} is already registered")
        self._modules[module.id] = Registered(module.id, module.access, module.routing(), module)

    def register_command(self, command: Command[Any]) -> None:
        """A command-table entry with ``routing``: a write target that routing offers and never runs."""
        routed = command.routing
        if routed is None:
            raise RegistryError(f"!{command.name} declares no routing")
        self._check_open(routed.module_id)
        if routed.module_id in self._modules:
            raise RegistryError(f"module {routed.module_id} is already registered")
        if not command.write:
            raise RegistryError(f"!{command.name} is routed but no write: a read-only answer is a module")
        agent = AgentCommand(command.name, command.usage.en, command.help.en, command.parse, routed.render,
                             command.aliases, args=command.arguments)
        routing = ModuleRouting[Any](commands=(agent,), profile=routed.profile)
        self._modules[routed.module_id] = Registered(routed.module_id, Access.WRITE, routing, None)

    def reject(self, reject_id: str, profile: RoutingProfile[Any]) -> None:
        self._check_open(reject_id)
        if profile.direct:
            raise RegistryError(f"reject samples {reject_id} must be declared with RoutingProfile.hints")
        self._rejects[reject_id] = profile

    def _check_open(self, what: str) -> None:
        if self._frozen:
            raise RegistryError(f"cannot register {what}: the registry is frozen after start")

    def freeze(self) -> None:
        if self._frozen:
            return
        for entry in self._modules.values():
            for command in entry.routing.commands:
                for name in (command.name, *command.aliases):
                    key = name.lower()
                    if key in self._commands:
                        raise RegistryError(f"command !{key} is declared by {self._commands[key][0].id} and {entry.id}")
                    self._commands[key] = (entry, command)
                for phrase in command.phrases:
                    self._phrases[normalize_text(phrase)] = (entry, command)
        self._frozen = True

    def command_names(self) -> set[str]:
        """Lower-cased command names and aliases of every registered module (before or after freeze)."""
        return {name.lower() for entry in self._modules.values() for command in entry.routing.commands
                for name in (command.name, *command.aliases)}

    def reject_ids(self) -> set[str]:
        return set(self._rejects)

    def get(self, module_id: str) -> Registered | None:
        return self._modules.get(module_id)

    def modules(self) -> tuple[Registered, ...]:
        return tuple(self._modules.values())

    def command(self, name: str, args: str) -> tuple[Registered, AgentCommand[Any], str] | None:
        """Resolve ``!name args``; a two-word command (``system routing``) is tried first."""
        first, _, rest = args.strip().partition(" ")
        if first:
            found = self._commands.get(f"{name.lower()} {first.lower()}")
            if found is not None:
                return found[0], found[1], rest.strip()
        found = self._commands.get(name.lower())
        if found is None:
            return None
        return found[0], found[1], args.strip()

    def phrase(self, normalized: str) -> tuple[Registered, AgentCommand[Any]] | None:
        return self._phrases.get(normalized)

    def index_specs(self, extra_examples: Mapping[str, Mapping[str, Sequence[str]]] = {}) -> list[IndexSpec]:
        """What the semantic index is built from; config examples extend registered profiles only."""
        specs: list[IndexSpec] = []
        for entry in self._modules.values():
            profile = entry.routing.profile
            if profile is None or entry.routing.is_explicit_only or entry.routing.is_structured_only:
                continue
            specs.append(IndexSpec(entry.id, _merge(profile.examples, extra_examples.get(entry.id, {})), entry.direct_capable))
        for reject_id, profile in self._rejects.items():
            specs.append(IndexSpec(REJECT_PREFIX + reject_id, _merge(profile.examples, {}), False))
        return specs

    def unknown_example_targets(self, extra_examples: Mapping[str, object]) -> list[str]:
        """Config example keys naming no module with a semantic profile (they are ignored)."""
        return sorted(
            key for key in extra_examples
            if (entry := self._modules.get(key)) is None or entry.routing.profile is None
        )

    def commands(self) -> list[Command[Any]]:
        """The command-table entries of the modules: each runs its module through the player's assistant."""
        out: list[Command[Any]] = []
        for entry in self._modules.values():
            if entry.module is None:
                continue  # a command-table write: the table has it already
            for command in entry.routing.commands:
                out.append(Command(
                    command.name, command.parse, _module_handler(entry), Text(command.usage, command.usage),
                    Text(command.description, command.description_zh), aliases=command.aliases,
                    access=CommandAccess.ADMIN if entry.access is Access.ADMIN else CommandAccess.PLAYER,
                    words=completion_words(command.completion), args=command.arguments,
                    write=entry.access is Access.WRITE))
        return out


def completion_words(paths: Sequence[str]) -> tuple[Word, ...]:
    """Word paths ("reload", "mode enforce", "mode off") as the command table's completion tree."""
    heads: dict[str, list[str]] = {}
    for path in paths:
        head, _, rest = path.strip().partition(" ")
        tails = heads.setdefault(head, [])
        if rest.strip():
            tails.append(rest)
    return tuple(Word(head, completion_words(tails)) for head, tails in heads.items())


def _module_handler(entry: Registered) -> Any:
    def run(inv: Invocation, value: Any) -> list[ReplyToPlayer]:
        return [inv.the_assistant().run_module(entry, value, inv)]

    return run


def _merge(base: Mapping[str, Sequence[str]], extra: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    merged = {lang: tuple(sentences) for lang, sentences in base.items()}
    for lang, sentences in extra.items():
        merged[lang] = merged.get(lang, ()) + tuple(sentences)
    return merged
