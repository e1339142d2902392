"""decide(): the model's answer checked against the catalog it was given; nothing here runs anything."""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.commands.builtin import GOTO
from engine.llm.calls import CallPurpose, ChatMessage, Completion, ModelCall, ToolCall
from engine.llm.tools import params_from_usage, tool_specs
from engine.llm.validation import Chose, RejectReason, Rejected, Said, decide
from engine.routing.model_hook import CatalogEntry, RoutingTicket

CATALOG = (
    CatalogEntry("agent:position", "!pos", "where you are", True, False),
    CatalogEntry("agent:item", "!item <name>", "item id", True, False),
    CatalogEntry("agent:goto", "!goto x y z", "walk", False, False, GOTO.arguments),  # numbers, as !goto declares
    CatalogEntry("agent:autopilot", "!autopilot on|off", "autopilot", False, False),
    CatalogEntry("agent:inventory", "!inv [item]", "inventory", True, False),
    CatalogEntry("ext:weather", "!weather [place]", "weather", True, True),
)
CALL = ModelCall(RoutingTicket(1, None, "en"), "s1", CallPurpose.ROUTE, (ChatMessage("user", "x"),), tool_specs(CATALOG))


def choose(name: str, args: object) -> object:
    arguments = args if isinstance(args, str) else json.dumps(args)
    return decide(CALL, Completion(None, (ToolCall(name, arguments),)))


def test_a_valid_choice_becomes_the_explicit_command() -> None:
    assert choose("agent_position", {}) == Chose("agent:position", "!pos", True)
    assert choose("agent_goto", {"x": 10, "y": 64.5, "z": -3}) == Chose("agent:goto", "!goto 10 64.5 -3", False)
    assert choose("agent_item", {"name": "oak  planks"}) == Chose("agent:item", "!item oak planks", True)
    assert choose("agent_inventory", {}) == Chose("agent:inventory", "!inv", True)
    assert choose("agent_autopilot", {"state": "ON"}) == Chose("agent:autopilot", "!autopilot on", False)


def test_unknown_module() -> None:
    assert choose("agent_teleport", {}) == Rejected(RejectReason.UNKNOWN_MODULE, "agent_teleport")


def test_bad_arguments() -> None:
    for name, args in [
        ("agent_goto", {"x": 1, "y": 2}),                    # missing
        ("agent_goto", {"x": "1", "y": 2, "z": 3}),          # wrong type
        ("agent_goto", {"x": True, "y": 2, "z": 3}),         # a bool is not a number
        ("agent_goto", {"x": 1e9, "y": 2, "z": 3}),          # beyond the world border
        ("agent_position", {"verbose": True}),               # not in the schema
        ("agent_item", {"name": "torch\\n!goto 1 2 3"}),     # a second line
        ("agent_item", {"name": "/op me"}),                  # a command inside an argument
        ("agent_item", {"name": "x" * 100}),                 # too long
        ("agent_autopilot", {"state": "maybe"}),             # not in the enum
        ("agent_item", "not json"),
        ("agent_item", "[1, 2]"),
    ]:
        result = choose(name, args)
        assert isinstance(result, Rejected) and result.reason is RejectReason.BAD_ARGUMENTS, (name, args, result)


def test_several_choices_are_rejected_and_text_or_nothing() -> None:
    two = Completion(None, (ToolCall("agent_position", "{}"), ToolCall("agent_item", '{"name": "torch"}')))
    assert isinstance(decide(CALL, two), Rejected)
    same_twice = Completion(None, (ToolCall("agent_position", "{}"), ToolCall("agent_position", "{}")))
    assert decide(CALL, same_twice) == Chose("agent:position", "!pos", True)
    assert decide(CALL, Completion("  hello  ")) == Said("hello")
    assert decide(CALL, Completion("   ")) == Rejected(RejectReason.EMPTY)


def test_tools_flag_explicit_only_and_writes() -> None:
    specs = {s.module_id: s for s in CALL.tools}
    assert "explicitOnly: true" in specs["ext:weather"].description
    assert specs["ext:weather"].params[0].required is False
    assert "confirm" in specs["agent:goto"].description
    assert specs["agent:position"].schema() == {"type": "object", "properties": {}, "required": [],
                                                "additionalProperties": False}


def test_params_from_usage() -> None:
    names = [(p.name, p.type.value, p.required, p.choices) for p in params_from_usage("!x <name> [count] a|b")]
    assert names == [("name", "string", True, ()), ("count", "string", False, ()), ("arg2", "enum", True, ("a", "b"))]


_json = st.recursive(st.none() | st.booleans() | st.floats(allow_nan=False) | st.integers() | st.text(max_size=20),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                     max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from([s.name for s in CALL.tools] + ["nope"]),
       args=st.dictionaries(st.sampled_from(["x", "y", "z", "name", "item", "state", "place", "q"]), _json, max_size=4))
def test_any_answer_is_a_safe_command_of_the_chosen_tool_or_rejected(name: str, args: dict[str, object]) -> None:
    result = choose(name, args)
    assert isinstance(result, (Chose, Rejected))
    if isinstance(result, Chose):
        spec = CALL.tool(name)
        assert spec is not None and result.module_id == spec.module_id
        assert result.command_line.split(" ")[0] == f"!{spec.command}"
        rest = result.command_line[len(spec.command) + 1:]
        assert "\n" not in result.command_line and "§" not in result.command_line
        assert "!" not in rest and "/" not in rest
