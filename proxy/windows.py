"""The window sequencer: hotbar swaps, crafting and smelting as window clicks.

How this works. One ``WindowSequencer`` per player connection, sans-IO like the
codec: it is fed decoded server packets and the time, and hands back packets for
the server; the caller owns the connection.

    seq = WindowSequencer(codec)
    seq.start(op, now)                  -> packets: begin an op (queued while busy)
    seq.server_packet(name, fields, now) -> packets: every decoded server packet
                                           named in subscriptions.WINDOW_TO_CLIENT
    seq.tick(now)                       -> packets: timeouts
    seq.busy, seq.outcome (of the last op), seq.window_id (the window it opened)

It mirrors the player inventory (window 0 numbering: 0 craft result, 1-4 grid,
5-8 armour, 9-35 main, 36-44 hotbar, 45 offhand), the cursor, the window it
opened, and each window's state id, from window_items / set_slot / the 1.21.2
cursor and player-inventory packets, and from its own clicks, which the server
does not echo.

An op runs in phases, each waiting for one server answer for at most TIMEOUT s
(``Outcome(op, ok, reason)`` says how it ended; an op that cannot start, such as
a table recipe without a table or missing ingredients, fails without clicking):

    sync       (window-0 ops) a resync click; wait for window_items of window 0,
               so the plan starts from the server's inventory, not a stale copy
    opening    (table, furnace) use_item_on the block; wait for open_window
    loading    wait for window_items of the opened window (its size says what it is)
    confirming the clicks, close_window and a resync click went out in one batch;
               done as soon as the inventory shows the op's effect (window_items
               or set_slot of window 0), failed if it does not by the deadline

Clicks are the ones a player makes: pick a stack up with a left click, right-click
single items into grid slots, put the rest back, shift-click the result. Until
1.16 each click carries the item it returns (the slot's stack before the click)
and the server rejects a click that disagrees; a rejection is confirmed at once
so the window keeps taking clicks, and the op fails on the outcome check. From
1.17 each click states the slots it changed, and the server corrects the rest.
The resync click (``VersionCodec.inventory_resync``) makes the server resend the
whole inventory, which both the engine and the player's own client read.
"""
from __future__ import annotations

from collections import deque
from typing import Any

import attrs

from engine.decision import knowledge
from engine.actions import CraftItem, SmeltCollect, SmeltStart, SwapToHotbar
from engine.events import SlotItem
from proxy.codec import (ClickAnswered, CursorChanged, Fields, PlayerSlotChanged, SlotChanged, SlotValue,
                         VersionCodec, WindowClosed, WindowContents, WindowOpened, WindowUpdate, inventory_slot)

WindowOp = SwapToHotbar | CraftItem | SmeltStart | SmeltCollect

TIMEOUT = 3.0          # seconds to wait for each server answer
LATE_OPEN = 10.0       # a window opening this long after we gave up on it is closed at once
MAX_STACK = 64
CRAFTING_TABLE_SLOTS = 10   # result + 3x3 grid, then the 36 player slots
FURNACE_SLOTS = 3           # input, fuel, output
INVENTORY_SLOTS = 36        # main and hotbar, in every window after its own slots

# Shapes of the shaped recipes: rows of the grid from its top-left corner; "A" is the
# recipe's first ingredient, "B" its second. One-ingredient, one-item recipes (planks) go
# in the first slot.
SHAPES: dict[str, tuple[str, ...]] = {
    "stick": ("A", "A"),
    "crafting_table": ("AA", "AA"),
    "wooden_pickaxe": ("AAA", " B ", " B "),
    "stone_pickaxe": ("AAA", " B ", " B "),
    "iron_pickaxe": ("AAA", " B ", " B "),
    "furnace": ("AAA", "A A", "AAA"),
}


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


@attrs.frozen
class Outcome:
    op: WindowOp
    ok: bool
    reason: str


