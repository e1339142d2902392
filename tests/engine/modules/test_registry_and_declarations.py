from __future__ import annotations

from typing import Any

import pytest

from engine.assistant import AssistantRuntime
from engine.commands.builtin import ROUTED_COMMANDS
from engine.modules.builtin import ADMIN_MODULES, READ_MODULES, WRITE_MODULES, register_builtins
from engine.modules.builtin.common import EMPTY, Empty, no_arguments
from engine.modules.declarations import AgentCommand, ModuleRouting, RoutingProfile
from engine.modules.module import Access, Module, ModuleContext, ModuleResult
from engine.modules.registry import ModuleRegistry, RegistryError


class Extension(Module[Empty]):
    """The seed's extension example, in our API."""

    id = "example:extension"
    access = Access.READ

    def routing(self) -> ModuleRouting[Empty]:
        return (
            ModuleRouting[Empty].defaults()
            .command(AgentCommand.literal(EMPTY, "extension", "extension status", description="extension status"))
            .semantic(RoutingProfile.read(no_arguments, ["check extension status"], ["查看扩展状态"]))
            .shortcut("example.action.status", EMPTY)
        )

    def execute(self, args: Empty, ctx: ModuleContext) -> ModuleResult:
        return ModuleResult(("extension ok",))


def test_builder_returns_new_frozen_values() -> None:
    base: ModuleRouting[Empty] = ModuleRouting.defaults()
    built = base.command(AgentCommand.literal(EMPTY, "x")).explicit_only()
    assert base.commands == () and not base.is_explicit_only
    assert built.is_explicit_only and len(built.commands) == 1
    assert base.structured_only().is_structured_only
    profile: RoutingProfile[Empty] = RoutingProfile.read(no_arguments, ["a"], ["b"])
    assert profile.direct and profile.examples == {"en": ("a",), "zh": ("b",)}
    assert profile.choice("label.key").choice_label == "label.key" and profile.choice_label is None
    assert not RoutingProfile.hints(["a"], []).direct


def test_builtin_module_ids_and_access(shared_runtime: AssistantRuntime) -> None:
    registry = shared_runtime.registry
    for module_id in READ_MODULES:
        entry = registry.get(module_id)
        assert entry is not None and entry.access is Access.READ and entry.direct_capable, module_id
    for module_id in WRITE_MODULES:
        entry = registry.get(module_id)
        assert entry is not None and entry.access is Access.WRITE and not entry.direct_capable, module_id
        assert entry.routing.profile is not None and not entry.routing.profile.direct
    routing = registry.get(ADMIN_MODULES[0])
    assert routing is not None and routing.access is Access.ADMIN and routing.routing.is_explicit_only
    assert not routing.direct_capable


def test_registration_is_frozen_after_start(shared_runtime: AssistantRuntime) -> None:
    with pytest.raises(RegistryError, match="frozen"):
        shared_runtime.registry.register(Extension())
    with pytest.raises(RegistryError, match="frozen"):
        shared_runtime.registry.reject("more", RoutingProfile.hints(["x"], []))


def test_duplicates_and_bad_rejects_are_refused() -> None:
    registry = ModuleRegistry()
    registry.register(Extension())
    with pytest.raises(RegistryError, match="already registered"):
        registry.register(Extension())
    with pytest.raises(RegistryError, match="hints"):
        registry.reject("bad", RoutingProfile.read(no_arguments, ["x"], []))


def test_an_extension_registers_once_and_routes(shared_runtime: AssistantRuntime) -> None:
    registry = ModuleRegistry()
    register_builtins(registry, shared_runtime.items, ROUTED_COMMANDS)
    registry.register(Extension())
    runtime = AssistantRuntime(shared_runtime.config, items=shared_runtime.items, registry=registry)
    from tests.engine.conftest import make_snapshot

    assistant = runtime.new_assistant()
    assert assistant.request("check extension status", make_snapshot(), 0.0)[0].lines == ("extension ok",)  # type: ignore[union-attr]
    assert assistant.request("extension status", make_snapshot(), 0.0)[0].lines == ("extension ok",)  # type: ignore[union-attr]
    assert ("!extension", "extension status") in assistant.commands.help_rows("en", admin=False)


def test_config_examples_extend_registered_profiles_only(shared_runtime: AssistantRuntime) -> None:
    extra: dict[str, Any] = {"agent:status": {"en": ["vitals check"]}, "nobody:here": {"en": ["x"]}}
    specs = {s.label: s for s in shared_runtime.registry.index_specs(extra)}
    assert "vitals check" in specs["agent:status"].examples["en"]
    assert "nobody:here" not in specs
    assert shared_runtime.registry.unknown_example_targets(extra) == ["nobody:here"]
    assert "agent:routing" not in specs  # explicit-only: not in the index


def test_two_word_commands_resolve_first(shared_runtime: AssistantRuntime) -> None:
    found = shared_runtime.registry.command("system", "routing reload")
    assert found is not None and found[0].id == "agent:routing" and found[2] == "reload"
    found = shared_runtime.registry.command("item", "oak planks")
    assert found is not None and found[0].id == "agent:item" and found[2] == "oak planks"
    assert shared_runtime.registry.command("nope", "") is None
