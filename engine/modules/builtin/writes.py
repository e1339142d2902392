"""Write modules: agent:goto, agent:follow, agent:stop, agent:autopilot, agent:eat.

They register now so their commands exist, their examples compete in the
margin and the model can see them as candidates, but they never run from
similarity or the intent cache: each declares only ``RoutingProfile.hints``
and ``Access.WRITE``. The explicit commands run in the player's Session
(``Session._movement_command``), which the assistant calls first; a module's
own ``execute`` only answers when no Session is attached (the assistant used
on its own), and then says the action needs the proxy session.
"""
from __future__ import annotations

import attrs

from engine.modules import messages as m
from engine.modules.builtin.common import EMPTY, Empty, fmt, players_named
from engine.modules.declarations import AgentCommand, ModuleRouting, ParseContext, RoutingProfile
from engine.modules.module import Access, Module, ModuleContext, ModuleResult
from engine.routing.vocabulary import NUMBER_FEATURE


@attrs.frozen
class GotoArgs:
    x: float
    y: float
    z: float


@attrs.frozen
class FollowArgs:
    name: str


@attrs.frozen
class AutopilotArgs:
    on: bool


def _unavailable(lang: str, en: str, zh: str) -> ModuleResult:
    return ModuleResult((m.say(lang, "write.unavailable", what=zh if lang == "zh" else en),), completed=False)


def _three_numbers(values: list[str]) -> GotoArgs | None:
    if len(values) != 3:
        return None
    try:
        x, y, z = (float(v) for v in values)
    except ValueError:
        return None
    return GotoArgs(x, y, z)


def parse_goto_text(_text: str, ctx: ParseContext) -> GotoArgs | None:
    return _three_numbers([t.surface for t in ctx.analysis.terms if t.feature == NUMBER_FEATURE])


def parse_goto_args(args: str, _ctx: ParseContext) -> GotoArgs | None:
    return _three_numbers(args.replace(",", " ").split())


class GotoModule(Module[GotoArgs]):
    id = "agent:goto"
    access = Access.WRITE

    def routing(self) -> ModuleRouting[GotoArgs]:
        return (
            ModuleRouting[GotoArgs].defaults()
            .command(AgentCommand.parsed("goto", parse_goto_args, lambda a: f"{fmt(a.x)} {fmt(a.y)} {fmt(a.z)}",
                                         usage="!goto x y z", description="walk there; sneak twice or !stop to take over"))
            .semantic(RoutingProfile.hints(
                ("go to {number} {number} {number}", "take me to {number} {number} {number}", "walk to {number} {number} {number}",
                 "go to spawn", "take me home", "go home", "bring me to the village", "travel to {number} {number} {number}",
                 "move to {number} {number} {number}", "navigate to {number} {number} {number}"),
                ("去{number} {number} {number}", "带我去{number} {number} {number}", "走到{number} {number} {number}",
                 "回家", "去出生点", "带我回家", "移动到{number} {number} {number}"),
                parse_goto_text,
            ))
        )

    def execute(self, args: GotoArgs, ctx: ModuleContext) -> ModuleResult:
        where = f"{fmt(args.x)} {fmt(args.y)} {fmt(args.z)}"
        return _unavailable(ctx.language, f"walking to {where} (this needs a player session on the proxy)",
                            f"走到 {where}（需要代理上的玩家会话）")


def parse_follow_text(_text: str, ctx: ParseContext) -> FollowArgs | None:
    named = players_named(ctx)
    return FollowArgs(named[0]) if len(named) == 1 else None


def parse_follow_args(args: str, _ctx: ParseContext) -> FollowArgs | None:
    name = args.strip()
    return FollowArgs(name) if name and " " not in name else None


