"""The intent cache through the model service: written after a model-chosen read-only module completes."""
from __future__ import annotations

from engine.events import SlotItem
from engine.llm.testing import tool_body
from engine.routing.stats import Reason
from engine.world.snapshot import WorldSnapshot
from tests.engine.conftest import make_snapshot
from engine.session import Session
from tests.engine.llm.conftest import RigFactory, buttons, click, text

TEXT = "torches how many do i have"


def torches(count: int) -> WorldSnapshot:
    return make_snapshot(inventory={10: SlotItem("minecraft:torch", count)})


def test_same_text_same_player_is_a_cache_hit_without_a_model_call(rig_factory: RigFactory) -> None:
    rig = rig_factory(tool_body("agent_inventory", {"item": "minecraft:torch"}))
    alice = rig.assistant()
    assert "You have 5 × Torch" in text(rig.ask(alice, TEXT, torches(5)))
    assert rig.runtime.stats.counters[Reason.CACHE_WRITE] == 1
    again = rig.ask(alice, TEXT, torches(7))
    assert "You have 7 × Torch" in text(again)  # the module ran again on live state
    assert rig.calls == 1
    assert rig.runtime.stats.counters[Reason.CACHE_HIT] == 1


def test_another_player_does_not_share_the_entry(rig_factory: RigFactory) -> None:
    rig = rig_factory(tool_body("agent_inventory", {"item": "torch"}), tool_body("agent_inventory", {"item": "torch"}))
    alice, bob = rig.assistant(), rig.assistant()
    rig.ask(alice, TEXT, torches(5))
    assert "You have 3 × Torch" in text(rig.ask(bob, TEXT, torches(3)))
    assert rig.calls == 2
    assert Reason.CACHE_HIT not in rig.runtime.stats.counters


def test_a_write_choice_is_never_cached(rig_factory: RigFactory) -> None:
    rig = rig_factory(tool_body("agent_goto", {"x": 10, "y": 64, "z": 10}), tool_body("agent_goto", {"x": 10, "y": 64, "z": 10}))
    assistant = rig.assistant()
    first = rig.ask(assistant, "please bring me over to 10 64 10")
    assert buttons(first)[0].label == "!goto 10 64 10"
    click(Session("Tester", assistant=assistant), buttons(first)[0].command)  # confirmed and run: still not cached
    rig.ask(assistant, "please bring me over to 10 64 10")
    assert rig.calls == 2 and len(rig.runtime.cache) == 0


def test_a_late_answer_after_memory_clear_is_not_shown_nor_cached(rig_factory: RigFactory) -> None:
    rig = rig_factory(tool_body("agent_inventory", {"item": "torch"}))
    assistant = rig.assistant()
    (ask,) = assistant.request(TEXT, torches(5), 1000.0)
    assistant.clear_memory()
    reply = rig.driver.loop.run_until_complete(rig.driver.client.complete(ask.call))
    rig.runtime.model_finished(ask.call, reply, 1001.0)
    assert assistant.model_answered(ask.call, reply, torches(5), 1001.0) == []
    assert len(rig.runtime.cache) == 0


def test_a_reply_for_another_scope_is_discarded(rig_factory: RigFactory) -> None:
    rig = rig_factory(tool_body("agent_position"))
    alice, bob = rig.assistant(), rig.assistant()
    (ask,) = alice.request("where in the world am i yeet", make_snapshot(), 1000.0)
    reply = rig.driver.loop.run_until_complete(rig.driver.client.complete(ask.call))
    assert bob.model_answered(ask.call, reply, make_snapshot(), 1001.0) == []
    assert "You are at" in text(alice.model_answered(ask.call, reply, make_snapshot(), 1001.0))
