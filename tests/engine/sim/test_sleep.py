"""sleep: the perception finds a bed, the legal filter allows it at night near one, the executor
walks there and uses it, and the server's answer decides: the night skipped (ok), or a refusal."""
from __future__ import annotations

from engine.decision.autopilot import Autopilot
from engine.decision.catalog import ActionName, Choice, legal_actions
from engine.decision.logs import EpisodeLog
from engine.decision.providers import MockProvider
from engine.events import ServerChatSeen
from engine import actions as acts
from engine.sim.episode import run_episode
from engine.sim.world import SimOptions, SimWorld
from engine.world.snapshot import Vec3
from tests.engine.decision.test_unseen_worlds import snapshot

NIGHT = 13_000


def test_the_perception_finds_the_bed_and_sleep_is_legal_only_at_night() -> None:
    world = SimWorld(3, SimOptions(bed=True))
    world.join_events()
    assert world.bed is not None
    from engine.motion.grid import Terrain
    autopilot = Autopilot(MockProvider(), Terrain(world.store, world.table))
    at = Vec3(*world.spawn)
    night = autopilot.state(snapshot(at), {}, 1, day=False)
    assert night.distance("bed") is not None
    assert Choice(ActionName.SLEEP) in legal_actions(night)
    day = autopilot.state(snapshot(at), {}, 2, day=True)
    assert Choice(ActionName.SLEEP) not in legal_actions(day)


def test_at_nightfall_the_autopilot_sleeps_in_the_bed_and_the_night_is_skipped() -> None:
    log = EpisodeLog()
    options = SimOptions(bed=True, start_time=NIGHT, mobs=False)
    result = run_episode(3, 600, options=options, log=log)
    outcomes = [(r["choice"], r["outcome"]) for r in log.decisions if r["kind"] == "outcome"]
    assert ("sleep", "ok") in outcomes, outcomes
    chosen = [r for r in log.decisions if r["kind"] == "decision" and r["decision"]["choice"] == "sleep"]
    assert chosen and chosen[0]["state"]["day"] is False
    assert result.violations == 0 and not result.deaths


def test_a_bed_used_by_day_is_refused_as_vanilla_refuses_it() -> None:
    world = SimWorld(3, SimOptions(bed=True, start_time=1000))
    world.join_events()
    assert world.bed is not None
    x, y, z = world.bed
    p = world.player
    p.x, p.y, p.z = x + 0.5, float(y), z - 1.5
    out = world.apply([acts.UseBlock(x, y, z)], 1)
    assert ServerChatSeen("You can only sleep at night") in out and world.player.sleeping is None
    world.tick_no = NIGHT - 1000
    out = world.apply([acts.UseBlock(x, y, z)], 2)
    assert world.player.sleeping == 2 and not out
    for t in range(3, 103):
        world.tick(t)
    assert world.player.sleeping is None and world.day_time < 1000          # morning


def test_the_sleep_executor_by_day_or_refused_at_night_ends_without_sleeping() -> None:
    from tests.engine.decision.test_unseen_worlds import flat
    import numpy as np
    from engine.decision.executors import WAKE_WAIT, ExecContext, make_executor
    from engine.decision.perception import BlockFinder
    from engine.motion.astar import SearchOptions
    world = flat(40)
    world.set(3, 1, 0, "red_bed")
    terrain = world.terrain()

    def ctx(tick: int, day: bool) -> ExecContext:
        return ExecContext(snapshot(Vec3(0.5, 1.0, 0.5)), terrain, BlockFinder(terrain), tick, tick * 0.05, set(),
                           SearchOptions(max_nodes=2500), {}, np.random.default_rng(0), day=day)

    by_day = make_executor(Choice(ActionName.SLEEP), 600, 1)
    by_day.step(ctx(1, True))
    assert by_day.status == "only at night"
    refused = make_executor(Choice(ActionName.SLEEP), 600, 1)
    used = []
    for tick in range(1, 400):
        used += [a for a in refused.step(ctx(tick, False)) if isinstance(a, acts.UseBlock)]
        if refused.status is not None:
            break
    assert used == [acts.UseBlock(3, 1, 0, 1)]
    assert refused.status == "not asleep" and tick > WAKE_WAIT            # the night never ended
