"""agent:progress: autopilot milestone progress.

Reports the ladder of the player's autopilot episode (running or last), as the
Session's pilot seat describes it: the iron pickaxe's nine stages, or for a goal of
``!get`` its milestones and the plan's next steps.
"""
from __future__ import annotations

from engine.modules import messages as m
from engine.modules.builtin.common import EMPTY, Empty
from engine.modules.declarations import AgentCommand, ModuleRouting, ParseContext, RoutingProfile
from engine.modules.items import ItemTable
from engine.modules.module import Access, Module, ModuleContext, ModuleResult
from engine.routing.vocabulary import ITEM_FEATURE, PLAYER_FEATURE

EXAMPLES_EN = (
    "progress", "my progress", "what is the progress", "show progress", "autopilot progress",
    "what is the autopilot progress", "how is the autopilot doing", "autopilot status", "what is the autopilot status", "what is the status of the autopilot", "status of autopilot",
    "is the autopilot on", "is autopilot on", "is autopilot running", "is the autopilot running",
    "is autopilot active", "is autopilot enabled", "which milestone are we at", "what milestone are we at",
    "which milestone am i at", "current milestone", "milestones", "which stage are we at", "what stage are we at",
    "milestone progress", "how is the progress", "what stage is the autopilot at",
    # Written the way players type: short forms, slang, no auxiliaries.
    "how is the autopilot", "how is the autopilot going", "how is autopilot going", "is autopilot still on",
    "is the autopilot still on", "is the autopilot still running", "where is the autopilot at",
    "how far is the autopilot", "how far along is the autopilot", "which milestone now", "what milestone now",
    "what milestone are we on", "what stage is it at", "autopilot progress?", "how far are we",    "autopilot going", "is autopilot going", "is the autopilot still going",    "what milestone is the autopilot on", "is the autopilot done",
    "what are you doing", "what is the bot doing", "what is the autopilot doing", "what are you up to",
    "what are you working on", "which step are you on", "what step are we on", "how close are you to iron tools",
    "how far from iron tools", "how many steps left", "are you still mining",
    "what is your progress", "what step are you on", "are you running", "is the bot running",
    "how far from the iron pickaxe", "how close are we to the iron pickaxe", "progress on the iron pickaxe",
)
EXAMPLES_ZH = (
    "进度", "当前进度", "进度怎么样", "进度如何", "自动驾驶进度", "自动驾驶状态", "自动驾驶怎么样",
    "自动驾驶开着吗", "自动驾驶在运行吗", "当前阶段", "哪个阶段", "现在是什么阶段", "里程碑", "当前里程碑",
    "里程碑进度", "进展", "进展如何",
    # Written the way players type: short forms, slang, no auxiliaries.
    "进度多少", "进度多少了", "进度呢", "自动驾驶进度如何", "自动驾驶怎么样了", "现在进度", "到哪个阶段",
    "什么阶段了", "里程碑进度如何", "到哪个里程碑了",    "里程碑完成多少了", "完成多少了", "自动驾驶在干嘛", "自动驾驶在做什么", "进度到哪了",    "自动驾驶完成了吗", "第几阶段", "现在是第几阶段",
    "你在干嘛", "你在做什么", "机器人在干嘛", "现在第几步", "到哪步了", "离铁工具还有多远", "还有几步",
    "你在哪个阶段", "你到哪个里程碑了", "自动驾驶在执行什么任务", "现在在执行哪一步", "自动驾驶还要多久", "还要多久完成",
    "离铁镐还有多远", "离铁镐还差多少",
)


# The ladder's items (engine/decision/ladder.py): "how far from the iron pickaxe"
# asks about progress; any other item is something this module does not report.
LADDER_ITEMS = frozenset({
    "crafting_table", "wooden_pickaxe", "cobblestone", "stone", "stone_pickaxe", "furnace", "iron_ore",
    "raw_iron", "iron_ingot", "iron_pickaxe", "log", "log2",
})


class ProgressModule(Module[Empty]):
    id = "agent:progress"
    access = Access.READ

    def __init__(self, items: ItemTable) -> None:
        self.items = items

    def parse(self, _text: str, ctx: ParseContext) -> Empty | None:
        # no_arguments's rule, except that the ladder's own items are welcome.
        table = self.items.for_version(ctx.snapshot.version)
        for term in ctx.analysis.terms:
            if term.feature == PLAYER_FEATURE:
                return None
            if term.feature == ITEM_FEATURE:
                found = table.lookup(term.surface)
                if not found or not all(_on_the_ladder(i.id) for i in found):
                    return None
        return EMPTY

    def routing(self) -> ModuleRouting[Empty]:
        return (
            ModuleRouting[Empty].defaults()
            .command(AgentCommand.literal(EMPTY, "progress", "progress", "进度",
                                          description="autopilot milestone progress",
                                          description_zh="自动驾驶的里程碑进度"))
            .semantic(RoutingProfile.read(self.parse, EXAMPLES_EN, EXAMPLES_ZH))
            .shortcut("shortcut.progress", EMPTY)
        )

    def execute(self, args: Empty, ctx: ModuleContext) -> ModuleResult:
        if ctx.progress is None:
            return ModuleResult((m.say(ctx.language, "progress.not_started"),))
        return ModuleResult((m.say(ctx.language, "progress.report", text=ctx.progress),))


def _on_the_ladder(item_id: str) -> bool:
    path = item_id.split(":", 1)[-1]
    return path in LADDER_ITEMS or path.endswith("_log")
