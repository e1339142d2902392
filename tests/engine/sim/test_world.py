"""SimWorld's body rules against vanilla: lava, burning, drowning, invulnerability, death, hunger."""
from __future__ import annotations

import math

import pytest

from engine import events as ev
from engine.actions import InjectMovement, SelectHotbar, UseHeldItem
from engine import actions as acts
from engine.decision.knowledge import dig_ticks
from engine.motion import grid as g
from engine.motion import physics as ph
from engine.sim.world import Mob, SimOptions, SimWorld


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
    p.health, p.fire, p.food, p.food_timer = 1.0, 200, 20, 9
    # Tick 160: a burn (fire clock 200) kills; the food timer would heal on this tick too.
    out = world.tick(160)
    assert p.dead and p.health == 0.0
    healths = [e.health for e in out if isinstance(e, ev.HealthChanged)]
    assert healths and healths[-1] == 0.0
    # Death puts the fire out, and says so once.
    assert p.fire == 0 and [e for e in out if isinstance(e, ev.OwnMetadata)] == [ev.OwnMetadata(False, 300)]
    for t in range(161, 400):
        assert not any(isinstance(e, (ev.HealthChanged, ev.OwnMetadata)) for e in world.tick(t))
    assert p.dead and p.health == 0.0
    assert world.deaths == [(160, "fire")]


def test_dying_in_lava_leaves_the_body_dead_and_not_burning() -> None:
    world = _world()
    _put(world, world.features["lava"][0])
    world.player.health = 4.0
    out = world.tick(1)
    assert world.player.dead and world.player.fire == 0
    assert [e for e in out if isinstance(e, ev.OwnMetadata)][-1].burning is False


def test_the_starting_body_follows_the_options_at_spawn_and_respawn() -> None:
    world = _world(start_food=17, start_saturation=0.0, start_bread=12)
    assert (world.player.food, world.player.saturation, world.count("bread")) == (17, 0.0, 12)
    world.player.health = 0.0
    world.player.dead = True
    world.player.exhaustion = 3.0
    world.apply([acts.Respawn()], 10)
    assert (world.player.food, world.player.saturation, world.player.health) == (17, 0.0, 20.0)
    assert (world.player.exhaustion, world.count("bread")) == (0.0, 12)


# -- hunger: vanilla FoodData --------------------------------------------------------------------

def _body(world: SimWorld, health: float, food: int, saturation: float, exhaustion: float = 0.0) -> None:
    p = world.player
    p.health, p.food, p.saturation, p.exhaustion = health, food, saturation, exhaustion


def _healths(world: SimWorld, first: int, last: int) -> dict[int, float]:
    """Health after each tick in [first, last] on which it changed."""
    seen, before = {}, world.player.health
    for t in range(first, last + 1):
        world.tick(t)
        if world.player.health != before:
            seen[t] = before = world.player.health
    return seen


def test_exhaustion_past_4_costs_a_point_of_saturation_then_of_food() -> None:
    world = _world()
    _body(world, 20.0, 20, 1.0, 4.5)
    world.tick(1)
    assert (world.player.food, world.player.saturation) == (20, 0.0)
    assert world.player.exhaustion == pytest.approx(0.5)
    world.player.exhaustion = 4.0          # exactly 4 is not past it
    world.tick(2)
    assert world.player.food == 20
    world.player.exhaustion = 4.25
    out = world.tick(3)
    assert (world.player.food, world.player.saturation) == (19, 0.0)
    assert ev.HealthChanged(20.0, 19, 0.0) in out      # a food change is sent


def test_a_full_food_bar_with_saturation_heals_every_10_ticks_by_the_saturation_it_spends() -> None:
    world = _world()
    _body(world, 10.0, 20, 5.0)
    healed = _healths(world, 1, 11)
    # min(5, 6) / 6 on the 10th tick, and 5 exhaustion, which costs a point of saturation next tick.
    assert healed == {10: pytest.approx(10.0 + 5.0 / 6.0)}
    assert world.player.saturation == 4.0 and world.player.exhaustion == pytest.approx(1.0)
    _body(world, 10.0, 20, 20.0)
    assert list(_healths(world, 12, 41).values()) == [11.0, 12.0, 13.0]    # 6 or more: a whole point


def test_food_18_heals_1_every_80_ticks_and_the_6_exhaustion_ends_it_at_17() -> None:
    world = _world()
    _body(world, 10.0, 18, 0.0)
    assert _healths(world, 1, 400) == {80: 11.0}
    assert world.player.food == 17 and world.player.exhaustion == pytest.approx(2.0)


def test_no_regeneration_below_18_nor_at_full_health() -> None:
    world = _world()
    _body(world, 10.0, 17, 5.0)
    assert _healths(world, 1, 400) == {}
    _body(world, 20.0, 20, 5.0)
    assert _healths(world, 401, 800) == {}
    assert world.player.saturation == 5.0 and world.player.exhaustion == 0.0


@pytest.mark.parametrize("difficulty,health,left", [("easy", 12.0, 10.0), ("normal", 3.0, 1.0), ("hard", 2.0, 0.0)])
def test_starving_hurts_1_every_80_ticks_down_to_the_difficultys_floor(difficulty: str, health: float, left: float
                                                                       ) -> None:
    world = _world(difficulty=difficulty)
    _body(world, health, 0, 0.0)
    hits = _damage_ticks(world, 1, 400)
    assert hits == [(80, 1.0), (160, 1.0)]
    assert world.player.health == left
    assert world.deaths == ([(160, "starvation")] if difficulty == "hard" else [])


