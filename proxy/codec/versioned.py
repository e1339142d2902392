"""The versioned codec: decoded packets become engine events, actions become packets.

How this works: a ``VersionCodec`` wraps one version's ``ProtocolTable``. Layout
differences between versions (field names, fixed-point vs double positions,
chat as JSON text or NBT, which chat packet exists) are read from the generated
layouts, not from version checks; the few translators below accept each field
under the names minecraft-data uses across versions. The field names of play
packets live here, those of window packets in ``proxy/windows/packets.py``; the
login steps (``proxy/connection/login.py``: user name, encryption, compression threshold) and
the teleport confirmation ``proxy/connection/play.py`` consumes read their few fields where
they are handled.
"""
from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Callable

from engine import events as ev
from engine.commands.table import Word
from proxy.codec import subscriptions
from proxy.codec.chat import strip_formatting, text_style
from proxy.protocol.errors import LayoutError, PeerError
from proxy.protocol.tables import TO_CLIENT, TO_SERVER, ProtocolTable
from proxy.protocol.wire import pack_varint, read_varint
from proxy.windows.packets import PlayerSlotChanged, SlotChanged, inventory_slot, window_update

if TYPE_CHECKING:
    from proxy.codec.command_tree import CommandTreeRewriter

ZERO_UUID = "00000000-0000-0000-0000-000000000000"
Fields = dict[str, Any]
Translator = Callable[["VersionCodec", Fields], list[ev.Event]]
# An item for a slot: a name and count, a slot as decoded from this version, or empty.
SlotValue = ev.SlotItem | Fields | None
# Where use_item_on clicks on each face (0 down, 1 up, 2 north, 3 south, 4 west, 5 east).
_FACE_CENTRES = ((0.5, 0.0, 0.5), (0.5, 1.0, 0.5), (0.5, 0.5, 0.0), (0.5, 0.5, 1.0), (0.0, 0.5, 0.5), (1.0, 0.5, 0.5))


def _pick(fields: Fields, *names: str, default: Any = None) -> Any:
    for name in names:
        if name in fields:
            return fields[name]
    return default


def _coord(value: Any) -> float:
    # Before 1.9, entity positions are fixed-point integers in 1/32 block.
    return value / 32.0 if isinstance(value, int) else float(value)


def _delta(value: Any, wide: bool) -> float:
    # 1.8 sends byte deltas in 1/32 block; 1.9+ short deltas in 1/4096 block.
    return float(value) / 4096.0 if wide else float(value) / 32.0


@functools.cache
def _command_tree(table: ProtocolTable) -> "CommandTreeRewriter":
    # One rewriter (and tree cache) per version for the whole process: every login
    # on a server receives the same tree.
    from proxy.codec.command_tree import CommandTreeRewriter, node_scanner

    try:
        scan = node_scanner(table.named_types["command_node"], table.compile_layout)
    except LayoutError:
        scan = None  # a node shape the scanner does not know: nodes are decoded whole to find their ends
    return CommandTreeRewriter(table.named_codec("command_node"), scan)