@attrs.define
class _Window:
    window_id: int
    size: int                   # the window's own slots; the player's 36 follow
    slots: dict[int, Stack] = attrs.Factory(dict)


def shape_of(recipe: knowledge.Recipe) -> tuple[str, ...] | None:
    """The grid rows for a recipe, None if we do not know how to lay it out."""
    if recipe.item in SHAPES:
        return SHAPES[recipe.item]
    if len(recipe.needs) == 1 and recipe.needs[0][1] == 1:
        return ("A",)
    return None


def _accepts(ingredient: str, item: str) -> bool:
    """Whether a recipe slot naming ``ingredient`` (an item or a tag such as "#planks") takes ``item``."""
    return item in knowledge.members(ingredient)


class WindowSequencer:
    def __init__(self, codec: VersionCodec) -> None:
        self.codec = codec
        self.inventory: dict[int, Stack] = {}
        self.cursor: Stack | None = None
        self.outcome: Outcome | None = None
        self._state_ids: dict[int, int] = {}
        self._window: _Window | None = None
        self._queue: deque[WindowOp] = deque()
        self._op: WindowOp | None = None
        self._phase = "idle"
        self._deadline = 0.0
        self._late_open_until = -1.0
        self._action = 0
        self._ours: set[tuple[int, int]] = set()   # (window, action) of our clicks, until 1.16
        self._rejected = False
        self._resync_action = 0
        self._before: dict[int, Stack] = {}
        self._opened_ids: set[int] = set()         # windows we opened (see ``owns``)

    # -- the API ------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        return self._phase != "idle"

    @property
    def window_id(self) -> int | None:
        return self._window.window_id if self._window is not None else None

    def owns(self, update: WindowUpdate, now: float) -> bool:
        """Whether a server packet answers our own window work, so the player's client must not see it:
        the window we opened (its opening and contents) and the answers to our clicks (until 1.16)."""
        if isinstance(update, WindowOpened):
            ours = self._phase == "opening" or now < self._late_open_until
            if ours:
                self._opened_ids.add(update.window_id)
            else:
                self._opened_ids.discard(update.window_id)  # the player's own window now has this id
            return ours
        if isinstance(update, (WindowContents, SlotChanged)):
            # Answers about our window may still come after we closed it (a resend for a stale state id).
            return update.window_id != 0 and update.window_id in self._opened_ids
        if isinstance(update, ClickAnswered):
            return (update.window_id, update.action) in self._ours
        return False

    def start(self, op: WindowOp, now: float) -> list[bytes]:
        if not isinstance(op, (SwapToHotbar, CraftItem, SmeltStart, SmeltCollect)):
            raise TypeError(f"not a window op: {op!r}")
        self._queue.append(op)
        return [] if self.busy else self._next(now)

    def server_packet(self, name: str, fields: Fields, now: float) -> list[bytes]:
        update = self.codec.window_update(name, fields)
        return [] if update is None else self.update(update, now)

    def update(self, update: WindowUpdate, now: float) -> list[bytes]:
        if isinstance(update, WindowContents):
            return self._contents(update, now)
        if isinstance(update, SlotChanged):
            if update.state_id is not None:
                self._state_ids[update.window_id] = update.state_id
            self._put(update.window_id, update.slot, self._stack(update.item))
            return self._check(now) if update.window_id == 0 else []
        if isinstance(update, CursorChanged):
            self.cursor = self._stack(update.item)
        elif isinstance(update, PlayerSlotChanged):
            self._put(0, inventory_slot(update.index), self._stack(update.item))
            return self._check(now)
        elif isinstance(update, WindowOpened):
            return self._opened(update.window_id, now)
        elif isinstance(update, WindowClosed):
            return self._closed(update.window_id, now)
        elif isinstance(update, ClickAnswered):
            return self._answered(update)
        return []

    def tick(self, now: float) -> list[bytes]:
        if not self.busy or now < self._deadline:
            return []
        if self._phase == "sync":
            return self._finish(False, "the server did not send the inventory", now)
        if self._phase == "opening":
            self._late_open_until = now + LATE_OPEN
            return self._finish(False, "no window opened", now)
        if self._phase == "loading":
            out = [self.codec.close_window(self.window_id or 0)]
            self._window = None
            return out + self._finish(False, "the window's contents never came", now)
        return self._finish(*self._judge(), now)  # confirming: what the inventory shows by now

    # -- server packets -------------------------------------------------------------------
    def _contents(self, update: WindowContents, now: float) -> list[bytes]:
        if update.state_id is not None:
            self._state_ids[update.window_id] = update.state_id
        if update.has_cursor:
            self.cursor = self._stack(update.cursor)
        window = update.window_id
        if window == 0:
            self.inventory = {}
            for slot, value in enumerate(update.items):
                self._put(0, slot, self._stack(value))
            if self._phase == "sync":
                return self._plan(now)
            return self._check(now)
        if self._window is None or window != self._window.window_id:
            return []
        self._window.slots = {}
        for slot, value in enumerate(update.items):
            self._put(window, slot, self._stack(value))
        if self._phase == "loading":
            if len(update.items) != self._window.size + INVENTORY_SLOTS:
                out = [self.codec.close_window(window)]
                self._window = None
                return out + self._finish(False, f"the block opened a window of {len(update.items)} slots", now)
            return self._plan(now)
        return []

    def _check(self, now: float) -> list[bytes]:
        """Confirming: done as soon as the inventory shows the op's effect, failed at the deadline.

        Not on the first window_items: from 1.17 a batched click whose state id went stale
        (the server counts one per result-slot update) earns a full window_items too, before
        the clicks after it are read.
        """
        if self._phase != "confirming":
            return []
        ok, reason = self._judge()
        return self._finish(True, reason, now) if ok else []

    def _opened(self, window_id: int, now: float) -> list[bytes]:
        if self._phase == "opening":
            size = CRAFTING_TABLE_SLOTS if isinstance(self._op, CraftItem) else FURNACE_SLOTS
            self._window = _Window(window_id, size)
            self._phase, self._deadline = "loading", now + TIMEOUT
            return []
        if now < self._late_open_until:  # the answer to an op we gave up on
            self._late_open_until = -1.0
            return [self.codec.close_window(window_id)]
        return []

    def _closed(self, window_id: int, now: float) -> list[bytes]:
        if self._window is None or window_id != self._window.window_id:
            return []
        self._window = None
        if self._phase == "loading":
            return self._finish(False, "the server closed the window", now)
        return []  # confirming: the resync that follows tells what happened

    def _answered(self, update: ClickAnswered) -> list[bytes]:
        key = (update.window_id, update.action)
        if key not in self._ours:
            return []
        self._ours.discard(key)
        if update.accepted:
            return []
        if update.window_id != 0 or update.action != self._resync_action:
            self._rejected = True
        return [self.codec.confirm_transaction(update.window_id, update.action)]

    # -- running ops ------------------------------------------------------------------------
    def _next(self, now: float) -> list[bytes]:
        while self._queue:
            op = self._queue.popleft()
            self._op, self._rejected = op, False
            out = self._begin(op, now)
            if self.busy:
                return out
        return []

    def _begin(self, op: WindowOp, now: float) -> list[bytes]:
        self.outcome = None
        if not self.codec.can_resync_inventory:
            # Every op ends on a resync that shows its effect; without one it could only guess.
            return self._fail_at_once(op, f"{self.codec.version} cannot resync the inventory (clicks carry no state id)")
        if isinstance(op, CraftItem):
            recipe = knowledge.RECIPES.get(op.item)
            if recipe is None or shape_of(recipe) is None:
                return self._fail_at_once(op, f"no recipe for {op.item}")
            if self.codec.item_id(op.item) is None:
                return self._fail_at_once(op, f"{self.codec.version} has no item {op.item}")
            if op.table is None and recipe.needs_table:
                return self._fail_at_once(op, f"{op.item} needs a crafting table")
            if op.table is None:
                return self._sync(now)
            return self._open(op.table, now)
        if isinstance(op, (SmeltStart, SmeltCollect)):
            return self._open(op.furnace, now)
        return self._sync(now)

    def _fail_at_once(self, op: WindowOp, reason: str) -> list[bytes]:
        self.outcome = Outcome(op, False, reason)
        self._op = None
        return []

    def _sync(self, now: float) -> list[bytes]:
        self._phase, self._deadline = "sync", now + TIMEOUT
        return [self._resync()]

    def _open(self, block: tuple[int, int, int], now: float) -> list[bytes]:
        self._phase, self._deadline = "opening", now + TIMEOUT
        self._late_open_until = -1.0
        x, y, z = block
        return [self.codec.use_item_on(x, y, z, 1)]

    def _finish(self, ok: bool, reason: str, now: float) -> list[bytes]:
        assert self._op is not None
        self.outcome = Outcome(self._op, ok, reason)
        self._op, self._phase = None, "idle"
        return self._next(now)

    def _plan(self, now: float) -> list[bytes]:
        """The whole batch of clicks for the op, from the inventory as it stands now."""
        op = self._op
        self._before = dict(self.inventory)  # an opened window's player slots are mirrored there
        if self.cursor is not None:
            return self._give_up(f"the cursor holds {self.cursor.item}", now)
        clicks: list[bytes] | str
        if isinstance(op, SwapToHotbar):
            clicks = [self._click(0, op.slot, op.hotbar, 2)]
        elif isinstance(op, CraftItem):
            clicks = self._craft(op)
        elif isinstance(op, SmeltStart):
            targets = [(0, op.item, op.count)] + ([(1, op.fuel, op.fuel_count)] if op.fuel_count else [])
            clicks = self._fill(targets)
        elif isinstance(op, SmeltCollect):
            clicks = [self._click(self.window_id or 0, 2, 0, 1)] if self._get(2) is not None else "nothing to collect"
        else:
            raise TypeError(op)
        if isinstance(clicks, str):
            return self._give_up(clicks, now)
        out = clicks
        if self._window is not None:
            out.append(self.codec.close_window(self._window.window_id))
            self._window = None
        elif isinstance(op, CraftItem):
            out.append(self.codec.close_window(0))  # like closing the inventory screen: the grid empties
        out.append(self._resync())
        self._phase, self._deadline = "confirming", now + TIMEOUT
        return out

    def _give_up(self, reason: str, now: float) -> list[bytes]:
        out = []
        if self._window is not None:
            out.append(self.codec.close_window(self._window.window_id))
            self._window = None
        return out + self._finish(False, reason, now)

    def _craft(self, op: CraftItem) -> list[bytes] | str:
        recipe = knowledge.RECIPES[op.item]
        shape = shape_of(recipe)
        assert shape is not None
        width = 3 if self._window is not None else 2
        if len(shape) > width or any(len(row) > width for row in shape):
            return f"{op.item} does not fit a {width}x{width} grid"
        if any(self._get(g) is not None for g in range(1, 1 + width * width)):
            return "the crafting grid is not empty"
        times = max(1, min(op.times, MAX_STACK))
        needs = recipe.needs
        targets = [(1 + r * width + c, needs[ord(ch) - ord("A")][0], times)
                   for r, row in enumerate(shape) for c, ch in enumerate(row) if ch != " "]
        clicks = self._fill(targets)
        if isinstance(clicks, str):
            return clicks
        # Until 1.11 the server never sends the result slot (the client works it out); we do too.
        self._put(self.window_id or 0, 0, Stack(op.item, recipe.count))
        clicks.append(self._click(self.window_id or 0, 0, 0, 1))  # shift-click: crafts while the grid allows
        return clicks

    def _fill(self, targets: list[tuple[int, str, int]]) -> list[bytes] | str:
        """Clicks that put ``n`` of an ingredient (an item or a tag) into each target slot.

        Each target gets one kind of item; stacks of a kind are picked up in slot order,
        dealt out (a left click puts the whole cursor down, a right click one item), and
        what is left goes back where it came from.
        """
        window = self.window_id or 0
        first = self._window.size if self._window is not None else 9
        sources = [(s, st) for s in range(first, first + INVENTORY_SLOTS) if (st := self._get(s)) is not None]
        left: dict[tuple[str, int], int] = {}
        for _, st in sources:
            left[st.kind] = left.get(st.kind, 0) + st.count
        plan: dict[tuple[str, int], list[list[int]]] = {}
        for slot, ingredient, n in targets:
            there = self._get(slot)
            if there is not None and (not _accepts(ingredient, there.item) or there.count + n > MAX_STACK):
                return f"slot {slot} holds {there.item}"
            kinds = [k for k in left if _accepts(ingredient, k[0]) and left[k] >= n
                     and (there is None or there.kind == k)]
            if not kinds:
                return f"missing {n} {ingredient}"
            kind = max(kinds, key=lambda k: left[k])  # ties: the first found
            left[kind] -= n
            plan.setdefault(kind, []).append([slot, n])
        clicks: list[bytes] = []
        for kind, wanted in plan.items():
            for source, stack in sources:
                if not any(need for _, need in wanted):
                    break
                if stack.kind != kind:
                    continue
                clicks.append(self._click(window, source, 0, 0))  # pick the stack up
                for entry in wanted:
                    slot, need = entry
                    have = self.cursor.count if self.cursor is not None else 0
                    if not need or not have:
                        continue
                    if have <= need:
                        clicks.append(self._click(window, slot, 0, 0))  # put the whole cursor down
                    else:
                        clicks.extend(self._click(window, slot, 1, 0) for _ in range(need))
                    entry[1] = need - min(have, need)
                if self.cursor is not None:
                    clicks.append(self._click(window, source, 0, 0))  # the rest goes back
        return clicks

    def _judge(self) -> tuple[bool, str]:
        ok, reason = self._verdict()
        if not ok and self._rejected:
            reason += " (the server rejected a click)"
        return ok, reason

    def _verdict(self) -> tuple[bool, str]:
        op = self._op
        if isinstance(op, SwapToHotbar):
            moved = self._before.get(op.slot), self._before.get(36 + op.hotbar)
            now = self.inventory.get(36 + op.hotbar), self.inventory.get(op.slot)
            same = all((a.kind, a.count) == (b.kind, b.count) if a and b else a is b for a, b in zip(moved, now))
            return (True, "swapped") if same else (False, "the slots did not swap")
        if isinstance(op, CraftItem):
            recipe = knowledge.RECIPES[op.item]
            made = self._count(op.item, self.inventory) - self._count(op.item, self._before)
            want = recipe.count * max(1, min(op.times, MAX_STACK))
            return (made >= want, f"crafted {made} {op.item}" + ("" if made >= want else f" of {want}"))
        if isinstance(op, SmeltStart):
            used = self._count(op.item, self._before) - self._count(op.item, self.inventory)
            ok = used >= op.count
            return ok, f"put {used} {op.item} in the furnace" + ("" if ok else f" of {op.count}")
        if isinstance(op, SmeltCollect):
            gained = sum(st.count for st in self.inventory.values()) - sum(st.count for st in self._before.values())
            return (gained > 0, f"collected {gained} items" if gained > 0 else "collected nothing")
        raise TypeError(op)

    @staticmethod
    def _count(ingredient: str, slots: dict[int, Stack]) -> int:
        return sum(st.count for slot, st in slots.items() if 9 <= slot <= 45 and _accepts(ingredient, st.item))

    # -- the model and clicks ---------------------------------------------------------------
    def _resync(self) -> bytes:
        action = self._next_action()
        self._resync_action = action
        self._remember(0, action)
        return self.codec.inventory_resync(action)

    def _next_action(self) -> int:
        self._action = self._action % 32767 + 1
        return self._action

    def _remember(self, window: int, action: int) -> None:
        if len(self._ours) > 512:  # from 1.17 no click is answered: keep the set small
            self._ours.clear()
        self._ours.add((window, action))

    def _stack(self, value: Any) -> Stack | None:
        item = self.codec.slot(value)
        if item is None:
            return None
        return Stack(item.item.removeprefix("minecraft:"), item.count, value if isinstance(value, dict) else None)

    def _get(self, slot: int) -> Stack | None:
        """A slot of the window in use: the opened window, or window 0."""
        w = self._window
        if w is None:
            return self.inventory.get(slot)
        if slot < w.size:
            return w.slots.get(slot)
        return self.inventory.get(slot - w.size + 9)

    def _put(self, window: int, slot: int, stack: Stack | None) -> None:
        w = self._window
        if window != 0 and (w is None or window != w.window_id):
            return
        if w is not None and window == w.window_id:
            if slot < w.size:
                self._set(w.slots, slot, stack)
                return
            slot = slot - w.size + 9
        self._set(self.inventory, slot, stack)

    @staticmethod
    def _set(slots: dict[int, Stack], slot: int, stack: Stack | None) -> None:
        if stack is None:
            slots.pop(slot, None)
        else:
            slots[slot] = stack

    def _click(self, window: int, slot: int, button: int, mode: int) -> bytes:
        """One click: apply it to the model as the server will, and encode it."""
        before = self._get(slot)
        clicked: Stack | None = before        # what the click returns, until 1.16
        cursor = self.cursor
        changed: list[int] = [slot]
        if mode == 2:  # number key: swap with a hotbar slot
            hotbar = (self._window.size + 27 if self._window is not None else 36) + button
            self._put(window, slot, self._get(hotbar))
            self._put(window, hotbar, before)
            changed.append(hotbar)
            clicked = None
        elif mode == 1:  # shift-click on a result or output slot; where it lands, the server tells
            self._put(window, slot, None)
            if slot == 0 and isinstance(self._op, CraftItem):  # the result: the grid gives one set per craft
                grid = range(1, 10 if self._window is not None else 5)
                crafts = min((st.count for g in grid if (st := self._get(g)) is not None), default=0)
                for g in grid:
                    st = self._get(g)
                    if st is not None:
                        self._put(window, g, st.with_count(st.count - crafts))
                        changed.append(g)
        elif button == 0:  # left click
            if cursor is None or before is None:
                self._put(window, slot, cursor)
                self.cursor = before
            elif cursor.kind == before.kind:
                moved = min(cursor.count, MAX_STACK - before.count)
                self._put(window, slot, before.with_count(before.count + moved))
                self.cursor = cursor.with_count(cursor.count - moved)
            else:
                self._put(window, slot, cursor)
                self.cursor = before
        else:  # right click: one item down, or half the stack up
            if cursor is None and before is not None:
                half = (before.count + 1) // 2
                self.cursor = before.with_count(half)
                self._put(window, slot, before.with_count(before.count - half))
            elif cursor is not None and (before is None or before.kind == cursor.kind):
                self._put(window, slot, cursor.with_count((before.count if before else 0) + 1))
                self.cursor = cursor.with_count(cursor.count - 1)
            elif cursor is not None and before is not None:
                self._put(window, slot, cursor)
                self.cursor = before
        action = self._next_action()
        self._remember(window, action)
        return self.codec.window_click(
            window, self._state_ids.get(window, 0), slot, button, mode,
            [(s, st.wire() if (st := self._get(s)) is not None else None) for s in changed],
            self.cursor.wire() if self.cursor is not None else None,
            clicked=clicked.wire() if clicked is not None else None, action=action)
