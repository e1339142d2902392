"""Decoded packets become engine events: one translator per subscribed packet.

``events`` is what the connection's taps call. The translators accept each field under
the names minecraft-data uses across versions (``pick``); window packets are read
through ``proxy.codec.window_packets`` so the engine sees the player's own inventory
the same way the window sequencer does.
"""
from __future__ import annotations

import json
import math
from typing import Any, Callable

from engine import events as ev
from proxy.codec import metadata
from proxy.codec.versioned import Fields, VersionCodec, pick
from proxy.codec.window_packets import PlayerSlotChanged, SlotChanged, inventory_slot, window_update
from proxy.protocol.tables import TO_CLIENT, TO_SERVER

Translator = Callable[[VersionCodec, Fields], list[ev.Event]]


def events(codec: VersionCodec, direction: str, name: str, fields: Fields) -> list[ev.Event]:
    """The engine events one decoded packet means (none for a packet without a translator)."""
    translator = TRANSLATORS.get((direction, name))
    return translator(codec, fields) if translator is not None else []


def _coord(value: Any) -> float:
    # Before 1.9, entity positions are fixed-point integers in 1/32 block.
    return value / 32.0 if isinstance(value, int) else float(value)


def _delta(value: Any, wide: bool) -> float:
    # 1.8 sends byte deltas in 1/32 block; 1.9+ short deltas in 1/4096 block.
    return float(value) / 4096.0 if wide else float(value) / 32.0


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
    return [ev.HeldSlotChanged(int(pick(f, "slotId", "slot", default=0)))]


def _dimension(f: Fields) -> str:
    value = pick(f, "worldName", "dimension", default=None)
    if isinstance(value, dict):  # 1.20.2+: worldState container
        value = pick(value, "name", "dimension", default="")
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
    mode = _game_mode(pick(info, "gamemode", "gameMode", default=pick(f, "gameMode", default=0)))
    return [ev.JoinedGame(int(f["entityId"]), mode, _dimension(info))]


def _respawn(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    info = _spawn_info(f)
    mode = _game_mode(pick(info, "gamemode", "gameMode", default=0))
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
    saturation = float(pick(f, "foodSaturation", default=0.0))
    return [ev.HealthChanged(float(f["health"]), int(f["food"]), saturation if math.isfinite(saturation) else None)]


def _experience(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    return [ev.ExperienceChanged(float(f["experienceBar"]), int(f["level"]), int(pick(f, "totalExperience", default=0)))]


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
    uuid = pick(f, "objectUUID", "entityUUID")
    type_id = f.get("type")
    table = codec.table.entities if table is None else table
    kind, category = table.get(type_id, (f"entity_{type_id}", "")) if isinstance(type_id, int) else (str(type_id), "")
    return [ev.EntitySpawned(int(f["entityId"]), kind, _coord(f["x"]), _coord(f["y"]), _coord(f["z"]),
                             str(uuid) if uuid else None, category)]


def _own_metadata(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    """The player's own metadata: index 0 (flags byte, 0x01 = on fire) and index 1 (air), read
    as far as ``proxy.codec.metadata.entries`` can size the entries."""
    raw = f.get("metadata")
    if not isinstance(raw, (bytes, bytearray)):
        return []
    read = metadata.entries(codec.table, bytes(raw))
    burning = bool(int(read[0]) & 0x01) if isinstance(read.get(0), int) else None
    air = int(read[1]) if isinstance(read.get(1), int) else None
    if burning is None and air is None:
        return []
    return [ev.OwnMetadata(burning, air)]


def sheep_metadata(codec: VersionCodec, f: Fields) -> list[ev.Event]:
    """A sheep's metadata (the connection passes a known sheep's on): its wool byte's shorn bit."""
    raw = f.get("metadata")
    if not isinstance(raw, (bytes, bytearray)):
        return []
    wool = metadata.entries(codec.table, bytes(raw)).get(metadata.wool_index(codec.protocol))
    if not isinstance(wool, int):
        return []
    return [ev.EntitySheared(int(f["entityId"]), bool(wool & metadata.SHEARED_BIT))]


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

    content = pick(f, "message", "content", default="")
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
    age = int(f.get("age", f.get("gameTime")) or 0)  # 26.2 names it gameTime
    if "time" in f:
        return [ev.TimeUpdated(age, int(f["time"]))]
    # 26.1: one update per clock of the world_clock registry, keyed by its registry id, in no
    # promised order and not always all of them; the overworld's is the one beds go by.
    for clock in f.get("clockUpdates") or []:
        if int(clock.get("id", clock.get("clock", -1))) == OVERWORLD_CLOCK:  # 26.2 names it clock
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
    pressed = shift and not codec.shift_down
    codec.shift_down = shift
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
