"""follow: legal only toward a player in sight (named, or the nearest), never the heuristic's own
choice, taken when a model proposes it ("follow alice"), and carried out as !follow does."""
from __future__ import annotations

from engine.actions import InjectMovement
from engine.control import FOLLOW_RADIUS
from engine.decision.autopilot import Autopilot
from engine.decision.catalog import ActionName, Choice, check_choice, legal_actions
from engine.decision.executors import Follow
from engine.decision.heuristic import Decision, heuristic
from engine.decision.providers import DecisionRequest
from engine.decision.state import DecisionState
from engine.motion.checker import Movement, MovementChecker
from engine.motion.worlds import WorldBuilder
from engine.world.snapshot import EntityView, PlayerState, Vec3, WorldSnapshot
from tests.engine.decision.states import state


def test_follow_is_legal_only_toward_players_in_sight_and_names_match_as_follow_does() -> None:
    assert not [c for c in legal_actions(state()) if c.action == ActionName.FOLLOW]
    s = state(players=(("alice", 6.0), ("bob", 12.0)))
    legal = legal_actions(s)
    follows = {c for c in legal if c.action == ActionName.FOLLOW}
    assert follows == {Choice(ActionName.FOLLOW), Choice(ActionName.FOLLOW, ("alice",)),
                       Choice(ActionName.FOLLOW, ("bob",))}
    assert check_choice(Choice(ActionName.FOLLOW, ("Alice",)), legal) == Choice(ActionName.FOLLOW, ("alice",))
    assert check_choice(Choice(ActionName.FOLLOW, ("carol",)), legal) is None
    assert heuristic(s, legal).choice.action != ActionName.FOLLOW       # only when asked to
    assert s.to_json()["players"] == {"alice": 6.0, "bob": 12.0}
    assert "players" not in state().to_json()                               # old states digest as before


class _Model:
    """Answers as a model service would: the card the player accepted, "follow alice"."""

    name = "api"

    def __init__(self, choice: Choice) -> None:
        self.choice = choice

    def ask(self, state: DecisionState, legal: tuple[Choice, ...], now: float, seq: int) -> DecisionRequest:
        request = DecisionRequest(seq, state.generation, state, legal, now, self.name)
        request.resolve(Decision(self.choice, 0.9, 0.5, "api", "the player asked"), now)
        return request


def _snapshot(me: Vec3, alice: Vec3 | None) -> WorldSnapshot:
    player = PlayerState(me, 0.0, 0.0, True, 20.0, 20, 5.0, 0, 0.0, 0, "minecraft:overworld", 0,
                         tuple([None] * 46))
    entities = () if alice is None else (EntityView(7, "player", alice, name="Alice"),)
    return WorldSnapshot("bot", None, player, ("bot", "Alice"), entities)


def test_a_model_proposed_follow_alice_keeps_within_reach_as_she_walks_off_with_legal_movement() -> None:
    world = WorldBuilder("1.18.2", x=(-16, 48), y=(-16, 16), z=(-16, 16))
    world.fill(-16, 0, -16, 47, 0, 15, "stone")
    terrain = world.terrain()
    autopilot = Autopilot(_Model(Choice(ActionName.FOLLOW, ("alice",))), terrain)
    autopilot.start(0, 0.0)
    checker = MovementChecker(terrain)
    me, alice = Vec3(0.5, 1.0, 0.5), Vec3(3.5, 1.0, 0.5)
    checker.teleport(me.x, me.y, me.z, 0)
    far = 0.0
    for tick in range(1, 400):
        if tick <= 250:
            alice = Vec3(3.5 + tick * 0.1, 1.0, 0.5)          # walks 25 blocks east, then stands
        for action in autopilot.tick(_snapshot(me, alice), tick, tick * 0.05):
            if isinstance(action, InjectMovement):
                checker.feed(Movement(tick, action.x, action.y, action.z, action.on_ground, action.sprinting))
                me = Vec3(action.x, action.y, action.z)
        far = max(far, me.distance_to(alice))
        assert isinstance(autopilot.executor, Follow)
    assert autopilot.decided[0][1] == "follow(alice)"
    assert me.distance_to(alice) <= FOLLOW_RADIUS + 1.0 and far < 8.0
    assert not checker.violations
    # Alice leaves: the follow ends, out of sight, as !follow does.
    autopilot.tick(_snapshot(me, None), 400, 20.0)
    outcomes = [r for r in autopilot.log.decisions if r["kind"] == "outcome"]
    assert outcomes[-1]["choice"] == "follow(alice)" and outcomes[-1]["outcome"] == "out of sight"


def test_follow_without_a_name_follows_the_nearest_player() -> None:
    world = WorldBuilder("1.18.2", x=(-16, 16), y=(-16, 16), z=(-16, 16))
    world.fill(-16, 0, -16, 15, 0, 15, "stone")
    autopilot = Autopilot(_Model(Choice(ActionName.FOLLOW)), world.terrain())
    autopilot.start(0, 0.0)
    autopilot.tick(_snapshot(Vec3(0.5, 1.0, 0.5), Vec3(8.5, 1.0, 0.5)), 1, 0.05)
    follow = autopilot.executor
    assert isinstance(follow, Follow) and follow.player == "Alice" and follow.status is None


def test_standing_beside_the_followed_player_for_minutes_is_not_stuck() -> None:
    world = WorldBuilder("1.18.2", x=(-16, 16), y=(-16, 16), z=(-16, 16))
    world.fill(-16, 0, -16, 15, 0, 15, "stone")
    autopilot = Autopilot(_Model(Choice(ActionName.FOLLOW, ("alice",))), world.terrain())
    autopilot.start(0, 0.0)
    for tick in range(1, 2400):                     # two minutes beside Alice, who does not move
        autopilot.tick(_snapshot(Vec3(0.5, 1.0, 0.5), Vec3(2.5, 1.0, 0.5)), tick, tick * 0.05)
    assert "stuck" not in autopilot.watchdog.counts
    assert all(label == "follow(alice)" for _, label in autopilot.decided)
