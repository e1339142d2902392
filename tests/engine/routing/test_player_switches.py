"""Engine halves of issue 14's switches: !memory clear, !history off|on, reload re-reading the button phrasings.

The chat commands themselves belong to the command table being built on the
``commands`` branch; these are the calls they will make.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from engine.assistant import AssistantRuntime
from engine.llm.notification_buttons import Dismiss, Hit, NoticeButton, Notification
from engine.routing.cache import make_key
from engine.routing.normalize import normalize_text


def _cache_one(runtime: AssistantRuntime, scope: str, run: int, memory: int) -> None:
    runtime.cache.open_scope(scope, run, memory)
    assert runtime.cache.put(make_key(scope, run, memory, "en", normalize_text("coords pls")), "agent:position", 0.0)


def test_memory_clear_forgets_this_players_cache_only(runtime_factory: Callable[..., AssistantRuntime]) -> None:
    runtime = runtime_factory()
    alice, bob = runtime.new_assistant(), runtime.new_assistant()
    _cache_one(runtime, alice.scope, alice.run_generation, alice.memory_generation)
    _cache_one(runtime, bob.scope, bob.run_generation, bob.memory_generation)
    alice.clear_memory()
    assert runtime.cache.entries_for(alice.scope) == 0
    assert runtime.cache.entries_for(bob.scope) == 1
    # A late write under alice's old generation is dropped.
    old = make_key(alice.scope, 0, 0, "en", normalize_text("coords pls"))
    assert runtime.cache.put(old, "agent:position", 1.0) is False


def test_history_off_stops_cache_reads_and_writes_and_on_starts_them_again(
    runtime_factory: Callable[..., AssistantRuntime],
) -> None:
    runtime = runtime_factory()
    alice = runtime.new_assistant()
    _cache_one(runtime, alice.scope, alice.run_generation, alice.memory_generation)
    alice.set_history(False)
    assert runtime.cache.entries_for(alice.scope) == 0
    assert alice.scope_state().history is False  # the router neither reads nor writes for this scope
    alice.set_history(True)
    assert alice.scope_state().history is True


def test_reload_re_reads_the_notification_button_phrasings(
    runtime_factory: Callable[..., AssistantRuntime], tmp_path: Path
) -> None:
    config = tmp_path / "system-semantic.json"
    config.write_text("{}", encoding="utf-8")
    buttons = tmp_path / "notification-buttons.json"
    buttons.write_text(json.dumps({"buttons": {}}), encoding="utf-8")
    runtime = runtime_factory(config_path=config, button_phrases_path=buttons)
    notice = Notification(1, ("x",), (NoticeButton("notice.dismiss", "dismiss", Dismiss()),
                                      NoticeButton("notice.open_inbox", "open inbox", Dismiss())), "en", 60.0)
    assert not isinstance(runtime.buttons.match(notice, "go away", "en"), Hit)
    buttons.write_text(json.dumps({"buttons": {"notice.dismiss": {"en": ["go away"]}}}), encoding="utf-8")
    lines = runtime.reload_lines()
    assert "notification buttons reloaded: phrasings for 1 buttons" in lines
    hit = runtime.buttons.match(notice, "go away", "en")
    assert isinstance(hit, Hit) and hit.key == "notice.dismiss"
    buttons.write_text("{not json", encoding="utf-8")
    assert any("not reloaded (the old phrasings stay)" in line for line in runtime.reload_lines())
    assert isinstance(runtime.buttons.match(notice, "go away", "en"), Hit)
