"""The agent's op packets (dig, swing, use on a block, attack, respawn, window clicks)
for every supported version: encoded by the codec, read back with the version's own layout."""
from __future__ import annotations

from typing import Any

import pytest

from engine import events as ev
from proxy.codec import translators
from proxy.codec.versioned import VersionCodec
from proxy.protocol.tables import TO_SERVER, table_for_version
from proxy.protocol.wire import read_varint
from proxy.protocol.versions import SUPPORTED
from proxy.codec.window_packets import WindowPackets

VERSIONS = [v.name for v in SUPPORTED]


@pytest.fixture(params=VERSIONS)
def codec(request: pytest.FixtureRequest) -> VersionCodec:
    return VersionCodec(table_for_version(request.param))


def read(codec: VersionCodec, name: str, packet: bytes) -> dict[str, Any]:
    """Decode a serverbound packet, checking its id and that the layout consumes every byte."""
    pid, pos = read_varint(packet, 0)
    assert pid == codec.table.packet_id("play", TO_SERVER, name)
    layout = codec.table.codec("play", TO_SERVER, name)
    assert layout is not None and layout.complete
    fields, end = layout.decode(packet, pos, [])
    assert end == len(packet), f"{name}: {len(packet) - end} bytes left over"
    assert fields == codec.decode("play", TO_SERVER, name, packet)
    return dict(fields)


def has(codec: VersionCodec, name: str, field: str) -> bool:
    layout = codec.table.raw_layout("play", TO_SERVER, name)
    return any(f.get("name") == field for f in layout[1])


def main_hand(value: Any) -> bool:
    return value in (0, "main_hand")


def item(codec: VersionCodec, value: Any) -> tuple[str, int] | None:
    """A decoded slot (any version's shape, or None) as (name, count)."""
    if value is None:
        return None
    if "blockId" in value:
        if value["blockId"] == -1:
            return None
        assert value["itemDamage"] == 0
        return codec.item_name(value["blockId"]), value["itemCount"]
    if "present" in value and not value["present"]:
        return None
    if not value.get("itemCount"):
        return None
    return codec.item_name(value["itemId"]), value["itemCount"]


def test_item_id_is_the_inverse_of_item_name(codec: VersionCodec) -> None:
    for item_id in (1, 5, 280):
        if item_id in codec.table.items:
            assert codec.item_id(codec.item_name(item_id)) == item_id
    assert codec.item_id("stick") == codec.item_id("minecraft:stick") is not None
    assert codec.item_name(codec.item_id("stick") or -1) == "minecraft:stick"
    assert codec.item_id("minecraft:no_such_item") is None


@pytest.mark.parametrize("status", [0, 1, 2])
def test_dig(codec: VersionCodec, status: int) -> None:
    f = read(codec, "block_dig", codec.dig(status, -123, 64, 4567, 3, sequence=42))
    assert f["status"] == status
    assert f["location"] == {"x": -123, "y": 64, "z": 4567}
    assert f["face"] == 3
    if has(codec, "block_dig", "sequence"):
        assert f["sequence"] == 42
    else:
        assert codec.protocol < 759  # 1.19 brought sequences


def test_swing_with_the_main_hand(codec: VersionCodec) -> None:
    f = read(codec, "arm_animation", codec.swing())
    if codec.protocol == 47:
        assert f == {}
    else:
        assert main_hand(f["hand"])


@pytest.mark.parametrize("face, centre", [(0, (0.5, 0.0, 0.5)), (1, (0.5, 1.0, 0.5)), (2, (0.5, 0.5, 0.0)),
                                          (3, (0.5, 0.5, 1.0)), (4, (0.0, 0.5, 0.5)), (5, (1.0, 0.5, 0.5))])
def test_use_item_on_a_block_face(codec: VersionCodec, face: int, centre: tuple[float, float, float]) -> None:
    f = read(codec, "block_place", codec.use_item_on(10, -5, -300, face, sequence=7))
    assert f["location"] == {"x": 10, "y": -5, "z": -300}
    assert f["direction"] == face
    cursor = (f["cursorX"], f["cursorY"], f["cursorZ"])
    if codec.table.raw_layout("play", TO_SERVER, "block_place")[1][-1]["name"] == "cursorZ" \
            and isinstance(f["cursorX"], int):  # 1.8-1.10: bytes in 1/16 block
        assert cursor == tuple(int(c * 16) for c in centre)
    else:
        assert cursor == centre
    if codec.protocol == 47:  # 1.8: no hand; the held item rides along
        assert "hand" not in f and item(codec, f["heldItem"]) is None
    else:
        assert main_hand(f["hand"])
    assert f.get("insideBlock", False) is False and f.get("worldBorderHit", False) is False
    assert f.get("sequence", 7) == 7
    assert has(codec, "block_place", "sequence") == (codec.protocol >= 759)


