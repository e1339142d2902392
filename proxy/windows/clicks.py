"""The click protocol: the agent's window clicks on the wire and the server's answers to them.

Every click gets an action number. Until 1.16 the server answers each click with a
transaction (accepted or not) carrying that number, and a window that rejected a click
takes no more clicks until the client confirms the rejection; so the numbers of our own
clicks are remembered, their answers are kept from the player's client (``ours``), and a
rejection is confirmed at once and noted in ``rejected`` for the op's outcome. From 1.17
no click is answered; each click states the slots it changed and the server corrects
the rest.

The resync click (``WindowPackets.inventory_resync``) makes the server resend the whole
inventory, which both the engine and the player's own client read; its rejection is
expected and is not held against the op.
"""
from __future__ import annotations

from proxy.windows.inventory_mirror import InventoryMirror
from proxy.codec.window_packets import ClickAnswered, WindowPackets

MAX_REMEMBERED = 512   # from 1.17 no click is answered: keep the set small


class WindowClicks:
    def __init__(self, packets: WindowPackets, mirror: InventoryMirror) -> None:
        self.packets = packets
        self.mirror = mirror
        self.rejected = False        # the server rejected a click since the last ``reset``
        self._action = 0
        self._ours: set[tuple[int, int]] = set()   # (window, action) of our clicks, until 1.16
        self._resync_action = 0

    def reset(self) -> None:
        """A new op starts: forget earlier rejections."""
        self.rejected = False

    def click(self, window: int, slot: int, button: int, mode: int, crafting: bool = False) -> bytes:
        """One click: apply it to the mirror as the server will, and encode it."""
        changed, clicked = self.mirror.click(window, slot, button, mode, crafting)
        action = self._number(window)
        m = self.mirror
        return self.packets.window_click(
            window, m.state_ids.get(window, 0), slot, button, mode,
            [(s, st.wire() if (st := m.get(s)) is not None else None) for s in changed],
            m.cursor.wire() if m.cursor is not None else None,
            clicked=clicked.wire() if clicked is not None else None, action=action)

    def resync(self) -> bytes:
        action = self._number(0)
        self._resync_action = action
        return self.packets.inventory_resync(action)

    def ours(self, update: ClickAnswered) -> bool:
        return (update.window_id, update.action) in self._ours

    def answered(self, update: ClickAnswered) -> list[bytes]:
        """The server's answer to a click: a rejection of ours is confirmed so the window goes on."""
        key = (update.window_id, update.action)
        if key not in self._ours:
            return []
        self._ours.discard(key)
        if update.accepted:
            return []
        if update.window_id != 0 or update.action != self._resync_action:
            self.rejected = True
        return [self.packets.confirm_transaction(update.window_id, update.action)]

    def _number(self, window: int) -> int:
        self._action = self._action % 32767 + 1
        if len(self._ours) > MAX_REMEMBERED:
            self._ours.clear()
        self._ours.add((window, self._action))
        return self._action
