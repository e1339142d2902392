"""The modules that ship with mcagent, with their ids as tests and corpora use them.

Read-only, may go direct: agent:help, agent:status, agent:position,
agent:players, agent:inventory, agent:item, agent:inbox, agent:progress.
Write, never direct: agent:goto, agent:follow, agent:stop, agent:autopilot,
agent:eat, agent:server — entries of the command table (``engine.commands.builtin``) that
routing may offer but never runs. Admin, explicit only: agent:routing.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.commands.table import Command
from engine.modules.builtin.help import HelpModule
from engine.modules.builtin.inbox import InboxModule
from engine.modules.builtin.inventory import InventoryModule
from engine.modules.builtin.item import ItemModule
from engine.modules.builtin.players import PlayersModule
from engine.modules.builtin.position import PositionModule
from engine.modules.builtin.progress import ProgressModule
from engine.modules.builtin.rejects import register_rejects
from engine.modules.builtin.routing_admin import RoutingAdminModule
from engine.modules.builtin.status import StatusModule
from engine.modules.items import ItemTable
from engine.modules.registry import ModuleRegistry

READ_MODULES = (
    "agent:help", "agent:status", "agent:position", "agent:players",
    "agent:inventory", "agent:item", "agent:inbox", "agent:progress",
)
WRITE_MODULES = ("agent:goto", "agent:follow", "agent:stop", "agent:autopilot", "agent:eat", "agent:server")
ADMIN_MODULES = ("agent:routing",)


def register_builtins(registry: ModuleRegistry, items: ItemTable, writes: Iterable[Command[Any]] = ()) -> None:
    """The built-in modules, and ``writes``: the command table's entries routing may offer
    (``engine.commands.builtin.ROUTED_COMMANDS``)."""
    for module in (
        HelpModule(), StatusModule(), PositionModule(), PlayersModule(), InventoryModule(items),
        ItemModule(items), InboxModule(), ProgressModule(items),
    ):
        registry.register(module)
    for command in writes:
        registry.register_command(command)
    registry.register(RoutingAdminModule())
    register_rejects(registry)
