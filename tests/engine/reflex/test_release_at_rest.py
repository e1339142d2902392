"""A reflex lets go only with the body at rest (on the ground, afloat, on a ladder).

Found in ``mcagent sim --hazard mobs`` (seed 0, after the autopilot had handed
control back): the flight from a zombie ended (the zombie 16 blocks off) at the
top of a jump onto a higher block; the reflex let go there, nobody moved the
player, and the server saw a body floating for 81 ticks.
"""
from __future__ import annotations

import attrs

from engine.motion import physics as ph
from engine.reflex.engine import LANDING_GRACE, ReflexDecision, ReflexEngine
from engine.reflex.inputs import Mob, ReflexInputs
from engine.reflex.testing import run_reflexes
from engine.world.snapshot import Vec3

from tests.engine.motion import terrains
from tests.engine.reflex.test_reflexes import at


def step_west():  # type: ignore[no-untyped-def]
    """Flat floor (stand at y=1) with everything from x=-2 westward one block higher (stand at y=2)."""
    return terrains.flat(40).fill(-40, 1, -40, -2, 1, 40, "stone")


def test_a_flight_that_ends_at_the_top_of_a_jump_lands_before_it_lets_go() -> None:
    t = step_west().terrain()
    zombie = Mob(7, "zombie", Vec3(2.5, 1.0, 0.5))

    def zombie_gone_mid_jump(tick: int, inputs: ReflexInputs, decision: ReflexDecision) -> ReflexInputs:
        # The zombie gives up (despawns) as the player jumps up the step: the flight is over.
        return attrs.evolve(inputs, hostile_mobs=()) if not inputs.on_ground else inputs

    run = run_reflexes(ReflexEngine(), t, at(0.5, 1.0, 0.5, hostile_mobs=(zombie,)), 200,
                       world=zombie_gone_mid_jump, stop_when_idle=True)
    assert run.notices() == ["hostile"]
    assert any(not p.on_ground for p in run.packets), "the flight never jumped"
    released = [d for d in run.decisions if d.released == "hostile"]
    assert len(released) == 1
    # The last packet before letting go stands on the block top.
    last = run.packets[-1]
    assert last.on_ground and ph.supported(t, last.x, last.y, last.z) and last.y == 2.0
    assert run.final.on_ground and run.violations == ()


def test_a_timeout_in_mid_air_waits_for_the_landing_but_not_forever() -> None:
    # Over the void nothing lands: the reflex lets go LANDING_GRACE after its timeout.
    t = terrains.flat(4).terrain()
    engine = ReflexEngine()
    zombie = Mob(7, "zombie", Vec3(2.5, 1.0, 0.5))
    falling = at(30.5, 1.0, 0.5, on_ground=False, hostile_mobs=(zombie,))
    first = engine.decide(attrs.evolve(falling, position=Vec3(1.5, 1.0, 0.5), on_ground=True), t, 0.0,
                          autopilot=True)
    assert first.reflex == "hostile"
    nav = engine._navigator()
    assert nav is not None
    nav.teleport(Vec3(30.5, 1.0, 0.5))           # the server put the player over the void
    timeout = engine.by_name["hostile"].timeout
    assert engine.decide(falling, t, timeout + 0.5, autopilot=True).move is not None
    d = engine.decide(falling, t, timeout + LANDING_GRACE + 0.1, autopilot=True)
    assert d.released == "hostile" and d.move is None