def test_use_item_on_with_a_held_item_in_1_8() -> None:
    codec = VersionCodec(table_for_version("1.8.8"))
    f = read(codec, "block_place", codec.use_item_on(1, 2, 3, 1, held=ev.SlotItem("minecraft:cobblestone", 5)))
    assert item(codec, f["heldItem"]) == ("minecraft:cobblestone", 5)
    assert (f["cursorX"], f["cursorY"], f["cursorZ"]) == (8, 16, 8)


@pytest.mark.parametrize("sneaking", [False, True])
def test_attack(codec: VersionCodec, sneaking: bool) -> None:
    packet = codec.attack(4321, sneaking=sneaking)
    if codec.table.packet_id("play", TO_SERVER, "attack") is not None:  # 26.1
        assert read(codec, "attack", packet) == {"entityId": 4321}
        return
    f = read(codec, "use_entity", packet)
    assert f["target"] == 4321 and f["mouse"] == 1
    assert f.get("x") is None and f.get("hand") is None  # attack carries neither position nor hand
    if has(codec, "use_entity", "sneaking"):
        assert f["sneaking"] is sneaking


@pytest.mark.parametrize("off_hand", [False, True])
def test_interact_entity(codec: VersionCodec, off_hand: bool) -> None:
    f = read(codec, "use_entity", codec.interact_entity(77, off_hand=off_hand, sneaking=True, point=(0.25, 0.75, -0.5)))
    assert f["target"] == 77
    if has(codec, "use_entity", "mouse"):  # until 1.21.11: interact, no point
        assert f["mouse"] == 0 and f.get("x") is None
    else:  # 26.1+: the point as an lpVec3, 15 bits over [-1, 1]
        assert f["location"] == pytest.approx({"x": 0.25, "y": 0.75, "z": -0.5}, abs=1e-4)
    if has(codec, "use_entity", "hand"):
        assert f["hand"] in ((1, "off_hand") if off_hand else (0, "main_hand"))
    if has(codec, "use_entity", "sneaking"):
        assert f["sneaking"] is True


def test_respawn(codec: VersionCodec) -> None:
    f = read(codec, "client_command", codec.respawn())
    (value,) = f.values()
    assert value in (0, "perform_respawn")


def test_close_window(codec: VersionCodec) -> None:
    assert read(codec, "close_window", WindowPackets(codec).close_window(3)) == {"windowId": 3}


@pytest.mark.parametrize("mode, button", [(0, 0), (0, 1), (1, 0), (2, 5)])
def test_window_click(codec: VersionCodec, mode: int, button: int) -> None:
    planks = "minecraft:planks" if codec.item_id("planks") is not None else "minecraft:oak_planks"
    stick = ev.SlotItem("minecraft:stick", 3)
    packet = WindowPackets(codec).window_click(2, 17, 12, button, mode, [(12, None), (3, ev.SlotItem(planks, 2))],
                                               stick, clicked=ev.SlotItem(planks, 4), action=99)
    f = read(codec, "window_click", packet)
    assert (f["windowId"], f["slot"], f["mouseButton"], f["mode"]) == (2, 12, button, mode)
    if has(codec, "window_click", "changedSlots"):  # 1.17+
        assert f.get("stateId", 17) == 17           # from 1.17.1
        assert [(c["location"], item(codec, c["item"])) for c in f["changedSlots"]] == [(12, None), (3, (planks, 2))]
        assert item(codec, f["cursorItem"]) == ("minecraft:stick", 3)
        assert codec.protocol >= 755
    else:
        assert f["action"] == 99
        assert item(codec, f["item"]) == (planks, 4)


def test_window_click_with_empty_cursor_and_clicked(codec: VersionCodec) -> None:
    f = read(codec, "window_click", WindowPackets(codec).window_click(0, 0, -999, 0, 0, [], None))
    assert f["slot"] == -999
    if "cursorItem" in f:
        assert item(codec, f["cursorItem"]) is None and f["changedSlots"] == []
    else:
        assert item(codec, f["item"]) is None


def test_window_click_passes_a_decoded_slot_through(codec: VersionCodec) -> None:
    """A slot as the server sent it (damage, NBT, components) goes back unchanged where the format allows."""
    stone = ev.SlotItem("minecraft:cobblestone", 9)
    kind = codec.field_types("play", "toClient", "set_slot")["item"]
    raw = codec.decode("play", "toClient", "set_slot",
                       codec.build("play", "toClient", "set_slot", windowId=0, slot=36,
                                   item=codec.slot_value(kind, stone)))["item"]
    click = WindowPackets(codec).window_click(0, 1, 36, 0, 0, [(36, None)], stone, clicked=raw)
    f = read(codec, "window_click", click)
    seen = f["item"] if "item" in f else f["cursorItem"]
    assert item(codec, seen) == ("minecraft:cobblestone", 9)


