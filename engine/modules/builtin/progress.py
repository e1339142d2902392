"""agent:progress: autopilot milestone progress.

Reports the 9-stage ladder of the player's autopilot episode (running or
last), as the Session's pilot seat describes it.
"""
from __future__ import annotations

from engine.modules import messages as m
from engine.modules.builtin.common import EMPTY, Empty, no_arguments
from engine.modules.declarations import AgentCommand, ModuleRouting, RoutingProfile
from engine.modules.module import Access, Module, ModuleContext, ModuleResult

EXAMPLES_EN = (
    "progress", "my progress", "what is the progress", "show progress", "autopilot progress",
    "what is the autopilot progress", "how is the autopilot doing", "autopilot status", "what is the autopilot status",
    "is the autopilot on", "is autopilot on", "is autopilot running", "is the autopilot running",
    "is autopilot active", "is autopilot enabled", "which milestone are we at", "what milestone are we at",
    "which milestone am i at", "current milestone", "milestones", "which stage are we at", "what stage are we at",
    "milestone progress", "how is the progress", "what stage is the autopilot at",
)
EXAMPLES_ZH = (
    "进度", "当前进度", "进度怎么样", "进度如何", "自动驾驶进度", "自动驾驶状态", "自动驾驶怎么样",
    "自动驾驶开着吗", "自动驾驶在运行吗", "当前阶段", "哪个阶段", "现在是什么阶段", "里程碑", "当前里程碑",
    "里程碑进度", "进展", "进展如何",
)


class ProgressModule(Module[Empty]):
    id = "agent:progress"
    access = Access.READ

    def routing(self) -> ModuleRouting[Empty]:
        return (
            ModuleRouting[Empty].defaults()
            .command(AgentCommand.literal(EMPTY, "progress", "progress", "进度",
                                          description="autopilot milestone progress",
                                          description_zh="自动驾驶的里程碑进度"))
            .semantic(RoutingProfile.read(no_arguments, EXAMPLES_EN, EXAMPLES_ZH))
            .shortcut("shortcut.progress", EMPTY)
        )

    def execute(self, args: Empty, ctx: ModuleContext) -> ModuleResult:
        if ctx.progress is None:
            return ModuleResult((m.say(ctx.language, "progress.not_started"),))
        return ModuleResult((m.say(ctx.language, "progress.report", text=ctx.progress),))
