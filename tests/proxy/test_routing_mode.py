"""The owner's routing switch from both places: the console's ``routing mode …`` and ``!system routing
mode …`` in game (a logged-in admin only) reach the same runtime function and the same setting."""
from __future__ import annotations

from engine.assistant import AssistantRuntime
from engine.routing.config import Mode, default_config
from proxy.agent.assistant_factory import RoutingSurface
from proxy.operations.console import ConsoleCommands
from proxy.testing import build_packet
from tests.proxy.harness import Rig

SECRET = "open-sesame-42"


def _say(rig: Rig, text: str) -> list[str]:
    rig.client_send(build_packet(rig.codec, "play", "toServer", "chat", message=text))
    return rig.chat_texts(rig.client.received())


def test_console_and_game_set_the_same_routing_mode() -> None:
    runtime = AssistantRuntime(default_config())
    rig = Rig("1.18.2", assistant_factory=lambda bridge: runtime.new_assistant(), routing=RoutingSurface(runtime),
              login_rate_limit_seconds=0, admins=["Root"], admin_secret=SECRET)
    console = ConsoleCommands(rig.server, lambda: ["reloaded"], lambda: None)
    rig.login("root")
    rig.client.received()

    assert console.execute("routing mode shadow") == ["routing mode is now SHADOW (until the next reload or restart)"]
    assert runtime.config.mode is Mode.SHADOW
    assert "not permitted yet" in " ".join(_say(rig, "!system routing mode off")).lower()
    assert runtime.config.mode is Mode.SHADOW
    _say(rig, f"!admin login {SECRET}")
    assert _say(rig, "!system routing mode off") == ["[mcagent] routing mode is now OFF (until the next reload or restart)"]
    assert runtime.config.mode is Mode.OFF
    assert any("mode OFF" in line for line in console.execute("routing"))
    assert _say(rig, "/agent system routing mode enforce")[0].endswith("routing mode is now ENFORCE (until the next reload or restart)")
    assert runtime.config.mode is Mode.ENFORCE
    assert rig.upstream.received() == []  # none of it reached the server
