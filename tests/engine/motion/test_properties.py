"""Property: whatever the terrain, the stepper's packets pass the vanilla-movement checker."""
from __future__ import annotations

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from engine.motion.astar import SearchOptions, find_path
from engine.motion.goals import GoalBlock
from engine.motion.testing import drive_path
from engine.motion.worlds import WorldBuilder
from engine.world.snapshot import Vec3

SIDE = 8
TOPS = ("stone", "stone", "stone", "oak_slab", "water", "lava", "air")


Case = tuple[tuple[int, ...], tuple[str, ...], int, int, bool]


def build(heights: tuple[int, ...], tops: tuple[str, ...]) -> WorldBuilder:
    """Columns of stone 0-3 high on a floor at y=-1, each topped with stone, a slab, water,
    lava, or cut out to the floor."""
    world = WorldBuilder("1.18.2", x=(-8, 16), y=(-16, 16), z=(-8, 16))
    world.fill(-4, -1, -4, SIDE + 3, -1, SIDE + 3, "stone")
    for i, (h, top) in enumerate(zip(heights, tops)):
        x, z = divmod(i, SIDE)
        if h:
            world.fill(x, 0, z, x, h - 1, z, "stone")
        if top == "oak_slab":
            world.set(x, h, z, "oak_slab")
        elif top in ("water", "lava") and h:
            world.set(x, h - 1, z, top)
        elif top == "air" and h:
            world.fill(x, 0, z, x, h - 1, z, "air")
    return world


cases = st.tuples(
    st.lists(st.integers(0, 3), min_size=SIDE * SIDE, max_size=SIDE * SIDE).map(tuple),
    st.lists(st.sampled_from(TOPS), min_size=SIDE * SIDE, max_size=SIDE * SIDE).map(tuple),
    st.integers(0, SIDE * SIDE - 1),
    st.integers(0, SIDE * SIDE - 1),
    st.booleans(),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True,
          phases=[Phase.explicit, Phase.generate])
@given(cases)
def test_stepper_output_never_breaks_vanilla_rules(case: Case) -> None:
    heights, tops, start_index, goal_index, sprint = case
    t = build(heights, tops).terrain()

    def stand(index: int) -> tuple[int, int, int] | None:
        x, z = divmod(index, SIDE)
        for y in range(6, -2, -1):
            if t.is_standable(x, y, z) and not t.is_hazard(x, y, z) and not t.is_hazard(x, y - 1, z):
                return x, y, z
        return None

    start, goal = stand(start_index), stand(goal_index)
    if start is None or goal is None:
        return
    feet = t.feet_y(*start)
    assert feet is not None
    origin = Vec3(start[0] + 0.5, feet, start[2] + 0.5)
    path = find_path(t, origin, GoalBlock(*goal), SearchOptions(max_nodes=3000))
    drive = drive_path(t, origin, path, sprint=sprint, max_ticks=1500)
    assert drive.violations == ()
    assert drive.outcome == "arrived", (path, drive.final)
    end = path.end
    assert abs(drive.final.x - end.x - 0.5) < 1e-3 and abs(drive.final.z - end.z - 0.5) < 1e-3
