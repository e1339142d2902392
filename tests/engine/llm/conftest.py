"""Fixtures for the model-service tests: a runtime wired to a scripted service through MockTransport."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import attrs
import httpx
import pytest

from engine import events as ev
from engine.actions import Action, AskModel, ReplyToPlayer
from engine.assistant import AssistantRuntime, LocalAssistant
from engine.llm.client import ClientSettings, ModelClient
from engine.llm.limits import LimitSettings
from engine.llm.secrets import Secret
from engine.llm.service import LlmService, LlmSettings
from engine.llm.testing import ModelDriver, ScriptedService, Step
from engine.routing.config import default_config
from engine.session import Session
from engine.world.snapshot import WorldSnapshot
from tests.engine.conftest import command, expand, make_snapshot

KEY = "sk-unit-test-0123456789abcdef"


async def no_sleep(seconds: float) -> None:
    SLEPT.append(seconds)


SLEPT: list[float] = []


@attrs.define
class Rig:
    """A runtime with the model service, the scripted service behind it and a driver in the proxy's place."""

    runtime: AssistantRuntime
    service: ScriptedService
    driver: ModelDriver
    llm: LlmService

    def assistant(self) -> LocalAssistant:
        return self.runtime.new_assistant()

    def ask(self, assistant: LocalAssistant, text: str, snapshot: WorldSnapshot | None = None,
            now: float = 1000.0) -> list[Action]:
        snap = snapshot or make_snapshot()
        return self.driver.perform(assistant, expand(assistant, assistant.request(text, snap, now), snap, now), snap, now)

    def command(self, assistant: LocalAssistant, line: str, snapshot: WorldSnapshot | None = None,
                now: float = 1000.0) -> list[Action]:
        snap = snapshot or make_snapshot()
        name, _, args = line.lstrip("!/").partition(" ")
        if name == "agent":  # a button's /agent <command>
            name, _, args = args.partition(" ")
        return self.driver.perform(assistant, command(assistant, name, args, snap, now), snap, now)

    @property
    def calls(self) -> int:
        return len(self.service.requests)


RigFactory = Callable[..., Rig]


@pytest.fixture
def rig_factory(shared_runtime: AssistantRuntime) -> Iterator[RigFactory]:
    made: list[Rig] = []

    def make(*steps: Step, key: bool = True, limits: LimitSettings | None = None, default: Step | None = None,
             timeout: float = 5.0, phrases: Any = None, **settings: Any) -> Rig:
        service = ScriptedService(*steps, default=default)
        llm = LlmService(LlmSettings(has_key=key, key_hint="sk-…cdef" if key else "(none)",
                                     key_source="env DEEPSEEK_API_KEY" if key else "", timeout=timeout,
                                     limits=limits or LimitSettings(), **settings))
        runtime = AssistantRuntime(default_config(), items=shared_runtime.items, llm=llm, button_phrases=phrases)
        client = ModelClient(ClientSettings(base_url="https://model.test", api_key=Secret(KEY) if key else None,
                                            timeout=timeout, backoff=0.5), transport=service.transport(),
                             sleep=no_sleep)
        rig = Rig(runtime, service, ModelDriver(runtime, client), llm)
        made.append(rig)
        return rig

    yield make
    for rig in made:
        rig.driver.close()


def click(session: Session, button_command: str, now: float = 1000.0) -> list[Any]:
    """A chat button sends its ``/agent ...`` command: the player's session runs it."""
    return session.handle(ev.CommandTyped(button_command.removeprefix("/")), now)


def text(actions: list[Action]) -> str:
    return "\n".join(line for a in actions if isinstance(a, ReplyToPlayer) for line in a.lines)


def buttons(actions: list[Action]) -> list[Any]:
    return [b for a in actions if isinstance(a, ReplyToPlayer) for b in a.buttons]


def asks(actions: list[Action]) -> list[AskModel]:
    return [a for a in actions if isinstance(a, AskModel)]


def mock(handler: Callable[[httpx.Request], Any]) -> httpx.MockTransport:
    return httpx.MockTransport(handler)
