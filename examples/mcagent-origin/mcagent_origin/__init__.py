"""example:origin — how far the player is from the world origin (x 0, z 0), and which way it lies.

A worked example of a module that lives outside the mcagent repository. The
package declares it under the ``mcagent.modules`` entry-point group (see
pyproject.toml); the proxy loads it at start, before the module registry is
frozen. It is read-only and declares ``RoutingProfile.read``, so a confident
match answers it locally like a built-in; "!origin" runs it explicitly. Its
shortcut's label carries its own English and Chinese text, which the option card
shows (and a typed "distance to the origin" picks from it).
"""
from __future__ import annotations

import math

from engine.modules.builtin.common import EMPTY, Empty, no_arguments
from engine.modules.declarations import AgentCommand, ModuleRouting, RoutingProfile
from engine.modules.module import Access, Module, ModuleContext, ModuleResult

EXAMPLES_EN = (
    "how far am i from the origin", "distance to the origin", "distance to origin", "how far is the origin",
    "where is the origin", "which way is the origin", "origin distance", "how far from 0 0",
)
EXAMPLES_ZH = ("我离原点多远", "离原点多远", "原点在哪", "原点在哪个方向", "到原点的距离")
_DIRECTIONS_EN = ("south", "west", "north", "east")
_DIRECTIONS_ZH = ("南", "西", "北", "东")


class OriginModule(Module[Empty]):
    id = "example:origin"
    access = Access.READ

    def routing(self) -> ModuleRouting[Empty]:
        return (
            ModuleRouting[Empty].defaults()
            .command(AgentCommand.literal(EMPTY, "origin", description="how far you are from x 0, z 0 (example extension)"))
            .semantic(RoutingProfile.read(no_arguments, EXAMPLES_EN, EXAMPLES_ZH))
            # A label key the built-in reply table does not have: its text comes with it.
            .shortcut("example.origin", EMPTY, en="distance to the origin", zh="离原点的距离")
        )

    def execute(self, args: Empty, ctx: ModuleContext) -> ModuleResult:
        position = ctx.snapshot.player.position
        zh = ctx.language == "zh"
        if position is None:
            return ModuleResult(("还不知道你的位置，也就不知道离原点多远。" if zh
                                 else "I don't know where you are yet, so not how far the origin is.",), completed=False)
        dx, dz = -position.x, -position.z
        distance = math.hypot(dx, dz)
        # Minecraft yaw: 0 faces south (+z), 90 west (-x), 180 north, 270 east.
        yaw = math.degrees(math.atan2(-dx, dz)) % 360.0
        sector = int(((yaw + 45.0) % 360.0) // 90.0)
        if zh:
            return ModuleResult((f"你离原点 {distance:.0f} 格，原点在你的{_DIRECTIONS_ZH[sector]}边。",))
        return ModuleResult((f"You are {distance:.0f} blocks from the origin; it lies to the {_DIRECTIONS_EN[sector]}.",))
