"""The window packets of every version: what the server's mean, and the clicks the agent sends.

``window_update`` turns a decoded server window packet (subscriptions.WINDOW_TO_CLIENT)
into one of the ``WindowUpdate`` values below, whichever version spelled it; slot
values stay as decoded (``VersionCodec.slot`` names them). ``WindowPackets`` encodes the
agent's clicks, closes and confirmations for one version; the differences (the item a
click returns until 1.16, the changed slots and state id from 1.17) are read from the
version's layout, not from version checks.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from engine import events as ev
from proxy.protocol.tables import TO_SERVER

if TYPE_CHECKING:
    from proxy.codec.versioned import Fields, SlotValue, VersionCodec


@attrs.frozen
class WindowOpened:
    window_id: int


@attrs.frozen
class WindowClosed:
    window_id: int


@attrs.frozen
class WindowContents:
    window_id: int
    state_id: int | None
    items: tuple[Any, ...]
    has_cursor: bool        # from 1.17 the packet also sets the cursor
    cursor: Any


@attrs.frozen
class SlotChanged:
    window_id: int
    state_id: int | None
    slot: int
    item: Any


@attrs.frozen
class CursorChanged:
    item: Any


@attrs.frozen
class PlayerSlotChanged:
    """A player inventory index: 0-8 hotbar, 9-35 main, 36-39 armour (feet first), 40 offhand."""

    index: int
    item: Any


@attrs.frozen
class ClickAnswered:
    window_id: int
    action: int
    accepted: bool


WindowUpdate = WindowOpened | WindowClosed | WindowContents | SlotChanged | CursorChanged | PlayerSlotChanged \
    | ClickAnswered


def inventory_slot(index: int) -> int:
    """A player inventory index (0-8 hotbar, 9-35 main, 36-39 armour feet first, 40 offhand) as a window-0 slot."""
    if 0 <= index < 9:
        return 36 + index
    if 36 <= index < 40:
        return 8 - (index - 36)
    if index == 40:
        return 45
    return index


# From 1.12 (protocol 335) vanilla's Container.slotClick repeats a shift-click's move while the
# slot keeps the same item and returns the stack only then: a move that empties the slot
# returns nothing. 1.8-1.11 return the moved stack. (minecraft-data's feature
# quickMoveClickSendsEmptyItem, 1.12-1.16.5; from 1.17 a click carries no returned item.)
QUICK_MOVE_RETURNS_KEPT_ONLY = 335


def quick_move_returns_stack(protocol: int, slot_keeps_item: bool) -> bool:
    """Whether a shift-click returns (and so, until 1.16, carries) the clicked stack."""
    return protocol < QUICK_MOVE_RETURNS_KEPT_ONLY or slot_keeps_item


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _signed_window(window: int) -> int:
    # Window ids run 1-100; where the layout reads the id as an unsigned byte, -1 and -2 arrive as 255 and 254.
    return window - 256 if window > 127 else window


def window_update(name: str, f: Fields) -> WindowUpdate | None:
    """A decoded window packet from the server (subscriptions.WINDOW_TO_CLIENT) as what it means."""
    if name == "open_window":
        return WindowOpened(int(f["windowId"]))
    if name == "close_window":
        return WindowClosed(int(f["windowId"]))
    if name == "window_items":  # from 1.17 with a state id and the cursor
        return WindowContents(int(f["windowId"]), _opt_int(f.get("stateId")), tuple(f.get("items", ())),
                              "carriedItem" in f, f.get("carriedItem"))
    if name == "set_slot":
        window, slot = _signed_window(int(f["windowId"])), int(f["slot"])
        if window == -1 and slot == -1:  # until 1.21.1: the cursor
            return CursorChanged(f.get("item"))
        if window == -2:  # 1.9-1.21.1: a player inventory index, whatever window is open
            return PlayerSlotChanged(slot, f.get("item"))
        return SlotChanged(window, _opt_int(f.get("stateId")), slot, f.get("item"))
    if name == "set_cursor_item":  # 1.21.2+
        return CursorChanged(f.get("contents"))
    if name == "set_player_inventory":  # 1.21.2+
        return PlayerSlotChanged(int(f["slotId"]), f.get("contents"))
    if name == "transaction":  # until 1.16: the server's verdict on a click
        return ClickAnswered(int(f["windowId"]), int(f["action"]), bool(f["accepted"]))
    return None


class WindowPackets:
    """The agent's window packets for the version of ``codec``."""

    def __init__(self, codec: VersionCodec) -> None:
        self.codec = codec

    def window_click(self, window_id: int, state_id: int, slot: int, button: int, mode: int,
                     changed: list[tuple[int, SlotValue]], cursor: SlotValue, *,
                     clicked: SlotValue = None, action: int = 0) -> bytes:
        """A click in a window (mode 0 click, 1 shift-click, 2 number key, 4 drop ...).

        From 1.17 the client states the slots it expects changed and the cursor; until
        1.16 it sends ``clicked`` (the item the click returned: the slot's stack before
        the click) and an ``action`` number the server confirms with a transaction.
        """
        types = self.codec.field_types("play", TO_SERVER, "window_click")
        fields: Fields = {"windowId": window_id, "slot": slot, "mouseButton": button, "mode": mode}
        if "changedSlots" in types:  # 1.17+ (the state id only from 1.17.1)
            entry = types["changedSlots"][1]["type"][1]
            item_kind = next(f["type"] for f in entry if f["name"] == "item")
            if "stateId" in types:
                fields["stateId"] = state_id
            fields["changedSlots"] = [{"location": s, "item": self.codec.slot_value(item_kind, i)} for s, i in changed]
            fields["cursorItem"] = self.codec.slot_value(types["cursorItem"], cursor)
        else:
            fields["action"] = action
            fields["item"] = self.codec.slot_value(types["item"], clicked)
        return self.codec.build("play", TO_SERVER, "window_click", **fields)

    @property
    def can_resync_inventory(self) -> bool:
        """Whether inventory_resync earns a full window_items: until 1.16 through the rejected
        returned item, from 1.17.1 through the stale state id; 1.17's clicks carry neither."""
        types = self.codec.field_types("play", TO_SERVER, "window_click")
        return "item" in types or "stateId" in types

    def close_window(self, window_id: int) -> bytes:
        return self.codec.build("play", TO_SERVER, "close_window", windowId=window_id)

    def confirm_transaction(self, window_id: int, action: int) -> bytes:
        """Until 1.16: accept the server's rejection of a click, so the window takes clicks again."""
        return self.codec.build("play", TO_SERVER, "transaction", windowId=window_id, action=action, accepted=True)

    def inventory_resync(self, action: int) -> bytes:
        """A click outside window 0 that changes nothing but makes the server resend the inventory.

        From 1.17 its state id (-1, never one a server uses) is stale, which earns a full
        window_items; until 1.16 its ``clicked`` item (a stone, where the click returns
        nothing) earns a rejected transaction and a full window_items: confirm it
        (confirm_transaction), or the server ignores further clicks in window 0.
        """
        return self.window_click(0, -1, -999, 0, 0, [], None, clicked=ev.SlotItem("minecraft:stone", 1),
                                 action=action)
