"""The lava and water hazards below ground: a misstep into a fluid a few open steps away, never a
teleport back to the surface pool; on the surface, the pool as before."""
from __future__ import annotations

import math

from engine import events as ev
from engine.sim.world import SimOptions, SimWorld


def _put(world: SimWorld, x: int, y: int, z: int) -> None:
    p = world.player
    p.x, p.y, p.z = x + 0.5, float(y), z + 0.5
    p.peak_y = p.y


def _set(world: SimWorld, x: int, y: int, z: int, name: str) -> None:
    world.store.set_block(x, y, z, world.table.state_for(name))


def _pushed(world: SimWorld) -> list[ev.PositionSet]:
    t = world.options.push_every + 20
    return [e for e in world.tick(t) if isinstance(e, ev.PositionSet)]


def _chamber(world: SimWorld, x: int, y: int, z: int) -> None:
    """A sealed 5 x 2 x 1 room in the rock from (x, y, z) along x, the player at its west end."""
    for dx in range(-1, 6):
        for dy in range(-1, 3):
            for dz in (-1, 0, 1):
                _set(world, x + dx, y + dy, z + dz, "stone")
    for dx in range(5):
        for dy in (0, 1):
            _set(world, x + dx, y + dy, z, "air")
    _put(world, x, y, z)


def test_below_ground_a_lava_push_needs_lava_within_reach() -> None:
    world = SimWorld(3, SimOptions(underground="1.18", hazard="lava"))
    assert world.features.get("lava_pocket"), "the hazard world has lava pockets at depth"
    x, y, z = 40, -20, 40
    _chamber(world, x, y, z)
    assert _pushed(world) == []                         # no lava in the room: no push, no teleport
    _set(world, x + 4, y, z, "lava")                    # lava four steps off: out of reach
    assert _pushed(world) == []
    _set(world, x + 4, y, z, "air")
    _set(world, x + 3, y, z, "lava")                    # three open steps off: a misstep
    moved = _pushed(world)
    assert [(math.floor(e.x), math.floor(e.y), math.floor(e.z)) for e in moved] == [(x + 3, y, z)]
    assert world.pushes[-1][1] == "below"


def test_below_ground_no_push_through_rock() -> None:
    world = SimWorld(3, SimOptions(underground="1.18", hazard="water"))
    x, y, z = 40, -20, 40
    _chamber(world, x, y, z)
    _set(world, x, y, z + 2, "water")                   # behind the room's wall, two blocks off
    assert _pushed(world) == []


def test_on_the_surface_the_push_is_the_pool_beside_spawn() -> None:
    for underground in (None, "1.18"):
        world = SimWorld(3, SimOptions(underground=underground, hazard="lava"))
        site = world.features["lava"][0]
        moved = _pushed(world)
        assert [(math.floor(e.x), math.floor(e.y), math.floor(e.z)) for e in moved] == [site]
        assert world.pushes[-1][1] == "surface"


def test_the_hazard_pockets_leave_the_plain_world_alone() -> None:
    plain = SimWorld(3, SimOptions(underground="1.18"))
    water = SimWorld(3, SimOptions(underground="1.18", hazard="water"))
    assert "water_pocket" not in plain.features and len(water.features["water_pocket"]) == 10
    assert plain.features["lava_lake"] == water.features["lava_lake"]
    assert plain.features["cave"] == water.features["cave"]
