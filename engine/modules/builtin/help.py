"""agent:help: what the assistant can do (the proxy's !help lists the commands too)."""
from __future__ import annotations

from engine.modules import messages as m
from engine.modules.builtin.common import EMPTY, Empty, no_arguments
from engine.modules.declarations import AgentCommand, ModuleRouting, RoutingProfile
from engine.modules.module import Access, Module, ModuleContext, ModuleResult

EXAMPLES_EN = (
    "help", "help me", "what can you answer", "what are you able to answer", "what questions can you answer", "i need help", "what can you do", "what can you help with", "what can you help me with",
    "what can i ask you", "what can i ask", "what do you do", "commands", "your commands", "what commands do you have",
    "what are your commands", "what commands can i use", "how do i use you", "how to use you", "how do you work",
    "what are your features", "features", "how does the assistant work", "help commands", "usage",
    # Written the way players type: short forms, slang, no auxiliaries.
    "what are the commands", "any commands", "command list", "list of commands", "what can i type",
    "what are you capable of", "need help", "i need some help", "what can you do for me", "what are the features",
    "what features do you have", "how does this bot work",    "how can you help", "how can you help me",
    "how does this work", "how does this thing work", "what can this thing do", "how do i use this",
    "what questions can i ask", "help menu", "show the help menu",
    "what can this ai do", "how do i use the assistant", "help me use you",
)
EXAMPLES_ZH = (
    "帮助", "帮助一下", "求帮助", "你能做什么", "你可以做什么", "你能干什么", "你会做什么", "有什么功能",
    "你有什么功能", "命令", "命令列表", "有哪些命令", "有什么命令", "指令", "有哪些指令", "怎么用",
    "怎么使用", "使用说明", "用法", "你能帮我做什么", "你有什么用",
    # Written the way players type: short forms, slang, no auxiliaries.
    "你能干嘛", "你会干嘛", "你会干啥", "能干啥", "能干什么", "你都会什么", "你会什么", "你能帮我干啥", "命令是什么",
    "有哪些可以用的命令", "怎么用你", "咋用", "指令是什么", "帮忙", "求帮忙",    "有什么命令可以用", "教我怎么用",    "命令有哪些", "帮帮我",
    "这个怎么用", "这东西能干嘛", "这个能做什么",
    "我能问你什么", "可以问你什么", "你怎么用",
)


class HelpModule(Module[Empty]):
    id = "agent:help"
    access = Access.READ

    def routing(self) -> ModuleRouting[Empty]:
        # No command: the Session owns !help; "help" typed to @ai is an explicit phrase here.
        return (
            ModuleRouting[Empty].defaults()
            .command(AgentCommand.literal(EMPTY, "assistant", "help", "帮助",
                                          description="what the assistant can answer",
                                          description_zh="助手能回答什么"))
            .semantic(RoutingProfile.read(no_arguments, EXAMPLES_EN, EXAMPLES_ZH))
            .shortcut("shortcut.help", EMPTY)
        )

    def execute(self, args: Empty, ctx: ModuleContext) -> ModuleResult:
        lang = ctx.language
        lines = [m.say(lang, "help.header")]
        lines += [f"{usage} - {text}" for usage, text in ctx.command_rows if not text.endswith("(admin)") or ctx.admin]
        lines.append(m.say(lang, "help.examples"))
        return ModuleResult(tuple(lines))
