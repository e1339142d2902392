"""Stuck recovery and the confidence fallback, proven on the autopilot itself.

The stuck test: a log hangs in the air, out of reach from the ground, and the planner gets one
node a tick (a proxy's per-tick planning budget on a busy machine). The autopilot goes for it
again and again without moving; after 45 s the watchdog cancels the task, blacklists the log and
steps aside, and the episode goes on to a log it can reach."""
from __future__ import annotations


from engine.actions import InjectMovement
from engine import actions as acts
from engine.decision.autopilot import Autopilot, AutopilotConfig
from engine.decision.catalog import ActionName, Choice
from engine.decision.heuristic import Decision
from engine.decision.providers import MIN_CONFIDENCE, DecisionRequest
from engine.decision.state import DecisionState
from engine.events import SlotItem
from engine.motion.astar import SearchOptions
from engine.motion.worlds import WorldBuilder
from engine.watchdog.machine import WState
from engine.world.snapshot import PlayerState, Vec3, WorldSnapshot

FLOATING = (6, 8, 0)
TREE = (-20, 1, 0)


def snapshot(at: Vec3, items: dict[str, int]) -> WorldSnapshot:
    slots: list[SlotItem | None] = [None] * 46
    for i, (name, n) in enumerate(items.items()):
        if n:
            slots[9 + i] = SlotItem("minecraft:" + name, n)
    player = PlayerState(at, 0.0, 0.0, True, 20.0, 20, 5.0, 0, 0.0, 0, "minecraft:overworld", 0, tuple(slots))
    return WorldSnapshot("bot", None, player, (), ())


def test_stuck_45_seconds_cancels_blacklists_the_target_steps_aside_and_the_episode_goes_on() -> None:
    world = WorldBuilder("1.18.2", x=(-32, 32), y=(-16, 32), z=(-32, 32))
    world.fill(-32, 0, -32, 31, 0, 31, "stone")
    world.set(*FLOATING, "oak_log")                     # nearest log, out of reach from any standing cell
    world.set(*TREE, "oak_log")                          # farther, on the ground
    terrain = world.terrain()
    config = AutopilotConfig(search=SearchOptions(max_nodes=2500), plan_slice=1)
    autopilot = Autopilot(_Scripted.mock(), terrain, config)
    autopilot.start(0, 0.0)
    at, items = Vec3(0.5, 1.0, 0.5), {"oak_log": 0}
    got_log_at = None
    for tick in range(1, 4000):
        now = tick * 0.05
        for action in autopilot.tick(snapshot(at, items), tick, now):
            if isinstance(action, InjectMovement):
                at = Vec3(action.x, action.y, action.z)
            elif isinstance(action, acts.FinishDigging):
                assert (action.x, action.y, action.z) != FLOATING
                world.set(action.x, action.y, action.z, "air")
                items["oak_log"] += 1
        if items["oak_log"]:
            got_log_at = tick
            break
    counts = autopilot.watchdog.counts
    assert counts.get("stuck") == 1 and counts.get("recover") == 1 and counts.get("movement_resumed") == 1
    stuck = next(t for t in autopilot.watchdog.transitions if t.event == "stuck")
    assert stuck.now >= 45.0
    assert FLOATING in autopilot.blacklist
    assert autopilot.watchdog.state is WState.HEALTHY
    assert got_log_at is not None and got_log_at * 0.05 > stuck.now       # the episode went on: a log
    outcomes = [r for r in autopilot.log.decisions if r["kind"] == "outcome"]
    assert any(r["outcome"] == "stuck" for r in outcomes)


class _Scripted:
    """A provider answering like a model service (name "api") with a fixed decision."""

    name = "api"

    def __init__(self, decision: Decision | None) -> None:
        self.decision = decision

    @staticmethod
    def mock() -> "_Scripted":
        return _Scripted(None)

    def ask(self, state: DecisionState, legal: tuple[Choice, ...], now: float, seq: int) -> DecisionRequest:
        from engine.decision.heuristic import heuristic
        request = DecisionRequest(seq, state.generation, state, legal, now, self.name)
        request.resolve(self.decision or heuristic(state, legal, "api"), now)
        return request


def _first_applied(confidence: float) -> tuple[Autopilot, dict[str, object]]:
    world = WorldBuilder("1.18.2", x=(-16, 16), y=(-16, 16), z=(-16, 16))
    world.fill(-16, 0, -16, 15, 0, 15, "stone")
    world.set(4, 1, 0, "oak_log")
    proposed = Decision(Choice(ActionName.IDLE), confidence, 0.0, "api", "resting")
    autopilot = Autopilot(_Scripted(proposed), world.terrain())
    autopilot.start(0, 0.0)
    autopilot.tick(snapshot(Vec3(0.5, 1.0, 0.5), {}), 1, 0.05)
    record = next(r for r in autopilot.log.decisions if r["kind"] == "decision")
    return autopilot, record


def test_a_model_answer_below_0_65_confidence_is_replaced_by_the_heuristic_at_0_65_it_stands() -> None:
    assert MIN_CONFIDENCE == 0.65
    low, record = _first_applied(0.64)
    assert low.stats.fallback_reasons == {"low": 1}
    assert record["decision"]["source"] == "fallback" and record["decision"]["choice"] == "gather_wood"  # type: ignore[index]
    assert record["decision"]["reason"] == "low confidence"  # type: ignore[index]
    ok, record = _first_applied(0.65)
    assert ok.stats.fallbacks == 0
    assert record["decision"]["source"] == "api" and record["decision"]["choice"] == "idle"  # type: ignore[index]