def test_use_item_with_the_main_hand(codec: VersionCodec) -> None:
    if codec.table.packet_id("play", TO_SERVER, "use_item") is None:  # 1.8: a placement at -1/-1/-1, face 255
        f = read(codec, "block_place", codec.use_item())
        assert f["location"] == {"x": -1, "y": -1, "z": -1} and f["direction"] == -1
        assert item(codec, f["heldItem"]) is None
    else:
        assert main_hand(read(codec, "use_item", codec.use_item())["hand"])


def test_inventory_resync_click_changes_nothing_but_cannot_match(codec: VersionCodec) -> None:
    f = read(codec, "window_click", WindowPackets(codec).inventory_resync(action=5))
    assert (f["windowId"], f["slot"], f["mouseButton"], f["mode"]) == (0, -999, 0, 0)
    if "changedSlots" in f:  # 1.17+: a state id no server uses: the server answers with the whole inventory
        assert f.get("stateId", -1) == -1 and f["changedSlots"] == [] and item(codec, f["cursorItem"]) is None
    else:  # until 1.16: a returned item that cannot match the nothing a click outside returns
        assert f["action"] == 5 and item(codec, f["item"]) == ("minecraft:stone", 1)


def server_packet(codec: VersionCodec, name: str, **fields: Any) -> dict[str, Any]:
    types = codec.field_types("play", "toClient", name)
    packet = codec.build("play", "toClient", name, **{k: v for k, v in fields.items() if k in types})
    return codec.decode("play", "toClient", name, packet)


def stone_slot(codec: VersionCodec, name: str, field: str, count: int) -> Any:
    kind = codec.field_types("play", "toClient", name)[field]
    if isinstance(kind, list) and kind[0] == "array":
        kind = kind[1]["type"]
    return codec.slot_value(kind, ev.SlotItem("minecraft:stone", count))


def test_window_updates(codec: VersionCodec) -> None:
    from proxy.codec import window_packets as c

    assert c.window_update("open_window", server_packet(codec, "open_window", windowId=5)) == c.WindowOpened(5)
    assert c.window_update("close_window", server_packet(codec, "close_window", windowId=5)) == c.WindowClosed(5)
    f = server_packet(codec, "window_items", windowId=0, stateId=9, items=[stone_slot(codec, "window_items", "items", 3)])
    contents = c.window_update("window_items", f)
    assert isinstance(contents, c.WindowContents) and contents.window_id == 0
    assert [codec.slot(i) for i in contents.items] == [ev.SlotItem("minecraft:stone", 3)]
    assert contents.state_id == (9 if codec.protocol >= 756 else None) and contents.has_cursor == (codec.protocol >= 756)
    f = server_packet(codec, "set_slot", windowId=2, stateId=4, slot=12, item=stone_slot(codec, "set_slot", "item", 2))
    changed = c.window_update("set_slot", f)
    assert isinstance(changed, c.SlotChanged) and (changed.window_id, changed.slot) == (2, 12)
    assert changed.state_id == (4 if codec.protocol >= 756 else None)
    assert translators.events(codec, "toClient", "set_slot", f) == []  # another window: not the engine's inventory
    if codec.table.packet_id("play", "toClient", "set_player_inventory") is not None:  # 1.21.2+
        f = server_packet(codec, "set_player_inventory", slotId=3, contents=stone_slot(codec, "set_player_inventory",
                                                                                      "contents", 1))
        assert c.window_update("set_player_inventory", f) == c.PlayerSlotChanged(3, f["contents"])
        assert translators.events(codec, "toClient", "set_player_inventory", f) == \
            [ev.InventorySlotSet(39, ev.SlotItem("minecraft:stone", 1))]
        f = server_packet(codec, "set_cursor_item", contents=stone_slot(codec, "set_cursor_item", "contents", 1))
        assert c.window_update("set_cursor_item", f) == c.CursorChanged(f["contents"])
    else:  # the cursor and the player's inventory by index travel as set_slot windows -1 and -2
        signed = codec.field_types("play", "toClient", "set_slot")["windowId"] == "i8"
        f = server_packet(codec, "set_slot", windowId=-1 if signed else 255, slot=-1)
        assert isinstance(c.window_update("set_slot", f), c.CursorChanged)
        f = server_packet(codec, "set_slot", windowId=-2 if signed else 254, slot=40,
                          item=stone_slot(codec, "set_slot", "item", 1))
        assert isinstance(c.window_update("set_slot", f), c.PlayerSlotChanged)
        assert translators.events(codec, "toClient", "set_slot", f) == [ev.InventorySlotSet(45, ev.SlotItem("minecraft:stone", 1))]
    if codec.table.packet_id("play", "toClient", "transaction") is not None:  # until 1.16
        f = server_packet(codec, "transaction", windowId=0, action=77, accepted=False)
        assert c.window_update("transaction", f) == c.ClickAnswered(0, 77, False)
        f = read(codec, "transaction", WindowPackets(codec).confirm_transaction(0, 77))
        assert f == {"windowId": 0, "action": 77, "accepted": True}
