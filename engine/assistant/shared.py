"""What one player's assistant reads from the process-wide runtime, and who is asking.

``AssistantRuntime`` (``engine.assistant.runtime``) is the one implementation of
``RuntimeParts``; the per-player pieces (``local``, ``cards``, ``model_seam``) see it only
through this protocol, so they never import the runtime that builds them.
"""
from __future__ import annotations

from typing import Protocol

import attrs

from engine.commands.table import CommandTable
from engine.llm.calls import ModelCall, ModelReply
from engine.llm.modes import ConversationMode, ModeThresholds
from engine.llm.notification_buttons import ButtonMatcher
from engine.llm.service import LlmService
from engine.modules.items import ItemTable
from engine.modules.registry import ModuleRegistry
from engine.routing.cache import IntentCache
from engine.routing.config import SemanticConfig
from engine.routing.router import Router
from engine.routing.stats import RoutingStats


@attrs.frozen
class Caller:
    """What the player's session knows about them that modules read."""

    admin: bool = False
    progress: str | None = None  # the autopilot's ladder progress; None before the first episode


@attrs.define
class Preferences:
    """One player's switches: ``!mode``, ``!ai on|off``, ``!history on|off``."""

    mode: ConversationMode
    ai_enabled: bool = True
    history: bool = True


class RuntimeParts(Protocol):
    items: ItemTable
    registry: ModuleRegistry
    commands: CommandTable
    llm: LlmService | None
    buttons: ButtonMatcher
    free_chat: ModeThresholds
    default_mode: ConversationMode
    cache: IntentCache
    stats: RoutingStats
    router: Router
    last_now: float  # the latest time an assistant was called with, for the diagnostics

    @property
    def config(self) -> SemanticConfig: ...

    def diagnostics(self) -> list[str]: ...

    def reload_lines(self) -> list[str]: ...

    def set_routing_mode(self, word: str) -> list[str]: ...

    def model_finished(self, call: ModelCall, reply: ModelReply, now: float) -> None: ...
