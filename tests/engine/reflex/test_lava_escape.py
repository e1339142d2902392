"""How long the lava reflex leaves the body in lava: vanilla's second hit lands 10 ticks after the first."""
from __future__ import annotations

import pytest

from engine.motion import grid as g
from engine.motion.checker import Movement, MovementChecker
from engine.motion import physics as ph
from engine.reflex.engine import ReflexEngine
from engine.reflex.inputs import ReflexInputs
from engine.reflex.testing import run_reflexes
from engine.motion.worlds import WorldBuilder
from engine.world.snapshot import Vec3

from tests.engine.motion import terrains

# LivingEntity.hurt: after a hit only a bigger one lands for 10 ticks, so lava (Entity.lavaHurt, 4 a
# tick tried) lands on the tick it is entered and again 10 ticks later if the body is still in it.
SECOND_HIT = 10


def pushed_pool() -> WorldBuilder:
    """The simulator's surface pool: lava 3x3, two deep, its top level with the floor (y 0 and -1);
    the pond two blocks past its east side, as a lava episode lays them out."""
    world = terrains.flat().fill(-1, -1, -1, 1, 0, 1, "lava").fill(-1, -2, -1, 1, -2, 1, "stone")
    return world.fill(4, -1, -1, 7, 0, 2, "water").fill(4, -2, -1, 7, -2, 2, "stone")


def in_lava(t: g.Terrain, x: float, y: float, z: float) -> bool:
    # The server's test (engine.sim.server: the body's box against the lava cells, not grown).
    return ph.touching(t, x, y, z, g.LAVA)


def test_pushed_into_the_middle_of_a_pool_it_is_out_before_the_second_hit() -> None:
    # The lava episode's push: the feet at the floor of the top lava cell, a block under the rim.
    # Vanilla's swim-up nets 0.04 a tick in lava, so the hop out (which needs the feet within 0.6
    # of the rim) came on the 10th tick and the body took two hits (8) a push; the server does
    # not model that drag, and rising at the hop's speed it is out in 7.
    t = pushed_pool().terrain()
    start = ReflexInputs(position=Vec3(0.5, 0.0, 0.5), on_ground=False, burning=True)
    run = run_reflexes(ReflexEngine(), t, start, 200, stop_when_idle=True)
    assert run.notices()[0] == "lava"
    assert run.violations == ()
    packets = run.packets
    first_out = next(i for i, p in enumerate(packets) if not in_lava(t, p.x, p.y, p.z))
    # Packet i is where the body is at the server's tick i + 1 (the first went out on the tick of
    # the push): out by packet SECOND_HIT - 1 means the lava's second try finds no lava.
    assert first_out < SECOND_HIT - 1
    assert not any(in_lava(t, p.x, p.y, p.z) for p in packets[first_out:])
    end = run.final.position
    assert ph.touching(t, end.x, end.y, end.z, g.WATER)     # and on into the pond, which puts the fire out


def test_holding_jump_in_lava_rises_at_the_hop_speed_which_the_checker_allows() -> None:
    t = pushed_pool().terrain()
    checker = MovementChecker(t)
    body = ph.Body(0.5, -1.0, 0.5, 0.0, False)
    checker.feed(Movement(0, body.x, body.y, body.z, False))
    ys = [body.y]
    for tick in range(1, 4):
        body = ph.advance(t, body, ph.Controls(0.0, 0.0, True)).body
        checker.feed(Movement(tick, body.x, body.y, body.z, body.on_ground))
        ys.append(body.y)
    assert ys[1] - ys[0] == pytest.approx(ph.LAVA_RISE) and ys[2] - ys[1] == pytest.approx(ph.LAVA_RISE)
    assert checker.violations == []
