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
    "what is my food", "food level", "my food level", "what is my food level", "how much food do i have", "how much food do i have left",
    "what is my saturation",
    "xp", "my xp", "what is my xp", "how much xp do i have", "experience", "my experience",
    "level", "my level", "what is my level", "what level am i", "my xp level", "what is my xp level",
    "gamemode", "my gamemode", "what is my gamemode", "what gamemode am i in", "which gamemode am i in",
    "what game mode am i in", "am i in creative", "am i in survival", "am i in creative mode",
    "am i in survival mode", "am i in adventure mode", "am i in spectator mode",
    "health and food", "my health and hunger", "health and hunger", "health status",
    "how much health have i got", "what is my health at", "what is my hunger at",
    # Written the way players type: short forms, slang, no auxiliaries.
    "hp left", "how much hp left", "how much health left", "how much hp i have", "how much health i have",
    "how much hp i got", "how much health i got", "how much xp i have", "how much xp i got", "how much xp have i got",
    "how many hearts i got", "how many hearts left", "hearts left", "health bar", "hunger bar", "xp bar",
    "how full am i", "how healthy am i", "what is my hunger level", "what is my xp level at", "how is my health",
    "how is my hunger", "how is my food", "check my health", "health check", "level?", "my gm", "what is my gm",
    "what mode am i in", "am i starving", "am i full", "what level am i on", "how many levels",
    "how many levels have i got", "how much exp", "my exp", "how much food i have", "how low is my health",
    "is my health low", "am i low on hp", "am i dying",    "what gamemode am i on", "am i survival", "am i creative",
    "am i hurt", "am i at full health", "is my health full", "is my hunger full", "how full is my food bar",
    "how many drumsticks do i have", "how many xp points do i have", "xp points",
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
    # Written the way players type: short forms, slang, no auxiliaries.
    "我有几级", "几级了", "多少级", "还有几颗心", "还剩几颗心", "几颗心", "血还有多少", "血量还剩多少", "还有多少血",
    "剩多少血", "生命值还剩多少", "状态怎么样", "状态如何", "饿吗", "饿了吗", "饱食度还有多少", "饥饿值还剩多少",
    "等级是多少", "经验值多少", "什么模式", "是什么模式", "创造模式吗", "生存模式吗", "血少吗", "血多吗",    "血量怎么样", "血量如何", "饥饿值怎么样", "经验有多少", "血有多少", "血量有多少", "等级有多少",
    "我受伤了吗", "血满了吗", "饱食度满了吗", "鸡腿还剩几格", "还剩几格血",
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
