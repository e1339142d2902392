import json
import statistics
import time

import pytest

from engine.sim.cli import main
from engine.sim.episode import run_episode
from engine.sim.world import SimOptions

COVERED = {"lava", "fire", "drowning", "zombie", "fall", "starvation"}


def test_an_episode_is_deterministic_from_its_seed() -> None:
    a = run_episode(3, 2500)
    b = run_episode(3, 2500)
    assert a.decided == b.decided
    assert a.milestones == b.milestones


def test_a_10000_tick_episode_runs_in_seconds_and_reaches_the_iron_pickaxe() -> None:
    started = time.perf_counter()
    result = run_episode(1, 10_000)
    assert time.perf_counter() - started < 60
    assert result.iron_pickaxe is not None
    assert result.violations == 0
    assert not result.deaths


def test_mock_reaches_the_iron_pickaxe_in_18_of_20_seeds_with_no_checker_violations() -> None:
    results = [run_episode(seed, 10_000, stop_when_done=True) for seed in range(20)]
    reached = [r.iron_pickaxe for r in results if r.iron_pickaxe is not None]
    assert len(reached) >= 18, [r.summary() for r in results]
    assert all(r.violations == 0 for r in results)
    print("median iron pickaxe tick", statistics.median(reached))


@pytest.mark.parametrize("hazard,reflex", [("lava", "lava"), ("water", None), ("mobs", "hostile")])
def test_hazard_episodes_end_with_no_death_a_reflex_covers(hazard: str, reflex: str | None) -> None:
    results = [run_episode(seed, 3000, options=SimOptions(hazard=hazard)) for seed in range(2)]
    for r in results:
        assert not (set(r.deaths) & COVERED), r.summary()
        if reflex is not None:
            # The hazard was met: by the reflex, or (mobs) by the autopilot fleeing first.
            assert r.reflexes.get(reflex, 0) > 0 or any(label == "flee" for _, label in r.decided)
        assert r.violations == 0


def test_seven_pushes_into_lava_cost_no_life_with_food_enough_to_heal() -> None:
    # Once a life was lost here on the 7th push (tick 3620): the burn ran on the world's clock,
    # not the fire's, and no reflex ate to keep health regenerating. Under vanilla hunger the
    # healing is paid in food (6 exhaustion a point): seven pushes cost ~56, more than the bar and
    # the spawn's five loaves heal (the 7th push kills with five), so the player carries ten.
    result = run_episode(0, 4000, options=SimOptions(hazard="lava", start_bread=10))
    assert not (set(result.deaths) & COVERED), result.summary()
    assert result.reflexes.get("lava", 0) == 7
    assert result.violations == 0


def test_a_player_who_comes_hungry_to_the_lava_eats_to_heal_and_lives() -> None:
    # Food 17: no regeneration. Each push into the lava costs 8 (two hits while swimming up
    # and out, vanilla's fastest), so three pushes kill unless the heal reflex eats in time.
    hungry = SimOptions(hazard="lava", start_food=17, start_saturation=0.0)
    result = run_episode(0, 1300, options=hungry)
    assert not (set(result.deaths) & COVERED), result.summary()
    assert result.reflexes.get("lava", 0) == 3 and result.reflexes.get("heal", 0) >= 1
    assert result.violations == 0


def test_cli_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--seeds", "1", "--ticks", "300", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["episodes"] == 1
    assert set(report["milestones"]) >= {"wood", "iron_pickaxe"}
    assert report["violations"] == 0


def test_cli_passes_the_body_options_to_every_episode(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from engine.sim import cli

    seen: list[SimOptions] = []
    stops: list[bool] = []
    goals: list[str | None] = []

    def fake(seed: int, ticks: int, provider: object, options: SimOptions, log: object,
             stop_when_done: bool = False, goal: str | None = None) -> object:
        seen.append(options)
        stops.append(stop_when_done)
        goals.append(goal)
        return run_episode(seed, 20, options=options)

    monkeypatch.setattr(cli, "run_episode", fake)
    assert main(["--seeds", "2", "--ticks", "20", "--hazard", "lava", "--start-bread", "12", "--difficulty", "hard",
                 "--json"]) == 0
    assert seen == [SimOptions(hazard="lava", start_bread=12, difficulty="hard")] * 2
    assert stops == [True, True]             # an episode is the autopilot's: it ends when it hands back
    assert goals == [None, None]             # the iron pickaxe's ladder unless --goal names one
    assert main(["--seeds", "1", "--ticks", "20", "--after-done", "--json"]) == 0
    assert stops[-1] is False
    with pytest.raises(SystemExit):
        main(["--start-bread", "65"])
    capsys.readouterr()
