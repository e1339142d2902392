"""The model catalog from a registry with explicit-only and structured-only modules; unparsed candidates."""
from __future__ import annotations

import attrs

from engine.assistant import AssistantRuntime
from engine.llm.limits import LimitSettings
from engine.llm.service import LlmService, LlmSettings
from engine.commands.builtin import ROUTED_COMMANDS
from engine.modules.builtin import register_builtins
from engine.modules.builtin.common import EMPTY, Empty, no_arguments
from engine.modules.declarations import AgentCommand, ModuleRouting, RoutingProfile
from engine.modules.module import Access, Module, ModuleContext, ModuleResult
from engine.modules.registry import ModuleRegistry
from engine.routing.config import default_config
from tests.engine.conftest import make_snapshot
from tests.engine.llm.conftest import RigFactory, asks, buttons, text


class _Simple(Module[Empty]):
    access = Access.READ

    def __init__(self, module_id: str, name: str, routing: ModuleRouting[Empty]) -> None:
        self.id = module_id
        self._name = name
        self._routing = routing

    def routing(self) -> ModuleRouting[Empty]:
        return self._routing

    def execute(self, args: Empty, ctx: ModuleContext) -> ModuleResult:
        return ModuleResult((f"{self._name} ran",))


def test_catalog_flags_explicit_only_and_leaves_out_structured_only(shared_runtime: AssistantRuntime) -> None:
    registry = ModuleRegistry()
    register_builtins(registry, shared_runtime.items, ROUTED_COMMANDS)
    weather = (ModuleRouting[Empty].defaults()
               .command(AgentCommand.literal(EMPTY, "weather", description="the weather"))
               .semantic(RoutingProfile.read(no_arguments, ["what is the weather"], ["天气怎么样"]))
               .explicit_only())
    pay = (ModuleRouting[Empty].defaults()
           .command(AgentCommand.literal(EMPTY, "payconfirm", description="confirm a payment"))
           .structured_only())
    registry.register(_Simple("ext:weather", "weather", weather))
    registry.register(_Simple("ext:pay", "pay", pay))
    runtime = AssistantRuntime(default_config(), items=shared_runtime.items, registry=registry,
                               llm=LlmService(LlmSettings(has_key=True, limits=LimitSettings())))
    (ask,) = asks(runtime.new_assistant().request("where in the world am i yeet", make_snapshot(), 0.0))
    tools = {spec.module_id: spec for spec in ask.call.tools}
    assert "explicitOnly: true" in tools["ext:weather"].description and tools["ext:weather"].explicit_only
    assert "ext:pay" not in tools
    wire = ask.call.payload("m")["tools"]
    assert all(t["function"]["name"] != "ext_pay" for t in wire)


def test_a_candidate_whose_arguments_do_not_parse_gets_no_button(rig_factory: RigFactory) -> None:
    rig = rig_factory(key=False)
    card = rig.ask(rig.assistant(), "what is the id of planks")  # agent:item, but which planks?
    assert all(b.label != "!item" and not b.label.startswith("!item ") for b in buttons(card))
    assert "Read-only commands:" in text(card)


def test_diagnostics_show_the_model_service_with_the_key_redacted(rig_factory: RigFactory) -> None:
    rig = rig_factory()
    lines = "\n".join(rig.runtime.diagnostics())
    assert "model service: deepseek-chat at https://api.deepseek.com, key sk-…cdef from env DEEPSEEK_API_KEY" in lines
    assert "limits: 6/min per player" in lines


def test_pending_calls_are_bounded(rig_factory: RigFactory) -> None:
    rig = rig_factory(limits=LimitSettings(requests_per_minute=100, max_concurrent=100, per_player_concurrent=100))
    assistant = rig.assistant()
    tickets = [asks(assistant.request(f"tell me about llamas number {n}", make_snapshot(), 1000.0 + n))[0]
               for n in range(20)]
    assert len(assistant.model._pending) == 16 and len(assistant.model._calls) == 16
    assert attrs.has(type(tickets[0].call))
