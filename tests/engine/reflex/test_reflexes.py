"""Each reflex on crafted terrain: trigger, action, release, cooldown, notice; moves checked."""
from __future__ import annotations

import math

import attrs

from engine.events import SlotItem
from engine.motion import grid as g
from engine.motion import physics as ph
from engine.actions import ReleaseHeldItem, SelectHotbar, UseHeldItem
from engine.reflex.engine import EngineState, ReflexEngine
from engine.reflex.inputs import Mob, ReflexInputs
from engine.reflex.lava import touching_lava
from engine.reflex.testing import run_reflexes
from engine.world.snapshot import Vec3
from engine.world.vanilla import EYE_HEIGHT

from tests.engine.motion import terrains


def at(x: float, y: float, z: float, **kw) -> ReflexInputs:  # type: ignore[no-untyped-def]
    return ReflexInputs(position=Vec3(x, y, z), on_ground=kw.pop("on_ground", True), **kw)


def hotbar(**items: tuple[str, int]) -> tuple[SlotItem | None, ...]:
    inv: list[SlotItem | None] = [None] * 46
    for slot, (name, count) in items.items():
        inv[36 + int(slot[1:])] = SlotItem(name, count)
    return tuple(inv)


# --- lava ------------------------------------------------------------------------------------------

def lava_pool():  # type: ignore[no-untyped-def]
    """Lava 5x5, one deep, sunk into the floor around (0, 0, 0)."""
    return terrains.flat().fill(-2, 0, -2, 2, 0, 2, "lava").fill(-2, -1, -2, 2, -1, 2, "stone")


def test_lava_reflex_walks_out_of_a_pool_legally() -> None:
    t = lava_pool().terrain()
    engine = ReflexEngine()
    run = run_reflexes(engine, t, at(0.5, 0.0, 0.5, on_ground=True), 200, stop_when_idle=True)
    first = run.decisions[0]
    assert first.started and first.reflex == "lava" and first.move is not None
    assert first.notice is not None and first.notice.text("en_us") == "pulled you out of lava"
    assert first.notice.text("zh_cn") == "已把你从岩浆里拉了出来"
    assert run.violations == ()
    end = run.final.position
    assert not ph.touching(t, end.x, end.y, end.z, 8, grow=0.1)
    assert ph.supported(t, end.x, end.y, end.z)
    released = [d for d in run.decisions if d.released == "lava"]
    assert len(released) == 1 and released[0].state is EngineState.COOLDOWN
    # Out in under 3 seconds of game time even at lava's swimming speed.
    assert len(run.packets) < 60


def test_lava_touching_from_the_side_steps_away_from_it() -> None:
    world = terrains.flat().fill(3, 0, -3, 5, 0, 3, "lava")
    t = world.terrain()
    inputs = at(2.8, 1.0, 0.5)
    engine = ReflexEngine()
    run = run_reflexes(engine, t, inputs, 100, stop_when_idle=True)
    assert run.decisions[0].reflex == "lava"
    assert run.violations == ()
    end = run.final.position
    assert end.x < 2.0           # a block away from the lava edge, not beside it


def test_lava_cooldown_then_fires_again() -> None:
    t = lava_pool().terrain()
    engine = ReflexEngine(enabled=["lava"])
    run = run_reflexes(engine, t, at(0.5, 0.0, 0.5), 200, autopilot=False, stop_when_idle=True)
    released_at = next(i for i, d in enumerate(run.decisions) if d.released)
    now = (released_at + 1) * 0.05
    back = at(0.5, 0.0, 0.5)
    # Dropped back in during the cooldown: nothing; after it: out again.
    assert engine.decide(back, t, now + 1.0).reflex is None
    assert engine.decide(back, t, now + 3.1).started


# --- fire --------------------------------------------------------------------------------------------

