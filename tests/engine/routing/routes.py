"""How the routing tests route one line: in the evaluator's world, by a fresh player's scope."""
from __future__ import annotations

from engine.assistant import AssistantRuntime
from engine.routing.evaluation import fixture_snapshot
from engine.routing.router import ScopeState


def module_of(runtime: AssistantRuntime, text: str, lang: str | None = None) -> str | None:
    """The module the line goes to at once (None: the model or a filter has it); ``lang`` is the
    line's script's language unless given."""
    lang = lang or ("en" if text.isascii() else "zh")
    snapshot = fixture_snapshot("zh_cn" if lang == "zh" else "en_us")
    return runtime.router.route(text, lang, ScopeState("t"), snapshot, now=0.0).module_id
