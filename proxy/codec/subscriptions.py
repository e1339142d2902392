"""The packets the proxy decodes, declared in one place.

Every other packet takes the fast path: forwarded as the bytes it arrived as.
Names are minecraft-data's; a name a version lacks is simply not subscribed
there. ``proxy.codec.translators.TRANSLATORS`` must have an entry for each name here.
"""
from __future__ import annotations

from typing import Protocol

TO_SERVER_PLAY: tuple[str, ...] = (
    "chat",  # until 1.18.2
    "chat_message",  # 1.19+
    "chat_command",  # 1.19+: slash commands, unsigned for /ai and /agent
    "chat_command_signed",  # 1.20.5+: a command a client chose to sign (some send /ai that way)
    "settings",
    "position",
    "position_look",
    "look",
    "flying",
    "held_item_slot",
    "entity_action",  # sneaking: the kill switch
    "player_input",  # 1.21.2+: held keys; sneaking's only packet from 1.21.6 (VersionCodec.sneak_packet)
    "teleport_confirm",  # 1.9+: confirmations of the proxy's own teleport ids are consumed
)

# Client movement, held back (not forwarded) while the agent drives.
CLIENT_MOVEMENT: frozenset[str] = frozenset({"position", "position_look", "look", "flying"})

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
    # windows the agent opens (proxy.windows); the cursor and player-inventory packets are 1.21.2+,
    # transaction (the verdict on a click) until 1.16
    "open_window",
    "close_window",
    "transaction",
    "set_cursor_item",
    "set_player_inventory",
    "held_item_slot",
    "chat",
    "system_chat",
    "declare_commands",
    "update_time",  # day or night: the autopilot sleeps only at night
    "entity_metadata",  # only the player's own entity (air, burning) and known sheep (shorn) are
                        # read; the connection forwards every other entity's after peeking its id
)

# Entity movements: the most frequent server packets (every mob's every step). The world model
# keeps each entity's position for the features (reflexes flee mobs, the autopilot hunts and
# avoids them, the assistant and !follow read them). With none of those on, only players are
# kept (!players "who is near", the dashboard's markers): a movement is decoded only when the
# entity id it starts with is a known player's, the others go on as they came (play.PlayRelay).
ENTITY_MOVES: frozenset[str] = frozenset({"entity_teleport", "sync_entity_position", "rel_entity_move",
                                          "entity_move_look"})


class FeatureSwitches(Protocol):
    """The features that read entities (``proxy.config.Features``; config is a layer above codec)."""

    @property
    def world(self) -> bool: ...
    @property
    def reflexes(self) -> bool: ...
    @property
    def autopilot(self) -> bool: ...
    @property
    def assistant(self) -> bool: ...


def players_only(features: FeatureSwitches) -> bool:
    """True when no feature reads other entities than players (see ENTITY_MOVES)."""
    return not (features.world or features.reflexes or features.autopilot or features.assistant)


# Server packets whose fields the connection hands to proxy.windows.sequencer.WindowSequencer.
WINDOW_TO_CLIENT: tuple[str, ...] = ("open_window", "close_window", "window_items", "set_slot", "transaction",
                                     "set_cursor_item", "set_player_inventory")

# The block world, decoded by proxy.codec.chunks into the engine's block store.
WORLD_TO_CLIENT: tuple[str, ...] = ("map_chunk", "map_chunk_bulk", "block_change", "multi_block_change",
                                    "unload_chunk")

# Server packets the proxy rewrites instead of forwarding: the command tree gets
# the proxy's /ai and /agent nodes.
REWRITTEN: frozenset[str] = frozenset({"declare_commands"})

# 1.20.2+: the client sends its settings (locale) during configuration.
TO_SERVER_CONFIGURATION: tuple[str, ...] = ("settings",)

# Packets whose leading fields suffice: subscribed even where the codec cannot
# read their tail (entity metadata, item components). Everything else needs a
# complete layout, or it is not subscribed on that version.
PREFIX_OK: frozenset[str] = frozenset({"named_entity_spawn", "spawn_entity", "spawn_entity_living"})

# Chat packets from the client are the only ones the proxy may swallow.
SWALLOWABLE: frozenset[str] = frozenset({"chat", "chat_message", "chat_command", "chat_command_signed"})

# The most a client packet the proxy decodes may measure uncompressed, checked before it
# is inflated or decoded: vanilla's own limits with room to spare (256-character chat;
# 1.19's message signatures and last-seen lists; signed command arguments). A larger
# one is malformed and closes that connection: a small frame may not inflate to megabytes.
MAX_SIZE_TO_SERVER: dict[str, int] = {"chat": 8192, "chat_message": 8192, "chat_command": 16384, "settings": 1024,
                                      # vanilla: a 512-byte key, a signature of up to 4096 bytes
                                      "chat_session_update": 8192, "chat_command_signed": 16384}
MAX_SIZE_TO_SERVER_DEFAULT = 256  # positions, looks, held slot, entity actions, teleport confirmations
