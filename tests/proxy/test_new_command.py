"""A new command is one entry plus its handler: registered once, seen on every surface.

A player's command (``!wave``) is run in game and through ``/agent``, listed in ``!help`` in both
languages, offered under ``/agent`` in the client's command tree, and given to the model as a
tool whose parameters are its declared arguments. A console command (``greet``) is run by the
console, listed by its ``help`` and completed (players' names included) from its declaration.
"""
from __future__ import annotations

import json
from collections.abc import Sequence

from engine import events as ev
from engine.actions import Action, ReplyToPlayer, RunLine
from engine.assistant import AssistantRuntime
from engine.commands.args import Arg, ArgKind, words
from engine.commands.table import Command, CommandRouting, Invocation, Text
from engine.llm.calls import CallPurpose, ChatMessage, Completion, ModelCall, ParamType, ToolCall, ToolParam
from engine.llm.tools import tool_specs
from engine.llm.validation import Chose, decide
from engine.modules.declarations import ParseContext, RoutingProfile
from engine.routing.config import default_config
from engine.routing.model_hook import RoutingTicket
from engine.session import Session
from proxy.operations.console import ConsoleCommands, UsageError, console_command
from proxy.testing import Rig
from tests.proxy.test_command_tree import _child, _tree


def text(actions: Sequence[object]) -> str:
    return "\n".join(line for a in actions if isinstance(a, ReplyToPlayer) for line in a.lines)


def parse_times(args: str, _ctx: ParseContext) -> int | None:
    return int(args) if args.isdigit() and 0 < int(args) < 10 else None


def wave(inv: Invocation, times: int) -> list[Action | RunLine]:
    return [ReplyToPlayer(("wave",) * times)]


WAVE = Command(
    "wave", parse_times, wave, Text("!wave <times>", "!wave <次数>"), Text("wave at people", "挥手"),
    words=words("1", "2", "3"), args=(Arg("times", ArgKind.NUMBER, description="how many times"),), write=True,
    routing=CommandRouting("test:wave", RoutingProfile.hints(("wave at everyone", "wave {number} times"), ("挥手",)),
                           str),
)


def test_a_new_player_command_is_on_every_surface() -> None:
    runtime = AssistantRuntime(default_config(), commands=(WAVE,))
    assistant = runtime.new_assistant()
    session = Session("Tester", assistant=assistant)
    # In game, as !wave and as /agent wave; a bad argument gets its usage.
    assert text(session.handle(ev.ChatTyped("!wave 2"), 1.0)) == "wave\nwave"
    assert text(session.handle(ev.CommandTyped("agent wave 1"), 1.0)) == "wave"
    assert text(session.handle(ev.ChatTyped("!wave lots"), 1.0)) == "Usage: !wave <times>"
    # !help, in both languages.
    assert "!wave <times> - wave at people" in text(session.handle(ev.ChatTyped("!help"), 1.0))
    assert ("!wave <次数>", "挥手") in session.commands.help_rows("zh", admin=False)
    # /agent in the client's command tree: the name and its words.
    fields = _tree(session.commands.completion(admin=False))
    below = _child(fields, _child(fields, fields["rootIndex"], "agent"), "wave")
    for word in ("1", "2", "3"):
        _child(fields, below, word)
    # The model's tools: the entry's arguments are the tool's schema, and a choice is its command line.
    catalog = assistant.model.catalog()
    assert any(entry.module_id == "test:wave" for entry in catalog)
    spec = next(s for s in tool_specs(catalog) if s.module_id == "test:wave")
    assert spec.params == (ToolParam("times", ParamType.NUMBER, description="how many times"),)
    assert not spec.read_only and spec.command == "wave"
    call = ModelCall(RoutingTicket(1, None, "en"), "s1", CallPurpose.ROUTE, (ChatMessage("user", "x"),), (spec,))
    chosen = decide(call, Completion(None, (ToolCall(spec.name, json.dumps({"times": 2})),)))
    assert chosen == Chose("test:wave", "!wave 2", False)


def greet(argv: list[str]) -> list[str]:
    if not argv:
        raise UsageError("greet whom?")
    return [f"hello {argv[0]}" + ("!" * int(argv[1]) if len(argv) > 1 else "")]


GREET = console_command("greet", "greet PLAYER [LOUDNESS]", "say hello to a player", greet,
                        (Arg("player", ArgKind.PLAYER), Arg("loudness", ArgKind.CHOICE, ("1", "2"), optional=True)))


def test_a_new_console_command_is_on_every_console_surface() -> None:
    rig = Rig()
    rig.login("alice")
    console = ConsoleCommands(rig.server, lambda: ["reloaded"], lambda: None, more=(GREET,))
    assert console.execute("greet alice 2") == ["hello alice!!"]
    assert console.execute("greet") == ["error: greet whom?", "usage: greet PLAYER [LOUDNESS]"]
    assert any(line.startswith("greet PLAYER [LOUDNESS]") and line.endswith("say hello to a player")
               for line in console.execute("help"))
    assert console.complete("gr") == ["greet"]
    assert console.complete("greet al") == ["alice"]
    assert console.complete("greet alice ") == ["1", "2"]
    # A console command is the console's alone: a player's table never has it.
    assert Session("Tester").commands.get("greet") is None