def test_burning_goes_into_water_nearby_and_releases_when_the_fire_is_out() -> None:
    world = terrains.flat().fill(3, 0, -1, 4, 0, 1, "water")
    t = world.terrain()

    def water_puts_it_out(tick, inputs, decision):  # type: ignore[no-untyped-def]
        p = inputs.position
        return attrs.evolve(inputs, burning=inputs.burning and not ph.in_water(t, p.x, p.y, p.z))

    run = run_reflexes(ReflexEngine(), t, at(0.5, 1.0, 0.5, burning=True), 200, world=water_puts_it_out,
                       stop_when_idle=True)
    assert run.notices() == ["fire_water"]
    assert run.violations == ()
    assert not run.final.burning
    assert any(d.released == "fire" for d in run.decisions)


def test_standing_in_fire_without_water_walks_away_from_it() -> None:
    world = terrains.flat().fill(-1, 1, -1, 1, 1, 1, "fire").set(0, 1, 0, "air")
    t = world.terrain()
    inputs = at(0.5, 1.0, 0.5, burning=True)

    def burns_out(tick, inputs, decision):  # type: ignore[no-untyped-def]
        return attrs.evolve(inputs, burning=tick < 40)

    run = run_reflexes(ReflexEngine(), t, inputs, 200, world=burns_out, stop_when_idle=True)
    assert run.notices() == ["fire_away"]
    assert run.violations == ()
    end = run.final.position
    assert not ph.touching(t, end.x, end.y, end.z, 16)
    assert max(abs(end.x - 0.5), abs(end.z - 0.5)) >= 2


# --- drowning ----------------------------------------------------------------------------------------

def test_drowning_swims_up_to_air_and_releases_once_air_is_back() -> None:
    t = terrains.pool(8).terrain()

    def breathe(tick, inputs, decision):  # type: ignore[no-untyped-def]
        p = inputs.position
        under = bool(t.cell(math.floor(p.x), math.floor(p.y + EYE_HEIGHT), math.floor(p.z)) & 4)
        air = max(0, (inputs.air or 0) - 1) if under else min(300, (inputs.air or 0) + 4)
        return attrs.evolve(inputs, air=air)

    start = at(5.5, -7.0, 0.5, air=90)
    run = run_reflexes(ReflexEngine(), t, start, 600, world=breathe, stop_when_idle=True)
    assert run.notices() == ["drowning"]
    assert run.violations == ()
    assert any(d.released == "drowning" for d in run.decisions)
    # Released at the surface with breath to spare: the eyes are out, the head clear.
    p = run.final.position
    assert not t.cell(math.floor(p.x), math.floor(p.y + EYE_HEIGHT), math.floor(p.z)) & 4
    assert run.final.air is not None and run.final.air > 0


def test_drowning_near_the_shore_climbs_out_onto_land() -> None:
    t = terrains.pool(3).terrain()
    start = at(3.5, -2.0, 0.5, air=50)
    run = run_reflexes(ReflexEngine(), t, start, 300, stop_when_idle=True)
    assert run.notices() == ["drowning"]
    assert run.violations == ()
    p = run.final.position
    assert ph.supported(t, p.x, p.y, p.z) and p.y == 1.0


def test_drowning_needs_both_low_air_and_the_head_under_water() -> None:
    t = terrains.pool(8).terrain()
    engine = ReflexEngine()
    assert engine.decide(at(5.5, -7.0, 0.5, air=250), t, 0.0, autopilot=True).reflex is None
    assert engine.decide(at(0.5, 1.0, 0.5, air=10), t, 0.0, autopilot=True).reflex is None
    assert engine.decide(at(5.5, -7.0, 0.5, air=None), t, 0.0, autopilot=True).reflex is None


# --- hostile -----------------------------------------------------------------------------------------

def test_point_blank_zombie_is_fled_to_sixteen_blocks() -> None:
    t = terrains.flat(40).terrain()
    zombie = Mob(7, "minecraft:zombie", Vec3(2.5, 1.0, 0.5))
    run = run_reflexes(ReflexEngine(), t, at(0.5, 1.0, 0.5, hostile_mobs=(zombie,)), 400, stop_when_idle=True)
    assert run.notices() == ["hostile"]
    assert run.decisions[0].notice is not None and "zombie" in run.decisions[0].notice.en
    assert run.violations == ()
    end = run.final.position
    assert math.hypot(end.x - 2.5, end.z - 0.5) >= 16
    speeds = [math.hypot(b.x - a.x, b.z - a.z) for a, b in zip(run.packets, run.packets[1:])]
    assert max(speeds) <= ph.SPRINT_SPEED + 1e-9


