"""agent:status: health, food, XP and game mode from the update_health/experience packets."""
from __future__ import annotations

from engine.modules import messages as m
from engine.modules.builtin.common import EMPTY, Empty, fmt, no_arguments
from engine.modules.declarations import AgentCommand, ModuleRouting, RoutingProfile
from engine.modules.module import Access, Module, ModuleContext, ModuleResult

EXAMPLES_EN = (
    "status", "my status", "what is my status", "stats", "my stats", "how am i doing", "my vitals",
    "health", "my health", "what is my health", "how much health do i have", "how much health",
    "how much health do i have left", "how many hearts do i have", "how many hearts", "hp", "my hp",
    "what is my hp", "how much hp do i have", "how much hp", "health left",
    "am i hungry", "how hungry am i", "hunger", "my hunger", "what is my hunger", "food", "my food",
    "what is my food", "food level", "my food level", "what is my food level", "how much food do i have",
    "what is my saturation",
    "xp", "my xp", "what is my xp", "how much xp do i have", "experience", "my experience",
    "level", "my level", "what is my level", "what level am i", "my xp level", "what is my xp level",
    "gamemode", "my gamemode", "what is my gamemode", "what gamemode am i in", "which gamemode am i in",
    "what game mode am i in", "am i in creative", "am i in survival", "am i in creative mode",
    "am i in survival mode", "am i in adventure mode", "am i in spectator mode",
    "health and food", "my health and hunger", "health and hunger", "health status",
    "how much health have i got", "what is my health at", "what is my hunger at",
)
EXAMPLES_ZH = (
    "状态", "我的状态", "我的状态怎么样", "我怎么样",
    "血量", "我的血量", "我的血量是多少", "我还有多少血", "我还剩多少血", "我有多少血", "生命值", "我的生命值",
    "我的生命值是多少", "还剩多少血",
    "我饿了吗", "我饿不饿", "饥饿值", "我的饥饿值", "饥饿值多少", "我的饥饿值是多少", "饱食度", "我的饱食度",
    "饱食度多少",
    "我的等级", "我多少级", "我几级", "等级", "经验", "我的经验", "我有多少经验", "经验等级", "我的经验等级",
    "游戏模式", "我的游戏模式", "我是什么模式", "我是什么游戏模式", "我是创造模式吗", "我是生存模式吗",
    "我在创造模式吗", "我在生存模式吗", "我多少血", "血量多少", "经验多少", "等级多少", "血量还有多少", "血还剩多少",
)

_MASK_MODE = 0x7


class StatusModule(Module[Empty]):
    id = "agent:status"
    access = Access.READ

    def routing(self) -> ModuleRouting[Empty]:
        return (
            ModuleRouting[Empty].defaults()
            .command(AgentCommand.literal(EMPTY, "status", "status", "stats", "状态",
                                          description="health, food, XP and game mode",
                                          aliases=("stats", "hp"), description_zh="生命、饥饿、经验和游戏模式"))
            .semantic(RoutingProfile.read(no_arguments, EXAMPLES_EN, EXAMPLES_ZH))
            .shortcut("shortcut.status", EMPTY)
        )

    def execute(self, args: Empty, ctx: ModuleContext) -> ModuleResult:
        lang = ctx.language
        p = ctx.snapshot.player
        lines: list[str] = []
        if p.health is None:
            lines.append(m.say(lang, "status.unknown", what="health" if lang != "zh" else "生命值"))
        else:
            lines.append(m.say(lang, "status.health", health=fmt(p.health), hearts=fmt(p.health / 2.0)))
        if p.food is not None:
            lines.append(m.say(lang, "status.food", food=p.food, saturation=fmt(p.saturation) if p.saturation is not None else "?"))
        if p.xp_level is not None:
            lines.append(m.say(lang, "status.xp", level=p.xp_level, percent=int(round((p.xp_bar or 0.0) * 100))))
        if p.game_mode is not None:
            lines.append(m.say(lang, "status.mode", mode=m.game_mode(p.game_mode & _MASK_MODE, lang)))
        return ModuleResult(tuple(lines))
