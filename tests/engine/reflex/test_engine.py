"""The reflex engine's state machine: switches, priority, preemption, cooldown, kill switch."""
from __future__ import annotations

import attrs
import pytest

from engine.events import SlotItem
from engine.actions import InjectMovement, ItemAction, ReleaseHeldItem, SelectHotbar
from engine.reflex.base import Activity, ReflexContext, ReflexOutput
from engine.reflex.engine import TRANSITIONS, EngineState, Event, ReflexEngine, ReflexMisuse, default_reflexes
from engine.reflex.notice import Notice
from engine.reflex.inputs import ReflexInputs, hostile_mobs
from engine.world.snapshot import EntityView, PlayerState, Vec3, WorldSnapshot

from tests.engine.motion import terrains
from tests.engine.reflex.test_reflexes import at, hotbar, lava_pool

HUNGRY = dict(food=3, held_slot=0, inventory=hotbar(s2=("bread", 4)))


def test_reflexes_are_off_for_a_human_until_enabled_and_always_on_under_autopilot() -> None:
    t = lava_pool().terrain()
    engine = ReflexEngine()
    in_lava = at(0.5, 0.0, 0.5)
    assert engine.decide(in_lava, t, 0.0).reflex is None
    assert engine.state is EngineState.IDLE
    assert engine.decide(in_lava, t, 0.05, autopilot=True).reflex == "lava"
    human = ReflexEngine(enabled=["lava"])
    assert human.decide(in_lava, t, 0.0).reflex == "lava"


def test_enable_disable_and_list() -> None:
    engine = ReflexEngine(enabled=["lava", "nonsense"])
    assert [(s.name, s.enabled) for s in engine.listing(0.0)] == [
        ("lava", True), ("fire", False), ("drowning", False), ("edge", False), ("hostile", False), ("starving", False),
        ("heal", False)]
    engine.enable("starving")
    engine.disable("lava")
    assert {s.name for s in engine.listing(0.0) if s.enabled} == {"starving"}
    engine.set_all(True)
    assert all(s.enabled for s in engine.listing(0.0))
    engine.set_all(False)
    assert not any(s.enabled for s in engine.listing(0.0))
    with pytest.raises(KeyError):
        engine.enable("flying")


def test_priority_lava_before_hunger() -> None:
    t = lava_pool().terrain()
    d = ReflexEngine().decide(at(0.5, 0.0, 0.5, **HUNGRY), t, 0.0, autopilot=True)
    assert d.reflex == "lava"


def test_lower_reflexes_wait_while_one_drives_then_fire() -> None:
    t = terrains.flat().terrain()
    engine = ReflexEngine()
    hungry = at(0.5, 1.0, 0.5, **HUNGRY)
    assert engine.decide(hungry, t, 0.0, autopilot=True).reflex == "starving"
    # While eating, nothing of lower priority exists; a zombie (higher) preempts.
    zombie = hostile_mobs([EntityView(3, "zombie", Vec3(1.5, 1.0, 0.5))])
    eating = attrs.evolve(hungry, held_slot=2)
    d = engine.decide(attrs.evolve(eating, hostile_mobs=zombie), t, 0.05, autopilot=True)
    assert d.reflex == "hostile" and d.started
    assert d.items == (ReleaseHeldItem(), SelectHotbar(0))
    kinds = [(name, event) for _, name, event in engine.history]
    assert kinds == [("starving", Event.TRIGGER), ("starving", Event.PREEMPT), ("hostile", Event.TRIGGER)]


def test_kill_switch_releases_at_once_and_cools_down() -> None:
    t = lava_pool().terrain()
    engine = ReflexEngine()
    in_lava = at(0.5, 0.0, 0.5)
    engine.decide(in_lava, t, 0.0, autopilot=True)
    assert engine.cancel(0.05) == ()
    assert engine.state is EngineState.COOLDOWN
    assert engine.decide(in_lava, t, 0.1, autopilot=True).reflex is None
    status = {s.name: s for s in engine.listing(0.1)}
    assert status["lava"].cooling_for == pytest.approx(2.95)
    d = engine.decide(in_lava, t, 3.1, autopilot=True)
    assert d.reflex == "lava" and d.started
    assert engine.cancel(3.2) == () and engine.cancel(3.3) == ()


def test_cooled_down_engine_returns_to_idle() -> None:
    t = terrains.flat().terrain()
    engine = ReflexEngine()
    engine.decide(at(0.5, 1.0, 0.5, **HUNGRY), t, 0.0, autopilot=True)
    engine.cancel(0.05)
    assert engine.state is EngineState.COOLDOWN
    engine.decide(at(0.5, 1.0, 0.5), t, 5.0, autopilot=True)
    assert engine.state is EngineState.IDLE


def test_timeout_gives_up_and_cools_down() -> None:
    t = terrains.flat().terrain()
    engine = ReflexEngine()
    # Hold the slot on something else so eating never "finishes" in this model, and let time jump.
    hungry = at(0.5, 1.0, 0.5, **HUNGRY)
    engine.decide(hungry, t, 0.0, autopilot=True)
    d = engine.decide(attrs.evolve(hungry, held_slot=2), t, 6.0, autopilot=True)
    assert d.released == "starving" and d.items == (ReleaseHeldItem(), SelectHotbar(0))
    assert engine.history[-1][2] is Event.TIMEOUT


