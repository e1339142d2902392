"""Extension modules from outside the repository (entry-point group ``mcagent.modules``)."""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engine.actions import ReplyToPlayer
from engine.assistant import AssistantRuntime
from engine.modules.extensions import GROUP, installed_entry_points, load_extensions
from engine.modules.registry import ModuleRegistry, RegistryError
from engine.routing.config import default_config
from engine.routing.evaluation import fixture_snapshot
from tests.engine.conftest import command
from engine.routing.router import ScopeState
from engine.routing.stats import Reason

JOKE = {"en_us": "tell me a joke", "zh_cn": "给我讲个笑话"}  # nothing matches: the card lists every shortcut
EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "mcagent-origin"


def _dist_info(root: Path, name: str, entry_points: str) -> None:
    """What pip leaves in site-packages for an installed distribution, enough for importlib.metadata."""
    info = root / f"{name.replace('-', '_')}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{entry_points}\n", encoding="utf-8")


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The example package installed as pip would, plus a broken extension beside it."""
    _dist_info(tmp_path, "mcagent-origin", "origin = mcagent_origin:OriginModule")
    _dist_info(tmp_path, "mcagent-broken", "broken = mcagent_no_such_package:Module")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(EXAMPLE))
    yield tmp_path
    sys.modules.pop("mcagent_origin", None)


def _text(actions: list[object]) -> str:
    return "\n".join(line for a in actions if isinstance(a, ReplyToPlayer) for line in a.lines)


def test_an_installed_extension_is_routed_to_and_a_broken_one_is_reported_by_name(
    installed: Path, shared_runtime: AssistantRuntime
) -> None:
    names = {e.name for e in installed_entry_points()}
    assert {"origin", "broken"} <= names
    runtime = AssistantRuntime(default_config(), items=shared_runtime.items, extensions=installed_entry_points)
    assert ("origin", ("example:origin",)) in runtime.extensions.loaded
    assert [name for name, _ in runtime.extensions.failed] == ["broken"]
    assert any(w.startswith("extension broken not loaded: ModuleNotFoundError") for w in runtime.warnings)
    assert runtime.registry.frozen
    # Routed to from similarity, in both languages, and as an explicit command.
    for text, lang in (("how far am i from the origin", "en"), ("我离原点多远", "zh")):
        route = runtime.router.route(text, lang, ScopeState("x"), fixture_snapshot("en_us"), now=0.0)
        assert (route.reason, route.module_id) == (Reason.DIRECT, "example:origin")
    assistant = runtime.new_assistant()
    reply = assistant.request("how far am i from the origin", fixture_snapshot("en_us"), now=0.0)
    assert "blocks from the origin" in _text(reply)
    assert "blocks from the origin" in _text(command(assistant, "origin", "", fixture_snapshot("en_us"), now=0.0))
    assert any(usage == "!origin" for usage, _ in assistant.commands.help_rows("en", admin=False))
    # Built-ins are untouched.
    route = runtime.router.route("where am i", "en", ScopeState("y"), fixture_snapshot("en_us"), now=0.0)
    assert route.module_id == "agent:position"


class _EntryPoint:
    def __init__(self, name: str, target: object) -> None:
        self.name = name
        self.value = f"tests:{name}"
        self._target = target

    def load(self) -> object:
        if isinstance(self._target, Exception):
            raise self._target
        return self._target


def test_a_clash_or_a_failing_register_leaves_the_extension_out_whole(shared_runtime: AssistantRuntime) -> None:
    sys.path.insert(0, str(EXAMPLE))
    try:
        from mcagent_origin import OriginModule
    finally:
        sys.path.remove(str(EXAMPLE))

    class Clash(OriginModule):
        id = "example:clash"  # a new id, but "!origin" is taken by the first extension

    def half_then_fails(registry: ModuleRegistry) -> None:
        registry.register(type("Half", (OriginModule,), {"id": "example:half"})())
        raise RuntimeError("database unreachable")

    registry = ModuleRegistry()
    report = load_extensions(registry, [
        _EntryPoint("a-origin", OriginModule),
        _EntryPoint("b-clash", Clash),
        _EntryPoint("c-half", half_then_fails),
        _EntryPoint("d-import", ImportError("no module named x")),
        _EntryPoint("e-nothing", 42),
    ])
    assert [m.id for m in registry.modules()] == ["example:origin"]  # nothing of b, c, d, e got in
    failed = dict(report.failed)
    assert "command !origin of example:clash is already taken" in failed["b-clash"]
    assert "database unreachable" in failed["c-half"]
    assert "no module named x" in failed["d-import"]
    assert "neither a Module nor" in failed["e-nothing"]


def test_extensions_load_only_before_start() -> None:
    registry = ModuleRegistry()
    registry.freeze()
    with pytest.raises(RegistryError):
        load_extensions(registry, [])


def test_without_extensions_nothing_is_looked_up(runtime_factory: Callable[..., AssistantRuntime]) -> None:
    runtime = runtime_factory()
    assert runtime.extensions.loaded == () and runtime.extensions.failed == ()


def test_an_extensions_label_shows_its_own_text_never_its_key_and_typing_it_picks_the_option(
    installed: Path, shared_runtime: AssistantRuntime
) -> None:
    from engine import events as ev
    from engine.session import Session

    runtime = AssistantRuntime(default_config(), items=shared_runtime.items, extensions=installed_entry_points)
    for locale, label in (("en_us", "distance to the origin"), ("zh_cn", "离原点的距离")):
        card = runtime.new_assistant().request(JOKE[locale], fixture_snapshot(locale), now=0.0)
        assert "!origin" in _text(card)
        hovers = [b.hover for a in card if isinstance(a, ReplyToPlayer) for b in a.buttons]
        assert f"!origin - {label}" in hovers
        assert not any("example.origin" in h for h in hovers) and "example.origin" not in _text(card)
    assistant = runtime.new_assistant()
    session = Session("Tester", assistant=assistant)
    for typed in ("distance to the origin", "origin", "离原点的距离"):
        assert "Read-only commands" in _text(session.handle(ev.ChatTyped("@ai tell me a joke"), 0.0))
        # The module ran (this session has seen no position packet yet, so it says so).
        assert "how far the origin is" in _text(session.handle(ev.ChatTyped(typed), 1.0)), typed


def test_a_label_key_without_text_shows_what_the_command_does(shared_runtime: AssistantRuntime) -> None:
    from engine.modules.builtin.common import EMPTY, Empty, no_arguments
    from engine.modules.declarations import AgentCommand, ModuleRouting, RoutingProfile
    from engine.modules.module import Access, Module, ModuleContext, ModuleResult

    class Bare(Module[Empty]):
        id = "example:bare"
        access = Access.READ

        def routing(self) -> ModuleRouting[Empty]:
            return (ModuleRouting[Empty].defaults()
                    .command(AgentCommand.literal(EMPTY, "bare", description="the bare example",
                                                  description_zh="空白示例"))
                    .semantic(RoutingProfile.read(no_arguments, ["bare example please"], ["空白示例"]))
                    .shortcut("example.bare.label", EMPTY))

        def execute(self, args: Empty, ctx: ModuleContext) -> ModuleResult:
            return ModuleResult(("bare",))

    runtime = AssistantRuntime(default_config(), items=shared_runtime.items,
                               extensions=[_EntryPoint("bare", Bare)])
    for locale, label in (("en_us", "the bare example"), ("zh_cn", "空白示例")):
        card = runtime.new_assistant().request(JOKE[locale], fixture_snapshot(locale), now=0.0)
        hovers = [b.hover for a in card if isinstance(a, ReplyToPlayer) for b in a.buttons]
        assert f"!bare - {label}" in hovers and not any("example.bare.label" in h for h in hovers)
