"""agent:position: coordinates, dimension and facing, from the latest position packets."""
from __future__ import annotations

from engine.modules import messages as m
from engine.modules.builtin.common import EMPTY, Empty, fmt, no_arguments
from engine.modules.declarations import AgentCommand, ModuleRouting, RoutingProfile
from engine.modules.module import Access, Module, ModuleContext, ModuleResult

EXAMPLES_EN = (
    "where am i", "where am i at", "where i am", "where am i now",
    "my position", "what is my position", "position", "my location", "what is my location", "location",
    "my coordinates", "what are my coordinates", "coordinates", "my coords", "coords", "what are my coords",
    "my pos", "pos", "my xyz", "what is my xyz", "xyz",
    "my y level", "what is my y level", "y level", "what y level am i at", "my altitude", "how high am i",
    "what dimension am i in", "which dimension am i in", "my dimension", "what is my dimension", "dimension",
    "which dimension",
    "what world am i in", "which world am i in",
    "am i in the nether", "am i in the end", "am i in the overworld",
    "which way am i facing", "which direction am i facing", "what direction am i facing",
    "where am i facing", "where am i looking", "which way am i looking", "what direction am i looking",
    "facing", "heading", "my facing", "my direction", "what is my direction", "what is my facing", "am i facing north",
    "where exactly am i", "coordinates and dimension", "position and facing",
    # Written the way players type: short forms, slang, no auxiliaries.
    "where am i on the map", "what are my coords at", "how high up am i", "what y am i at", "what y level am i on",
    "which direction am i looking", "which dimension am i in now", "where am i standing", "where am i right now",
    "coords?", "my coords pls", "what is my location now", "what is my y level at",    "what y am i on", "where am i in the world",
    "am i in the overworld or the nether",
)
EXAMPLES_ZH = (
    "我在哪", "我在哪里", "我在哪儿", "我现在在哪",
    "我的坐标", "坐标", "我的坐标是多少", "坐标是多少", "我的坐标在哪",
    "我的位置", "位置", "我的位置在哪", "我在什么位置", "我在哪个位置",
    "我在哪个维度", "我在什么维度", "我在哪个世界", "我在什么世界", "我的维度",
    "我在下界吗", "我在主世界吗", "我在末地吗",
    "我面朝哪个方向", "我面朝北吗", "我朝哪个方向", "我面向哪里", "我的朝向", "朝向", "我面朝哪里", "我朝哪",
    "我的高度", "我在多高",
    # Written the way players type: short forms, slang, no auxiliaries.
    "坐标是什么", "我朝哪边", "朝哪边", "朝向是什么", "我的朝向是什么", "多高", "我有多高", "报坐标", "报一下坐标",
    "发下坐标", "坐标发一下", "在哪个维度", "在哪个世界", "我在什么地方", "在什么地方", "位置在哪", "位置是多少",
    "我在主世界还是下界", "我是不是在下界",
)


class PositionModule(Module[Empty]):
    id = "agent:position"
    access = Access.READ

    def routing(self) -> ModuleRouting[Empty]:
        return (
            ModuleRouting[Empty].defaults()
            .command(AgentCommand.literal(EMPTY, "pos", "pos", "position", "coords", "坐标",
                                          description="where you are: coordinates, dimension, facing",
                                          aliases=("position", "where"), description_zh="你的位置：坐标、维度、朝向"))
            .semantic(RoutingProfile.read(no_arguments, EXAMPLES_EN, EXAMPLES_ZH))
            .shortcut("shortcut.position", EMPTY)
        )

    def execute(self, args: Empty, ctx: ModuleContext) -> ModuleResult:
        lang = ctx.language
        player = ctx.snapshot.player
        if player.position is None:
            return ModuleResult((m.say(lang, "position.unknown"),))
        p = player.position
        return ModuleResult((m.say(
            lang, "position.at",
            x=fmt(p.x), y=fmt(p.y), z=fmt(p.z),
            dimension=m.dimension(player.dimension, lang),
            facing=m.direction(player.yaw, lang),
            yaw=fmt(player.yaw % 360.0, 0),
        ),))