def test_a_chasing_mob_moves_the_goal() -> None:
    t = terrains.flat(40).terrain()

    def chase(tick, inputs, decision):  # type: ignore[no-untyped-def]
        mob = inputs.hostile_mobs[0]
        p, m = inputs.position, mob.position
        d = math.hypot(p.x - m.x, p.z - m.z) or 1.0
        step = 0.15
        moved = Mob(mob.entity_id, mob.kind, Vec3(m.x + (p.x - m.x) / d * step, m.y, m.z + (p.z - m.z) / d * step))
        return attrs.evolve(inputs, hostile_mobs=(moved,))

    skeleton = Mob(9, "skeleton", Vec3(0.5, 1.0, 2.5))
    run = run_reflexes(ReflexEngine(), t, at(0.5, 1.0, 0.5, hostile_mobs=(skeleton,)), 600, world=chase,
                       stop_when_idle=True)
    assert run.violations == ()
    assert any(d.released == "hostile" for d in run.decisions)
    # Released at 16 blocks; the mob took one more 0.15 step after that.
    mob = run.final.hostile_mobs[0].position
    assert math.hypot(run.final.position.x - mob.x, run.final.position.z - mob.z) >= 16 - 0.15


def test_passive_and_distant_mobs_do_not_trigger() -> None:
    t = terrains.flat().terrain()
    engine = ReflexEngine()
    far = Mob(1, "zombie", Vec3(8.5, 1.0, 0.5))
    assert engine.decide(at(0.5, 1.0, 0.5, hostile_mobs=(far,)), t, 0.0, autopilot=True).reflex is None
    snapshot_cow = ReflexInputs.from_snapshot  # passive mobs never reach hostile_mobs
    assert snapshot_cow is not None


# --- starving ----------------------------------------------------------------------------------------

def test_starving_selects_food_eats_for_the_duration_then_restores_the_slot() -> None:
    t = terrains.flat().terrain()
    inputs = at(0.5, 1.0, 0.5, food=4, held_slot=0, inventory=hotbar(s0=("diamond_sword", 1), s3=("bread", 5)))

    def slot_follows(tick, inputs, decision):  # type: ignore[no-untyped-def]
        for op in decision.items:
            if isinstance(op, SelectHotbar):
                inputs = attrs.evolve(inputs, held_slot=op.slot)
        return inputs

    run = run_reflexes(ReflexEngine(), t, inputs, 60, world=slot_follows)
    ops = [(i, d.items) for i, d in enumerate(run.decisions) if d.items]
    assert ops[0] == (0, (SelectHotbar(3), UseHeldItem()))
    assert ops[1] == (35, (SelectHotbar(0),))       # 32 ticks of eating + 2 margin, then restore
    assert len(ops) == 2
    assert run.packets == ()                       # eating never takes the movement over
    assert run.decisions[0].notice is not None and run.decisions[0].notice.key == "starving"
    assert run.decisions[36].released == "starving"


def test_starving_prefers_the_best_food_and_skips_bad_food() -> None:
    t = terrains.flat().terrain()
    engine = ReflexEngine()
    inv = hotbar(s1=("minecraft:rotten_flesh", 3), s2=("minecraft:apple", 1), s5=("minecraft:cooked_beef", 2))
    d = engine.decide(at(0.5, 1.0, 0.5, food=2, held_slot=2, inventory=inv), t, 0.0, autopilot=True)
    assert d.items == (SelectHotbar(5), UseHeldItem())
    only_bad = hotbar(s1=("rotten_flesh", 3), s2=("spider_eye", 1))
    assert ReflexEngine().decide(at(0.5, 1.0, 0.5, food=2, inventory=only_bad), t, 0.0, autopilot=True).reflex is None
    fed = hotbar(s1=("bread", 3))
    assert ReflexEngine().decide(at(0.5, 1.0, 0.5, food=7, inventory=fed), t, 0.0, autopilot=True).reflex is None
    creative = at(0.5, 1.0, 0.5, food=0, inventory=fed, game_mode=1)
    assert ReflexEngine().decide(creative, t, 0.0, autopilot=True).reflex is None