class VersionCodec:
    def __init__(self, table: ProtocolTable) -> None:
        self.table = table
        self.version = table.version
        self.protocol = table.protocol
        self.subscribed: dict[str, dict[int, str]] = {
            TO_SERVER: self._subscribe(TO_SERVER, subscriptions.TO_SERVER_PLAY),
            TO_CLIENT: self._subscribe(TO_CLIENT, subscriptions.TO_CLIENT_PLAY + subscriptions.WORLD_TO_CLIENT),
        }
        self.subscribed_configuration = self._subscribe(TO_SERVER, subscriptions.TO_SERVER_CONFIGURATION,
                                                        "configuration")
        self.chat_packet = "system_chat" if table.packet_id("play", TO_CLIENT, "system_chat") is not None else "chat"
        # How click and hover events are spelled in text components (proxy.chat.TEXT_STYLES).
        self.text_style = text_style(table.protocol)
        self._field_types: dict[tuple[str, str, str], dict[str, Any]] = {}
        self._item_ids: dict[str, int] | None = None
        # Which client packet says "sneak pressed": entity_action while its actions include
        # sneaking (until 1.21.5), else player_input's shift key (1.21.6+). 1.21.2-1.21.5
        # clients send both, so only one of them may count.
        action = self.field_types("play", TO_SERVER, "entity_action").get("actionId")
        names = set(action[1]["mappings"].values()) if isinstance(action, list) and action[0] == "mapper" else None
        sneak_by_action = names is None or "start_sneaking" in names
        self.sneak_packet = "entity_action" if sneak_by_action else "player_input"
        if sneak_by_action:
            pid = table.packet_id("play", TO_SERVER, "player_input")
            self.subscribed[TO_SERVER].pop(pid if pid is not None else -1, None)
        self._shift_down = False

    def _subscribe(self, direction: str, names: tuple[str, ...], state: str = "play") -> dict[int, str]:
        found: dict[int, str] = {}
        for name in names:
            pid = self.table.packet_id(state, direction, name)
            codec = self.table.codec(state, direction, name)
            if pid is not None and codec is not None and (codec.complete or name in subscriptions.PREFIX_OK):
                found[pid] = name
        return found

    # -- decoding ------------------------------------------------------------------
    def decode(self, state: str, direction: str, name: str, packet: bytes) -> Fields:
        codec = self.table.codec(state, direction, name)
        if codec is None:
            raise PeerError(f"no layout for {state}/{name}")
        _, pos = read_varint(packet, 0)
        try:
            fields, _ = codec.decode(packet, pos, [])
        except RecursionError:
            # Nesting within the limits of each layer can still add up past Python's stack.
            raise PeerError(f"{name} is nested too deep") from None
        except PeerError as exc:  # say which packet: layouts differ between versions
            raise PeerError(f"{name}: {exc}") from None
        if not isinstance(fields, dict):
            raise PeerError(f"{name} did not decode to fields")
        return fields

    def events(self, direction: str, name: str, fields: Fields) -> list[ev.Event]:
        translator = TRANSLATORS.get((direction, name))
        return translator(self, fields) if translator is not None else []

    def rewrite(self, name: str, packet: bytes, agent_words: Sequence[Word] = ()) -> bytes:
        """The server packet the proxy changes (see subscriptions.REWRITTEN), as the client gets it;
        ``agent_words`` are the player's command table's words for ``/agent``."""
        if name == "declare_commands":
            return _command_tree(self.table).rewrite(packet, agent_words)
        raise KeyError(name)

    def item_name(self, item_id: int) -> str:
        return "minecraft:" + self.table.items.get(item_id, f"unknown_{item_id}")

    def slot(self, value: Any) -> ev.SlotItem | None:
        if not isinstance(value, dict):
            return None
        if "present" in value and not value["present"]:
            return None
        item_id = _pick(value, "itemId", "blockId")
        count = _pick(value, "itemCount", default=0)
        if item_id is None or item_id < 0 or not count:
            return None
        return ev.SlotItem(self.item_name(item_id), int(count))

    # -- encoding ------------------------------------------------------------------
    def encode(self, state: str, direction: str, name: str, fields: Fields) -> bytes:
        pid = self.table.packet_id(state, direction, name)
        codec = self.table.codec(state, direction, name)
        if pid is None or codec is None:
            raise KeyError(f"{self.version} has no {state}/{direction}/{name}")
        out = bytearray(pack_varint(pid))
        codec.encode(fields, out, [])
        return bytes(out)

    def build(self, state: str, direction: str, name: str, **fields: Any) -> bytes:
        """Encode a packet naming only some fields; the rest get their type's zero value.

        Lets the proxy (and tests) emit packets whose extra fields change between
        versions (teleport ids, dismount flags, velocity) without version checks.
        """
        layout = self.table.raw_layout(state, direction, name)
        if layout is None:
            raise KeyError(f"{self.version} has no layout for {state}/{direction}/{name}")
        values = zero_value(layout, self.table.named_types)
        values.update(fields)
        return self.encode(state, direction, name, values)

    def field_types(self, state: str, direction: str, name: str) -> dict[str, Any]:
        """A packet's fields by name, with their layout types (empty if it is not a container)."""
        key = (state, direction, name)
        if key not in self._field_types:
            layout = self.table.raw_layout(state, direction, name)
            types: dict[str, Any] = {}
            if isinstance(layout, list) and layout[0] == "container":
                types = {f["name"]: f["type"] for f in layout[1] if "name" in f}
            self._field_types[key] = types
        return self._field_types[key]

    def _component(self, state: str, direction: str, name: str, field: str, component: dict[str, Any]) -> Any:
        kind = self.field_types(state, direction, name).get(field)
        if kind in ("anonymousNbt", "nbt", "anonOptionalNbt", "optionalNbt"):
            return component
        return json.dumps(component, ensure_ascii=False)

    def chat_to_client(self, component: dict[str, Any]) -> bytes:
        """A system message for the player (never attributed to another player)."""
        name = self.chat_packet
        values: Fields = {}
        for field in self.field_types("play", TO_CLIENT, name):
            if field in ("message", "content"):
                values[field] = self._component("play", TO_CLIENT, name, field, component)
            elif field in ("position", "type"):
                values[field] = 1  # system
            elif field == "sender":
                values[field] = ZERO_UUID
            elif field == "isActionBar":
                values[field] = False
        return self.encode("play", TO_CLIENT, name, values)

    def kick(self, text: str) -> bytes:
        component = {"text": strip_formatting(text)}
        return self.encode("play", TO_CLIENT, "kick_disconnect",
                           {"reason": self._component("play", TO_CLIENT, "kick_disconnect", "reason", component)})

    def move_to_server(self, x: float, y: float, z: float, yaw: float, pitch: float, on_ground: bool) -> bytes:
        """The player's own movement packet (position and look), as a client sends it."""
        fields: Fields = {"x": x, "y": y, "z": z, "yaw": yaw, "pitch": pitch}
        if "onGround" in self.field_types("play", TO_SERVER, "position_look"):
            fields["onGround"] = on_ground
        else:  # 1.21.2+: movement flags
            fields["flags"] = {"onGround": on_ground, "hasHorizontalCollision": False}
        return self.build("play", TO_SERVER, "position_look", **fields)

    def move_client(self, x: float, y: float, z: float, yaw: float, pitch: float, teleport_id: int) -> bytes:
        """An absolute position for the client (no relative axes, no velocity)."""
        return self.build("play", TO_CLIENT, "position", x=x, y=y, z=z, yaw=yaw, pitch=pitch, teleportId=teleport_id)

    def select_slot(self, slot: int) -> tuple[bytes, bytes]:
        """Hold a hotbar slot: (packet to the server, packet to the client)."""
        return (self.build("play", TO_SERVER, "held_item_slot", slotId=slot),
                self.build("play", TO_CLIENT, "held_item_slot", slot=slot))

    def use_item(self) -> bytes:
        if self.table.packet_id("play", TO_SERVER, "use_item") is not None:
            return self.build("play", TO_SERVER, "use_item", hand=0)
        # 1.8: "use the held item" is a block placement at the all-ones position, face 255.
        return self._fill_in("block_place", {"location": {"x": -1, "y": -1, "z": -1}, "direction": -1,
                                             "heldItem": {"blockId": -1}})

    def release_item(self) -> bytes:
        return self.build("play", TO_SERVER, "block_dig", status=5)  # 5: release use item

    # -- agent ops (engine.actions): digging, placing, fighting, windows --------
    def item_id(self, name: str) -> int | None:
        """The registry id of an item name (with or without "minecraft:"), None if this version lacks it."""
        if self._item_ids is None:
            self._item_ids = {n: i for i, n in self.table.items.items()}
        return self._item_ids.get(name.removeprefix("minecraft:"))

    def _enum(self, name: str, field: str, number: int) -> Any:
        """``number`` as the field wants it: the mapped name where the layout maps it (26.1 hands)."""
        kind = self.field_types("play", TO_SERVER, name).get(field)
        if isinstance(kind, list) and kind[0] == "mapper":
            return kind[1]["mappings"][str(number)]
        return number

    def _with_sequence(self, name: str, fields: Fields, sequence: int) -> bytes:
        if "sequence" in self.field_types("play", TO_SERVER, name):  # 1.19+: block change acknowledgements
            fields["sequence"] = sequence
        return self._fill_in(name, fields)

    def _fill_in(self, name: str, fields: Fields) -> bytes:
        """build() for a serverbound play packet; block_place has a field named like build's "direction"."""
        values = zero_value(self.table.raw_layout("play", TO_SERVER, name), self.table.named_types)
        values.update(fields)
        return self.encode("play", TO_SERVER, name, values)

    def dig(self, status: int, x: int, y: int, z: int, face: int, sequence: int = 0) -> bytes:
        """block_dig: status 0 start, 1 cancel, 2 finish; face 0 down .. 5 east."""
        return self._with_sequence("block_dig", {"status": status, "location": {"x": x, "y": y, "z": z},
                                                 "face": face}, sequence)

    def swing(self) -> bytes:
        fields: Fields = {}
        if "hand" in self.field_types("play", TO_SERVER, "arm_animation"):  # 1.8 has no hands
            fields["hand"] = self._enum("arm_animation", "hand", 0)
        return self.build("play", TO_SERVER, "arm_animation", **fields)

    def use_item_on(self, x: int, y: int, z: int, face: int, sequence: int = 0, *,
                    held: ev.SlotItem | None = None) -> bytes:
        """Right-click a block face with the main hand, the cursor at the face's centre.

        ``held`` is what the hand holds; only 1.8 sends it (the server re-sends the slot if it differs).
        """
        types = self.field_types("play", TO_SERVER, "block_place")
        cursor = _FACE_CENTRES[face] if 0 <= face < len(_FACE_CENTRES) else (0.5, 0.5, 0.5)
        fields: Fields = {"location": {"x": x, "y": y, "z": z}, "direction": face}
        for axis, value in zip(("cursorX", "cursorY", "cursorZ"), cursor):
            # Until 1.10 the cursor is a byte in 1/16 block; from 1.11 a float in blocks.
            fields[axis] = int(value * 16) if types.get(axis) == "i8" else value
        if "hand" in types:
            fields["hand"] = self._enum("block_place", "hand", 0)
        if "heldItem" in types:
            fields["heldItem"] = self.slot_value(types["heldItem"], held)
        return self._with_sequence("block_place", fields, sequence)

    def attack(self, entity_id: int, sneaking: bool = False) -> bytes:
        if self.table.packet_id("play", TO_SERVER, "attack") is not None:  # 26.1: its own packet
            return self.build("play", TO_SERVER, "attack", entityId=entity_id)
        fields: Fields = {"target": entity_id, "mouse": 1}  # 0 interact, 1 attack, 2 interact at
        if "sneaking" in self.field_types("play", TO_SERVER, "use_entity"):
            fields["sneaking"] = sneaking
        return self.build("play", TO_SERVER, "use_entity", **fields)

    def sprint(self, entity_id: int, on: bool) -> bytes:
        """entity_action start/stop sprinting: what a client's sprint key sends (the action's number
        changed in 26.1, so it goes by name)."""
        return self.build("play", TO_SERVER, "entity_action", entityId=entity_id,
                          actionId="start_sprinting" if on else "stop_sprinting", jumpBoost=0)

    def respawn(self) -> bytes:
        (field,) = self.field_types("play", TO_SERVER, "client_command")  # "payload" in 1.8, then "actionId"
        return self.build("play", TO_SERVER, "client_command", **{field: self._enum("client_command", field, 0)})

    def slot_value(self, kind: Any, item: SlotValue) -> Any:
        """``item`` in the wire shape of the slot type ``kind``; a decoded slot dict passes through."""
        if isinstance(kind, list) and kind[0] == "option":  # 26.1 clicks: optional hashed slot
            return None if item is None else self.slot_value(kind[1], item)
        layout = self.table.named_types.get(kind, kind) if isinstance(kind, str) else kind
        shape = _slot_shape(layout)
        if isinstance(item, dict):
            if shape != "hashed":
                return item
            if not item.get("itemCount") or "itemId" not in item:
                raise ValueError("an empty slot has no hashed form")
            item = ev.SlotItem(self.item_name(int(item["itemId"])), int(item["itemCount"]))
        item_id = None if item is None else self.item_id(item.item)
        if item is not None and item_id is None:
            raise KeyError(f"{self.version} has no item {item.item}")
        if shape == "block_id":  # until 1.12: id (-1 empty), count, damage, NBT
            if item is None:
                return {"blockId": -1}
            return {"blockId": item_id, "itemCount": item.count, "itemDamage": 0, "nbtData": None}
        if shape == "item_id":  # 1.13, 1.13.1: id (-1 empty), count, NBT
            if item is None:
                return {"itemId": -1}
            return {"itemId": item_id, "itemCount": item.count, "nbtData": None}
        if shape == "present":  # 1.13.2-1.20.4: present flag, id, count, NBT
            if item is None:
                return {"present": False}
            return {"present": True, "itemId": item_id, "itemCount": item.count, "nbtData": None}
        if shape == "components":  # 1.20.5+: count (0 empty), id, data components
            if item is None:
                return {"itemCount": 0}
            return {"itemCount": item.count, "itemId": item_id, "addedComponentCount": 0,
                    "removedComponentCount": 0, "components": [], "removeComponents": []}
        if item is None:
            raise ValueError("an empty slot has no hashed form")
        # 1.21.5+ clicks: a hashed slot (id, count, component hashes), empty as an absent option
        return {"itemId": item_id, "itemCount": item.count, "components": [], "removeComponents": []}

    def acknowledgement(self, name: str, fields: Fields) -> bytes | None:
        """What keeps the server's record of the chat this player has seen right when the
        proxy keeps one of their chat lines or commands: 1.19.3+ lines carry how many new
        messages the client saw since its last line (offset), which the server must still
        advance by, as Velocity does for its own commands; 1.19.1-1.19.2 carry the last
        seen list itself. None where there is nothing to pass on (before 1.19.1, or 1.20.5+
        plain commands)."""
        ack_fields = self.field_types("play", TO_SERVER, "message_acknowledgement")
        if not ack_fields:
            return None
        if "count" in ack_fields:
            count = int(_pick(fields, "offset", "messageCount", default=0))
            return self.encode("play", TO_SERVER, "message_acknowledgement", {"count": count}) if count > 0 else None
        if not fields.get("previousMessages") and fields.get("lastRejectedMessage") is None:
            return None
        return self.encode("play", TO_SERVER, "message_acknowledgement",
                           {"previousMessages": fields["previousMessages"],
                            "lastRejectedMessage": fields.get("lastRejectedMessage")})

    def configuration_disconnect(self, text: str) -> bytes:
        component = {"text": strip_formatting(text)}
        return self.encode("configuration", TO_CLIENT, "disconnect",
                           {"reason": self._component("configuration", TO_CLIENT, "disconnect", "reason", component)})


