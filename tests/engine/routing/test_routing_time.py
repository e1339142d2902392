"""``mcagent_routing_seconds`` is routing only: the router times itself with the perf counter it is given."""
from __future__ import annotations

from typing import Any

import pytest

from engine.assistant import AssistantRuntime
from engine.modules.module import ModuleContext, ModuleResult
from engine.routing.config import default_config
from tests.engine.conftest import make_snapshot


class FakePerf:
    """A perf counter that moves only when told: each call to the router costs one step."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.001
        return self.now


def test_routing_time_excludes_the_module_that_runs(monkeypatch: pytest.MonkeyPatch,
                                                   shared_runtime: AssistantRuntime) -> None:
    perf = FakePerf()
    observed: list[float] = []
    runtime = AssistantRuntime(default_config(), items=shared_runtime.items, perf_counter=perf,
                               observe_routing_seconds=observed.append)
    entry = runtime.registry.get("agent:position")
    assert entry is not None
    module = entry.module
    real = module.execute

    def slow(args: Any, ctx: ModuleContext) -> ModuleResult:
        perf.now += 5.0  # a module taking 5 s must not show up in routing time
        return real(args, ctx)

    monkeypatch.setattr(module, "execute", slow)
    reply = runtime.new_assistant().request("where am i", make_snapshot(), now=0.0)
    assert reply and perf.now > 5.0  # the module ran
    assert observed == [pytest.approx(0.001)]
    assert runtime.stats.timed == 1
    assert any("routing time (routing only" in line for line in runtime.diagnostics())


def test_without_a_perf_counter_nothing_is_timed(shared_runtime: AssistantRuntime) -> None:
    runtime = AssistantRuntime(default_config(), items=shared_runtime.items)
    runtime.new_assistant().request("where am i", make_snapshot(), now=0.0)
    assert runtime.stats.timed == 0