def test_eating_already_held_food_sends_no_slot_changes() -> None:
    t = terrains.flat().terrain()
    run = run_reflexes(ReflexEngine(), t, at(0.5, 1.0, 0.5, food=5, held_slot=4, inventory=hotbar(s4=("apple", 1))), 40)
    assert [d.items for d in run.decisions if d.items] == [(UseHeldItem(),)]


def test_lava_preempts_eating_which_stops_and_gives_the_slot_back() -> None:
    t = lava_pool().terrain()
    engine = ReflexEngine()
    dry = at(6.5, 1.0, 0.5, food=3, held_slot=0, inventory=hotbar(s2=("bread", 1)))
    first = engine.decide(dry, t, 0.0, autopilot=True)
    assert first.reflex == "starving"
    engine.decide(attrs.evolve(dry, held_slot=2), t, 0.05, autopilot=True)
    burning = attrs.evolve(dry, held_slot=2, position=Vec3(0.5, 0.0, 0.5))
    d = engine.decide(burning, t, 0.1, autopilot=True)
    assert d.reflex == "lava" and d.started
    assert d.items == (ReleaseHeldItem(), SelectHotbar(0))
    assert d.move is not None


# --- edge / void ---------------------------------------------------------------------------------------

def cliff():  # type: ignore[no-untyped-def]
    """Floor ends at x=4: beyond it a drop of 10 blocks onto stone."""
    return terrains.flat().fill(5, -9, -24, 24, 0, 24, "air").fill(5, -10, -24, 24, -10, 24, "stone")


def test_walking_toward_a_deep_drop_is_stopped_at_the_edge() -> None:
    t = cliff().terrain()
    inputs = at(4.5, 1.0, 0.5, velocity=Vec3(0.2, 0.0, 0.0))
    run = run_reflexes(ReflexEngine(), t, inputs, 60, stop_when_idle=True)
    assert run.notices() == ["edge"]
    assert run.violations == ()
    assert run.final.position.x <= 4.5 + 1e-9 and run.final.position.y == 1.0
    assert any(d.released == "edge" for d in run.decisions)
    # Walking along the edge, or away from it, does not trigger.
    engine = ReflexEngine()
    along = at(4.5, 1.0, 0.5, velocity=Vec3(0.0, 0.0, 0.2))
    assert engine.decide(along, t, 0.0, autopilot=True).reflex is None


def test_the_void_is_deep_and_water_is_not() -> None:
    void = terrains.flat().fill(5, -16, -24, 24, 0, 24, "air").terrain()
    inputs = at(4.5, 1.0, 0.5, velocity=Vec3(0.2, 0.0, 0.0), min_y=-16)
    assert ReflexEngine().decide(inputs, void, 0.0, autopilot=True).reflex == "edge"
    pond = cliff().fill(5, -9, -24, 24, -9, 24, "water").terrain()
    assert ReflexEngine().decide(inputs, pond, 0.0, autopilot=True).reflex is None
    shallow = terrains.pit(3).terrain()
    step_in = at(2.5, 1.0, 0.5, velocity=Vec3(0.2, 0.0, 0.0), min_y=-16)
    assert ReflexEngine().decide(step_in, shallow, 0.0, autopilot=True).reflex is None


def test_touching_lava_helper() -> None:
    from engine.reflex.base import ReflexContext
    t = lava_pool().terrain()
    ctx = ReflexContext(at(0.5, 0.0, 0.5), t, 0.0)
    assert touching_lava(ctx, Vec3(0.5, 0.0, 0.5))
    assert not touching_lava(ctx, Vec3(5.5, 1.0, 0.5))


# --- what the hazard episodes taught ---------------------------------------------------------------

def lava_beside_water():  # type: ignore[no-untyped-def]
    """Lava 3x3 sunk into the floor around (0, 0, 0); two blocks east of it, a water pool x 3..5."""
    world = terrains.flat().fill(-1, 0, -1, 1, 0, 1, "lava").fill(-1, -1, -1, 1, -1, 1, "stone")
    return world.fill(3, 0, -1, 5, 0, 1, "water").fill(3, -1, -1, 5, -1, 1, "stone")


