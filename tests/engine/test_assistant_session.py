"""LocalAssistant plugged into the Session seam, driven by events as the proxy drives it."""
from __future__ import annotations

from collections.abc import Callable

from engine import events as ev
from engine.actions import Action, ForwardChat, ReplyToPlayer
from engine.assistant import AssistantRuntime
from engine.session import Session


def text(actions: list[Action]) -> str:
    return "\n".join(line for a in actions if isinstance(a, ReplyToPlayer) for line in a.lines)


def joined(runtime: AssistantRuntime, locale: str = "en_us", admin: bool = False) -> Session:
    session = Session("Tester", assistant=runtime.new_assistant(), admin=admin)
    for event in (
        ev.ClientSettings(locale),
        ev.JoinedGame(1, 0, "minecraft:overworld"),
        ev.PositionSet(10.5, 64.0, 10.5, 0.0, 0.0, from_server=True),
        ev.HealthChanged(20.0, 20, 5.0),
        ev.PlayerListed("u-1", "Tester"),
        ev.PlayerListed("u-2", "Alex"),
    ):
        session.handle(event, 0.0)
    return session


def test_where_am_i_in_both_languages(runtime_factory: Callable[..., AssistantRuntime]) -> None:
    runtime = runtime_factory()
    session = joined(runtime)
    assert "You are at 10.5, 64, 10.5 in the Overworld, facing south" in text(session.handle(ev.ChatTyped("@ai where am i"), 1.0))
    zh = joined(runtime, "zh_cn")
    assert "你在 主世界 的 10.5, 64, 10.5" in text(zh.handle(ev.ChatTyped("@ai 我在哪"), 1.0))


def test_a_write_request_moves_nothing_and_says_why(runtime_factory: Callable[..., AssistantRuntime]) -> None:
    session = joined(runtime_factory())
    actions = session.handle(ev.ChatTyped("@ai take me to 10 64 10"), 1.0)
    assert all(isinstance(a, ReplyToPlayer) for a in actions)
    reply = text(actions)
    assert "not sure" in reply and "!goto 10 64 10" in reply and "No model service" in reply


def test_low_confidence_without_a_model_is_honest(runtime_factory: Callable[..., AssistantRuntime]) -> None:
    session = joined(runtime_factory())
    reply = session.handle(ev.ChatTyped("@ai where in the world am i yeet"), 1.0)
    lines = text(reply)
    assert "I'm not sure what you mean, so I did nothing." in lines
    assert "1. !pos - where am I" in lines
    assert isinstance(reply[0], ReplyToPlayer) and reply[0].buttons[0].label == "!pos"
    assert reply[0].buttons[0].command.startswith("/agent card ")
    general = text(session.handle(ev.ChatTyped("@ai tell me a joke"), 2.0))
    assert "Read-only commands: !assistant, !status, !pos, !players, !inv, !inbox, !progress." in general


def test_ordinary_chat_still_goes_to_the_server(runtime_factory: Callable[..., AssistantRuntime]) -> None:
    session = joined(runtime_factory())
    assert session.handle(ev.ChatTyped("where am i lol"), 1.0) == [ForwardChat()]


def test_admin_system_routing_shows_counters_without_player_text(runtime_factory: Callable[..., AssistantRuntime]) -> None:
    runtime = runtime_factory()
    admin = joined(runtime, admin=True)
    admin.handle(ev.ChatTyped("@ai where am i"), 1.0)
    admin.handle(ev.ChatTyped("@ai take me to 10 64 10"), 1.0)
    reply = text(admin.handle(ev.ChatTyped("!system routing"), 2.0))
    assert "DIRECT=1" in reply and "FILTERED_WRITE=1" in reply
    assert "take me" not in reply and "where am i" not in reply
    player = joined(runtime)
    assert "Not permitted" in text(player.handle(ev.ChatTyped("!system routing"), 3.0))


def test_help_includes_the_assistant_commands(runtime_factory: Callable[..., AssistantRuntime]) -> None:
    reply = text(joined(runtime_factory()).handle(ev.ChatTyped("!help"), 1.0))
    assert "!pos - where you are" in reply and "!item <name>" in reply and "!ping" in reply