_ZERO_NUMBERS = {"varint", "varlong", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"}
_NBT = {"nbt", "optionalNbt", "anonymousNbt", "anonOptionalNbt"}


def _slot_shape(layout: Any) -> str:
    """Which of the slot formats minecraft-data describes a slot layout is, by its fields."""
    fields = layout[1]
    first = fields[0]["name"]
    if first == "itemId":
        # 1.13/1.13.1 switch on the id (-1: empty); the hashed slot of 1.21.5+ clicks has no switch.
        switch = next((f["type"] for f in fields if f.get("anon")), None)
        if isinstance(switch, list) and switch[0] == "switch" and switch[1].get("compareTo") == "itemId":
            return "item_id"
        return "hashed"
    shapes = {"blockId": "block_id", "present": "present", "itemCount": "components"}
    if first not in shapes:
        raise KeyError(f"unknown slot layout starting with {first}")
    return shapes[first]


def zero_value(layout: Any, named: dict[str, Any]) -> Any:
    """The zero value of a protodef type: 0, "", False, None for options, empty arrays."""
    if isinstance(layout, str):
        if layout in _ZERO_NUMBERS:
            return 0
        if layout in ("f32", "f64"):
            return 0.0
        if layout == "bool":
            return False
        if layout == "UUID":
            return ZERO_UUID
        if layout == "void" or layout in _NBT:
            return None
        if layout == "restBuffer":
            return b""
        if layout == "string":
            return ""
        if layout in named:
            return zero_value(named[layout], named)
        raise KeyError(f"no zero value for {layout}")
    kind, args = layout
    if kind == "container":
        out: dict[str, Any] = {}
        for field in args:
            value = zero_value(field["type"], named)
            if field.get("anon"):
                if isinstance(value, dict):
                    out.update(value)
            else:
                out[field["name"]] = value
        return out
    if kind == "option":
        return None
    if kind == "array":
        return []
    if kind == "pstring":
        return ""
    if kind == "buffer":
        return b"\x00" * args["count"] if isinstance(args.get("count"), int) else b""
    if kind == "mapper":
        return next(iter(args["mappings"].values()))
    if kind == "switch":
        return zero_value(args["default"], named) if "default" in args else None
    if kind == "bitflags":
        return {"_value": 0}
    if kind == "bitfield":
        return {f["name"]: 0 for f in args}
    if kind == "entityMetadataLoop":
        return bytes([args["endVal"]])      # kept as raw bytes: no entries, just the end marker
    raise KeyError(f"no zero value for {kind}")


def login_disconnect_any(text: str) -> bytes:
    """Login-state disconnect for a client whose version we do not speak.

    Its id (0) and layout (one JSON string) have not changed since 1.7.
    """
    raw = json.dumps({"text": strip_formatting(text)}).encode("utf-8")
    return pack_varint(0) + pack_varint(len(raw)) + raw


# -- translators: one per subscribed packet -----------------------------------------
def _chat_typed(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    return [ev.ChatTyped(str(f.get("message", "")))]


def _settings(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    return [ev.ClientSettings(str(f.get("locale", "")))]


def _client_position(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    on_ground = _on_ground(f)
    if "x" in f:
        return [ev.PositionSet(f["x"], f["y"], f["z"], f.get("yaw", math.nan), f.get("pitch", math.nan),
                               from_server=False, on_ground=on_ground)]
    if "yaw" in f:
        return [ev.LookSet(f["yaw"], f["pitch"], on_ground)]
    return []


def _on_ground(f: Fields) -> bool:
    if "onGround" in f:
        return bool(f["onGround"])
    flags = f.get("flags")
    if isinstance(flags, dict):
        return bool(flags.get("onGround"))
    if isinstance(flags, int):
        return bool(flags & 1)
    return False


def _held_slot(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    return [ev.HeldSlotChanged(int(_pick(f, "slotId", "slot", default=0)))]


def _dimension(f: Fields) -> str:
    value = _pick(f, "worldName", "dimension", default=None)
    if isinstance(value, dict):  # 1.20.2+: worldState container
        value = _pick(value, "name", "dimension", default="")
    if isinstance(value, int):
        return {-1: "minecraft:the_nether", 0: "minecraft:overworld", 1: "minecraft:the_end"}.get(value, str(value))
    return str(value)


_GAME_MODES = {"survival": 0, "creative": 1, "adventure": 2, "spectator": 3}


def _game_mode(value: Any) -> int:
    # 1.20.5+ layouts map the game mode to its name; older ones send the number.
    if isinstance(value, str):
        return _GAME_MODES.get(value, 0)
    return int(value) & 0x7


def _spawn_info(f: Fields) -> Fields:
    info = f.get("worldState")
    return info if isinstance(info, dict) else f


def _join(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    info = _spawn_info(f)
    mode = _game_mode(_pick(info, "gamemode", "gameMode", default=_pick(f, "gameMode", default=0)))
    return [ev.JoinedGame(int(f["entityId"]), mode, _dimension(info))]


def _respawn(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    info = _spawn_info(f)
    mode = _game_mode(_pick(info, "gamemode", "gameMode", default=0))
    return [ev.Respawned(mode, _dimension(info))]


_RELATIVE_BITS = (("x", 0x01), ("y", 0x02), ("z", 0x04), ("yaw", 0x08), ("pitch", 0x10))


def _server_position(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    flags = f.get("flags", 0)
    if isinstance(flags, dict):  # 1.21.2+: named bitflags
        relative = frozenset(axis for axis, _ in _RELATIVE_BITS if flags.get(axis))
    else:
        relative = frozenset(axis for axis, bit in _RELATIVE_BITS if int(flags) & bit)
    return [ev.PositionSet(f["x"], f["y"], f["z"], f["yaw"], f["pitch"], from_server=True, relative=relative)]


def _health(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    saturation = float(_pick(f, "foodSaturation", default=0.0))
    return [ev.HealthChanged(float(f["health"]), int(f["food"]), saturation if math.isfinite(saturation) else None)]


def _experience(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    return [ev.ExperienceChanged(float(f["experienceBar"]), int(f["level"]), int(_pick(f, "totalExperience", default=0)))]


def _game_state(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    reason = f.get("reason", -1)
    if reason in (3, "change_game_mode"):
        return [ev.GameModeChanged(_game_mode(int(f.get("gameMode", 0))))]
    return []


def _player_info(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    action = f.get("action")
    out: list[ev.Event] = []
    for entry in f.get("data", []):
        uuid = str(entry.get("uuid") or entry.get("UUID") or "")
        if isinstance(action, dict):  # 1.19.3+: bitflags
            player = entry.get("player")
            if action.get("add_player") and isinstance(player, dict):
                out.append(ev.PlayerListed(uuid, str(player.get("name", ""))))
        elif action in ("add_player", 0):
            out.append(ev.PlayerListed(uuid, str(entry.get("name", ""))))
        elif action in ("remove_player", 4):
            out.append(ev.PlayerUnlisted(uuid))
    return out


def _player_remove(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    return [ev.PlayerUnlisted(str(u)) for u in f.get("players", [])]


def _named_spawn(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    return [ev.EntitySpawned(int(f["entityId"]), "player", _coord(f["x"]), _coord(f["y"]), _coord(f["z"]),
                             str(f.get("playerUUID", "")) or None)]


def _spawn_object(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    """spawn_entity: an object id until 1.13 (objects have ids of their own), an entity id after."""
    return _spawn(codec, f, codec.table.objects or codec.table.entities)


def _spawn(codec: VersionCodec, f: Fields, table: dict[int, tuple[str, str]] | None = None) -> list[ev.Event]:
    uuid = _pick(f, "objectUUID", "entityUUID")
    type_id = f.get("type")
    table = codec.table.entities if table is None else table
    kind, category = table.get(type_id, (f"entity_{type_id}", "")) if isinstance(type_id, int) else (str(type_id), "")
    return [ev.EntitySpawned(int(f["entityId"]), kind, _coord(f["x"]), _coord(f["y"]), _coord(f["z"]),
                             str(uuid) if uuid else None, category)]


def _own_metadata(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    """Read the leading metadata entries: index 0 (flags byte, 0x01 = on fire) and
    index 1 (air). Entries after the first one we cannot size are left unread."""
    raw = f.get("metadata")
    if not isinstance(raw, (bytes, bytearray)):
        return []
    burning: bool | None = None
    air: int | None = None
    pos = 0
    # 1.8's entries pack type << 5 | index in one byte and end with 0x7f (the layout's end value).
    legacy = codec.table.named_types.get("entityMetadata", ["", {}])[1].get("endVal") == 0x7F
    while pos < len(raw):
        key = raw[pos]
        pos += 1
        if legacy:
            if key == 0x7F:
                break
            kind, index = key >> 5, key & 0x1F
            if kind == 0 and pos < len(raw):
                value = raw[pos]
                pos += 1
            elif kind == 1 and pos + 2 <= len(raw):
                value = int.from_bytes(raw[pos:pos + 2], "big", signed=True)
                pos += 2
            else:
                break
        else:
            if key == 0xFF:
                break
            index = key
            kind, pos = read_varint(raw, pos)
            if kind == 0 and pos < len(raw):
                value = raw[pos]
                pos += 1
            elif kind == 1:
                value, pos = read_varint(raw, pos)
            else:
                break
        if index == 0 and kind == 0:
            burning = bool(value & 0x01)
        elif index == 1 and kind == 1:
            air = int(value)
    if burning is None and air is None:
        return []
    return [ev.OwnMetadata(burning, air)]


def _teleport(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    return [ev.EntityMoved(int(f["entityId"]), _coord(f["x"]), _coord(f["y"]), _coord(f["z"]))]


def _rel_move(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    dx = f["dX"]
    # The unit follows the field's width: 1.8's byte deltas are 1/32 block, later short deltas 1/4096.
    wide = codec.field_types("play", TO_CLIENT, "rel_entity_move").get("dX") != "i8"
    return [ev.EntityMovedBy(int(f["entityId"]), _delta(dx, wide), _delta(f["dY"], wide), _delta(f["dZ"], wide))]


def _destroy(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    ids = f.get("entityIds")
    if ids is None and "entityId" in f:
        ids = [f["entityId"]]
    return [ev.EntitiesRemoved(tuple(int(i) for i in ids or ()))]


def _window_items(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    if int(f.get("windowId", -1)) != 0:
        return []
    return [ev.InventoryReplaced(tuple(codec.slot(s) for s in f.get("items", [])))]


def _set_slot(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    update = window_update("set_slot", f)
    if isinstance(update, PlayerSlotChanged):  # window -2: by inventory index
        return [ev.InventorySlotSet(inventory_slot(update.index), codec.slot(update.item))]
    if isinstance(update, SlotChanged) and update.window_id == 0:
        return [ev.InventorySlotSet(update.slot, codec.slot(update.item))]
    return []


def _player_inventory(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    return [ev.InventorySlotSet(inventory_slot(int(f["slotId"])), codec.slot(f.get("contents")))]


def _server_chat(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    from proxy.codec.chat import plain_text

    content = _pick(f, "message", "content", default="")
    if f.get("isActionBar") or f.get("position") == 2:
        return []
    return [ev.ServerChatSeen(plain_text(content), private=_is_whisper(content))]


def _is_whisper(content: Any) -> bool:
    if isinstance(content, str):
        if "commands.message.display.incoming" not in content:
            return False
        try:
            content = json.loads(content)
        except ValueError:
            return False
    return isinstance(content, dict) and content.get("translate") == "commands.message.display.incoming"


def _command_typed(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    return [ev.CommandTyped(str(f.get("command", "")))]


# The overworld's clock is entry 0 of 26.1's world_clock registry (the registry data a
# vanilla server sends in configuration lists minecraft:overworld, then minecraft:the_end).
OVERWORLD_CLOCK = 0


def _time(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    age = int(f.get("age", 0))
    if "time" in f:
        return [ev.TimeUpdated(age, int(f["time"]))]
    # 26.1: one update per clock of the world_clock registry, keyed by its registry id, in no
    # promised order and not always all of them; the overworld's is the one beds go by.
    for clock in f.get("clockUpdates") or []:
        if int(clock.get("id", -1)) == OVERWORLD_CLOCK:
            return [ev.TimeUpdated(age, int(clock["totalTicks"]))]
    return []


def _no_events(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    return []


def _entity_action(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    if codec.sneak_packet != "entity_action":
        return []  # 1.21.6+: action 0 is stop_sleeping
    return [ev.SneakPressed()] if f.get("actionId") in ("start_sneaking", 0) else []


def _player_input(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    """1.21.6+: the client sends its held keys when they change; a press is shift going down."""
    inputs = f.get("inputs")
    shift = bool(inputs.get("shift")) if isinstance(inputs, dict) else False
    pressed = shift and not codec._shift_down
    codec._shift_down = shift
    return [ev.SneakPressed()] if pressed and codec.sneak_packet == "player_input" else []


TRANSLATORS: dict[tuple[str, str], Translator] = {
    (TO_SERVER, "chat"): _chat_typed,
    (TO_SERVER, "chat_command"): _command_typed,
    (TO_SERVER, "chat_command_signed"): _command_typed,
    (TO_SERVER, "entity_action"): _entity_action,
    (TO_SERVER, "player_input"): _player_input,
    (TO_SERVER, "teleport_confirm"): _no_events,
    (TO_CLIENT, "declare_commands"): _no_events,
    (TO_CLIENT, "update_time"): _time,
    (TO_CLIENT, "entity_metadata"): _own_metadata,
    (TO_SERVER, "chat_message"): _chat_typed,
    (TO_SERVER, "settings"): _settings,
    (TO_SERVER, "position"): _client_position,
    (TO_SERVER, "position_look"): _client_position,
    (TO_SERVER, "look"): _client_position,
    (TO_SERVER, "flying"): _client_position,
    (TO_SERVER, "held_item_slot"): _held_slot,
    (TO_CLIENT, "login"): _join,
    (TO_CLIENT, "respawn"): _respawn,
    (TO_CLIENT, "position"): _server_position,
    (TO_CLIENT, "update_health"): _health,
    (TO_CLIENT, "experience"): _experience,
    (TO_CLIENT, "game_state_change"): _game_state,
    (TO_CLIENT, "player_info"): _player_info,
    (TO_CLIENT, "player_remove"): _player_remove,
    (TO_CLIENT, "named_entity_spawn"): _named_spawn,
    (TO_CLIENT, "spawn_entity"): _spawn_object,
    (TO_CLIENT, "spawn_entity_living"): _spawn,
    (TO_CLIENT, "entity_teleport"): _teleport,
    (TO_CLIENT, "sync_entity_position"): _teleport,
    (TO_CLIENT, "rel_entity_move"): _rel_move,
    (TO_CLIENT, "entity_move_look"): _rel_move,
    (TO_CLIENT, "entity_destroy"): _destroy,
    (TO_CLIENT, "window_items"): _window_items,
    (TO_CLIENT, "set_slot"): _set_slot,
    (TO_CLIENT, "set_player_inventory"): _player_inventory,
    # windows: read by proxy.windows through window_packets.window_update, not by the engine
    (TO_CLIENT, "open_window"): _no_events,
    (TO_CLIENT, "close_window"): _no_events,
    (TO_CLIENT, "transaction"): _no_events,
    (TO_CLIENT, "set_cursor_item"): _no_events,
    (TO_CLIENT, "held_item_slot"): _held_slot,
    (TO_CLIENT, "chat"): _server_chat,
    (TO_CLIENT, "system_chat"): _server_chat,
}
