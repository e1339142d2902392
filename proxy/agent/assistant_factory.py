"""Build each player's assistant from the semantic routing configuration.

One ``AssistantRuntime`` per proxy holds the frozen module registry, the index
and the shared intent cache; each connection gets its own ``LocalAssistant``
(its own cache scope, inbox and options). ``RoutingSurface`` is what the admin
console's ``routing`` command drives. ``build_assistance`` makes all of it before
the server, which is handed the pieces (``Assistance``) in its constructor.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import attrs
from twisted.logger import Logger

from engine.session import Assistant

if TYPE_CHECKING:
    from proxy.config import ProxyConfig
    from proxy.agent.model_service import Metrics, ModelService

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


@attrs.frozen
class Assistance:
    """What the assistant feature hands the server: each player's assistant, the routing
    surface (console, metrics, reload) and the model service (None without a model)."""

    make: Callable[[Any], Assistant | None]
    routing: RoutingSurface
    model_service: ModelService | None


def model_parts(config: ProxyConfig) -> tuple[Any, Any, Any]:
    """(LlmService or None, ClientSettings or None, button phrasings) from the ``llm`` section."""
    from engine.llm.notification_buttons import load_phrases
    from engine.llm.service import LlmService
    from proxy.agent.model_service import resolve

    llm_config = config.llm
    phrases: Any = {}
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


def build_assistance(config: ProxyConfig, reactor: Any, metrics: Metrics | None = None) -> Assistance:
    from engine.assistant import AssistantRuntime
    from engine.modules.extensions import installed_entry_points

    llm, client_settings, phrases = model_parts(config)
    # mcagent_routing_seconds is measured by the router itself: routing only, not the
    # module that runs next.
    observe: Callable[[float], None] = metrics.routing_seconds.observe if metrics is not None else (lambda s: None)
    runtime = AssistantRuntime.from_file(Path(config.semantic_config), llm=llm, button_phrases=phrases,
                                         perf_counter=time.perf_counter, observe_routing_seconds=observe,
                                         extensions=installed_entry_points,
                                         button_phrases_path=str(config.llm.notification_buttons))
    for name, ids in runtime.extensions.loaded:
        log.info("extension {name}: modules {ids}", name=name, ids=", ".join(ids))
    for warning in runtime.warnings:
        log.warn("{warning}", warning=warning)  # a broken extension is named here; the proxy goes on
    service = None
    if llm is not None and client_settings is not None:
        from proxy.agent.model_service import build

        service = build(runtime, client_settings, reactor, metrics)

    def make(bridge: Any) -> Assistant | None:
        # Whether the player is an admin is the Session's (told at login, or after `!admin login`).
        return runtime.new_assistant()

    return Assistance(make, RoutingSurface(runtime), service)
