"""Fixtures shared by the engine tests: a built assistant runtime and world snapshots."""
from __future__ import annotations

import json
from collections.abc import Callable, Sequence

import pytest

from engine.actions import Action, AskModel, Output
from engine.assistant import AssistantRuntime, LocalAssistant
from engine.commands.expansion import expand as expand_once
from engine.commands.table import Invocation
from engine.llm.calls import Completion, ToolCall
from engine.llm.limits import LimitSettings
from engine.llm.service import LlmService, LlmSettings
from engine.routing.language import reply_language
from engine.events import SlotItem
from engine.routing.config import SemanticConfig, default_config
from engine.world.snapshot import EntityView, PlayerState, Vec3, WorldSnapshot

SnapshotFactory = Callable[..., WorldSnapshot]


def make_snapshot(
    locale: str | None = "en_us",
    *,
    position: Vec3 | None = Vec3(10.5, 64.0, -20.25),
    yaw: float = 90.0,
    health: float | None = 18.0,
    food: int | None = 17,
    xp_level: int | None = 5,
    game_mode: int | None = 0,
    dimension: str | None = "minecraft:overworld",
    inventory: dict[int, SlotItem] | None = None,
    held_slot: int = 0,
    online: tuple[str, ...] = ("Alex", "Steve", "Tester"),
    near: tuple[tuple[str, Vec3], ...] = (("Alex", Vec3(20.5, 64.0, -20.25)),),
) -> WorldSnapshot:
    slots: list[SlotItem | None] = [None] * 46
    for index, item in (inventory or {}).items():
        slots[index] = item
    player = PlayerState(
        position=position, yaw=yaw, pitch=0.0, on_ground=True, health=health, food=food, saturation=3.0,
        xp_level=xp_level, xp_bar=0.5, game_mode=game_mode, dimension=dimension, held_slot=held_slot,
        inventory=tuple(slots),
    )
    entities = tuple(EntityView(100 + n, "player", pos, f"uuid-{name}", name) for n, (name, pos) in enumerate(near))
    return WorldSnapshot("Tester", locale, player, online, entities)


def invocation(assistant: LocalAssistant, snapshot: WorldSnapshot, now: float, admin: bool = False) -> Invocation:
    """What a Session hands the command table, without a Session (commands that need one raise)."""
    lang = reply_language(snapshot.locale)
    return Invocation(snapshot, now, lang, admin, assistant=assistant, parse_context=assistant.parse_context(snapshot, lang),
                      max_args=assistant.runtime.config.max_characters)


def command(assistant: LocalAssistant, name: str, args: str, snapshot: WorldSnapshot, now: float,
            admin: bool = False) -> list[Action]:
    """``!name args`` through the assistant's command table, as the player's Session runs it."""
    return assistant.commands.execute(f"{name} {args}", invocation(assistant, snapshot, now, admin))


def expand(assistant: LocalAssistant, outputs: Sequence[Output], snapshot: WorldSnapshot, now: float,
           admin: bool = False) -> list[Action]:
    """An assistant's answer with the lines the player trusted run, as the Session does."""
    inv = invocation(assistant, snapshot, now, admin)
    # A model call stays in the answer for the test's own driver to run (``ModelDriver.perform``).
    return expand_once(outputs, lambda line: assistant.commands.run(line, inv), lambda ask: [ask])


def keyed_llm() -> LlmService:
    """A model service with a key and limits no test reaches: its calls are answered by ``model_chooses``."""
    return LlmService(LlmSettings(has_key=True, limits=LimitSettings(requests_per_minute=10_000, max_concurrent=1000,
                                                                     daily_tokens=10**9)))


def _json_value(arg: str) -> object:
    try:
        return float(arg) if "." in arg else int(arg)
    except ValueError:
        return arg


def asked(outputs: Sequence[Output]) -> AskModel:
    (ask,) = [o for o in outputs if isinstance(o, AskModel)]
    return ask


def model_chooses(assistant: LocalAssistant, ask: AskModel, command_line: str, snapshot: WorldSnapshot,
                  now: float) -> list[Action]:
    """The model answers ``ask`` by calling the tool of ``command_line`` (e.g. "!inv minecraft:torch"),
    delivered as the Session delivers a runner's reply."""
    name, *args = command_line.lstrip("!").split()
    spec = next(t for t in ask.call.tools if t.command == name)
    values = {p.name: _json_value(a) for p, a in zip(spec.params, args)}
    reply = Completion(None, (ToolCall(spec.name, json.dumps(values)),))
    assistant.runtime.model_finished(ask.call, reply, now)
    return assistant.model_answered(ask.call, reply, snapshot, now)


@pytest.fixture(scope="session")
def shared_runtime() -> AssistantRuntime:
    """Built once: tests that only read routing decisions share it."""
    return AssistantRuntime(default_config())


@pytest.fixture
def runtime_factory(shared_runtime: AssistantRuntime) -> Callable[..., AssistantRuntime]:
    """A fresh runtime (own cache and counters), reusing the loaded item table."""

    def build(config: SemanticConfig | None = None, **kwargs: object) -> AssistantRuntime:
        return AssistantRuntime(config or default_config(), items=shared_runtime.items, **kwargs)  # type: ignore[arg-type]

    return build


@pytest.fixture
def snapshot() -> WorldSnapshot:
    return make_snapshot()
