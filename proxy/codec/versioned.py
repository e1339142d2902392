"""The versioned codec: one version's packets decoded, and the engine's actions as packets.

How this works: a ``VersionCodec`` wraps one version's ``ProtocolTable``. Layout
differences between versions (field names, fixed-point vs double positions,
chat as JSON text or NBT, which chat packet exists) are read from the generated
layouts, not from version checks. What decoded packets mean to the engine is
``proxy.codec.translators``; window packets are ``proxy.codec.window_packets``; the
login steps (``proxy/connection/login.py``: user name, encryption, compression threshold) and
the teleport confirmation ``proxy/connection/play.py`` consumes read their few fields where
they are handled.
"""
from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine import events as ev
from engine.commands.args import Word
from proxy.codec import subscriptions
from proxy.codec.chat import strip_formatting, text_style
from proxy.protocol.errors import LayoutError, PeerError
from proxy.protocol.tables import TO_CLIENT, TO_SERVER, ProtocolTable
from proxy.protocol.wire import pack_varint, read_varint
from proxy.protocol.zero_values import ZERO_UUID, zero_value

if TYPE_CHECKING:
    from proxy.codec.command_tree import CommandTreeRewriter

Fields = dict[str, Any]
# An item for a slot: a name and count, a slot as decoded from this version, or empty.
SlotValue = ev.SlotItem | Fields | None
# Where use_item_on clicks on each face (0 down, 1 up, 2 north, 3 south, 4 west, 5 east).
_FACE_CENTRES = ((0.5, 0.0, 0.5), (0.5, 1.0, 0.5), (0.5, 0.5, 0.0), (0.5, 0.5, 1.0), (0.0, 0.5, 0.5), (1.0, 0.5, 0.5))


def pick(fields: Fields, *names: str, default: Any = None) -> Any:
    for name in names:
        if name in fields:
            return fields[name]
    return default


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
        # How click and hover events are spelled in text components (proxy.codec.chat.TEXT_STYLES).
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
        self.shift_down = False  # the last player_input said shift was held (proxy.codec.translators)

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

    def rewrite(self, name: str, packet: bytes, agent_words: Sequence[Word] = (),
                servers: Sequence[str] | None = None) -> bytes:
        """The server packet the proxy changes (see subscriptions.REWRITTEN), as the client gets it;
        ``agent_words`` are the player's command table's words for ``/agent``, ``servers`` the
        names for ``/server`` (None: the proxy fronts one server and adds no ``/server``)."""
        if name == "declare_commands":
            return _command_tree(self.table).rewrite(packet, agent_words, servers)
        raise KeyError(name)

    def item_name(self, item_id: int) -> str:
        return "minecraft:" + self.table.items.get(item_id, f"unknown_{item_id}")

    def slot(self, value: Any) -> ev.SlotItem | None:
        if not isinstance(value, dict):
            return None
        if "present" in value and not value["present"]:
            return None
        item_id = pick(value, "itemId", "blockId")
        count = pick(value, "itemCount", default=0)
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

    def interact_entity(self, entity_id: int, *, off_hand: bool = False, sneaking: bool = False,
                        point: tuple[float, float, float] = (0.0, 0.5, 0.0)) -> bytes:
        """Right-click an entity (shears on a sheep): use_entity with mouse 0, the hand from 1.9.

        26.1 dropped the mouse/x/y/z switch: every interaction carries ``point``, where on the
        entity it was clicked relative to its feet, as an lpVec3 (proxy.protocol.lp_vec3).
        """
        types = self.field_types("play", TO_SERVER, "use_entity")
        fields: Fields = {"target": entity_id}
        if "mouse" in types:
            fields["mouse"] = 0  # 0 interact, 1 attack, 2 interact at (which alone carries a point)
        if "location" in types:
            fields["location"] = dict(zip("xyz", point))
        if "hand" in types:  # 1.8 has no off hand
            fields["hand"] = self._enum("use_entity", "hand", 1 if off_hand else 0)
        if "sneaking" in types:
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
            count = int(pick(fields, "offset", "messageCount", default=0))
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


def login_disconnect_any(text: str) -> bytes:
    """Login-state disconnect for a client whose version we do not speak.

    Its id (0) and layout (one JSON string) have not changed since 1.7.
    """
    raw = json.dumps({"text": strip_formatting(text)}).encode("utf-8")
    return pack_varint(0) + pack_varint(len(raw)) + raw
