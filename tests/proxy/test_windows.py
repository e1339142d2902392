"""The window sequencer against a small scripted server, over each version's real packets.

``FakeServer`` is an independent model of a vanilla server's windows: it decodes the
clicks with the codec, applies them to its own slots (pick up, put down, one item,
shift-click crafting with its own recipe table), checks what a vanilla server checks
(until 1.16 the item each click returns, rejecting mismatches until confirmed), answers
with the codec's own packets, and opens a crafting table or furnace on use_item_on.
"""
from __future__ import annotations

from typing import Any

import pytest

from engine.actions import CraftItem, SmeltCollect, SmeltStart, SwapToHotbar
from engine.events import SlotItem
from proxy.codec import subscriptions
from proxy.codec.translators import TRANSLATORS
from proxy.codec.versioned import VersionCodec
from proxy.protocol.tables import TO_CLIENT, TO_SERVER, table_for_version
from proxy.protocol.wire import read_varint
from proxy.protocol.versions import SUPPORTED
from proxy.windows.plans import SHAPES, shape_of
from proxy.codec.window_packets import WindowPackets, window_update
from proxy.windows.sequencer import TIMEOUT, WindowSequencer


def feed(seq: WindowSequencer, name: str, fields: dict[str, Any], now: float) -> list[bytes]:
    """A server window packet to the sequencer, as the connection's play relay hands it over."""
    update = window_update(name, fields)
    return [] if update is None else seq.update(update, now)

VERSIONS = [v.name for v in SUPPORTED]
TABLE = (10, 64, -3)
FURNACE = (12, 64, -3)
Item = tuple[str, int]          # (name without "minecraft:", count)


def names(codec: VersionCodec) -> dict[str, str]:
    """The version's names for the test's items (before 1.13 logs and planks have no species)."""
    legacy = codec.item_id("oak_log") is None
    return {"log": "log" if legacy else "oak_log", "planks": "planks" if legacy else "oak_planks",
            "raw": "iron_ore" if codec.item_id("raw_iron") is None else "raw_iron"}


def recipes(codec: VersionCodec) -> dict[tuple[tuple[int, int, str], ...], Item]:
    """The fake server's recipe book: cells (row, col, item) from the top-left filled cell."""
    n = names(codec)
    log, planks = n["log"], n["planks"]
    pick = ((0, 0, planks), (0, 1, planks), (0, 2, planks), (1, 1, "stick"), (2, 1, "stick"))
    ring = tuple((r, c, "cobblestone") for r in range(3) for c in range(3) if (r, c) != (1, 1))
    return {
        ((0, 0, log),): (planks, 4),
        ((0, 0, planks), (1, 0, planks)): ("stick", 4),
        ((0, 0, planks), (0, 1, planks), (1, 0, planks), (1, 1, planks)): ("crafting_table", 1),
        pick: ("wooden_pickaxe", 1),
        ring: ("furnace", 1),
        ((0, 0, "charcoal"), (1, 0, "stick")): ("torch", 4),      # vanilla's torch, a goal's recipe
        ((0, 0, "coal"), (1, 0, "stick")): ("torch", 4),
    }


