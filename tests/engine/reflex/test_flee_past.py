"""The flee reflex never runs past the mob it flees: a way round, or out of its reach on this side."""
from __future__ import annotations

import math

from engine.reflex.engine import ReflexEngine
from engine.reflex.inputs import Mob, ReflexInputs
from engine.reflex.testing import run_reflexes
from engine.motion.checker import Movement
from engine.motion.worlds import WorldBuilder
from engine.world.snapshot import Vec3

from tests.engine.motion import terrains

ZOMBIE = Vec3(2.5, 1.0, 0.5)          # two blocks east of the player


def rock_with_a_tunnel() -> WorldBuilder:
    """Solid rock (y 1..2) with a tunnel along z=0 from x=-3 to x=30: a dead end three blocks west of
    the player at (0, 1, 0), the long way out east."""
    return terrains.flat(40).fill(-40, 1, -40, 40, 2, 40, "stone").fill(-3, 1, 0, 30, 2, 0, "air")


def nearest_pass(packets: tuple[Movement, ...], mob: Vec3) -> float:
    return min(math.hypot(p.x - mob.x, p.z - mob.z) for p in packets)


def start(mob: Vec3) -> ReflexInputs:
    return ReflexInputs(position=Vec3(0.5, 1.0, 0.5), on_ground=True, hostile_mobs=(Mob(7, "zombie", mob),))


def test_with_the_only_way_out_past_the_zombie_it_backs_off_out_of_reach_instead() -> None:
    # Sixteen blocks away lies only east, through the zombie's cell: the old flight ran that way
    # (A* knows blocks, not mobs), into its hits. Now it keeps to this side, out of its reach.
    t = rock_with_a_tunnel().terrain()
    run = run_reflexes(ReflexEngine(), t, start(ZOMBIE), 200, stop_when_idle=True)
    assert run.notices()[0] == "hostile"
    assert run.violations == ()
    assert nearest_pass(run.packets, ZOMBIE) >= 2.0 - 1e-9     # never nearer than it started
    end = run.final.position
    assert math.hypot(end.x - ZOMBIE.x, end.z - ZOMBIE.z) >= 4.0


def test_a_way_round_is_taken_over_the_shorter_way_past_the_zombie() -> None:
    # A side tunnel north from the dead end (x=-3): sixteen blocks off that way is a little longer than east past
    # the zombie, which the old flight took.
    t = rock_with_a_tunnel().fill(-3, 1, -30, -3, 2, 0, "air").terrain()
    run = run_reflexes(ReflexEngine(), t, start(ZOMBIE), 400, stop_when_idle=True)
    assert run.violations == ()
    assert nearest_pass(run.packets, ZOMBIE) >= 2.0 - 1e-9
    end = run.final.position
    assert end.z < -10 and math.hypot(end.x - ZOMBIE.x, end.z - ZOMBIE.z) >= 16


def test_at_the_dead_end_with_the_zombie_at_its_mouth_it_lets_go_without_a_step_toward_it() -> None:
    # Nowhere out of its reach on this side: no flight (the old one ran east through it); the
    # autopilot, not the reflex, walls the player in or fights.
    t = rock_with_a_tunnel().terrain()
    zombie = Vec3(-0.5, 1.0, 0.5)
    inputs = ReflexInputs(position=Vec3(-2.5, 1.0, 0.5), on_ground=True, hostile_mobs=(Mob(7, "zombie", zombie),))
    run = run_reflexes(ReflexEngine(), t, inputs, 40, stop_when_idle=True)
    assert run.decisions[0].reflex == "hostile"
    assert any(d.released == "hostile" for d in run.decisions[:3])
    assert all(math.hypot(p.x - zombie.x, p.z - zombie.z) >= 2.0 - 1e-9 for p in run.packets)
