"""The module interface: an id, an access class, a routing declaration, ``execute``.

A module reads live state from the ``ModuleContext`` it is given and returns
plain-text lines in the player's language; it never keeps a reference to the
context and never reads a clock.
"""
from __future__ import annotations

import abc
import enum
from collections.abc import Callable
from typing import Generic, TypeVar

import attrs

from engine.actions import ChatButton
from engine.modules.declarations import ModuleRouting
from engine.modules.items import ItemTable
from engine.world.snapshot import WorldSnapshot

I = TypeVar("I")


class Access(enum.Enum):
    READ = "read"    # reads state only (writeSteps = 0): may go direct
    WRITE = "write"  # changes something: only explicit commands, buttons, or a re-checked model choice
    ADMIN = "admin"  # operator diagnostics: explicit only, permission checked


@attrs.frozen
class InboxMessage:
    text: str
    at: float


@attrs.frozen
class ModuleContext:
    snapshot: WorldSnapshot
    language: str  # reply language: "en" or "zh"
    now: float
    admin: bool
    items: ItemTable
    inbox: tuple[InboxMessage, ...] = ()
    inbox_unread: int = 0
    command_rows: tuple[tuple[str, str], ...] = ()
    diagnostics: Callable[[], list[str]] = lambda: []
    reload_routing: Callable[[], list[str]] = lambda: []
    set_routing_mode: Callable[[str], list[str]] = lambda _mode: ["local routing is not enabled here"]
    progress: str | None = None  # the autopilot's ladder progress; None before the first episode


@attrs.frozen
class ModuleResult:
    lines: tuple[str, ...]
    buttons: tuple[ChatButton, ...] = ()
    completed: bool = True  # False: asked a question or refused; never cached


class Module(abc.ABC, Generic[I]):
    id: str
    access: Access

    @abc.abstractmethod
    def routing(self) -> ModuleRouting[I]:
        ...

    @abc.abstractmethod
    def execute(self, args: I, ctx: ModuleContext) -> ModuleResult:
        ...
