"""The checker across silent gaps between packets, as a vanilla server sees them.

A vanilla client sends a position only when it moved (or as a reminder every 20
ticks), so a gap after a packet at rest is a body that stood still; the server
counts floating ticks only after a packet that left the body floating. Found in
``mcagent sim --hazard mobs`` (seed 18): a player standing for 132 ticks, then a
reflex's jump, was flagged airborne for 132 ticks and the jump's arc as rising
too fast (the rise had been spread over the whole gap).
"""
from __future__ import annotations

from engine.motion import physics as ph
from engine.motion.checker import Movement, Rule, check_movements

from tests.engine.motion import terrains


def _jump_arc(start_tick: int, t, x: float = 0.5) -> list[Movement]:  # type: ignore[no-untyped-def]
    body, out = ph.Body(x, 1.0, 0.5, 0.0, True), []
    for i in range(14):
        body = ph.advance(t, body, ph.Controls(jump=i == 0)).body
        out.append(Movement(start_tick + i, body.x, body.y, body.z, body.on_ground))
    return out


def test_a_jump_after_standing_silent_on_the_ground_is_a_jump() -> None:
    t = terrains.flat().terrain()
    packets = [Movement(0, 0.5, 1.0, 0.5, True)] + _jump_arc(132, t)
    assert check_movements(t, packets) == []
    # The same after a vanilla client's 20-tick reminder.
    assert check_movements(t, [Movement(0, 0.5, 1.0, 0.5, True)] + _jump_arc(20, t)) == []


def test_after_a_gap_a_second_jump_in_mid_air_is_still_caught() -> None:
    t = terrains.flat().terrain()
    packets = [Movement(0, 0.5, 1.0, 0.5, True), Movement(50, 0.5, 1.42, 0.5, False),
               Movement(51, 0.5, 1.84, 0.5, False)]
    found = check_movements(t, packets)
    assert [v.rule for v in found] == [Rule.ROSE_TOO_FAST] and found[0].tick == 51


def test_a_gap_after_a_packet_in_the_air_is_airborne_even_if_it_ends_on_the_ground() -> None:
    t = terrains.flat().terrain()
    # Left hanging at the top of a jump for 85 ticks: the server kicks before the next packet.
    packets = [Movement(0, 0.5, 1.0, 0.5, True), Movement(1, 0.5, 1.42, 0.5, False),
               Movement(86, 0.5, 1.0, 0.5, True)]
    found = check_movements(t, packets)
    assert [v.rule for v in found] == [Rule.AIRBORNE_TOO_LONG] and found[0].tick == 86
    # A short pause in the air is no floating.
    assert check_movements(t, packets[:2] + [Movement(20, 0.5, 1.0, 0.5, True)]) == []
