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
"""
from __future__ import annotations

import attrs

from engine.decision.knowledge import count

MILESTONES: tuple[tuple[str, str], ...] = (
    ("wood", "#logs"),
    ("crafting_table", "crafting_table"),
    ("wooden_pickaxe", "wooden_pickaxe"),
    ("stone", "#stone_tool_materials"),
    ("stone_pickaxe", "stone_pickaxe"),
    ("furnace", "furnace"),
    ("iron_ore", "#iron_raw"),
    ("iron_ingot", "iron_ingot"),
    ("iron_pickaxe", "iron_pickaxe"),
)
NAMES = tuple(name for name, _ in MILESTONES)


@attrs.frozen
class MilestoneReached:
    name: str
    index: int
    tick: int
    now: float


class Ladder:
    def __init__(self) -> None:
        self.stage = 0                                   # index of the first milestone not reached
        self.first: dict[str, MilestoneReached] = {}     # first time ever, across deaths
        self.resets = 0
        self.seen: set[str] = set()                      # seen since the last reset (items get used up)

    @property
    def current(self) -> str | None:
        return NAMES[self.stage] if self.stage < len(NAMES) else None

    @property
    def done(self) -> bool:
        return self.stage >= len(NAMES)

    def update(self, counts: dict[str, int], placed: frozenset[str], tick: int, now: float) -> list[MilestoneReached]:
        reached: list[MilestoneReached] = []
        for index, (name, item) in enumerate(MILESTONES):
            if name not in self.seen and (count(item, counts) > 0 or item in placed):
                self.seen.add(name)
                if name not in self.first:
                    self.first[name] = MilestoneReached(name, index, tick, now)
                    reached.append(self.first[name])
        self._advance()
        return reached

    def _advance(self) -> None:
        if NAMES[-1] in self.seen:
            self.stage = len(NAMES)
        while self.stage < len(NAMES) and NAMES[self.stage] in self.seen:
            self.stage += 1

    def reset(self, counts: dict[str, int], placed: frozenset[str]) -> None:
        """After a death: back to the first milestone the inventory does not satisfy."""
        self.stage = 0
        self.resets += 1
        self.seen = {name for name, item in MILESTONES if count(item, counts) > 0 or item in placed}
        self._advance()

    def progress_text(self) -> str:
        if self.done:
            return "all 9 milestones reached (iron pickaxe)"
        return f"milestone {self.stage + 1}/9: {self.current}"
