"""agent:routing: the seed's ``/system routing`` diagnostics, for admins only.

Explicit only: it has no semantic profile and never goes direct.
``!system routing`` shows the algorithm, mode, index status, example and cache
counts, the counters and the latest match (no player text, no UUID);
``!system routing reload`` re-reads system-semantic.json.
"""
from __future__ import annotations

import attrs

from engine.modules import messages as m
from engine.modules.declarations import AgentCommand, ModuleRouting, ParseContext
from engine.modules.module import Access, Module, ModuleContext, ModuleResult


@attrs.frozen
class RoutingAdminQuery:
    reload: bool


def parse_admin(args: str, _ctx: ParseContext) -> RoutingAdminQuery | None:
    word = args.strip().lower()
    if word in ("", "show", "status"):
        return RoutingAdminQuery(False)
    if word == "reload":
        return RoutingAdminQuery(True)
    return None


class RoutingAdminModule(Module[RoutingAdminQuery]):
    id = "agent:routing"
    access = Access.ADMIN

    def routing(self) -> ModuleRouting[RoutingAdminQuery]:
        return (
            ModuleRouting[RoutingAdminQuery].defaults()
            .command(AgentCommand.parsed("system routing", parse_admin, lambda q: "reload" if q.reload else "",
                                         usage="!system routing [reload]", description="routing diagnostics",
                                         description_zh="路由诊断"))
            .explicit_only()
        )

    def execute(self, args: RoutingAdminQuery, ctx: ModuleContext) -> ModuleResult:
        if not ctx.admin:
            return ModuleResult((m.say(ctx.language, "routing.denied"),), completed=False)
        if args.reload:
            return ModuleResult(tuple(ctx.reload_routing()))
        return ModuleResult(tuple(ctx.diagnostics()))
