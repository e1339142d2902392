"""Frozen views of what the proxy knows about one player's world.

The reflex, routing and decision layers read these; only ``WorldModel`` writes.
"""
from __future__ import annotations

import attrs

from engine.events import SlotItem
from engine.world.vanilla import HOTBAR_FIRST_SLOT


@attrs.frozen
class Vec3:
    x: float
    y: float
    z: float

    def distance_to(self, other: "Vec3") -> float:
        return float(((self.x - other.x) ** 2 + (self.y - other.y) ** 2 + (self.z - other.z) ** 2) ** 0.5)


@attrs.frozen
class EntityView:
    entity_id: int
    kind: str
    position: Vec3
    uuid: str | None = None
    name: str | None = None
    category: str = ""
    sheared: bool = False      # a sheep shorn (its metadata's wool byte), until it grows the wool back

    @property
    def hostile(self) -> bool:
        return self.category == "hostile"


@attrs.frozen
class PlayerState:
    position: Vec3 | None
    yaw: float
    pitch: float
    on_ground: bool
    health: float | None
    food: int | None
    saturation: float | None
    xp_level: int | None
    xp_bar: float | None
    game_mode: int | None
    dimension: str | None
    held_slot: int
    inventory: tuple[SlotItem | None, ...]
    air: int | None = None  # ticks of air left (300 when full)
    burning: bool = False

    @property
    def held_item(self) -> SlotItem | None:
        # Hotbar slots are window slots 36..44 in the player inventory window.
        index = HOTBAR_FIRST_SLOT + self.held_slot
        if 0 <= index < len(self.inventory):
            return self.inventory[index]
        return None


@attrs.frozen
class WorldSnapshot:
    player_name: str
    locale: str | None
    player: PlayerState
    online_players: tuple[str, ...]
    entities: tuple[EntityView, ...]
    version: str | None = None  # the client's Minecraft version (a versions.json name); None: not known

    def nearby_players(self) -> tuple[tuple[str, float], ...]:
        """Other players with a known position, nearest first."""
        me = self.player.position
        if me is None:
            return ()
        found = [
            (e.name or e.uuid or str(e.entity_id), e.position.distance_to(me))
            for e in self.entities
            if e.kind == "player"
        ]
        return tuple(sorted(found, key=lambda item: item[1]))
