"""Run a ReflexEngine headlessly: the proxy's role played by a loop.

Each tick the loop hands the engine the current inputs, applies an injected
movement packet to the inputs the way the proxy's world model would (the
player is where the agent put them), lets the caller's ``world`` function
change what the server would change (air refilling, burning going out, mobs
moving), and feeds every injected packet to the vanilla-movement checker.
"""
from __future__ import annotations

from collections.abc import Callable

import attrs

from engine.motion import physics as ph
from engine.motion.checker import Movement, MovementChecker, Violation
from engine.motion.grid import Terrain
from engine.reflex.engine import ReflexDecision, ReflexEngine
from engine.reflex.inputs import ReflexInputs

TICK = 0.05


@attrs.frozen
class ReflexRun:
    decisions: tuple[ReflexDecision, ...]
    packets: tuple[Movement, ...]
    violations: tuple[Violation, ...]
    final: ReflexInputs

    def notices(self) -> list[str]:
        return [d.notice.key for d in self.decisions if d.notice is not None]


def run_reflexes(engine: ReflexEngine, terrain: Terrain, inputs: ReflexInputs, ticks: int,
                 world: Callable[[int, ReflexInputs, ReflexDecision], ReflexInputs] | None = None,
                 autopilot: bool = True, start: float = 0.0, stop_when_idle: bool = False) -> ReflexRun:
    checker = MovementChecker(terrain)
    p = inputs.position
    checker.feed(Movement(0, p.x, p.y, p.z, ph.supported(terrain, p.x, p.y, p.z)))
    decisions: list[ReflexDecision] = []
    packets: list[Movement] = []
    for tick in range(1, ticks + 1):
        decision = engine.decide(inputs, terrain, start + tick * TICK, autopilot=autopilot)
        decisions.append(decision)
        if decision.move is not None:
            m = decision.move
            previous = inputs.position
            inputs = attrs.evolve(inputs, position=m.position, on_ground=m.on_ground,
                                  velocity=type(previous)(m.x - previous.x, m.y - previous.y, m.z - previous.z))
            packet = Movement(tick, m.x, m.y, m.z, m.on_ground)
            packets.append(packet)
            checker.feed(packet)
        if world is not None:
            inputs = world(tick, inputs, decision)
        if stop_when_idle and decision.reflex is None and tick > 1:
            break
    return ReflexRun(tuple(decisions), tuple(packets), tuple(checker.violations), inputs)
