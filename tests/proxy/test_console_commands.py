"""The console's commands on the memory-reactor rig: what an admin types and sees."""
from __future__ import annotations

import json

from proxy.operations.console import ConsoleCommands, redact
from proxy.testing import Rig


def _console(rig: Rig, reload_lines: list[str] | None = None) -> tuple[ConsoleCommands, list[str]]:
    stopped: list[str] = []
    return ConsoleCommands(rig.server, lambda: reload_lines or ["reloaded"], lambda: stopped.append("stop")), stopped


def test_help_lists_every_command_and_unknown_is_explained() -> None:
    rig = Rig()
    console, _ = _console(rig)
    text = "\n".join(console.execute("help"))
    for name in ("status", "sessions", "kick", "say", "routing", "reload", "agent", "reflex", "log", "dump", "stop"):
        assert name in text
    assert "unknown command 'frobnicate'" in console.execute("frobnicate now")[0]
    assert console.execute("kick")[0].startswith("error:")
    assert console.execute("kick nobody")[0] == "error: no player 'nobody' is connected"


def test_status_and_sessions_show_the_player() -> None:
    rig = Rig()
    rig.login("alice")
    console, _ = _console(rig)
    status = "\n".join(console.execute("status"))
    assert "1 players" in status and "client->server" in status
    sessions = console.execute("sessions")
    assert any("alice" in row and "1.18.2" in row and "10.0.0.1" in row for row in sessions)


def test_kick_and_say_reach_the_player() -> None:
    rig = Rig()
    rig.login("alice")
    console, _ = _console(rig)
    assert console.execute("say hello everyone") == ["said to 1 players: hello everyone"]
    assert rig.chat_texts(rig.client.received()) == ["[mcagent] hello everyone"]
    assert console.execute("kick alice 'be nice'")[0] == "kicked alice: be nice"
    assert b"be nice" in rig.client.received()[-1]
    assert rig.client.transport.disconnecting


def test_completion_of_commands_players_and_modes() -> None:
    rig = Rig()
    rig.login("alice")
    console, _ = _console(rig)
    assert console.complete("st") == ["status", "stop"]
    assert console.complete("kick al") == ["alice"]
    assert console.complete("routing mode sh") == ["shadow"]


def test_dump_is_json_without_secrets() -> None:
    rig = Rig(console={"port": 1234, "token": "very-secret-token"})
    console, _ = _console(rig)
    text = "\n".join(console.execute("dump"))
    bundle = json.loads(text)
    assert "very-secret-token" not in text
    assert bundle["config"]["console"]["token"] == "<redacted>"
    assert bundle["supported_versions"].startswith("1.8") and "to 26.2 " in bundle["supported_versions"]
    assert redact({"api_key": "sk-abc", "nested": [{"password": "x"}]}) == {"api_key": "<redacted>", "nested": [{"password": "<redacted>"}]}


def test_stop_and_reload_call_through() -> None:
    rig = Rig()
    console, stopped = _console(rig, ["reload failed; still running the previous configuration:"])
    assert console.execute("reload")[0].startswith("reload failed")
    console.execute("stop")
    assert stopped == ["stop"]


def test_agent_switches_the_players_autopilot_and_the_player_sees_it() -> None:
    rig = Rig()
    rig.login("alice")
    console, _ = _console(rig)
    assert "position is not known" in console.execute("agent alice on")[0]
    rig.server_send(rig.codec.build("play", "toClient", "position", x=0.5, y=64.0, z=0.5, yaw=0.0, pitch=0.0,
                                    teleportId=7))
    assert rig.client is not None
    rig.client.received()
    answer = console.execute("agent alice on")
    assert answer[0].startswith("alice: Autopilot on (mock)")
    assert rig.bridge.driving  # the client's own movement is held back from now on
    assert any("Autopilot on" in t for t in rig.chat_texts(rig.client.received()))
    assert "milestone 1/9: wood" in console.execute("agent alice status")[0]
    assert "Cannot use the api provider" in console.execute("agent alice provider api")[0]
    assert "you have control again" in console.execute("agent alice off")[0]
    assert not rig.bridge.driving
    assert console.execute("agent alice sideways")[0].startswith("error:")
