"""``!get`` and ``!autopilot on <goal>`` inside a live Session on the simulator's world."""
from __future__ import annotations

from engine.actions import SetControl
from engine.decision.goals import Goal
from tests.engine.test_session_autopilot import Rig, texts


def test_get_plans_starts_the_autopilot_and_progress_shows_the_steps() -> None:
    rig = Rig()
    answer = rig.say("!get 4 torch")
    said = texts(answer)
    assert SetControl(True) in answer
    assert "getting 4 torch in 9 steps: gather 4 oak_log by hand; craft 12 oak_planks" in said, said
    autopilot = rig.session.pilot.autopilot
    assert autopilot is not None and autopilot.goal == Goal("torch", 4)
    rig.run(200)
    status = texts(rig.say("!autopilot status"))
    assert "goal 4 torch, milestone" in status and "/9" in status and "next: " in status, status


def test_out_of_reach_is_said_at_once_and_nothing_starts() -> None:
    rig = Rig()
    answer = rig.say("!get netherite_pickaxe")
    assert SetControl(True) not in answer and not rig.session.pilot.active
    assert texts(answer).startswith("Cannot get netherite_pickaxe: needs netherite_ingot")
    assert "the Nether is not supported" in texts(answer)
    assert "not an item of Minecraft" in texts(rig.say("!get banana"))
    assert texts(rig.say("!get 0 torch")) == "Usage: !get [count] <item>: the count must be 1 to 2304."


def test_autopilot_on_with_a_goal_is_get_and_a_running_autopilot_is_not_replaced() -> None:
    rig = Rig()
    answer = rig.say("!autopilot on shield")
    assert SetControl(True) in answer and "getting shield in" in texts(answer)
    again = texts(rig.say("!get chest"))
    assert again.startswith("The autopilot is already on:") and "autopilot off first" in again
    assert rig.session.pilot.autopilot is not None and rig.session.pilot.autopilot.goal == Goal("shield")


def test_plain_autopilot_on_still_works_toward_the_iron_pickaxe() -> None:
    rig = Rig()
    assert "working toward an iron pickaxe" in texts(rig.say("!autopilot on"))
    rig.run(20)
    assert "milestone 1/9: wood" in texts(rig.say("!autopilot status"))


def test_a_goal_is_reached_and_handed_back() -> None:
    rig = Rig()
    rig.say("!get chest")
    said = ""
    for _ in range(2000):
        said += texts(rig.tick())
        if not rig.session.pilot.active:
            break
    assert rig.world.count("chest") >= 1
    assert "Autopilot: milestone 4/4 reached (chest)." in said
    assert "Autopilot finished: chest in hand" in said


def test_agent_get_is_the_same_command() -> None:
    rig = Rig()
    said = texts(rig.say("/agent get 2 stick"))
    assert said.startswith("Autopilot on (mock): getting 2 stick in 3 steps: gather 1 oak_log by hand; "
                           "craft 4 oak_planks; craft 4 stick."), said