def test_disabling_the_driving_reflex_stops_it_without_cooldown() -> None:
    t = lava_pool().terrain()
    engine = ReflexEngine(enabled=["lava"])
    engine.decide(at(0.5, 0.0, 0.5), t, 0.0)
    engine.disable("lava", 0.05)
    assert engine.state is EngineState.IDLE and engine.active is None
    engine.enable("lava")
    assert engine.decide(at(0.5, 0.0, 0.5), t, 0.1).started


def test_creative_and_spectator_players_get_no_reflexes() -> None:
    t = lava_pool().terrain()
    for mode in (1, 3):
        assert ReflexEngine().decide(at(0.5, 0.0, 0.5, game_mode=mode), t, 0.0, autopilot=True).reflex is None


def test_the_state_table_rejects_misuse() -> None:
    engine = ReflexEngine()
    with pytest.raises(ReflexMisuse):
        engine._fire(Event.RELEASE, "lava", 0.0)
    assert (EngineState.IDLE, Event.TRIGGER) in TRANSITIONS
    assert all(state is not EngineState.ACTIVE or event is not Event.TRIGGER for state, event in TRANSITIONS)


def test_inputs_from_a_world_snapshot() -> None:
    inv = tuple([None] * 36 + [SlotItem("minecraft:bread", 2)] + [None] * 9)
    player = PlayerState(Vec3(1.5, 64.0, 2.5), 0.0, 0.0, True, 18.0, 5, 1.0, 3, 0.2, 0, "overworld", 0, inv)
    snapshot = WorldSnapshot("Steve", "en_us", player, (), (
        EntityView(1, "minecraft:zombie", Vec3(3.0, 64.0, 2.5)),
        EntityView(2, "minecraft:cow", Vec3(2.0, 64.0, 2.5)),
        EntityView(3, "Skeleton", Vec3(9.0, 64.0, 2.5)),
    ))
    inputs = ReflexInputs.from_snapshot(snapshot, air=120, burning=True, min_y=-64)
    assert inputs is not None
    assert [m.entity_id for m in inputs.hostile_mobs] == [1, 3]
    assert inputs.food == 5 and inputs.air == 120 and inputs.burning and inputs.hotbar(0) == SlotItem("minecraft:bread", 2)
    nowhere = attrs.evolve(player, position=None)
    assert ReflexInputs.from_snapshot(attrs.evolve(snapshot, player=nowhere)) is None


def test_a_server_teleport_while_driving_re_plans_from_there() -> None:
    t = lava_pool().terrain()
    engine = ReflexEngine()
    in_lava = at(0.5, 0.0, 0.5)
    first = engine.decide(in_lava, t, 0.0, autopilot=True)
    assert first.move is not None
    # The server puts the player elsewhere in the pool; the next packets start from there.
    engine.teleported(Vec3(-1.5, 0.0, -1.5))
    d = engine.decide(attrs.evolve(in_lava, position=Vec3(-1.5, 0.0, -1.5)), t, 0.05, autopilot=True)
    assert d.move is not None and abs(d.move.x - -1.5) < 0.3 and abs(d.move.z - -1.5) < 0.3


# -- adding a reflex: one class, one entry in the priority list --------------------------------
CROUCH = Notice("crouch", "crouched you at a full inventory", "背包满了，已让你蹲下")


@attrs.frozen
class _Crouch:
    """The smallest activity: hold the body where it stands for one tick."""

    notice: Notice = CROUCH

    def tick(self, ctx: ReflexContext) -> ReflexOutput:
        p = ctx.inputs.position
        return ReflexOutput(move=InjectMovement(p.x, p.y, p.z, 0.0, 0.0, ctx.inputs.on_ground))

    def done(self, ctx: ReflexContext) -> bool:
        return True

    def abort(self) -> tuple[ItemAction, ...]:
        return ()


@attrs.frozen
class _FullInventoryReflex:
    """A made-up reflex: fires when every slot of the inventory holds something."""

    name: str = "full"
    cooldown: float = 5.0
    timeout: float = 1.0

    def triggered(self, ctx: ReflexContext) -> bool:
        return bool(ctx.inputs.inventory) and all(ctx.inputs.inventory[9:45])

    def begin(self, ctx: ReflexContext) -> Activity:
        return _Crouch()


def test_a_new_reflex_is_one_class_and_one_entry_in_the_priority_list() -> None:
    """What ``default_reflexes()`` gains: the engine lists, switches, fires and ranks the new reflex
    with no other change (its name, cooldown, timeout and notice all come from the class)."""
    engine = ReflexEngine(reflexes=default_reflexes() + (_FullInventoryReflex(),), enabled=["full"])
    assert [s.name for s in engine.listing(0.0)][-1] == "full"
    assert {s.name for s in engine.listing(0.0) if s.enabled} == {"full"}
    full = tuple(SlotItem("cobblestone", 64) for _ in range(46))
    t = terrains.flat().terrain()
    d = engine.decide(at(0.5, 1.0, 0.5, inventory=full), t, 0.0)
    assert d.reflex == "full" and d.started and d.notice == CROUCH and d.move is not None
    # Last in the list, so lowest priority: under autopilot, lava comes first.
    ranked = ReflexEngine(reflexes=default_reflexes() + (_FullInventoryReflex(),))
    assert ranked.decide(at(0.5, 0.0, 0.5, inventory=full), lava_pool().terrain(), 0.0, autopilot=True).reflex == "lava"
