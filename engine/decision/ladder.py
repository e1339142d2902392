"""The 9-stage milestone ladder: what the autopilot works toward, and what agent:progress reports.

How this works: a milestone is reached the first time the inventory holds its
item (logs count though they become planks; the crafting table and furnace
count when crafted, before they are placed), in whatever order that happens.
An item may be a tag of ``engine.decision.knowledge``: any log is wood, cobbled
deepslate is stone, iron ore mined before 1.17 (which drops itself) is iron ore.
``update`` records the tick (and wall time) a milestone is first
reached; ``current`` is the first milestone not reached. After a death the
ladder resets to the first milestone the inventory does not satisfy now, which
after vanilla's inventory loss is the first one, wood; the record of when each
was first reached is kept for the episode log. The goal in hand ends the ladder
whatever was seen before it: after a respawn the iron pickaxe may be made at a
crafting table found in the world, so the table milestone is never seen again.

The nine milestones are the default goal's; a goal of ``engine.decision.goals`` brings
its own (the plan's items, the goal last, with the count it asks for).
"""
from __future__ import annotations

import attrs

from engine.decision.knowledge import count



@attrs.frozen
class Milestone:
    name: str
    item: str            # an item or a tag
    count: int = 1       # reached when the inventory holds this many


MILESTONES: tuple[Milestone, ...] = tuple(Milestone(name, item) for name, item in (
    ("wood", "#logs"),
    ("crafting_table", "crafting_table"),
    ("wooden_pickaxe", "wooden_pickaxe"),
    ("stone", "#stone_tool_materials"),
    ("stone_pickaxe", "stone_pickaxe"),
    ("furnace", "furnace"),
    ("iron_ore", "#iron_raw"),
    ("iron_ingot", "iron_ingot"),
    ("iron_pickaxe", "iron_pickaxe"),
))
NAMES = tuple(m.name for m in MILESTONES)


@attrs.frozen
class MilestoneReached:
    name: str
    index: int
    tick: int
    now: float


class Ladder:
    def __init__(self, milestones: tuple[Milestone, ...] = MILESTONES, goal: str = "iron pickaxe") -> None:
        if not milestones:
            raise ValueError("a ladder needs at least its goal")
        self.milestones = milestones
        self.names = tuple(m.name for m in milestones)
        self.goal = goal
        self.stage = 0                                   # index of the first milestone not reached
        self.first: dict[str, MilestoneReached] = {}     # first time ever, across deaths
        self.resets = 0
        self.seen: set[str] = set()                      # seen since the last reset (items get used up)

    @property
    def current(self) -> str | None:
        return self.names[self.stage] if self.stage < len(self.names) else None

    @property
    def done(self) -> bool:
        return self.stage >= len(self.names)

    def _holds(self, m: Milestone, counts: dict[str, int], placed: frozenset[str]) -> bool:
        return count(m.item, counts) >= m.count or m.item in placed

    def update(self, counts: dict[str, int], placed: frozenset[str], tick: int, now: float) -> list[MilestoneReached]:
        reached: list[MilestoneReached] = []
        for index, m in enumerate(self.milestones):
            if m.name not in self.seen and self._holds(m, counts, placed):
                self.seen.add(m.name)
                if m.name not in self.first:
                    self.first[m.name] = MilestoneReached(m.name, index, tick, now)
                    reached.append(self.first[m.name])
        self._advance()
        return reached

    def _advance(self) -> None:
        names = self.names
        if names[-1] in self.seen:
            self.stage = len(names)
        while self.stage < len(names) and names[self.stage] in self.seen:
            self.stage += 1

    def reset(self, counts: dict[str, int], placed: frozenset[str]) -> None:
        """After a death: back to the first milestone the inventory does not satisfy."""
        self.stage = 0
        self.resets += 1
        self.seen = {m.name for m in self.milestones if self._holds(m, counts, placed)}
        self._advance()

    def progress_text(self) -> str:
        n = len(self.names)
        if self.done:
            return f"all {n} milestones reached ({self.goal})"
        return f"milestone {self.stage + 1}/{n}: {self.current}"
