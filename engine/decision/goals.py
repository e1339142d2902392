"""Goals: what the autopilot works toward, the iron pickaxe by default or N of any item the planner reaches.

How this works: a ``Goal`` is an item and a count (``!get 16 torch``, ``!autopilot on
iron_sword``). ``resolve`` checks it with the planner (engine.planning) against what the player
carries and what the world model has seen, and answers at once with the plan or why the item is
out of reach. The default goal, the iron pickaxe, keeps the seed's nine-stage ladder; any other
goal gets a ladder of its own whose milestones are the plan's items in the plan's order, the
goal (with its count) last (``goal_ladder``). ``tree`` is every item a goal's recipes may need:
the legal-action filter allows crafting and smelting those (and the ladder's), no more, so a
model is never offered a boat while it works toward a torch.
"""
from __future__ import annotations

import functools

import attrs

from engine.decision.knowledge import FAMILIES, FARMED, HOES, RECIPES, SHEARABLE, SMELTS, members, planner_for
from engine.planning.sources import SHEARED
from engine.decision.ladder import Ladder, Milestone
from engine.planning.planner import OutOfReach, Plan

MAX_COUNT = 64 * 36          # a full inventory of one item


@attrs.frozen
class Goal:
    item: str
    count: int = 1

    @property
    def label(self) -> str:
        return self.item if self.count == 1 else f"{self.count} {self.item}"


DEFAULT_GOAL = Goal("iron_pickaxe")


def parse_goal(text: str) -> Goal | str:
    """``"16 torch"``, ``"torch 16"``, ``"iron sword"``, ``"minecraft:torch"``: the goal, or what is wrong."""
    words = text.strip().lower().split()
    numbers = [w for w in words if w.isdigit()]
    names = [w for w in words if not w.isdigit()]
    if not names:
        return "name an item (e.g. torch, iron_sword)"
    if len(numbers) > 1:
        return "give one count"
    count = int(numbers[0]) if numbers else 1
    if not 1 <= count <= MAX_COUNT:
        return f"the count must be 1 to {MAX_COUNT}"
    return Goal("_".join(names).removeprefix("minecraft:"), count)


def resolve(goal: Goal, counts: dict[str, int], seen: frozenset[str], version: str | None) -> Plan | OutOfReach:
    return planner_for(version).plan(goal.item, goal.count, counts, seen)


def goal_ladder(goal: Goal, plan: Plan | None) -> Ladder:
    """The default goal's nine milestones; any other goal's: the plan's items, the goal last."""
    if goal == DEFAULT_GOAL:
        return Ladder()
    stages: list[Milestone] = []
    for step in plan.steps if plan is not None else ():
        if step.item != goal.item and all(m.name != step.item for m in stages):
            stages.append(Milestone(step.item, step.item))
    stages.append(Milestone(goal.item, goal.item, goal.count))
    return Ladder(tuple(stages), goal.label)


@functools.cache
def tree(item: str) -> frozenset[str]:
    """Every item (not tag) the recipes and furnace recipes of ``item`` may need, ``item`` included,
    the shears for wool, and a crop's seed and a hoe."""
    seen: set[str] = set()
    todo = [item]
    while todo:
        name = todo.pop()
        for m in (members(name) if name in FAMILIES else (name,)):
            if m in seen:
                continue
            seen.add(m)
            recipe = RECIPES.get(m)
            if recipe is not None:
                todo += [i for i, _ in recipe.needs]
                if recipe.needs_table:
                    todo.append("crafting_table")
            if m in SMELTS:
                todo += [SMELTS[m], "furnace"]
            if m in SHEARED and SHEARED[m][0] in SHEARABLE:
                todo.append("shears")       # wool is shorn: the shears are made for it
            if m in FARMED:
                todo += [FARMED[m], HOES[0]]     # a crop is planted when none is found grown
    return frozenset(seen)

