"""``!eat``: eat the best food the player carries, once, then give the hand back as it was.

How this works: ``EatTask.plan`` picks the best food (the starving reflex's
ranking) from the hotbar, or from the main inventory by swapping it into the
held hotbar slot with a number-key click. The task is then stepped once per
tick by the Session (it never moves the player, so the player keeps control):

    SELECT ──slot/swap sent, use started──► EATING ──duration + margin──► CONFIRM
    CONFIRM ──food rose or the stack shrank──► DONE "ate <food>"
            ──no change within CONFIRM_TICKS──► DONE "the server did not let you eat"

and restores the previously held slot (or swaps the food's stack back) when it
ends or is cancelled (``!stop``, the kill switch).
"""
from __future__ import annotations

import enum

from engine.actions import ReleaseHeldItem, SelectHotbar, UseHeldItem
from engine.decision.acts import AgentAction, SwapToHotbar
from engine.reflex.starving import FOODS, MARGIN_TICKS
from engine.world.snapshot import WorldSnapshot

HOTBAR = 36               # window 0: hotbar slots 36..44, main inventory 9..35
CONFIRM_TICKS = 20        # how long to wait for the server's health update after eating
_RANK = {name: rank for rank, name in enumerate(FOODS)}


class Stage(enum.Enum):
    SELECT = "select"
    EATING = "eating"
    CONFIRM = "confirm"
    DONE = "done"


def _best_food(snapshot: WorldSnapshot) -> tuple[int, str] | None:
    """(window-0 slot, name) of the best food: hotbar first (held slot on a tie), then the main inventory."""
    player = snapshot.player
    best: tuple[tuple[int, int, int], int, str] | None = None
    for slot in range(9, 45):
        item = player.inventory[slot] if slot < len(player.inventory) else None
        if item is None or item.count <= 0:
            continue
        name = item.item.removeprefix("minecraft:")
        if name not in FOODS:
            continue
        hotbar = slot >= HOTBAR
        key = (0 if hotbar else 1, _RANK[name], 0 if hotbar and slot - HOTBAR == player.held_slot else 1)
        if best is None or key < best[0]:
            best = (key, slot, name)
    return None if best is None else (best[1], best[2])


class EatTask:
    name = "eat"

    def __init__(self, slot: int, food: str, snapshot: WorldSnapshot) -> None:
        player = snapshot.player
        self.slot = slot
        self.food = food
        self.previous = player.held_slot
        self.swapped = slot < HOTBAR
        self.hotbar = self.previous if self.swapped else slot - HOTBAR
        self.food_before = player.food
        self.count_before = self._count(snapshot)
        self.duration = FOODS[food] + MARGIN_TICKS
        self.stage = Stage.SELECT
        self.ticks = 0
        self.result: str | None = None

    @staticmethod
    def plan(snapshot: WorldSnapshot) -> "EatTask | str":
        player = snapshot.player
        if player.game_mode in (1, 3):
            return "there is no hunger in creative or spectator mode"
        if player.food is not None and player.food >= 20:
            return "you are not hungry (food 20/20)"
        found = _best_food(snapshot)
        if found is None:
            return "you carry no food I may eat"
        return EatTask(found[0], found[1], snapshot)

    def _count(self, snapshot: WorldSnapshot) -> int:
        total = 0
        for item in snapshot.player.inventory:
            if item is not None and item.item.removeprefix("minecraft:") == self.food:
                total += item.count
        return total

    def step(self, snapshot: WorldSnapshot, now: float) -> list[AgentAction]:
        if self.stage is Stage.SELECT:
            self.stage = Stage.EATING
            out: list[AgentAction] = []
            if self.swapped:
                out.append(SwapToHotbar(self.slot, self.hotbar))
            elif self.hotbar != self.previous:
                out.append(SelectHotbar(self.hotbar))
            out.append(UseHeldItem())
            return out
        if self.stage is Stage.EATING:
            self.ticks += 1
            if self.ticks >= self.duration:
                self.stage, self.ticks = Stage.CONFIRM, 0
            return []
        if self.stage is Stage.CONFIRM:
            self.ticks += 1
            food = snapshot.player.food
            ate = (food is not None and self.food_before is not None and food > self.food_before) \
                or self._count(snapshot) < self.count_before
            if ate:
                self.result = f"ate {self.food.replace('_', ' ')}" + (
                    f" (food {self.food_before} → {food})" if food is not None and self.food_before is not None else "")
                return self._finish()
            if self.ticks >= CONFIRM_TICKS:
                self.result = f"the server did not let you eat the {self.food.replace('_', ' ')}"
                return [ReleaseHeldItem()] + self._finish()
        return []

    def _finish(self) -> list[AgentAction]:
        self.stage = Stage.DONE
        if self.swapped:
            return [SwapToHotbar(self.slot, self.hotbar)]      # the food's stack goes back where it was
        if self.hotbar != self.previous:
            return [SelectHotbar(self.previous)]
        return []

    def cancel(self) -> list[AgentAction]:
        if self.stage is Stage.DONE:
            return []
        self.result = "eating cancelled"
        if self.stage is Stage.SELECT:          # nothing was sent yet
            self.stage = Stage.DONE
            return []
        out: list[AgentAction] = [ReleaseHeldItem()] if self.stage is Stage.EATING else []
        return out + self._finish()

    def finished(self) -> str | None:
        return self.result if self.stage is Stage.DONE else None