def test_lava_leads_out_into_nearby_water_which_puts_the_fire_out() -> None:
    t = lava_beside_water().terrain()
    run = run_reflexes(ReflexEngine(), t, at(0.5, 0.0, 0.5, burning=True), 200, stop_when_idle=True)
    assert run.notices() == ["lava"]
    assert run.violations == ()
    end = run.final.position
    assert ph.touching(t, end.x, end.y, end.z, g.WATER)
    assert not touching_lava_at(t, end)
    # Out of the lava as fast as the way to dry land: east, the water's side, in under 14 ticks.
    in_lava = [p for p in run.packets if touching_lava_at(t, Vec3(p.x, p.y, p.z))]
    assert len(in_lava) < 14 and run.packets[0].x > 0.5


def test_lava_does_not_wade_through_more_lava_to_reach_water() -> None:
    # A 5x5 pool, the player in its west column, water past its east side: out to the west
    # (not through four more lava cells), then round the pool to the water.
    t = lava_pool().fill(4, 0, -1, 6, 0, 1, "water").fill(4, -1, -1, 6, -1, 1, "stone").terrain()
    run = run_reflexes(ReflexEngine(), t, at(-1.5, 0.0, 0.5, burning=True), 200, stop_when_idle=True)
    assert run.violations == ()
    in_lava = [p for p in run.packets if touching_lava_at(t, Vec3(p.x, p.y, p.z))]
    assert len(in_lava) < 14 and all(p.x < -1.5 for p in in_lava[1:])


def touching_lava_at(t, at: Vec3) -> bool:  # type: ignore[no-untyped-def]
    return ph.touching(t, at.x, at.y, at.z, g.LAVA, grow=0.1)


def trench():  # type: ignore[no-untyped-def]
    """Ground to stand on at y=3; a trench dug into it: (-1..1, 2, 0) one deep, (0..1, 1, 0) two deep."""
    world = terrains.flat().fill(-24, 1, -24, 24, 2, 24, "stone")
    return world.fill(-1, 2, 0, 1, 2, 0, "air").fill(0, 1, 0, 1, 1, 0, "air")


def test_a_flight_planned_mid_fall_is_planned_again_where_the_player_lands() -> None:
    # The player had just dug the block below: at y=2, falling into (0, 1, 0), when a zombie
    # came close from the north. A path from (0, 2, 0) jumps south onto the ground at y=3; from
    # the trench's floor at y=1 that jump is two blocks, tried over and over: the flight has to
    # be planned again from where the body lands.
    t = trench().terrain()
    zombie = Mob(7, "zombie", Vec3(0.5, 3.0, -2.0))
    start = at(0.3, 2.0, 0.5, on_ground=False, hostile_mobs=(zombie,))
    run = run_reflexes(ReflexEngine(), t, start, 200, stop_when_idle=True)
    assert run.notices()[0] == "hostile"
    assert run.violations == ()
    out = next(p.tick for p in run.packets if p.y == 3.0 and p.on_ground)
    assert out < 40                 # up and out in two seconds
    end = run.final.position
    assert end.y == 3.0 and math.hypot(end.x - 0.5, end.z + 2.0) >= 8


def pit_with_a_hole():  # type: ignore[no-untyped-def]
    """Ground at y=3. A pit the player dug: (0, 1..2, 0) where they stand, beside it (0, 1..2, -1)
    with a hole one deeper at (0, 0, -1); the zombie's ledge (1, 2, -1). No way up and out."""
    world = terrains.flat().fill(-24, 1, -24, 24, 2, 24, "stone")
    world.fill(0, 1, 0, 0, 2, 0, "air").fill(0, 0, -1, 0, 2, -1, "air").set(1, 2, -1, "air")
    return world.set(0, -1, -1, "stone")


