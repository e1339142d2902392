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


def test_a_way_round_is_taken_over_the_shorter_way_past_the_zombie() -> None:
    # A side tunnel north from the dead end (x=-3): sixteen blocks off that way is a little longer than east past
    # the zombie, which the old flight took.
    t = rock_with_a_tunnel().fill(-3, 1, -30, -3, 2, 0, "air").terrain()
    run = run_reflexes(ReflexEngine(), t, start(ZOMBIE), 400, stop_when_idle=True)
    assert run.violations == ()
    assert nearest_pass(run.packets, ZOMBIE) >= 2.0 - 1e-9
    end = run.final.position
    assert end.z < -10 and math.hypot(end.x - ZOMBIE.x, end.z - ZOMBIE.z) >= 16


def test_a_second_zombie_in_the_way_is_gone_round_too() -> None:
    # The tunnel goes on west (to x=-30); a second zombie stands in it 9 blocks west. Fleeing the
    # first, the old flight ran west into the second (seed 910006 died so); the side tunnel
    # north from x=-3 goes round both.
    t = rock_with_a_tunnel().fill(-30, 1, 0, -3, 2, 0, "air").fill(-3, 1, -30, -3, 2, 0, "air").terrain()
    second = Vec3(-8.5, 1.0, 0.5)
    inputs = ReflexInputs(position=Vec3(0.5, 1.0, 0.5), on_ground=True,
                          hostile_mobs=(Mob(7, "zombie", ZOMBIE), Mob(8, "zombie", second)))
    run = run_reflexes(ReflexEngine(), t, inputs, 400, stop_when_idle=True)
    assert run.decisions[0].reflex == "hostile"
    assert run.violations == ()
    assert nearest_pass(run.packets, ZOMBIE) >= 2.0 - 1e-9
    assert nearest_pass(run.packets, second) >= 3.0 - 1e-9
    assert run.final.position.z < -10


def test_with_no_way_round_it_still_runs_past_rather_than_stay_in_the_dead_end() -> None:
    # Sixteen blocks off lies only east, through the zombie: the flight runs past it as before (a
    # sprint outruns a zombie, a hit at most; backing into the dead end left seed 780020's player
    # fighting three zombies at hard, and dead).
    t = rock_with_a_tunnel().terrain()
    run = run_reflexes(ReflexEngine(), t, start(ZOMBIE), 400, stop_when_idle=True)
    assert run.violations == ()
    end = run.final.position
    assert end.x > ZOMBIE.x and math.hypot(end.x - ZOMBIE.x, end.z - ZOMBIE.z) >= 16
