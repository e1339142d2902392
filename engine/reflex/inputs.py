"""What the reflexes read each tick, beyond the ``WorldSnapshot``.

The proxy builds a ``ReflexInputs`` per tick from its world model: the player's
position and ground flag from movement packets, health and food from the
health packet, air and burning from the player's entity metadata (air supply,
the on-fire bit of the flags byte), inventory and held slot from window 0,
nearby hostile mobs from entity spawn and move packets. ``from_snapshot`` does
it from a ``WorldSnapshot`` plus the two metadata values it does not carry.
"""
from __future__ import annotations

from collections.abc import Iterable

import attrs

from engine.events import SlotItem
from engine.world.snapshot import EntityView, Vec3, WorldSnapshot
from engine.world.vanilla import HOTBAR_FIRST_SLOT

MAX_AIR = 300                  # ticks of breath, vanilla

# Mobs that attack on sight. Modern registry names and the 1.8-1.12 entity names.
HOSTILE_KINDS = frozenset({
    "zombie", "husk", "drowned", "zombie_villager", "skeleton", "stray", "wither_skeleton", "bogged",
    "creeper", "spider", "cave_spider", "witch", "slime", "magma_cube", "blaze", "ghast", "phantom",
    "pillager", "vindicator", "evoker", "ravager", "vex", "guardian", "elder_guardian", "silverfish",
    "endermite", "shulker", "hoglin", "zoglin", "piglin_brute", "warden", "breeze",
    # legacy names
    "Zombie", "Skeleton", "Creeper", "Spider", "CaveSpider", "Witch", "Slime", "LavaSlime", "Blaze",
    "Ghast", "Guardian", "Silverfish", "Endermite", "Shulker",
})


# The same names with the registry prefix too: one set lookup per entity, read on every tick and
# every reflex check (is_hostile(k) == (k.removeprefix("minecraft:") in HOSTILE_KINDS)).
_HOSTILE_NAMES = HOSTILE_KINDS | {"minecraft:" + kind for kind in HOSTILE_KINDS}


def is_hostile(kind: str) -> bool:
    return kind in _HOSTILE_NAMES


@attrs.frozen
class Mob:
    entity_id: int
    kind: str
    position: Vec3


@attrs.frozen
class ReflexInputs:
    position: Vec3
    on_ground: bool
    health: float | None = None
    food: int | None = None
    air: int | None = None                      # ticks of breath left, 0..300; None if unknown
    burning: bool = False
    inventory: tuple[SlotItem | None, ...] = ()
    held_slot: int = 0                          # hotbar index 0..8
    hostile_mobs: tuple[Mob, ...] = ()
    velocity: Vec3 = Vec3(0.0, 0.0, 0.0)        # blocks per tick, from the last two positions
    game_mode: int | None = None                # 0 survival, 1 creative, 2 adventure, 3 spectator
    min_y: int = 0                              # bottom of the world (-64 in 1.18+ overworld)

    def hotbar(self, index: int) -> SlotItem | None:
        slot = HOTBAR_FIRST_SLOT + index
        return self.inventory[slot] if 0 <= slot < len(self.inventory) else None

    @staticmethod
    def from_snapshot(snapshot: WorldSnapshot, *, air: int | None = None, burning: bool | None = None,
                      velocity: Vec3 = Vec3(0.0, 0.0, 0.0), min_y: int = 0,
                      hostile: tuple[Mob, ...] | None = None) -> "ReflexInputs | None":
        """None until the player has a position. ``air``/``burning`` default to the
        snapshot's own, where the world model keeps them (entity metadata); ``hostile``, to
        ``hostile_mobs(snapshot.entities)`` (a caller that kept it for these entities passes it)."""
        player = snapshot.player
        if player.position is None:
            return None
        # getattr: PlayerState gains air/burning with the metadata tap; older models lack them.
        if air is None:
            air = getattr(player, "air", None)
        if burning is None:
            burning = bool(getattr(player, "burning", False))
        return ReflexInputs(
            position=player.position,
            on_ground=player.on_ground,
            health=player.health,
            food=player.food,
            air=air,
            burning=burning,
            inventory=player.inventory,
            held_slot=player.held_slot,
            hostile_mobs=hostile_mobs(snapshot.entities) if hostile is None else hostile,
            velocity=velocity,
            game_mode=player.game_mode,
            min_y=min_y,
        )


def hostile_mobs(entities: Iterable[EntityView]) -> tuple[Mob, ...]:
    """Entities the codec marked hostile (minecraft-data's category), or known hostile by name."""
    return tuple(Mob(e.entity_id, e.kind, e.position) for e in entities
                 if getattr(e, "hostile", False) or e.kind in _HOSTILE_NAMES)
