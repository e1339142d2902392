"""An autopilot action is three entries: its name, its spec (arguments, timeout, when it is
legal) and its executor. This registers one and sees the autopilot offer it, a provider
choose it and the autopilot carry it out, in the simulator, with nothing else changed."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.actions import Action
from engine.decision import executors
from engine.decision.catalog import CATALOG, ActionName, ActionSpec, Choice, legal_actions
from engine.decision.executors import EXECUTORS, Executor, ExecContext
from engine.decision.heuristic import Decision, heuristic
from engine.decision.logs import EpisodeLog
from engine.decision.providers import DecisionRequest, decision_from_json
from engine.decision.state import DecisionState
from engine.sim.episode import run_episode


class LookAround(Executor):
    """Turns on the spot for a few ticks, then is done."""

    name = "look_around"
    steps: list[int] = []

    def run(self, ctx: ExecContext) -> list[Action]:
        LookAround.steps.append(ctx.tick)
        if len(LookAround.steps) >= 3:
            self.status = "ok"
        return []


@pytest.fixture
def look_around(monkeypatch: pytest.MonkeyPatch) -> Iterator[ActionName]:
    name = ActionName.register("look_around")
    try:
        monkeypatch.setitem(CATALOG, name, ActionSpec(name, (), 40, lambda state: [()]))
        monkeypatch.setitem(EXECUTORS, name, lambda choice, timeout, tick: LookAround(choice, timeout, tick))
        LookAround.steps = []
        yield name
    finally:
        ActionName.unregister("look_around")


class OnceThenHeuristic:
    """Chooses ``wanted`` the first time it is legal, then plays as the built-in heuristic."""

    name = "test"

    def __init__(self, wanted: Choice) -> None:
        self.wanted = wanted
        self.chosen = False

    def ask(self, state: DecisionState, legal: tuple[Choice, ...], now: float, seq: int) -> DecisionRequest:
        request = DecisionRequest(seq, state.generation, state, legal, now, self.name)
        if not self.chosen and self.wanted in legal:
            self.chosen = True
            request.resolve(Decision(self.wanted, 0.9, 0.0, self.name, "try the new action"), now)
        else:
            request.resolve(heuristic(state, legal, self.name), now)
        return request


def test_a_new_action_is_offered_chosen_and_carried_out(look_around: ActionName) -> None:
    log = EpisodeLog()
    result = run_episode(3, 300, provider=OnceThenHeuristic(Choice(look_around)), log=log)
    decisions = [r["decision"]["choice"] for r in log.decisions if r["kind"] == "decision"]
    outcomes = [(r["choice"], r["outcome"]) for r in log.decisions if r["kind"] == "outcome"]
    assert decisions[0] == "look_around"
    assert ("look_around", "ok") in outcomes
    assert len(LookAround.steps) == 3 and LookAround.steps == sorted(LookAround.steps)
    assert any(d != "look_around" for d in decisions)  # the built-in actions go on afterwards
    assert result.violations == 0


def test_a_recorded_or_model_choice_names_the_new_action(look_around: ActionName) -> None:
    decision = decision_from_json({"choice": "look_around", "args": [], "confidence": 0.5}, "replay")
    assert decision.choice == Choice(look_around)
    assert executors.make_executor(decision.choice, 40, 0).name == "look_around"


def test_an_unregistered_name_is_refused_and_builtins_stay() -> None:
    with pytest.raises(ValueError):
        decision_from_json({"choice": "look_around"}, "replay")
    with pytest.raises(ValueError):
        ActionName.register("explore")
    with pytest.raises(ValueError):
        ActionName.unregister("explore")
    assert ActionName.named("explore") == ActionName.EXPLORE


def test_the_legal_filter_offers_what_the_spec_allows(look_around: ActionName, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.engine.decision.test_unseen_worlds import snapshot  # a small world's snapshot
    from engine.decision.autopilot import Autopilot
    from engine.decision.providers import MockProvider
    from engine.motion.grid import Terrain
    from engine.sim.world import SimOptions, SimWorld
    from engine.world.snapshot import Vec3

    world = SimWorld(3, SimOptions())
    world.join_events()
    state = Autopilot(MockProvider(), Terrain(world.store, world.table)).state(snapshot(Vec3(*world.spawn)), {}, 1, day=True)
    assert Choice(look_around) in legal_actions(state)
    monkeypatch.setitem(CATALOG, look_around, ActionSpec(look_around, (), 40, lambda s: []))
    assert Choice(look_around) not in legal_actions(state)