def _eat_bread(world: SimWorld, t: int) -> list[ev.Event]:
    out = world.apply([SelectHotbar(8), UseHeldItem()], t)      # the spawn's bread is in hotbar slot 8
    for tick in range(t + 1, t + 33):
        out += world.tick(tick)
    return out


def test_eating_adds_nutrition_and_twice_nutrition_times_the_modifier_in_saturation_capped_at_the_food() -> None:
    world = _world()
    _body(world, 20.0, 10, 0.0)
    out = _eat_bread(world, 1)
    assert world.player.food == 15 and world.player.saturation == pytest.approx(6.0)     # bread: 5, 0.6
    assert ev.HealthChanged(20.0, 15, world.player.saturation) in out
    _body(world, 20.0, 18, 15.0)
    _eat_bread(world, 40)
    assert (world.player.food, world.player.saturation) == (20, 20.0)
    assert world.count("bread") == 3


def test_a_full_food_bar_cannot_start_eating() -> None:
    world = _world()
    _body(world, 15.0, 20, 0.0)
    _eat_bread(world, 1)
    assert world.count("bread") == 5 and world.player.food == 20


def _moves(world: SimWorld, steps: list[tuple[float, float, float, bool]], t: int = 1) -> float:
    """Exhaustion the moves (relative to the player, each a tick) add; a step faster than walking
    is sent as a client sends it, with the sprint flag."""
    before = world.player.exhaustion
    for dx, dy, dz, ground in steps:
        p = world.player
        sprinting = math.hypot(dx, dz) > 0.22
        world.apply([InjectMovement(p.x + dx, p.y + dy, p.z + dz, 0.0, 0.0, ground, sprinting)], t)
        t += 1
    return world.player.exhaustion - before


def test_movement_exhaustion_walking_is_free_sprinting_costs_per_metre_jumps_per_jump() -> None:
    world = _world()
    assert _moves(world, [(0.2, 0.0, 0.0, True)] * 10) == 0.0                       # walking
    assert _moves(world, [(0.28, 0.0, 0.0, True)] * 10) == pytest.approx(0.28)      # 2.8 m sprinted
    walker = _world()
    assert _moves(walker, [(0.0, 0.42, 0.0, False), (0.0, 0.33, 0.0, False)]) == pytest.approx(0.05)
    assert _moves(walker, [(0.0, -0.75, 0.0, True), (0.28, 0.42, 0.0, False)]) == pytest.approx(0.2)
    assert not world.checker.violations and not walker.checker.violations
    # A sprint-speed step the server was not told of is a walker moving too fast.
    cheat = _world()
    p = cheat.player
    cheat.apply([InjectMovement(p.x + 0.28, p.y, p.z, 0.0, 0.0, True)], 1)
    assert [v.rule.value for v in cheat.checker.violations] == ["too_fast"]


def test_a_block_broken_a_landed_attack_and_a_lava_hit_exhaust_fire_and_falls_do_not() -> None:
    world = _world()
    x, z = math.floor(world.spawn[0]), math.floor(world.spawn[2])
    y = math.floor(world.spawn[1]) - 1
    name = world.block(x, y, z)
    assert name is not None
    need = dig_ticks(name, None)
    assert need is not None
    world.apply([acts.StartDigging(x, y, z)], 1)
    world.apply([acts.FinishDigging(x, y, z)], 1 + need)
    assert world.block(x, y, z) == "air"
    assert world.player.exhaustion == pytest.approx(0.005)
    p = world.player
    mob = Mob(world._new_id(), "zombie", p.x + 1.0, p.y, p.z)
    world.mobs[mob.entity_id] = mob
    world.apply([acts.AttackEntity(mob.entity_id)], 40)
    world.apply([acts.AttackEntity(mob.entity_id + 1)], 41)        # no such mob: nothing lands
    assert world.player.exhaustion == pytest.approx(0.105)
    out: list[ev.Event] = []
    world.tick_no = 100
    world._hurt(4.0, "lava", out)
    world.tick_no = 200
    world._hurt(1.0, "fire", out)
    world.tick_no = 300
    world._hurt(2.0, "fall", out)
    assert world.player.exhaustion == pytest.approx(0.205)


@pytest.mark.parametrize("difficulty,hit", [("easy", 2.5), ("normal", 3.0), ("hard", 4.5)])
def test_a_zombie_hits_as_hard_as_the_difficulty_scales_it(difficulty: str, hit: float) -> None:
    # Vanilla's Player.hurt scales a mob's damage: easy min(d/2 + 1, d), normal d, hard 1.5 d.
    world = _world(difficulty=difficulty, mobs=False)
    p = world.player
    mob = Mob(world._new_id(), "zombie", p.x + 1.0, p.y, p.z)
    world.mobs[mob.entity_id] = mob
    world.tick(1)
    assert world.damage_taken.get("zombie") == hit


def test_no_world_spawns_the_player_inside_a_tree() -> None:
    # Seed 1119 grew a trunk on the spawn point: the player stood inside a log and every first step
    # was inside a block (inside_block, sim --hazard water/lava). Vanilla spawns on open ground.
    for seed in (1119, *range(1100, 1110)):
        for hazard in (None, "water", "lava"):
            world = SimWorld(seed, SimOptions(hazard=hazard))
            x, y, z = world.spawn
            assert not ph.collides(world.terrain, x, y, z, unknown_solid=False), (seed, hazard)
            assert ph.supported(world.terrain, x, y, z), (seed, hazard)
