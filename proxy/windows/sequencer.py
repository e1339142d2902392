"""The window sequencer: hotbar swaps, crafting and smelting as window clicks.

How this works. One ``WindowSequencer`` per player connection, sans-IO like the
codec: it is fed decoded server packets and the time, and hands back packets for
the server; the caller owns the connection.

    seq = WindowSequencer(codec)
    seq.start(op, now)                  -> packets: begin an op (queued while busy)
    seq.update(update, now)             -> packets: every server window packet, as
                                           window_packets.window_update reads it
    seq.tick(now)                       -> packets: timeouts
    seq.busy, seq.outcome (of the last op), seq.inventory (the mirrored slots)

It keeps a mirror of the player's inventory, cursor, the window it opened and each
window's state id, from window_items / set_slot / the 1.21.2 cursor and
player-inventory packets, and from its own clicks, which the server does not echo.

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

The pieces, one module each: ``inventory_mirror`` (the slots, cursor and opened
window as the server has them), ``window_clicks`` (click numbers, the server's
answers to them until 1.16, the resync click), ``window_plans`` (which clicks an op
takes, and how the inventory shows it worked). This module only runs the phases.
"""
from __future__ import annotations

from collections import deque

import attrs

from engine.actions import CraftItem, SmeltCollect, SmeltStart, SwapToHotbar
from engine.decision import knowledge
from proxy.codec.versioned import VersionCodec
from proxy.windows.inventory_mirror import INVENTORY_SLOTS, InventoryMirror, OpenWindow, Stack
from proxy.windows.clicks import WindowClicks
from proxy.codec.window_packets import (ClickAnswered, CursorChanged, PlayerSlotChanged, SlotChanged, WindowClosed,
                                  WindowContents, WindowOpened, WindowPackets, WindowUpdate)
from proxy.windows.plans import WindowOp, plan, shape_of, verdict

TIMEOUT = 3.0          # seconds to wait for each server answer
LATE_OPEN = 10.0       # a window opening this long after we gave up on it is closed at once
CRAFTING_TABLE_SLOTS = 10   # result + 3x3 grid, then the 36 player slots
FURNACE_SLOTS = 3           # input, fuel, output


@attrs.frozen
class Outcome:
    op: WindowOp
    ok: bool
    reason: str


class WindowSequencer:
    def __init__(self, codec: VersionCodec) -> None:
        self.codec = codec
        self.packets = WindowPackets(codec)
        self.mirror = InventoryMirror(codec)
        self.clicks = WindowClicks(self.packets, self.mirror)
        self.outcome: Outcome | None = None
        self._queue: deque[WindowOp] = deque()
        self._op: WindowOp | None = None
        self._phase = "idle"
        self._deadline = 0.0
        self._late_open_until = -1.0
        self._before: dict[int, Stack] = {}
        self._opened_ids: set[int] = set()         # windows we opened (see ``owns``)

    # -- the API ------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        return self._phase != "idle"

    @property
    def inventory(self) -> dict[int, Stack]:
        return self.mirror.inventory

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
            return self.clicks.ours(update)
        return False

    def start(self, op: WindowOp, now: float) -> list[bytes]:
        if not isinstance(op, (SwapToHotbar, CraftItem, SmeltStart, SmeltCollect)):
            raise TypeError(f"not a window op: {op!r}")
        self._queue.append(op)
        return [] if self.busy else self._next(now)

    def update(self, update: WindowUpdate, now: float) -> list[bytes]:
        if isinstance(update, WindowContents):
            return self._contents(update, now)
        if isinstance(update, SlotChanged):
            self.mirror.slot_changed(update)
            return self._check(now) if update.window_id == 0 else []
        if isinstance(update, CursorChanged):
            self.mirror.cursor = self.mirror.stack(update.item)
        elif isinstance(update, PlayerSlotChanged):
            self.mirror.player_slot_changed(update)
            return self._check(now)
        elif isinstance(update, WindowOpened):
            return self._opened(update.window_id, now)
        elif isinstance(update, WindowClosed):
            return self._closed(update.window_id, now)
        elif isinstance(update, ClickAnswered):
            return self.clicks.answered(update)
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
            return self._close() + self._finish(False, "the window's contents never came", now)
        return self._finish(*self._judge(), now)  # confirming: what the inventory shows by now

    # -- server packets -------------------------------------------------------------------
    def _contents(self, update: WindowContents, now: float) -> list[bytes]:
        self.mirror.contents(update)
        if update.window_id == 0:
            return self._plan(now) if self._phase == "sync" else self._check(now)
        window = self.mirror.window
        if window is None or update.window_id != window.window_id or self._phase != "loading":
            return []
        if len(update.items) != window.size + INVENTORY_SLOTS:
            return self._close() + self._finish(False, f"the block opened a window of {len(update.items)} slots", now)
        return self._plan(now)

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
            self.mirror.window = OpenWindow(window_id, size)
            self._phase, self._deadline = "loading", now + TIMEOUT
            return []
        if now < self._late_open_until:  # the answer to an op we gave up on
            self._late_open_until = -1.0
            return [self.packets.close_window(window_id)]
        return []

    def _closed(self, window_id: int, now: float) -> list[bytes]:
        if self.mirror.window is None or window_id != self.mirror.window.window_id:
            return []
        self.mirror.window = None
        if self._phase == "loading":
            return self._finish(False, "the server closed the window", now)
        return []  # confirming: the resync that follows tells what happened

    # -- running ops ------------------------------------------------------------------------
    def _next(self, now: float) -> list[bytes]:
        while self._queue:
            op = self._queue.popleft()
            self._op = op
            self.clicks.reset()
            out = self._begin(op, now)
            if self.busy:
                return out
        return []

    def _begin(self, op: WindowOp, now: float) -> list[bytes]:
        self.outcome = None
        if not self.packets.can_resync_inventory:
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
        return [self.clicks.resync()]

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
        assert op is not None
        self._before = dict(self.mirror.inventory)  # an opened window's player slots are mirrored there
        if self.mirror.cursor is not None:
            return self._close() + self._finish(False, f"the cursor holds {self.mirror.cursor.item}", now)
        clicks = plan(op, self.mirror, self.clicks)
        if isinstance(clicks, str):
            return self._close() + self._finish(False, clicks, now)
        out = clicks
        if self.mirror.window is not None:
            out += self._close()
        elif isinstance(op, CraftItem):
            out.append(self.packets.close_window(0))  # like closing the inventory screen: the grid empties
        out.append(self.clicks.resync())
        self._phase, self._deadline = "confirming", now + TIMEOUT
        return out

    def _close(self) -> list[bytes]:
        """Close the window we opened, if it is open."""
        window = self.mirror.window
        if window is None:
            return []
        self.mirror.window = None
        return [self.packets.close_window(window.window_id)]

    def _judge(self) -> tuple[bool, str]:
        assert self._op is not None
        ok, reason = verdict(self._op, self._before, self.mirror.inventory)
        if not ok and self.clicks.rejected:
            reason += " (the server rejected a click)"
        return ok, reason