def test_cornered_with_no_way_out_it_keeps_out_of_the_mobs_reach() -> None:
    t = pit_with_a_hole().terrain()
    zombie = Mob(7, "zombie", Vec3(1.5, 2.0, -0.5))        # on the ledge, a block above the player
    run = run_reflexes(ReflexEngine(), t, at(0.5, 1.0, 0.5, hostile_mobs=(zombie,)), 100)
    assert run.notices()[0] == "hostile"
    assert run.violations == ()
    end = run.final.position
    assert (math.floor(end.x), end.y, math.floor(end.z)) == (0, 0.0, -1)   # two below the zombie's feet
    # From down there it cannot hit: the reflex does not fire again for it.
    assert not any(d.started for d in run.decisions[-40:])


def test_a_mob_at_point_blank_soon_after_a_flight_is_fled_again() -> None:
    t = terrains.flat(40).terrain()
    engine = ReflexEngine()
    first = Mob(7, "zombie", Vec3(2.5, 1.0, 0.5))
    run = run_reflexes(engine, t, at(0.5, 1.0, 0.5, hostile_mobs=(first,)), 400, stop_when_idle=True)
    released = len(run.decisions) * 0.05
    here = run.final.position
    second = Mob(8, "zombie", Vec3(here.x + 1.5, here.y, here.z))
    d = engine.decide(attrs.evolve(run.final, hostile_mobs=(second,)), t, released + 2.5, autopilot=True)
    assert d.reflex == "hostile" and d.started


def test_hurt_and_too_hungry_to_heal_it_eats() -> None:
    t = terrains.flat().terrain()
    bread = hotbar(s0=("diamond_sword", 1), s3=("bread", 5))
    d = ReflexEngine().decide(at(0.5, 1.0, 0.5, health=10.0, food=17, inventory=bread), t, 0.0, autopilot=True)
    assert d.reflex == "heal" and d.items == (SelectHotbar(3), UseHeldItem())
    assert d.notice is not None and d.notice.key == "heal" and "bread" in d.notice.en
    # Food 18 or more still heals by itself; unhurt needs no meal; starving comes first.
    for quiet in (at(0.5, 1.0, 0.5, health=10.0, food=18, inventory=bread),
                  at(0.5, 1.0, 0.5, health=20.0, food=10, inventory=bread),
                  at(0.5, 1.0, 0.5, health=10.0, food=10, inventory=hotbar(s1=("rotten_flesh", 3)))):
        assert ReflexEngine().decide(quiet, t, 0.0, autopilot=True).reflex is None
    starving = ReflexEngine().decide(at(0.5, 1.0, 0.5, health=10.0, food=4, inventory=bread), t, 0.0, autopilot=True)
    assert starving.reflex == "starving"


def test_the_heal_reflex_keeps_raw_meat_for_the_furnace_unless_badly_hurt() -> None:
    # Seed 1000 under lava: the autopilot's hunt carried a dozen raw beef, and every heal ate one raw
    # at 17 (3 food, ~3 health; cooked it heals ~10), so the player hunted on at 1-5 health.
    t = terrains.flat().terrain()
    raw = hotbar(s0=("iron_pickaxe", 1), s2=("beef", 9))
    assert ReflexEngine().decide(at(0.5, 1.0, 0.5, health=14.0, food=17, inventory=raw), t, 0.0,
                                 autopilot=True).reflex is None
    badly = ReflexEngine().decide(at(0.5, 1.0, 0.5, health=9.0, food=17, inventory=raw), t, 0.0, autopilot=True)
    assert badly.reflex == "heal" and badly.items == (SelectHotbar(2), UseHeldItem())
    # Cooked food beside the raw meat is eaten at any hurt; starving eats raw meat too.
    both = hotbar(s2=("beef", 9), s5=("cooked_beef", 1))
    d = ReflexEngine().decide(at(0.5, 1.0, 0.5, health=14.0, food=17, inventory=both), t, 0.0, autopilot=True)
    assert d.reflex == "heal" and d.items == (SelectHotbar(5), UseHeldItem())
    starving = ReflexEngine().decide(at(0.5, 1.0, 0.5, health=14.0, food=4, inventory=raw), t, 0.0, autopilot=True)
    assert starving.reflex == "starving"
