"""A trigger found false is not asked again while nothing it reads changed (ReflexEngine._candidate):
the engine decides as one that asks every trigger every time, over seeded random scripts that
revisit positions with new velocities, change health, food, air, burning, mobs and blocks; and it
asks again as soon as any input but the velocity, or the terrain, changes."""
from __future__ import annotations

import random

import attrs

from engine.events import SlotItem
from engine.reflex.base import Activity, Reflex, ReflexContext
from engine.reflex.engine import ReflexEngine, default_reflexes
from engine.reflex.inputs import Mob, ReflexInputs
from engine.world.snapshot import Vec3

from tests.engine.motion.terrains import lava_moat, pit, pool


class AskedEveryTime:
    """A reflex as it is, minus ``reads_velocity``: the engine asks its trigger every time."""

    def __init__(self, inner: Reflex) -> None:
        self.inner = inner
        self.name, self.cooldown, self.timeout = inner.name, inner.cooldown, inner.timeout

    def triggered(self, ctx: ReflexContext) -> bool:
        return self.inner.triggered(ctx)

    def begin(self, ctx: ReflexContext) -> Activity:
        return self.inner.begin(ctx)


@attrs.define
class Counting:
    """A trigger that counts how often it is asked; true only at x >= ``fires_from``."""
    name: str = "counting"
    cooldown: float = 1.0
    timeout: float = 1.0
    reads_velocity: bool = False
    fires_from: float = 100.0
    asked: int = 0

    def triggered(self, ctx: ReflexContext) -> bool:
        self.asked += 1
        return ctx.inputs.position.x >= self.fires_from

    def begin(self, ctx: ReflexContext) -> Activity:
        raise AssertionError("never fires in these tests")


FOOD = (None, SlotItem("minecraft:bread", 3), SlotItem("minecraft:beef", 1))


def _script(rng: random.Random, ticks: int) -> list[tuple[ReflexInputs, tuple[int, int, int] | None]]:
    """Inputs tick by tick, each position held for a few ticks (new velocity each), and now
    and then a block to set before the tick."""
    spots = [Vec3(rng.uniform(0.0, 12.0), float(rng.choice((0, 1, 1, 2))), rng.uniform(-3.0, 3.0)) for _ in range(6)]
    out: list[tuple[ReflexInputs, tuple[int, int, int] | None]] = []
    inputs = ReflexInputs(spots[0], True, health=20.0, food=20, air=300)
    while len(out) < ticks:
        inputs = attrs.evolve(inputs, position=rng.choice(spots), on_ground=rng.random() < 0.8)
        if rng.random() < 0.3:
            inputs = attrs.evolve(inputs, health=rng.choice((20.0, 12.0, 5.0, 0.5)), food=rng.choice((20, 6, 3)))
        if rng.random() < 0.2:
            inputs = attrs.evolve(inputs, air=rng.choice((300, 40, 0)), burning=rng.random() < 0.3)
        if rng.random() < 0.2:
            slots = [None] * 45
            slots[36 + rng.randrange(9)] = rng.choice(FOOD)
            inputs = attrs.evolve(inputs, inventory=tuple(slots), held_slot=rng.randrange(9))
        if rng.random() < 0.2:
            at = inputs.position
            inputs = attrs.evolve(inputs, hostile_mobs=(Mob(7, "zombie", Vec3(at.x + rng.uniform(-4, 4), at.y,
                                                                            at.z + rng.uniform(-4, 4))),)
                                  if rng.random() < 0.6 else ())
        for _ in range(rng.randint(1, 4)):
            velocity = Vec3(rng.uniform(-0.3, 0.3), 0.0, rng.uniform(-0.3, 0.3))
            block = ((rng.randint(0, 12), rng.randint(-1, 2), rng.randint(-3, 3))
                     if rng.random() < 0.05 else None)
            out.append((attrs.evolve(inputs, velocity=velocity), block))
    return out[:ticks]


WORLDS = {"lava_moat": lava_moat, "pool": pool, "pit": lambda: pit(5)}
BLOCKS = ("lava", "air", "stone", "water")


def test_decisions_are_those_of_an_engine_asking_every_trigger() -> None:
    names = [r.name for r in default_reflexes()]
    for seed in range(6):
        for name, make in WORLDS.items():
            rng = random.Random(f"{seed}{name}")
            worlds = [make(), make()]     # one each: a block set goes into both
            terrains = [w.terrain() for w in worlds]
            memo = ReflexEngine(enabled=names)
            plain = ReflexEngine([AskedEveryTime(r) for r in default_reflexes()], enabled=names)
            autopilot = seed % 2 == 1
            for tick, (inputs, block) in enumerate(_script(rng, 160)):
                if block is not None:
                    kind = rng.choice(BLOCKS)
                    for world in worlds:
                        world.set(*block, kind)
                now = tick * 0.05
                a = memo.decide(inputs, terrains[0], now, autopilot)
                b = plain.decide(inputs, terrains[1], now, autopilot)
                assert a == b, (seed, name, tick)
            assert list(memo.history) == list(plain.history)


def test_a_false_trigger_is_asked_again_only_when_what_it_reads_changed() -> None:
    world = lava_moat()
    terrain = world.terrain()
    counting = Counting()
    engine = ReflexEngine([counting], enabled=["counting"])
    at = ReflexInputs(Vec3(1.5, 1.0, 0.5), True, health=20.0)
    engine.decide(at, terrain, 0.0)
    engine.decide(attrs.evolve(at, velocity=Vec3(0.2, 0.0, 0.0)), terrain, 0.05)   # only the velocity
    assert counting.asked == 1
    engine.decide(attrs.evolve(at, health=19.0), terrain, 0.1)
    assert counting.asked == 2
    engine.decide(attrs.evolve(at, health=19.0, position=Vec3(1.6, 1.0, 0.5)), terrain, 0.15)
    assert counting.asked == 3
    world.set(20, 1, 20, "stone")   # any block: the terrain's revision moves on
    engine.decide(attrs.evolve(at, health=19.0, position=Vec3(1.6, 1.0, 0.5)), terrain, 0.2)
    assert counting.asked == 4
    engine.decide(attrs.evolve(at, health=19.0, position=Vec3(1.6, 1.0, 0.5)), world.terrain(), 0.25)
    assert counting.asked == 5      # another terrain


def test_a_trigger_reading_the_velocity_is_asked_every_time() -> None:
    terrain = lava_moat().terrain()
    counting = Counting(reads_velocity=True)
    engine = ReflexEngine([counting], enabled=["counting"])
    at = ReflexInputs(Vec3(1.5, 1.0, 0.5), True)
    for n in range(3):
        engine.decide(at, terrain, n * 0.05)
    assert counting.asked == 3
