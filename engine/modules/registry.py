"""The module registry: every module registered once, frozen at start.

From each module's ``ModuleRouting`` the registry derives the command table
(``!name`` and aliases, two-word names such as ``system routing``), the exact
phrase table, the semantic index specs and the shortcuts; no other list of
built-in profiles exists. Reject samples (``reject``) take part in the margin
but have no module behind them and are never offered as candidates.

A module may go direct only if all hold: its profile was declared with
``RoutingProfile.read`` (direct), its access is READ (no write steps), and it
is neither explicit-only nor structured-only.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from engine.modules.declarations import AgentCommand, ModuleRouting, RoutingProfile
from engine.modules.module import Access, Module
from engine.routing.normalize import normalize_text
from engine.routing.semantic_index import REJECT_PREFIX, IndexSpec


class RegistryError(Exception):
    """Our own code misused the registry (duplicate id, registration after start)."""


@attrs.frozen
class Registered:
    module: Module[Any]
    routing: ModuleRouting[Any]

    @property
    def id(self) -> str:
        return self.module.id

    @property
    def access(self) -> Access:
        return self.module.access

    @property
    def direct_capable(self) -> bool:
        profile = self.routing.profile
        return (
            profile is not None
            and profile.direct
            and self.module.access is Access.READ
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
        self._modules[module.id] = Registered(module, module.routing())

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

    def help_rows(self) -> list[tuple[str, str]]:
        rows: list[tuple[str, str]] = []
        for entry in self._modules.values():
            for command in entry.routing.commands:
                suffix = " (admin)" if entry.access is Access.ADMIN else ""
                rows.append((command.usage, command.description + suffix))
        return rows


def _merge(base: Mapping[str, Sequence[str]], extra: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    merged = {lang: tuple(sentences) for lang, sentences in base.items()}
    for lang, sentences in extra.items():
        merged[lang] = merged.get(lang, ()) + tuple(sentences)
    return merged
