"""SimWorld's body rules against vanilla: lava, burning, drowning, invulnerability, death."""
from __future__ import annotations

import math

from engine import events as ev
from engine.motion import grid as g
from engine.motion import physics as ph
from engine.sim.world import SimOptions, SimWorld


def _world(**options: object) -> SimWorld:
    world = SimWorld(0, SimOptions(**options))  # type: ignore[arg-type]
    world.join_events()
    return world


def _put(world: SimWorld, site: tuple[float, float, float]) -> None:
    p = world.player
    p.x, p.y, p.z = math.floor(site[0]) + 0.5, float(site[1]), math.floor(site[2]) + 0.5
    p.peak_y = p.y


def _damage_ticks(world: SimWorld, first: int, last: int, move: dict[int, tuple[float, float, float]] | None = None
                  ) -> list[tuple[int, float]]:
    """(tick, damage) for every tick in [first, last] the player took damage (regeneration aside)."""
    hits = []
    for t in range(first, last + 1):
        if move and t in move:
            _put(world, move[t])
        before = sum(world.damage_taken.values())
        world.tick(t)
        taken = sum(world.damage_taken.values()) - before
        if taken:
            hits.append((t, taken))
    return hits


def test_lava_hurts_at_once_then_every_half_second_whatever_the_world_tick() -> None:
    world = _world()          # no hazard: nothing puts the player anywhere
    lava = world.features["lava"][0]
    _put(world, lava)
    # Stepping in on tick 13: hurt on 13, 23, 33 (vanilla's 10 invulnerable ticks), 4 each.
    assert _damage_ticks(world, 13, 35) == [(13, 4.0), (23, 4.0), (33, 4.0)]
    assert world.player.fire == 300


def test_burning_after_lava_runs_on_its_own_clock_and_water_puts_it_out() -> None:
    world = _world()
    lava, pond = world.features["lava"][0], world.features["water"][0]
    away = world.spawn
    assert not ph.touching(world.terrain, *away, g.LAVA | g.WATER)
    _put(world, lava)
    # In lava on 11 (hit), out on 15: the fire clock reads 300 then (a multiple of 20), but the
    # lava's 4 still shields the 1; the burn lands 20 ticks after leaving, and every 20 after.
    hits = _damage_ticks(world, 11, 76, move={15: away})
    assert hits == [(11, 4.0), (35, 1.0), (55, 1.0), (75, 1.0)]
    _put(world, pond)
    world.tick(77)
    assert world.player.fire == 0
    assert _damage_ticks(world, 78, 120) == []


def test_drowning_starts_after_320_ticks_under_water_then_2_every_second() -> None:
    world = _world()
    _put(world, world.features["water"][0])        # the bottom of the pond
    hits = _damage_ticks(world, 1, 361)
    assert hits == [(320, 2.0), (340, 2.0), (360, 2.0)]


def test_a_smaller_hit_inside_the_invulnerable_ticks_does_not_land_a_bigger_one_lands_its_excess() -> None:
    world = _world()
    out: list[ev.Event] = []
    world.tick_no = 100
    world._hurt(3.0, "zombie", out)
    world.tick_no = 105
    world._hurt(1.0, "fire", out)          # shielded
    world._hurt(4.0, "lava", out)          # lands 4 - 3
    world.tick_no = 110
    world._hurt(1.0, "fire", out)          # the window is over
    assert world.player.health == 20.0 - 3.0 - 1.0 - 1.0
    assert world.damage_taken == {"zombie": 3.0, "lava": 1.0, "fire": 1.0}


def test_a_dead_player_stays_dead_and_says_so_until_respawn() -> None:
    world = _world()
    p = world.player
    p.health, p.fire, p.food = 1.0, 200, 20
    # Tick 160: a burn (fire clock 200) kills; it is also a regeneration tick (every 80).
    out = world.tick(160)
    assert p.dead and p.health == 0.0
    healths = [e.health for e in out if isinstance(e, ev.HealthChanged)]
    assert healths and healths[-1] == 0.0
    for t in range(161, 400):
        world.tick(t)
    assert p.dead and p.health == 0.0
    assert world.deaths == [(160, "fire")]


def test_the_starting_body_follows_the_options_at_spawn_and_respawn() -> None:
    world = _world(start_food=17, start_saturation=0.0)
    assert (world.player.food, world.player.saturation) == (17, 0.0)
    world.player.health = 0.0
    world.player.dead = True
    from engine.decision import acts
    world.apply([acts.Respawn()], 10)
    assert (world.player.food, world.player.saturation, world.player.health) == (17, 0.0, 20.0)
