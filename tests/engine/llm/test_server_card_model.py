"""The model picks the "take me to" card: its choice of !server is a confirmation card, and only the
click moves the player (a SwitchServer for the proxy, which checks permission and names)."""
from __future__ import annotations

from engine.actions import SwitchServer
from engine.llm.testing import tool_body
from engine.session import Session
from tests.engine.llm.conftest import RigFactory, buttons, click, text


def test_the_model_choosing_server_gives_a_card_and_the_click_switches(rig_factory: RigFactory) -> None:
    rig = rig_factory(tool_body("agent_server", {"server": "survival"}))
    assistant = rig.assistant()
    reply = rig.ask(assistant, "could you get me over to the survival world thing")
    assert "The model suggests !server survival" in text(reply) and "Nothing was done yet" in text(reply)
    assert not any(isinstance(a, SwitchServer) for a in reply)
    (button,) = buttons(reply)
    session = Session("Tester", assistant=assistant)
    assert [a for a in click(session, button.command) if isinstance(a, SwitchServer)] == [SwitchServer("survival")]
    assert rig.calls == 1
