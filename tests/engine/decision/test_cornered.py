"""A hostile in reach while fleeing is suppressed (cornered: three flights failed in a row) is
fought; while fleeing is allowed the heuristic flees, and a badly hurt player is not offered the fight."""
from __future__ import annotations

from engine.decision.catalog import ActionName, Choice, legal_actions
from engine.decision.heuristic import heuristic
from engine.decision.state import DecisionState

ZOMBIE = 60_001
FLEE = Choice(ActionName.FLEE)


def state(**kw: object) -> DecisionState:
    base: dict[str, object] = dict(generation=0, tick=0, position=(0, -50, 0), health=20.0, food=20, day=True,
                                   milestone=None, inventory=(("iron_pickaxe", 1),), known=(), drops=0,
                                   hostiles=((ZOMBIE, 2.0),), table_near=False, furnace_near=False, smelting=False,
                                   animals=(), goal=("diamond_pickaxe", 1))
    base.update(kw)
    return DecisionState(**base)  # type: ignore[arg-type]


def _without_flee(s: DecisionState) -> tuple[Choice, ...]:
    """What the autopilot offers once the watchdog suppressed ``flee``."""
    return tuple(c for c in legal_actions(s) if c != FLEE)


def test_a_cornered_player_fights_the_zombie_in_reach() -> None:
    s = state()
    assert heuristic(s, legal_actions(s)).choice == FLEE
    assert heuristic(s, _without_flee(s)).choice == Choice(ActionName.FIGHT, (ZOMBIE,))


def test_the_nearest_of_two_is_fought_and_one_out_of_reach_is_not() -> None:
    two = state(hostiles=((ZOMBIE + 1, 1.5), (ZOMBIE, 3.5)))
    assert heuristic(two, _without_flee(two)).choice == Choice(ActionName.FIGHT, (ZOMBIE + 1,))
    far = state(hostiles=((ZOMBIE, 3.4),))            # on a pit's rim, say: not in a hit's reach
    assert heuristic(far, _without_flee(far)).choice.action is not ActionName.FIGHT


def test_a_badly_hurt_cornered_player_is_not_sent_to_fight() -> None:
    hurt = state(health=6.0)
    assert heuristic(hurt, _without_flee(hurt)).choice.action is not ActionName.FIGHT
