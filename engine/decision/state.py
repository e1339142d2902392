"""The decision state: a small frozen view of what matters for choosing an action.

``DecisionState`` is built each time the autopilot asks a provider; it is the
JSON a model sees (``to_json``) and what the log digests. ``generation`` is the
autopilot's state generation: a decision is applied only if the generation it
was asked for is still current.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

import attrs

from engine.events import SlotItem


def inventory_counts(slots: tuple[SlotItem | None, ...]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for slot in slots:
        if slot is not None and slot.count > 0:
            name = slot.item.removeprefix("minecraft:")
            counts[name] = counts.get(name, 0) + slot.count
    return counts


@attrs.frozen
class DecisionState:
    generation: int
    tick: int
    position: tuple[int, int, int]
    health: float
    food: int
    day: bool
    milestone: str | None
    inventory: tuple[tuple[str, int], ...]          # sorted (item, count)
    known: tuple[tuple[str, float], ...]             # nearest block of each kind known: (kind, distance)
    drops: int                                       # item entities within 16 blocks
    hostiles: tuple[tuple[int, float], ...]          # (entity id, distance), nearest first
    table_near: bool
    furnace_near: bool
    smelting: bool                                   # a job of ours runs or waits in a furnace within 48 blocks
    animals: tuple[tuple[int, float], ...] = ()      # game animals (knowledge.GAME): (entity id, distance)
    players: tuple[tuple[str, float], ...] = ()      # other players in sight: (name, distance), nearest first
    goal: tuple[str, int] | None = None              # (item, count); None: the default goal, the iron pickaxe
    # A goal's game (knowledge.LOOT: cows, sheep): (entity id, kind, distance), nearest first; only
    # for a goal of its own, so the iron pickaxe's states read as they did.
    game: tuple[tuple[int, str, float], ...] = ()

    def counts(self) -> dict[str, int]:
        return dict(self.inventory)

    def distance(self, name: str) -> float | None:
        for n, d in self.known:
            if n == name:
                return d
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "pos": list(self.position), "health": self.health, "food": self.food,
            "day": self.day, "milestone": self.milestone,
            "inventory": dict(self.inventory), "known_blocks": {n: round(d, 1) for n, d in self.known},
            "drops_nearby": self.drops, "hostiles": [round(d, 1) for _, d in self.hostiles],
            "crafting_table_near": self.table_near, "furnace_near": self.furnace_near, "smelting": self.smelting,
            # Only when there are any: a state without animals reads (and digests) as it did before.
            **({"animals": [round(d, 1) for _, d in self.animals]} if self.animals else {}),
            **({"players": {n: round(d, 1) for n, d in self.players}} if self.players else {}),
            # Only for a goal of its own: the iron pickaxe's states read (and digest) as they did.
            **({"goal": {"item": self.goal[0], "count": self.goal[1]}} if self.goal is not None else {}),
            **({"game": [[kind, round(d, 1)] for _, kind, d in self.game]} if self.game else {}),
        }

    def digest(self) -> str:
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]
