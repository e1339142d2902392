"""agent:routing: the seed's ``/system routing`` diagnostics, for admins only.

Explicit only: it has no semantic profile and never goes direct.
``!system routing`` shows the algorithm, mode, index status, example and cache
counts, the counters and the latest match (no player text, no UUID);
``!system routing reload`` re-reads system-semantic.json;
``!system routing mode enforce|shadow|off`` sets the mode for everyone through
the same function as the console's ``routing mode`` (``AssistantRuntime.set_routing_mode``).
"""
from __future__ import annotations

import attrs

from engine.modules import messages as m
from engine.modules.declarations import AgentCommand, ModuleRouting, ParseContext
from engine.modules.module import Access, Module, ModuleContext, ModuleResult

from engine.routing.config import ROUTING_MODES as MODES


@attrs.frozen
class RoutingAdminQuery:
    reload: bool
    mode: str | None = None  # set the routing mode


def parse_admin(args: str, _ctx: ParseContext) -> RoutingAdminQuery | None:
    word = args.strip().lower()
    if word in ("", "show", "status"):
        return RoutingAdminQuery(False)
    if word == "reload":
        return RoutingAdminQuery(True)
    parts = word.split()
    if len(parts) == 2 and parts[0] == "mode" and parts[1] in MODES:
        return RoutingAdminQuery(False, parts[1])
    return None


def render_admin(query: RoutingAdminQuery) -> str:
    return "reload" if query.reload else f"mode {query.mode}" if query.mode is not None else ""


class RoutingAdminModule(Module[RoutingAdminQuery]):
    id = "agent:routing"
    access = Access.ADMIN

    def routing(self) -> ModuleRouting[RoutingAdminQuery]:
        return (
            ModuleRouting[RoutingAdminQuery].defaults()
            .command(AgentCommand.parsed("system routing", parse_admin, render_admin,
                                         usage=f"!system routing [reload|mode {'|'.join(MODES)}]",
                                         description="routing diagnostics, reload, or set the mode for everyone",
                                         description_zh="路由诊断：查看、重新加载或设置模式",
                                         completion=("reload", *(f"mode {mode}" for mode in MODES))))
            .explicit_only()
        )

    def execute(self, args: RoutingAdminQuery, ctx: ModuleContext) -> ModuleResult:
        if not ctx.admin:
            return ModuleResult((m.say(ctx.language, "routing.denied"),), completed=False)
        if args.reload:
            return ModuleResult(tuple(ctx.reload_routing()))
        if args.mode is not None:
            return ModuleResult(tuple(ctx.set_routing_mode(args.mode)))
        return ModuleResult(tuple(ctx.diagnostics()))
