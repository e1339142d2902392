"""The proxy's copy of one player's inventory, cursor and the window the agent opened.

Window 0 numbering throughout: 0 craft result, 1-4 grid, 5-8 armour, 9-35 main,
36-44 hotbar, 45 offhand. An opened window numbers its own slots first and the
player's 36 after them; ``get``/``put`` translate, so the player's slots live in one
place (``inventory``) whichever window shows them.

The mirror is fed what the server sends (window_items, set_slot, the 1.21.2 cursor
and player-inventory packets) and the agent's own clicks, which ``click`` applies as
the server will, because the server does not echo them.
"""
from __future__ import annotations

from typing import Any

import attrs

from engine.events import SlotItem
from proxy.codec.versioned import SlotValue, VersionCodec
from proxy.codec.window_packets import (PlayerSlotChanged, SlotChanged, WindowContents, inventory_slot,
                                       quick_move_returns_stack)

MAX_STACK = 64
INVENTORY_SLOTS = 36        # main and hotbar, in every window after its own slots


@attrs.frozen
class Stack:
    """One slot's stack: the item name (no "minecraft:"), count, and the slot as the server sent it."""

    item: str
    count: int
    raw: Any = None

    @property
    def kind(self) -> tuple[str, int]:
        # Until 1.12 the damage value tells variants apart (birch planks are planks:2).
        damage = self.raw.get("itemDamage", 0) if isinstance(self.raw, dict) else 0
        return self.item, int(damage or 0)

    def with_count(self, count: int) -> Stack | None:
        if count <= 0:
            return None
        raw = {**self.raw, "itemCount": count} if isinstance(self.raw, dict) else None
        return Stack(self.item, count, raw)

    def wire(self) -> SlotValue:
        return self.raw if self.raw is not None else SlotItem("minecraft:" + self.item, self.count)


@attrs.define
class OpenWindow:
    window_id: int
    size: int                   # the window's own slots; the player's 36 follow
    slots: dict[int, Stack] = attrs.Factory(dict)


class InventoryMirror:
    def __init__(self, codec: VersionCodec) -> None:
        self.codec = codec
        self.inventory: dict[int, Stack] = {}
        self.cursor: Stack | None = None
        self.window: OpenWindow | None = None     # the window the agent opened, while it is open
        self.state_ids: dict[int, int] = {}

    @property
    def window_id(self) -> int:
        """The window clicks go to: the opened one, else the player's inventory (0)."""
        return self.window.window_id if self.window is not None else 0

    # -- what the server sends ----------------------------------------------------------------
    def contents(self, update: WindowContents) -> None:
        """A whole window: the inventory, or the opened window (others are not ours to mirror)."""
        if update.state_id is not None:
            self.state_ids[update.window_id] = update.state_id
        if update.has_cursor:
            self.cursor = self.stack(update.cursor)
        window = update.window_id
        if window == 0:
            self.inventory = {}
        elif self.window is not None and window == self.window.window_id:
            self.window.slots = {}
        else:
            return
        for slot, value in enumerate(update.items):
            self.put(window, slot, self.stack(value))

    def slot_changed(self, update: SlotChanged) -> None:
        if update.state_id is not None:
            self.state_ids[update.window_id] = update.state_id
        self.put(update.window_id, update.slot, self.stack(update.item))

    def player_slot_changed(self, update: PlayerSlotChanged) -> None:
        self.put(0, inventory_slot(update.index), self.stack(update.item))

    def stack(self, value: Any) -> Stack | None:
        item = self.codec.slot(value)
        if item is None:
            return None
        return Stack(item.item.removeprefix("minecraft:"), item.count, value if isinstance(value, dict) else None)

    # -- slots ----------------------------------------------------------------------------------
    def get(self, slot: int) -> Stack | None:
        """A slot of the window in use: the opened window, or window 0."""
        w = self.window
        if w is None:
            return self.inventory.get(slot)
        if slot < w.size:
            return w.slots.get(slot)
        return self.inventory.get(slot - w.size + 9)

    def put(self, window: int, slot: int, stack: Stack | None) -> None:
        w = self.window
        if window != 0 and (w is None or window != w.window_id):
            return
        if w is not None and window == w.window_id:
            if slot < w.size:
                _set(w.slots, slot, stack)
                return
            slot = slot - w.size + 9
        _set(self.inventory, slot, stack)

    # -- the agent's clicks ---------------------------------------------------------------------
    def click(self, window: int, slot: int, button: int, mode: int, crafting: bool = False) -> tuple[list[int], Stack | None]:
        """Apply one click as the server will. Returns the slots it changed and the stack it
        returns (until 1.16 the click carries it: the slot's stack before the click, or for a
        shift-click from 1.12 nothing unless the slot keeps the item; quick_move_returns_stack).

        ``crafting``: a shift-click on slot 0 takes the crafting result, one set per craft.
        """
        before = self.get(slot)
        clicked: Stack | None = before
        cursor = self.cursor
        changed: list[int] = [slot]
        if mode == 2:  # number key: swap with a hotbar slot
            hotbar = (self.window.size + 27 if self.window is not None else 36) + button
            self.put(window, slot, self.get(hotbar))
            self.put(window, hotbar, before)
            changed.append(hotbar)
            clicked = None
        elif mode == 1:  # shift-click on a result or output slot; where it lands, the server tells
            self.put(window, slot, None)
            crafts = 0
            if slot == 0 and crafting:  # the result: the grid gives one set per craft
                grid = range(1, 10 if self.window is not None else 5)
                crafts = min((st.count for g in grid if (st := self.get(g)) is not None), default=0)
                for g in grid:
                    st = self.get(g)
                    if st is not None:
                        self.put(window, g, st.with_count(st.count - crafts))
                        changed.append(g)
            # A result crafted again refills its slot with the same item; an output moved out does not.
            if not quick_move_returns_stack(self.codec.protocol, crafts > 1):
                clicked = None
        elif button == 0:  # left click
            if cursor is None or before is None:
                self.put(window, slot, cursor)
                self.cursor = before
            elif cursor.kind == before.kind:
                moved = min(cursor.count, MAX_STACK - before.count)
                self.put(window, slot, before.with_count(before.count + moved))
                self.cursor = cursor.with_count(cursor.count - moved)
            else:
                self.put(window, slot, cursor)
                self.cursor = before
        else:  # right click: one item down, or half the stack up
            if cursor is None and before is not None:
                half = (before.count + 1) // 2
                self.cursor = before.with_count(half)
                self.put(window, slot, before.with_count(before.count - half))
            elif cursor is not None and (before is None or before.kind == cursor.kind):
                self.put(window, slot, cursor.with_count((before.count if before else 0) + 1))
                self.cursor = cursor.with_count(cursor.count - 1)
            elif cursor is not None and before is not None:
                self.put(window, slot, cursor)
                self.cursor = before
        return changed, clicked


def _set(slots: dict[int, Stack], slot: int, stack: Stack | None) -> None:
    if stack is None:
        slots.pop(slot, None)
    else:
        slots[slot] = stack
