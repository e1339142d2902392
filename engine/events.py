"""Events the proxy hands to an engine Session.

Each event is a frozen value built by the proxy's version codec from a decoded
packet (or from the tick). The engine never sees bytes, sockets or versions.
"""
from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen
class ChatTyped:
    """The player typed a chat line (or a /command the proxy owns)."""

    text: str


@attrs.frozen
class CommandTyped:
    """The player sent a slash command (1.19+ command packet), without the slash."""

    command: str


@attrs.frozen
class ClientSettings:
    """The client settings packet: the player's locale, e.g. ``en_us``."""

    locale: str


@attrs.frozen
class JoinedGame:
    """Login finished and the play state began."""

    entity_id: int
    game_mode: int
    dimension: str


@attrs.frozen
class Respawned:
    game_mode: int
    dimension: str


@attrs.frozen
class PositionSet:
    """Absolute position of the player.

    ``from_server`` distinguishes the server's position packets (teleports,
    corrections) from the client's own movement.
    """

    x: float
    y: float
    z: float
    yaw: float
    pitch: float
    from_server: bool
    on_ground: bool = False
    # Axes given relative to the current position/look ("x", "y", "z", "yaw", "pitch").
    relative: frozenset[str] = frozenset()


@attrs.frozen
class LookSet:
    yaw: float
    pitch: float
    on_ground: bool


@attrs.frozen
class SneakPressed:
    """The player started sneaking (the kill switch is two presses within 0.5 s)."""


@attrs.frozen
class HealthChanged:
    health: float
    food: int
    saturation: float | None  # None when the server sent a non-finite value


@attrs.frozen
class ExperienceChanged:
    bar: float
    level: int
    total: int


@attrs.frozen
class GameModeChanged:
    game_mode: int


@attrs.frozen
class PlayerListed:
    """A player joined the tab list (``player_info`` add)."""

    uuid: str
    name: str


@attrs.frozen
class PlayerUnlisted:
    uuid: str


@attrs.frozen
class OwnMetadata:
    """The player's own entity metadata: burning flag and air supply, when present."""

    burning: bool | None
    air: int | None


@attrs.frozen
class EntitySheared:
    """An animal's shorn flag from its metadata (a sheep's wool byte, 0x10): shorn, or grown back."""

    entity_id: int
    sheared: bool


@attrs.frozen
class EntitySpawned:
    entity_id: int
    kind: str
    x: float
    y: float
    z: float
    uuid: str | None = None
    category: str = ""  # minecraft-data's entity type: "hostile", "passive", "player", ...


@attrs.frozen
class EntityMoved:
    """Absolute entity position (relative moves are resolved by the codec's caller)."""

    entity_id: int
    x: float
    y: float
    z: float


@attrs.frozen
class EntityMovedBy:
    entity_id: int
    dx: float
    dy: float
    dz: float


@attrs.frozen
class EntitiesRemoved:
    entity_ids: tuple[int, ...]


@attrs.frozen
class HeldSlotChanged:
    slot: int


@attrs.frozen
class SlotItem:
    """One inventory slot: a registry item name and a count."""

    item: str
    count: int


@attrs.frozen
class InventoryReplaced:
    """Window 0 contents (player inventory), slot index → item or None."""

    slots: tuple[SlotItem | None, ...]


@attrs.frozen
class InventorySlotSet:
    slot: int
    item: SlotItem | None


@attrs.frozen
class ServerChatSeen:
    """A chat or system message the server showed the player, as plain text."""

    text: str
    sender: str | None = None
    private: bool = False  # a whisper to this player (kept for the inbox)


@attrs.frozen(eq=False)
class ChunkColumnLoaded:
    """Decoded block states of a chunk column: (section y, 4096 state ids in y/z/x order).

    ``full``: the column replaces what was known; otherwise only these sections change.
    ``source``: a column not decoded yet (``engine.world.blocks.SectionSource``: the section
    ys it holds, ``decode()`` for the pairs); ``sections`` is then empty.
    """

    cx: int
    cz: int
    sections: tuple[tuple[int, Any], ...]
    full: bool
    source: Any = None


@attrs.frozen
class BlocksChanged:
    changes: tuple[tuple[int, int, int, int], ...]  # (x, y, z, state id)


@attrs.frozen
class ChunkUnloaded:
    cx: int
    cz: int


@attrs.frozen
class DimensionChanged:
    """A new world: blocks known so far no longer apply."""

    name: str | None
    min_y: int
    height: int


@attrs.frozen
class TimeUpdated:
    """The server's clock: ``time_of_day`` in ticks (0 sunrise, 6000 noon, 13000 night).

    Negative when the daylight cycle is stopped (the value is then the frozen time)."""

    world_age: int
    time_of_day: int


@attrs.frozen
class Disconnected:
    reason: str


Event = (
    ChatTyped
    | CommandTyped
    | ClientSettings
    | JoinedGame
    | Respawned
    | PositionSet
    | LookSet
    | HealthChanged
    | SneakPressed
    | ExperienceChanged
    | GameModeChanged
    | PlayerListed
    | PlayerUnlisted
    | EntitySpawned
    | OwnMetadata
    | EntitySheared
    | EntityMoved
    | EntityMovedBy
    | EntitiesRemoved
    | HeldSlotChanged
    | InventoryReplaced
    | InventorySlotSet
    | ServerChatSeen
    | Disconnected
    | TimeUpdated
    | ChunkColumnLoaded
    | BlocksChanged
    | ChunkUnloaded
    | DimensionChanged
)
