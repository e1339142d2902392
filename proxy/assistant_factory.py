"""Build each player's assistant from the semantic routing configuration.

One ``AssistantRuntime`` per proxy holds the frozen module registry, the index
and the shared intent cache; each connection gets its own ``LocalAssistant``
(its own cache scope, inbox and options). ``RoutingSurface`` is what the admin
console's ``routing`` command drives.
"""
from __future__ import annotations

import time
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

    def counters(self) -> dict[str, int]:
        return {reason.value: count for reason, count in self.runtime.stats.counters.items()}

    def set_mode(self, mode: str) -> list[str]:
        lines: list[str] = self.runtime.set_routing_mode(mode)  # the same function as !system routing mode
        log.info("routing mode from the console: {result}", result=lines[0])
        return lines

    def reload(self) -> list[str]:
        return list(self.runtime.reload_lines())


def _buttons_path(config: Any) -> str | None:
    llm_config = getattr(config, "llm", None)
    return None if llm_config is None else str(llm_config.notification_buttons)


def model_parts(config: Any) -> tuple[Any, Any, Any]:
    """(LlmService or None, ClientSettings or None, button phrasings) from the ``llm`` section."""
    from engine.llm.notification_buttons import load_phrases
    from engine.llm.service import LlmService
    from proxy.model_service import resolve

    llm_config = getattr(config, "llm", None)
    phrases: Any = {}
    if llm_config is None:
        return None, None, phrases
    try:
        phrases = load_phrases(llm_config.notification_buttons)
    except ValueError as exc:
        log.warn("notification button phrasings not loaded (labels only): {error}", error=str(exc))
    if not llm_config.enabled:
        log.info("model service disabled (llm.enabled is false): unsure requests get a card")
        return None, None, phrases
    settings, client = resolve(llm_config)
    if settings.has_key:
        log.info("model service: {model} at {url}, key {hint} from {source}", model=settings.model,
                 url=settings.base_url, hint=settings.key_hint, source=settings.key_source)
    else:
        log.info("model service: no API key ({env} unset, none in the config): unsure requests get a card",
                 env=llm_config.api_key_env)
    host = settings.base_url.split("://", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0]
    if settings.base_url.startswith("http://") and host not in ("127.0.0.1", "localhost", "[::1]"):
        log.warn("the model service URL is plain http to a non-loopback host: the key would travel unencrypted")
    return LlmService(settings), client, phrases


def assistant_factory(config: Any, server: Any = None) -> Callable[[Any], Assistant | None]:
    from engine.assistant import AssistantRuntime
    from engine.modules.extensions import installed_entry_points

    llm, client_settings, phrases = model_parts(config)
    # mcagent_routing_seconds is measured by the router itself: routing only, not the
    # module that runs next (the metrics object may be made after this factory).
    def observe(seconds: float) -> None:
        if server is not None and server.metrics is not None:
            server.metrics.routing_seconds.observe(seconds)

    runtime = AssistantRuntime.from_file(Path(config.semantic_config), llm=llm, button_phrases=phrases,
                                         perf_counter=time.perf_counter, observe_routing_seconds=observe,
                                         extensions=installed_entry_points,
                                         button_phrases_path=_buttons_path(config))
    for name, ids in runtime.extensions.loaded:
        log.info("extension {name}: modules {ids}", name=name, ids=", ".join(ids))
    for warning in runtime.warnings:
        log.warn("{warning}", warning=warning)  # a broken extension is named here; the proxy goes on
    if server is not None:
        server.routing = RoutingSurface(runtime)
        if llm is not None and client_settings is not None:
            from proxy.model_service import build

            server.model_service = build(runtime, client_settings, server.reactor, server)
    def make(bridge: Any) -> Assistant | None:
        # Whether the player is an admin is the Session's (told at login, or after `!admin login`).
        return runtime.new_assistant()

    return make