class FakeServer:
    def __init__(self, codec: VersionCodec, inventory: dict[int, Item], answer_open: bool = True) -> None:
        self.codec = codec
        self.inv: dict[int, Item] = dict(inventory)      # window-0 slots 9..44
        self.grid2: dict[int, Item] = {}                  # window-0 slots 0..4
        self.cursor: Item | None = None
        self.window: tuple[int, str, dict[int, Item]] | None = None   # id, kind, own slots
        self.next_id = 1
        self.state = 0
        self.answer_open = answer_open
        self.locked: tuple[int, int] | None = None         # until 1.16: (window, action) awaiting confirmation
        self.clicks: list[tuple[int, int, int, int]] = []  # (window, slot, button, mode), resyncs excluded
        self.rejections: list[int] = []                    # actions whose returned item did not match
        self.dishonest: list[tuple[int, Any]] = []          # 1.17+: declared slots that differ from ours
        self.confirmed: list[int] = []
        self.closed: list[int] = []
        self.furnace: dict[int, Item] = {}
        self.legacy = "changedSlots" not in codec.field_types("play", TO_SERVER, "window_click")
        self.outgoing: list[tuple[str, bytes]] = []

    # -- wire -----------------------------------------------------------------------------
    def send(self, name: str, **fields: Any) -> tuple[str, bytes]:
        types = self.codec.field_types("play", TO_CLIENT, name)
        return name, self.codec.build("play", TO_CLIENT, name, **{k: v for k, v in fields.items() if k in types})

    def slot(self, name: str, field: str, value: Item | None) -> Any:
        kind = self.codec.field_types("play", TO_CLIENT, name)[field]
        if isinstance(kind, list) and kind[0] == "array":
            kind = kind[1]["type"]
        return self.codec.slot_value(kind, None if value is None else SlotItem("minecraft:" + value[0], value[1]))

    def item(self, value: Any) -> Item | None:
        got = self.codec.slot(value)
        return None if got is None else (got.item.removeprefix("minecraft:"), got.count)

    def contents(self, window: int) -> tuple[str, bytes]:
        self.state += 1
        if window == 0:
            own = [self.grid2.get(s) for s in range(9)]
            player = [self.inv.get(s) for s in range(9, 45)] + [None]
        else:
            assert self.window is not None
            size = 10 if self.window[1] == "table" else 3
            own = [self.window[2].get(s) for s in range(size)]
            player = [self.inv.get(s) for s in range(9, 45)]
        items = [self.slot("window_items", "items", v) for v in own + player]
        carried = "carriedItem" in self.codec.field_types("play", TO_CLIENT, "window_items")  # from 1.17.1
        extra = {"carriedItem": self.slot("window_items", "carriedItem", self.cursor)} if carried else {}
        return self.send("window_items", windowId=window, stateId=self.state, items=items, **extra)

    # -- the model --------------------------------------------------------------------------
    def slots(self, window: int) -> tuple[dict[int, Item], int, range]:
        """(own slots, where the player's 36 start, the grid) of a window."""
        if window == 0:
            return self.grid2, 9, range(1, 5)
        assert self.window is not None and self.window[0] == window
        own = self.window[2]
        return own, (10 if self.window[1] == "table" else 3), (range(1, 10) if self.window[1] == "table" else range(0))

    def get(self, window: int, slot: int) -> Item | None:
        own, first, _ = self.slots(window)
        return own.get(slot) if slot < first else self.inv.get(slot - first + 9)

    def set(self, window: int, slot: int, value: Item | None) -> None:
        own, first, _ = self.slots(window)
        target, key = (own, slot) if slot < first else (self.inv, slot - first + 9)
        if value is None or value[1] == 0:
            target.pop(key, None)
        else:
            target[key] = value

    def craft_result(self, window: int) -> Item | None:
        _, _, grid = self.slots(window)
        width = 2 if window == 0 else 3
        cells = [((g - 1) // width, (g - 1) % width, v[0]) for g in grid if (v := self.get(window, g)) is not None]
        if not cells:
            return None
        r0, c0 = min(c[0] for c in cells), min(c[1] for c in cells)
        return recipes(self.codec).get(tuple(sorted((r - r0, c - c0, i) for r, c, i in cells)))

    def refresh_result(self, window: int) -> None:
        if window == 0 or (self.window is not None and self.window[1] == "table"):
            self.set(window, 0, self.craft_result(window))
            if self.codec.protocol >= 335:  # 1.12+: sent on every grid change (1.17+: a new state id each)
                self.state += 1
                self.outgoing.append(self.send("set_slot", windowId=window, stateId=self.state, slot=0,
                                               item=self.slot("set_slot", "item", self.get(window, 0))))

    def merge_into_inventory(self, window: int, stack: Item) -> int:
        """Vanilla's shift-click: same items first, then empty slots, from the hotbar's end."""
        _, first, _ = self.slots(window)
        order = list(range(first + 35, first - 1, -1))
        left = stack[1]
        for s in order:
            have = self.get(window, s)
            if have is not None and have[0] == stack[0] and have[1] < 64 and left:
                moved = min(64 - have[1], left)
                self.set(window, s, (have[0], have[1] + moved))
                left -= moved
        for s in order:
            if left and self.get(window, s) is None:
                self.set(window, s, (stack[0], left))
                left = 0
        return stack[1] - left

    def apply(self, window: int, slot: int, button: int, mode: int) -> Item | None:
        """Apply a click as a vanilla server does; return the item the click returns."""
        if slot == -999:
            return None
        before = self.get(window, slot)
        if mode == 2:
            hotbar = (9 if window == 0 else (10 if self.window and self.window[1] == "table" else 3)) + 27 + button
            self.set(window, slot, self.get(window, hotbar))
            self.set(window, hotbar, before)
            return None
        if mode == 1:
            if (slot == 0 and (window == 0 or self.window and self.window[1] == "table")) or \
                    (slot == 2 and self.window and self.window[1] == "furnace"):
                kept = False   # vanilla 1.12+: the stack is returned only if a move left the slot the same item
                while (result := self.get(window, slot)) is not None:
                    if self.merge_into_inventory(window, result) < result[1]:
                        break
                    if slot == 2:
                        self.set(window, 2, None)
                        break
                    for g in self.slots(window)[2]:
                        v = self.get(window, g)
                        if v is not None:
                            self.set(window, g, (v[0], v[1] - 1))
                    self.refresh_result(window)
                    now = self.get(window, slot)
                    kept = kept or (now is not None and before is not None and now[0] == before[0])
                return before if self.codec.protocol < 335 or kept else None
            raise AssertionError(f"shift-click on slot {slot} not modelled")
        cursor = self.cursor
        if slot == 0 and self.slots(window)[2] and before is not None:
            raise AssertionError("plain clicks on the result slot are not modelled")
        if button == 0:
            if cursor is not None and before is not None and cursor[0] == before[0]:
                moved = min(cursor[1], 64 - before[1])
                self.set(window, slot, (before[0], before[1] + moved))
                self.cursor = (cursor[0], cursor[1] - moved) if cursor[1] > moved else None
            else:
                self.set(window, slot, cursor)
                self.cursor = before
        elif cursor is None:
            if before is not None:
                half = (before[1] + 1) // 2
                self.cursor = (before[0], half)
                self.set(window, slot, (before[0], before[1] - half))
        elif before is None or before[0] == cursor[0]:
            self.set(window, slot, (cursor[0], (before[1] if before else 0) + 1))
            self.cursor = (cursor[0], cursor[1] - 1) if cursor[1] > 1 else None
        else:
            self.set(window, slot, cursor)
            self.cursor = before
        self.refresh_result(window)
        return before

    # -- packets from the proxy ------------------------------------------------------------
    def receive(self, packet: bytes) -> list[tuple[str, bytes]]:
        answers = self.answer(packet)
        out, self.outgoing = self.outgoing + answers, []
        return out

    def answer(self, packet: bytes) -> list[tuple[str, bytes]]:
        pid, _ = read_varint(packet, 0)
        name = self.codec.table.packet_name("play", TO_SERVER, pid)
        assert name is not None
        f = self.codec.decode("play", TO_SERVER, name, packet)
        if name == "block_place":
            where = (f["location"]["x"], f["location"]["y"], f["location"]["z"])
            kind = {TABLE: "table", FURNACE: "furnace"}.get(where)
            if kind is None or not self.answer_open:
                return []
            self.window = (self.next_id, kind, self.furnace if kind == "furnace" else {})
            self.next_id += 1
            return [self.send("open_window", windowId=self.window[0], slotCount=3 if kind == "furnace" else 0),
                    self.contents(self.window[0])]
        if name == "close_window":
            self.closed.append(f["windowId"])
            window = f["windowId"]
            own, _, grid = self.slots(window) if window == 0 or self.window else ({}, 0, range(0))
            for g in grid:  # the grid empties into the inventory
                if (v := own.pop(g, None)) is not None:
                    self.merge_into_inventory(window, v)
            own.pop(0, None) if grid else None
            if window != 0:
                self.window = None
            return []
        if name == "transaction":
            assert f["accepted"]
            self.confirmed.append(f["action"])
            if self.locked == (f["windowId"], f["action"]):
                self.locked = None
            return []
        assert name == "window_click", name
        window, slot, button, mode = f["windowId"], f["slot"], f["mouseButton"], f["mode"]
        if self.legacy and self.locked is not None:  # ignored until the rejection is confirmed
            return []
        if self.legacy:
            returned = self.apply(window, slot, button, mode)
            if slot != -999:
                self.clicks.append((window, slot, button, mode))
            if self.item(f["item"]) == returned:
                return [self.send("transaction", windowId=window, action=f["action"], accepted=True)]
            if slot != -999:
                self.rejections.append(f["action"])
            self.locked = (window, f["action"])
            return [self.send("transaction", windowId=window, action=f["action"], accepted=False),
                    self.contents(window)]
        stale = f.get("stateId", self.state) != self.state  # 1.17 has no state id: never stale
        size = self.slots(window)[1]
        every = range(size + 36)
        before = {s: self.get(window, s) for s in every}
        self.apply(window, slot, button, mode)
        if slot != -999:
            self.clicks.append((window, slot, button, mode))
        declared = set()
        for entry in f["changedSlots"]:
            declared.add(entry["location"])
            if self.get(window, entry["location"]) != self.item(entry["item"]):
                self.dishonest.append((entry["location"], entry["item"]))
        # Every slot the click changed is declared, but where a shift-click's items landed.
        undeclared = {s for s in every if self.get(window, s) != before[s]} - declared
        if mode == 1:
            undeclared -= set(range(size, size + 36))
        if self.slots(window)[2]:  # a crafting result: the server sends it itself, clients never predict it
            undeclared.discard(0)
        self.dishonest.extend((s, "undeclared") for s in sorted(undeclared))
        if self.item(f["cursorItem"]) != self.cursor:
            self.dishonest.append((-1, f["cursorItem"]))
        return [self.contents(window)] if stale else []


class Link:
    """The sequencer and the fake server, packets carried both ways through the real codec."""

    def __init__(self, version: str, inventory: dict[int, Item], **server: Any) -> None:
        self.codec = VersionCodec(table_for_version(version))
        self.server = FakeServer(self.codec, inventory, **server)
        self.seq = WindowSequencer(self.codec)
        self.now = 0.0
        self.sent: list[bytes] = []
        self.pump([self.server.contents(0)])  # what a server sends at join

    def pump(self, from_server: list[tuple[str, bytes]], to_server: tuple[bytes, ...] | list[bytes] = ()) -> None:
        outbox = list(to_server)
        inbox = list(from_server)
        while outbox or inbox:
            for packet in outbox:
                self.sent.append(packet)
                inbox.extend(self.server.receive(packet))
            outbox = []
            for name, packet in inbox:
                assert name in subscriptions.WINDOW_TO_CLIENT
                fields = self.codec.decode("play", TO_CLIENT, name, packet)
                outbox.extend(feed(self.seq, name, fields, self.now))
            inbox = []

    def run(self, op: Any) -> None:
        self.pump([], self.seq.start(op, self.now))

    def clicks(self) -> list[tuple[int, int, int]]:
        return [(slot, button, mode) for _, slot, button, mode in self.server.clicks]

    def check_clean(self) -> None:
        assert self.server.rejections == [] and self.server.dishonest == []
        assert not self.seq.busy and self.server.locked is None
        assert self.server.cursor is None
        seen = {s: (st.item, st.count) for s, st in self.seq.inventory.items() if 9 <= s <= 44}
        assert seen == self.server.inv  # the sequencer's mirror is the server's inventory


@pytest.mark.parametrize("version", [v for v in VERSIONS if WindowPackets(VersionCodec(table_for_version(v))).can_resync_inventory])
def test_planks_in_the_inventory_grid(version: str) -> None:
    link = Link(version, {})
    n = names(link.codec)
    link = Link(version, {12: (n["log"], 3), 36: ("stick", 5)})
    link.run(CraftItem(n["planks"], 1, None))
    assert link.seq.outcome is not None and link.seq.outcome.ok, link.seq.outcome
    # Pick up the 3 logs, one into the grid, two back, shift-click the result.
    assert link.clicks() == [(12, 0, 0), (1, 1, 0), (12, 0, 0), (0, 0, 1)]
    assert link.server.inv == {12: (n["log"], 2), 36: ("stick", 5), 44: (n["planks"], 4)}
    assert link.server.closed == [0]
    link.check_clean()


def test_a_version_without_inventory_resync_refuses_window_ops_at_once() -> None:
    """1.17's clicks carry neither a returned item nor a state id: nothing would confirm an op."""
    link = Link("1.17", {12: ("oak_log", 3)})
    assert not WindowPackets(link.codec).can_resync_inventory
    out = link.seq.start(CraftItem("oak_planks", 1, None), 0.0)
    assert out == [] and not link.seq.busy
    assert link.seq.outcome is not None and not link.seq.outcome.ok
    assert "cannot resync" in link.seq.outcome.reason


@pytest.mark.parametrize("version", ["1.8.8", "1.12.2", "1.18.2", "1.21.4", "26.1", "26.2"])
def test_sticks_twice_from_two_stacks(version: str) -> None:
    link = Link(version, {})
    planks = names(link.codec)["planks"]
    link = Link(version, {9: (planks, 3), 20: (planks, 1)})
    link.run(CraftItem("stick", 2, None))
    assert link.seq.outcome is not None and link.seq.outcome.ok, link.seq.outcome
    # 2 planks into each of the two vertical cells: the 3-stack fills the top cell and starts
    # the one below, the single plank completes it.
    assert link.clicks() == [(9, 0, 0), (1, 1, 0), (1, 1, 0), (3, 0, 0), (20, 0, 0), (3, 0, 0), (0, 0, 1)]
    assert link.server.inv == {44: ("stick", 8)}
    link.check_clean()


@pytest.mark.parametrize("version", ["1.8.8", "1.12.2", "1.18.2", "1.21.4", "26.1", "26.2"])
def test_crafting_table_in_the_inventory_grid(version: str) -> None:
    link = Link(version, {})
    planks = names(link.codec)["planks"]
    link = Link(version, {40: (planks, 4)})
    link.run(CraftItem("crafting_table", 1, None))
    assert link.seq.outcome is not None and link.seq.outcome.ok, link.seq.outcome
    assert link.clicks() == [(40, 0, 0), (1, 1, 0), (2, 1, 0), (3, 1, 0), (4, 0, 0), (0, 0, 1)]
    assert link.server.inv == {44: ("crafting_table", 1)}
    link.check_clean()


@pytest.mark.parametrize("version", ["1.8.8", "1.12.2", "1.18.2", "1.21.4", "26.1", "26.2"])
def test_pickaxe_at_a_table_waits_for_the_window(version: str) -> None:
    link = Link(version, {})
    planks = names(link.codec)["planks"]
    link = Link(version, {9: (planks, 5), 36: ("stick", 4)})
    first = link.seq.start(CraftItem("wooden_pickaxe", 1, TABLE), link.now)
    # Only the use_item_on: nothing is clicked before the table's window is open and filled.
    assert len(first) == 1 and link.codec.decode("play", TO_SERVER, "block_place", first[0])["location"] \
        == {"x": TABLE[0], "y": TABLE[1], "z": TABLE[2]}
    assert link.seq.busy
    link.pump([], first)
    assert link.seq.outcome is not None and link.seq.outcome.ok, link.seq.outcome
    # Table slots: 1-9 grid, player main from 10, hotbar from 37.
    assert link.clicks() == [(10, 0, 0), (1, 1, 0), (2, 1, 0), (3, 1, 0), (10, 0, 0),
                             (37, 0, 0), (5, 1, 0), (8, 1, 0), (37, 0, 0), (0, 0, 1)]
    assert link.server.inv == {9: (planks, 2), 36: ("stick", 2), 44: ("wooden_pickaxe", 1)}
    assert link.server.closed == [1] and link.server.window is None
    link.check_clean()


@pytest.mark.parametrize("version", ["1.8.8", "1.18.2", "1.21.4"])
def test_furnace_at_a_table_from_cobblestone(version: str) -> None:
    link = Link(version, {20: ("cobblestone", 10)})
    link.run(CraftItem("furnace", 1, TABLE))
    assert link.seq.outcome is not None and link.seq.outcome.ok, link.seq.outcome
    assert link.server.inv == {20: ("cobblestone", 2), 44: ("furnace", 1)}
    link.check_clean()


def test_a_table_recipe_without_a_table_sends_nothing() -> None:
    link = Link("1.18.2", {9: ("oak_planks", 5), 36: ("stick", 4)})
    assert link.seq.start(CraftItem("wooden_pickaxe", 1, None), 0.0) == []
    assert link.seq.outcome is not None and not link.seq.outcome.ok and not link.seq.busy


def test_missing_ingredients_click_nothing() -> None:
    link = Link("1.12.2", {9: ("planks", 1)})
    link.run(CraftItem("stick", 1, None))
    assert link.seq.outcome is not None and not link.seq.outcome.ok
    assert "missing" in link.seq.outcome.reason and link.clicks() == []


@pytest.mark.parametrize("version", ["1.8.8", "1.18.2", "1.21.4"])
def test_no_window_times_out_and_a_late_one_is_closed(version: str) -> None:
    link = Link(version, {9: ("cobblestone", 8)}, answer_open=False)
    link.run(CraftItem("furnace", 1, TABLE))
    assert link.seq.busy and link.seq.tick(TIMEOUT - 0.1) == []
    assert link.seq.tick(TIMEOUT + 0.1) == []  # nothing was opened, nothing to close
    assert link.seq.outcome is not None and link.seq.outcome.reason == "no window opened"
    assert not link.seq.busy and link.clicks() == []
    # The table opens after all: it is closed at once, untouched.
    late = link.codec.build("play", TO_CLIENT, "open_window", windowId=7)
    out = feed(link.seq, "open_window", link.codec.decode("play", TO_CLIENT, "open_window", late), TIMEOUT + 1)
    assert [link.codec.decode("play", TO_SERVER, "close_window", p) for p in out] == [{"windowId": 7}]


def test_a_window_that_never_fills_is_closed_on_timeout() -> None:
    link = Link("1.18.2", {9: ("cobblestone", 8)})
    link.seq.start(CraftItem("furnace", 1, TABLE), 0.0)
    opened = link.codec.build("play", TO_CLIENT, "open_window", windowId=4)
    assert feed(link.seq, "open_window", link.codec.decode("play", TO_CLIENT, "open_window", opened), 0.5) == []
    out = link.seq.tick(0.5 + TIMEOUT + 0.1)
    assert [link.codec.decode("play", TO_SERVER, "close_window", p) for p in out] == [{"windowId": 4}]
    assert link.seq.outcome is not None and not link.seq.outcome.ok and not link.seq.busy


@pytest.mark.parametrize("version", ["1.8.8", "1.12.2", "1.18.2", "1.21.4", "26.1", "26.2"])
def test_swap_to_hotbar(version: str) -> None:
    link = Link(version, {15: ("cobblestone", 7), 38: ("stick", 1)})
    link.run(SwapToHotbar(15, 2))
    assert link.clicks() == [(15, 2, 2)]
    assert link.server.inv == {38: ("cobblestone", 7), 15: ("stick", 1)}
    assert link.seq.outcome is not None and link.seq.outcome.ok
    link.check_clean()


@pytest.mark.parametrize("version", ["1.8.8", "1.12.2", "1.18.2", "1.21.4", "26.1", "26.2"])
def test_smelting_start_and_collect(version: str) -> None:
    link = Link(version, {})
    raw = names(link.codec)["raw"]
    link = Link(version, {9: (raw, 5), 30: ("coal", 3)})
    link.run(SmeltStart(FURNACE, raw, 3, "coal", 1))
    assert link.seq.outcome is not None and link.seq.outcome.ok, link.seq.outcome
    # Furnace slots: 0 input, 1 fuel, player main from 3.
    assert link.clicks() == [(3, 0, 0), (0, 1, 0), (0, 1, 0), (0, 1, 0), (3, 0, 0),
                             (24, 0, 0), (1, 1, 0), (24, 0, 0)]
    assert link.server.furnace == {0: (raw, 3), 1: ("coal", 1)}
    assert link.server.inv == {9: (raw, 2), 30: ("coal", 2)}
    link.check_clean()
    # The server smelts; then the output is shift-clicked out.
    link.server.furnace.clear()
    link.server.furnace[2] = ("iron_ingot", 3)
    link.run(SmeltCollect(FURNACE))
    assert link.seq.outcome is not None and link.seq.outcome.ok, link.seq.outcome
    assert link.clicks()[-1] == (2, 0, 1)
    assert link.server.inv == {9: (raw, 2), 30: ("coal", 2), 44: ("iron_ingot", 3)}
    link.check_clean()


def test_ops_queue_while_busy() -> None:
    link = Link("1.18.2", {12: ("oak_log", 2), 15: ("cobblestone", 1)})
    first = link.seq.start(CraftItem("oak_planks", 1, None), 0.0)
    assert link.seq.start(SwapToHotbar(15, 0), 0.0) == []  # queued behind the craft
    link.pump([], first)
    assert not link.seq.busy and link.seq.outcome is not None and link.seq.outcome.op == SwapToHotbar(15, 0)
    assert link.server.inv == {12: ("oak_log", 1), 36: ("cobblestone", 1), 44: ("oak_planks", 4)}
    link.check_clean()


def test_a_stale_mirror_is_resynced_before_planning() -> None:
    """The player moved the logs with their own client: the server never echoes that before 1.17."""
    link = Link("1.12.2", {12: ("log", 3)})
    link.server.inv = {30: ("log", 3)}  # moved behind the sequencer's back
    link.run(CraftItem("planks", 1, None))
    assert link.seq.outcome is not None and link.seq.outcome.ok
    assert link.clicks()[0] == (30, 0, 0)
    link.check_clean()


def test_a_rejected_click_is_confirmed_and_fails_the_op() -> None:
    link = Link("1.12.2", {12: ("log", 3)})
    original = link.server.apply

    def off_by_one(window: int, slot: int, button: int, mode: int) -> Any:
        got = original(window, slot, button, mode)
        return ("log", 99) if slot == 12 and got is not None else got  # the server saw another stack

    link.server.apply = off_by_one  # type: ignore[method-assign]
    link.run(CraftItem("planks", 1, None))
    assert link.server.rejections and link.server.locked is None  # confirmed
    assert link.seq.busy  # the inventory does not show planks: wait for the deadline
    assert link.seq.tick(link.now + TIMEOUT + 0.1) == []
    assert link.seq.outcome is not None and not link.seq.outcome.ok
    assert "rejected" in link.seq.outcome.reason


def test_every_recipe_has_a_shape_matching_its_ingredients() -> None:
    from engine.decision import knowledge

    for recipe in knowledge.RECIPES.values():
        shape = shape_of(recipe)
        assert shape is not None, recipe.item
        for letter, (_, count) in zip("AB", recipe.needs):
            assert sum(row.count(letter) for row in shape) == count, recipe.item
        assert (len(shape) <= 2 and all(len(r) <= 2 for r in shape)) or recipe.needs_table, recipe.item
    assert set(SHAPES) <= set(knowledge.RECIPES)


def test_window_packets_are_subscribed_with_translators() -> None:
    for name in subscriptions.WINDOW_TO_CLIENT:
        assert name in subscriptions.TO_CLIENT_PLAY and (TO_CLIENT, name) in TRANSLATORS
    codec = VersionCodec(table_for_version("1.21.4"))
    assert {"open_window", "close_window", "set_cursor_item", "set_player_inventory"} <= \
        set(codec.subscribed[TO_CLIENT].values())
    assert "transaction" in VersionCodec(table_for_version("1.12.2")).subscribed[TO_CLIENT].values()


@pytest.mark.parametrize("version", ["1.18.2", "26.1"])
def test_a_goals_recipe_is_laid_out_as_minecraft_data_shapes_it(version: str) -> None:
    # Torches (a goal's recipe, not the ladder's): charcoal above a stick in the inventory grid.
    link = Link(version, {36: ("charcoal", 2), 37: ("stick", 3)})
    link.run(CraftItem("torch", 1, None))
    assert link.seq.outcome is not None and link.seq.outcome.ok, link.seq.outcome
    assert link.clicks() == [(36, 0, 0), (1, 1, 0), (36, 0, 0), (37, 0, 0), (3, 1, 0), (37, 0, 0), (0, 0, 1)]
    assert link.server.inv == {36: ("charcoal", 1), 37: ("stick", 2), 44: ("torch", 4)}
    link.check_clean()


@pytest.mark.parametrize("version", ["1.18.2", "26.1"])
def test_a_torch_takes_the_coal_the_player_carries(version: str) -> None:
    link = Link(version, {36: ("coal", 2), 37: ("stick", 3)})
    link.run(CraftItem("torch", 1, None))
    assert link.seq.outcome is not None and link.seq.outcome.ok, link.seq.outcome
    assert link.server.inv == {36: ("coal", 1), 37: ("stick", 2), 44: ("torch", 4)}
    link.check_clean()
