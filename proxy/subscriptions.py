"""The packets the proxy decodes, declared in one place.

Every other packet takes the fast path: forwarded as the bytes it arrived as.
Names are minecraft-data's; a name a version lacks is simply not subscribed
there. ``proxy.codec.TRANSLATORS`` must have an entry for each name here.
"""
from __future__ import annotations

TO_SERVER_PLAY: tuple[str, ...] = (
    "chat",  # until 1.18.2
    "chat_message",  # 1.19+
    "settings",
    "position",
    "position_look",
    "look",
    "flying",
    "held_item_slot",
)

TO_CLIENT_PLAY: tuple[str, ...] = (
    "login",
    "respawn",
    "position",
    "update_health",
    "experience",
    "game_state_change",
    "player_info",
    "player_remove",
    "named_entity_spawn",
    "spawn_entity",
    "spawn_entity_living",
    "entity_teleport",
    "sync_entity_position",
    "rel_entity_move",
    "entity_move_look",
    "entity_destroy",
    "window_items",
    "set_slot",
    "held_item_slot",
    "chat",
    "system_chat",
)

# Chat packets from the client are the only ones the proxy may swallow.
SWALLOWABLE: frozenset[str] = frozenset({"chat", "chat_message"})
