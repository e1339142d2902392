"""Zombies below ground as vanilla's: a melee hit needs a line of sight (a walled-in player is out
of reach, however close the zombie stands by the wall), and no block is placed where a mob stands."""
from __future__ import annotations

from engine import actions as acts
from engine.events import SlotItem
from engine.sim.records import Mob
from engine.sim.world import SimOptions, SimWorld


def _set(world: SimWorld, x: int, y: int, z: int, name: str) -> None:
    world.store.set_block(x, y, z, world.table.state_for(name))


def _tunnel(world: SimWorld, x: int, y: int, z: int) -> None:
    """Rock around a two-high tunnel along x from x - 3 to x + 3, the player in its middle."""
    for dx in range(-4, 5):
        for dy in range(-1, 3):
            for dz in (-1, 0, 1):
                _set(world, x + dx, y + dy, z + dz, "stone" if dz or dy in (-1, 2) or abs(dx) == 4 else "air")
    p = world.player
    p.x, p.y, p.z = x + 0.5, float(y), z + 0.5
    p.peak_y = p.y


def test_a_zombie_by_the_wall_of_a_shelter_does_not_hit_through_it() -> None:
    world = SimWorld(3, SimOptions(underground="1.18", hazard="mobs"))
    x, y, z = 40, -20, 40
    _tunnel(world, x, y, z)
    zombie = Mob(90_001, "zombie", x + 1.9, float(y), z + 0.5)
    world.mobs = {zombie.entity_id: zombie}
    assert world.sees(zombie)                          # the tunnel open: 1.4 blocks off, in sight
    _set(world, x + 1, y, z, "cobblestone")
    _set(world, x + 1, y + 1, z, "cobblestone")
    zombie.x = x + 2.0                                # pressed against the wall: 1.5 blocks off
    assert not world.sees(zombie)


def test_no_block_is_placed_where_a_zombie_stands() -> None:
    world = SimWorld(3, SimOptions(underground="1.18", hazard="mobs"))
    x, y, z = 40, -20, 40
    _tunnel(world, x, y, z)
    world.player.slots[36 + world.player.held] = SlotItem("cobblestone", 4)
    zombie = Mob(90_001, "zombie", x + 1.5, float(y), z + 0.5)
    world.mobs = {zombie.entity_id: zombie}
    before = world.store.get(x + 1, y, z)
    world.apply([acts.PlaceBlock(x + 1, y, z, (x + 1, y - 1, z), 1, "cobblestone")], 0)
    assert world.store.get(x + 1, y, z) == before
    assert world.rejected == {"place refused": 1}
    zombie.x = x + 3.5
    world.apply([acts.PlaceBlock(x + 1, y, z, (x + 1, y - 1, z), 1, "cobblestone")], 0)
    assert world.block(x + 1, y, z) == "cobblestone"
