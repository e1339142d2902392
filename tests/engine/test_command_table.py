"""The command table: one entry per command, from which help, completion, access and routing derive."""
from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from engine import events as ev
from engine.actions import Action, AdminCommand, ReplyToPlayer, RunLine
from engine.assistant import AssistantRuntime
from engine.commands.builtin import SESSION_TABLE
from engine.commands.args import Word, words
from engine.commands.table import Access, Command, CommandError, CommandTable, Invocation, Text, no_args
from engine.modules.declarations import ParseContext
from engine.session import Session
from tests.engine.conftest import make_snapshot


def text(actions: Sequence[object]) -> str:
    return "\n".join(line for a in actions if isinstance(a, ReplyToPlayer) for line in a.lines)


def parse_count(args: str, _ctx: ParseContext) -> int | None:
    return int(args) if args.isdigit() else None


def wave(inv: Invocation, times: int) -> list[Action | RunLine]:
    return [ReplyToPlayer(("wave " * times).strip().split(" "))]


WAVE = Command("wave", parse_count, wave, Text("!wave <times>", "!wave <次数>"), Text("wave at people", "挥手"),
               aliases=("hi",), words=words("1", "2", "3"))


def test_a_new_command_is_one_entry_plus_its_handler() -> None:
    table = CommandTable([*SESSION_TABLE, WAVE]).freeze()
    session = Session("Tester")
    inv = session.chat.invocation(1.0)
    assert text(table.execute("wave 2", inv)) == "wave\nwave"
    assert text(table.execute("HI 1", inv)) == "wave"
    assert text(table.execute("wave lots", inv)) == "Usage: !wave <times>"
    # Derived from the entry: help in both languages, completion, the /agent tree.
    assert ("!wave <times>", "wave at people") in table.help_rows("en", admin=False)
    assert ("!wave <次数>", "挥手") in table.help_rows("zh", admin=False)
    assert table.complete(["wa"]) == ["wave"]
    assert table.complete(["wave", ""]) == ["1", "2", "3"]
    assert Word("wave", WAVE.words) in table.completion()  # what the proxy puts under /agent


def test_the_session_runs_its_table_and_unknown_commands_are_answered() -> None:
    session = Session("Tester")
    assert "Unknown command !dance" in text(session.handle(ev.ChatTyped("!dance"), 1.0))
    assert "Proxy commands" in text(session.handle(ev.ChatTyped("!help"), 1.0))
    assert "Proxy commands" in text(session.handle(ev.CommandTyped("agent"), 1.0))  # /agent alone is !help
    assert "Usage: !goto x y z" in text(session.handle(ev.ChatTyped("!goto here"), 1.0))


def test_admin_access_is_checked_once_by_the_table() -> None:
    player = Session("Tester")
    denied = player.handle(ev.ChatTyped("!system sessions"), 1.0)
    assert text(denied) == "Not permitted: !system is for the proxy's admins."
    assert "!system" not in text(player.handle(ev.ChatTyped("!help"), 1.0))
    assert "system" not in SESSION_TABLE.complete([""], admin=False)
    admin = Session("Boss", admin=True)
    assert admin.handle(ev.ChatTyped("!system sessions"), 1.0) == [AdminCommand("sessions")]
    assert "!system <console command> - admin console commands in game (admin)" in text(
        admin.handle(ev.ChatTyped("!help"), 1.0))
    # The hook for a proof given later (offline mode): the session is told, the table reads it.
    player.grant_admin()
    assert player.handle(ev.ChatTyped("!system"), 2.0) == [AdminCommand("help")]


def test_help_follows_the_players_language(runtime_factory: Callable[..., AssistantRuntime]) -> None:
    session = Session("Tester", assistant=runtime_factory().new_assistant())
    session.handle(ev.ClientSettings("zh_cn"), 0.0)
    reply = text(session.handle(ev.ChatTyped("!help"), 1.0))
    assert "代理命令" in reply and "!pos - 你的位置：坐标、维度、朝向" in reply and "!eat - 吃掉你携带的最好的食物" in reply


def test_the_table_refuses_a_name_twice_and_changes_after_freezing() -> None:
    with pytest.raises(CommandError):
        CommandTable([WAVE, Command("hi", no_args(0), wave, Text("!hi"), Text("hello"))])
    with pytest.raises(CommandError):
        SESSION_TABLE.add(WAVE)


def test_a_command_that_needs_a_session_says_so_when_misused() -> None:
    inv = Invocation(make_snapshot(), 0.0, "en", admin=False)
    with pytest.raises(CommandError):
        SESSION_TABLE.execute("stop", inv)


def test_two_word_names_are_found_first_and_completed_under_the_first(
        runtime_factory: Callable[..., AssistantRuntime]) -> None:
    table = runtime_factory().commands
    found = table.find("system routing reload")
    assert found is not None and found[0].name == "system routing" and found[1] == "reload"
    assert table.find("system sessions") == (table.get("system"), "sessions")
    assert table.complete(["system", "rou"], admin=True) == ["routing"]
    assert table.complete(["sys"], admin=False) == []
    assert table.get("card") is not None and "card" not in table.complete([""], admin=True)  # a click, not listed


def test_console_completion_comes_from_the_autopilot_entry() -> None:
    autopilot = SESSION_TABLE.get("autopilot")
    assert autopilot is not None and autopilot.access is Access.PLAYER
    assert Word("provider", words("mock", "api", "replay")) in autopilot.words
