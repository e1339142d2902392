"""A confirmed write (card click, trusted button) for a movement command reaches the
Session's own driver: the assistant hands the line back, the command table runs it."""
from __future__ import annotations

from engine import events as ev
from engine.actions import ReplyToPlayer, RunLine, SetControl
from engine.assistant import AssistantRuntime
from engine.motion.worlds import WorldBuilder
from engine.session import Session, SessionConfig


def test_stored_goto_line_starts_the_session_driver(tmp_path) -> None:
    runtime = AssistantRuntime.from_file(tmp_path / "system-semantic.json")
    assistant = runtime.new_assistant()
    session = Session("alice", SessionConfig(version="1.18.2"), assistant)
    world = WorldBuilder("1.18.2", x=(-16, 32), y=(0, 16), z=(-16, 32))
    world.fill(-16, 0, -16, 31, 3, 31, "stone")
    session.control.store = world.store
    session.control.terrain = world.terrain()
    session.handle(ev.PositionSet(0.5, 4.0, 0.5, 0.0, 0.0, from_server=True), 0.0)
    actions = session.chat.answer([RunLine("!goto 5 4 5")], 0.0)
    assert SetControl(True) in actions
    assert session.driver is not None and session.driver.name == "goto 5 4 5"
    # A read-only line still runs its module.
    answer = session.chat.answer([RunLine("!pos")], 0.0)
    assert answer and isinstance(answer[0], ReplyToPlayer) and "You are at" in answer[0].lines[0]
