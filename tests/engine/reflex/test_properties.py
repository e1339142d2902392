"""Property: reflexes on random terrain move only in ways the vanilla-movement checker accepts."""
from __future__ import annotations

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from engine.reflex.engine import ReflexEngine
from engine.reflex.inputs import HOSTILE_KINDS, Mob, ReflexInputs, is_hostile
from engine.reflex.testing import run_reflexes
from engine.world.snapshot import Vec3

from tests.engine.motion.test_properties import SIDE, Case, build, cases


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.generate])
@given(cases, st.sampled_from(["lava", "hostile", "fire"]))
def test_reflex_moves_pass_the_checker(case: Case, kind: str) -> None:
    heights, tops, pick, _, _ = case
    t = build(heights, tops).terrain()
    if kind == "lava":
        pools = [(i // SIDE, heights[i] - 1, i % SIDE) for i in range(SIDE * SIDE) if tops[i] == "lava" and heights[i]]
        if not pools:
            return
        x, y, z = pools[pick % len(pools)]
        inputs = ReflexInputs(Vec3(x + 0.5, float(y), z + 0.5), True)
    else:
        x, z = divmod(pick, SIDE)
        y = next((y for y in range(6, -2, -1) if t.is_standable(x, y, z)), None)
        if y is None:
            return
        feet = t.feet_y(x, y, z)
        assert feet is not None
        at = Vec3(x + 0.5, feet, z + 0.5)
        inputs = (ReflexInputs(at, True, hostile_mobs=(Mob(1, "zombie", Vec3(at.x + 1.0, feet, at.z)),))
                  if kind == "hostile" else ReflexInputs(at, True, burning=True))
    run = run_reflexes(ReflexEngine(), t, inputs, 300, stop_when_idle=True)
    assert run.violations == ()
    assert run.decisions[0].reflex == kind
    assert any(d.released for d in run.decisions) or len(run.decisions) == 300


@given(st.sampled_from(sorted(HOSTILE_KINDS)) | st.text(max_size=12),
       st.sampled_from(["", "minecraft:", "minecraft:minecraft:", "Minecraft:"]))
def test_is_hostile_reads_names_with_or_without_the_registry_prefix(name: str, prefix: str) -> None:
    kind = prefix + name
    assert is_hostile(kind) == (kind.removeprefix("minecraft:") in HOSTILE_KINDS)
