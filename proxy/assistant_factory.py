"""Build each player's assistant from the semantic routing configuration.

One ``AssistantRuntime`` per proxy holds the frozen module registry, the index
and the shared intent cache; each connection gets its own ``LocalAssistant``
(its own cache scope, inbox and options). ``RoutingSurface`` is what the admin
console's ``routing`` command drives.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from twisted.logger import Logger

from engine.session import Assistant

log = Logger(namespace="mcagent.assistant")


class RoutingSurface:
    def __init__(self, runtime: Any) -> None:
        self.runtime = runtime

    def diagnostics(self) -> list[str]:
        return list(self.runtime.diagnostics())

    def set_mode(self, mode: str) -> list[str]:
        from engine.routing.config import Mode

        wanted = Mode(mode)
        if wanted is not Mode.OFF and self.runtime.index is None:
            return ["the index was not built at start (mode OFF then); restart to enable local routing"]
        config = self.runtime.router.config
        self.runtime.router.config = config.model_copy(update={"mode": wanted})
        log.info("routing mode set to {mode} from the console", mode=wanted.value)
        return [f"routing mode is now {wanted.value} (until the next reload or restart)"]

    def reload(self) -> list[str]:
        return list(self.runtime.reload_lines())


def assistant_factory(config: Any, server: Any = None) -> Callable[[Any], Assistant | None]:
    from engine.assistant import AssistantRuntime

    runtime = AssistantRuntime.from_file(Path(config.semantic_config))
    for warning in runtime.warnings:
        log.warn("{warning}", warning=warning)
    if server is not None:
        server.routing = RoutingSurface(runtime)
    admins = {name.lower() for name in config.admins}

    def make(bridge: Any) -> Assistant | None:
        name = (bridge.player_name or "").lower()
        return runtime.new_assistant(admin=name in admins)

    return make
