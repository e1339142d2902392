"""Modules from outside the repository, found through the ``mcagent.modules`` entry-point group.

How this works: at start, before the registry is frozen, every entry point of
the group is loaded once. It may name a ``Module`` subclass (built with no
arguments), a ``Module`` instance, or a function ``register(registry)`` that
registers modules and reject samples the way the built-ins do. Each extension
registers into a staging registry first; its modules and rejects reach the real
registry only when all of them loaded, registered and none of their ids or
command names clash with what is already there. Anything else (an import error,
an exception, a clash, an entry point naming something else) is reported with
the extension's name and the extension is left out; the others and the
built-ins go on. After start the registry is frozen, so nothing more can join.

An extension is trusted code running in the proxy, as in the seed; what it
cannot do is bypass routing: its modules go direct only if they are read-only
with a ``RoutingProfile.read``, like every module.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib import metadata
from typing import Any, Protocol

import attrs

from engine.modules.declarations import RoutingProfile
from engine.modules.module import Module
from engine.modules.registry import ModuleRegistry, RegistryError

GROUP = "mcagent.modules"


class EntryPointLike(Protocol):
    """What ``importlib.metadata.EntryPoint`` offers and tests can fake."""

    @property
    def name(self) -> str: ...

    @property
    def value(self) -> str: ...

    def load(self) -> Any: ...


@attrs.frozen
class ExtensionReport:
    loaded: tuple[tuple[str, tuple[str, ...]], ...]  # (extension name, module ids)
    failed: tuple[tuple[str, str], ...]              # (extension name, why)

    def lines(self) -> list[str]:
        out = [f"extension {name}: modules {', '.join(ids) or '(none)'}" for name, ids in self.loaded]
        out += [f"extension {name} not loaded: {why}" for name, why in self.failed]
        return out


class _Staging:
    """The registry an extension sees: it collects, the loader decides."""

    def __init__(self) -> None:
        self.modules: list[Module[Any]] = []
        self.rejects: list[tuple[str, RoutingProfile[Any]]] = []

    def register(self, module: Module[Any]) -> None:
        if not isinstance(module, Module):
            raise RegistryError(f"register() wants a Module, got {type(module).__name__}")
        self.modules.append(module)

    def reject(self, reject_id: str, profile: RoutingProfile[Any]) -> None:
        self.rejects.append((reject_id, profile))


def installed_entry_points(group: str = GROUP) -> list[EntryPointLike]:
    return list(metadata.entry_points(group=group))


def load_extensions(
    registry: ModuleRegistry,
    entry_points: Iterable[EntryPointLike] | Callable[[], Iterable[EntryPointLike]] = installed_entry_points,
) -> ExtensionReport:
    """Load every extension into ``registry`` (not yet frozen); never raises for an extension's fault."""
    if registry.frozen:
        raise RegistryError("extensions load before start: the registry is already frozen")
    found = entry_points() if callable(entry_points) else entry_points
    loaded: list[tuple[str, tuple[str, ...]]] = []
    failed: list[tuple[str, str]] = []
    for entry_point in sorted(found, key=lambda e: e.name):
        name = entry_point.name
        try:
            staging = _stage(entry_point)
            clashes = _clashes(registry, staging)
            if clashes:
                failed.append((name, "; ".join(clashes)))
                continue
            for module in staging.modules:
                registry.register(module)
            for reject_id, profile in staging.rejects:
                registry.reject(reject_id, profile)
        except Exception as exc:  # an extension's fault, whatever it is, stays its own
            failed.append((name, f"{type(exc).__name__}: {exc}"[:300]))
            continue
        loaded.append((name, tuple(m.id for m in staging.modules)))
    return ExtensionReport(tuple(loaded), tuple(failed))


def _stage(entry_point: EntryPointLike) -> _Staging:
    target = entry_point.load()
    staging = _Staging()
    if isinstance(target, type) and issubclass(target, Module):
        staging.register(target())
    elif isinstance(target, Module):
        staging.register(target)
    elif callable(target):
        target(staging)
    else:
        raise RegistryError(f"{entry_point.value} is neither a Module nor a register(registry) function")
    if not staging.modules and not staging.rejects:
        raise RegistryError("it registered nothing")
    for module in staging.modules:
        module.routing()  # a declaration that raises is found now, not at freeze
    return staging


def _clashes(registry: ModuleRegistry, staging: _Staging) -> list[str]:
    out: list[str] = []
    taken_ids = {entry.id for entry in registry.modules()}
    taken_commands = registry.command_names()
    ids: set[str] = set()
    for module in staging.modules:
        if module.id in taken_ids or module.id in ids:
            out.append(f"module id {module.id} is already registered")
        ids.add(module.id)
        for command in module.routing().commands:
            for command_name in (command.name, *command.aliases):
                if command_name.lower() in taken_commands:
                    out.append(f"command !{command_name} of {module.id} is already taken")
                taken_commands.add(command_name.lower())
    rejects = registry.reject_ids()
    for reject_id, profile in staging.rejects:
        if reject_id in rejects:
            out.append(f"reject samples {reject_id} are already registered")
        if profile.direct:
            out.append(f"reject samples {reject_id} must be declared with RoutingProfile.hints")
    return out