class FollowModule(Module[FollowArgs]):
    id = "agent:follow"
    access = Access.WRITE

    def routing(self) -> ModuleRouting[FollowArgs]:
        return (
            ModuleRouting[FollowArgs].defaults()
            .command(AgentCommand.parsed("follow", parse_follow_args, lambda a: a.name,
                                         usage="!follow <player>", description="keep near another player"))
            .semantic(RoutingProfile.hints(
                ("follow {player}", "follow me", "keep following {player}", "chase {player}", "follow that player"),
                ("跟着{player}", "跟随{player}", "跟着我", "跟我走"),
                parse_follow_text,
            ))
        )

    def execute(self, args: FollowArgs, ctx: ModuleContext) -> ModuleResult:
        return _unavailable(ctx.language, f"following {args.name} (this needs a player session on the proxy)",
                            f"跟随 {args.name}（需要代理上的玩家会话）")


class StopModule(Module[Empty]):
    id = "agent:stop"
    access = Access.WRITE

    def routing(self) -> ModuleRouting[Empty]:
        return (
            ModuleRouting[Empty].defaults()
            .command(AgentCommand.literal(EMPTY, "stop", description="stop whatever the agent is doing (kill switch)"))
            .semantic(RoutingProfile.hints(
                ("stop", "stop moving", "stop following", "halt", "stop now", "cancel", "stop everything"),
                ("停", "停下", "停止", "别动", "停下来", "取消"),
            ))
        )

    def execute(self, args: Empty, ctx: ModuleContext) -> ModuleResult:
        return _unavailable(ctx.language, "stopping (this needs a player session on the proxy)",
                            "停止（需要代理上的玩家会话）")


def parse_switch(args: str, _ctx: ParseContext) -> AutopilotArgs | None:
    word = args.strip().lower()
    if word in ("on", "start", "enable", "开", "开启"):
        return AutopilotArgs(True)
    if word in ("off", "stop", "disable", "关", "关闭"):
        return AutopilotArgs(False)
    return None


class AutopilotModule(Module[AutopilotArgs]):
    id = "agent:autopilot"
    access = Access.WRITE

    def routing(self) -> ModuleRouting[AutopilotArgs]:
        return (
            ModuleRouting[AutopilotArgs].defaults()
            .command(AgentCommand.parsed("autopilot", parse_switch, lambda a: "on" if a.on else "off",
                                         usage="!autopilot on|off|status|provider mock|api|replay",
                                         description="let the agent play toward an iron pickaxe; sneak twice or !stop to take over"))
            .semantic(RoutingProfile.hints(
                ("turn on autopilot", "turn off autopilot", "start autopilot", "stop autopilot", "enable autopilot",
                 "disable autopilot", "autopilot on", "autopilot off"),
                ("开启自动驾驶", "关闭自动驾驶", "打开自动驾驶", "关掉自动驾驶", "启动自动驾驶", "停止自动驾驶"),
            ))
        )

    def execute(self, args: AutopilotArgs, ctx: ModuleContext) -> ModuleResult:
        if args.on:
            return _unavailable(ctx.language, "starting the autopilot (this needs a player session on the proxy)",
                                "开启自动驾驶（需要代理上的玩家会话）")
        return _unavailable(ctx.language, "stopping the autopilot (this needs a player session on the proxy)",
                            "关闭自动驾驶（需要代理上的玩家会话）")


class EatModule(Module[Empty]):
    id = "agent:eat"
    access = Access.WRITE

    def routing(self) -> ModuleRouting[Empty]:
        return (
            ModuleRouting[Empty].defaults()
            .command(AgentCommand.literal(EMPTY, "eat", description="eat the best food you carry"))
            .semantic(RoutingProfile.hints(
                ("eat", "eat something", "eat food", "eat some {item}", "i want to eat", "feed me"),
                ("吃东西", "吃点东西", "吃{item}", "吃饭"),
            ))
        )

    def execute(self, args: Empty, ctx: ModuleContext) -> ModuleResult:
        return _unavailable(ctx.language, "eating (this needs a player session on the proxy)", "进食（需要代理上的玩家会话）")
