"""The routing pipeline through LocalAssistant: order of steps, modes, cache writes, counters."""
from __future__ import annotations

import json
from typing import Any
from collections.abc import Callable

import pytest

from engine.actions import Action, ReplyToPlayer
from engine.assistant import AssistantRuntime, LocalAssistant
from engine.routing.config import Mode, parse_config
from engine.actions import AskModel, RunLine
from engine.llm.calls import ModelCall
from engine.llm.service import LlmService
from engine.routing.model_hook import ModelRoutingRequest
from engine.world.snapshot import WorldSnapshot
from engine.routing.router import option_number
from engine.routing.stats import Reason
from tests.engine.conftest import asked, expand, keyed_llm, make_snapshot, model_chooses


class FakeModel(LlmService):
    """The model service (with a key) recording each routing request; the test answers its calls by hand."""

    def __init__(self) -> None:
        super().__init__(keyed_llm().settings)
        self.requests: list[ModelRoutingRequest] = []
        self.calls: list[ModelCall] = []

    def routing_call(self, request: ModelRoutingRequest, *args: Any, **kwargs: Any) -> ModelCall:
        call = super().routing_call(request, *args, **kwargs)
        self.requests.append(request)
        self.calls.append(call)
        return call

    def choose(self, assistant: LocalAssistant, command_line: str, snap: WorldSnapshot, now: float) -> list[Action]:
        """The model's answer to the latest call: the tool of ``command_line``."""
        return model_chooses(assistant, AskModel(self.calls[-1]), command_line, snap, now)


def text_of(actions: list[Action]) -> str:
    return "\n".join(line for a in actions if isinstance(a, ReplyToPlayer) for line in a.lines)


@pytest.fixture
def model() -> FakeModel:
    return FakeModel()


@pytest.fixture
def with_model(runtime_factory: Callable[..., AssistantRuntime], model: FakeModel) -> AssistantRuntime:
    return runtime_factory(llm=model)


def test_option_number_syntax() -> None:
    assert option_number("2") == 2
    assert option_number("#3") == 3
    assert option_number("第1个") == 1
    assert option_number("option 2") == 2
    assert option_number("2 diamonds") is None


def test_option_number_runs_the_cards_explicit_command(runtime_factory: Callable[..., AssistantRuntime]) -> None:
    runtime = runtime_factory()
    assistant = runtime.new_assistant()
    snap = make_snapshot()
    card = assistant.request("where in the world am i yeet", snap, now=0.0)
    assert "!pos" in text_of(card)
    picked = assistant.request("1", snap, now=5.0)
    assert picked == [RunLine("!pos")]  # the session runs it through the command table
    assert "You are at 10.5, 64, -20.2" in text_of(expand(assistant, picked, snap, 5.0))
    assert runtime.stats.counters[Reason.OPTION] == 1


def test_option_numbers_expire_and_are_checked(runtime_factory: Callable[..., AssistantRuntime]) -> None:
    assistant = runtime_factory().new_assistant()
    snap = make_snapshot()
    assistant.request("where in the world am i yeet", snap, now=0.0)
    assert "Pick a number from 1 to" in text_of(assistant.request("9", snap, now=1.0))
    assistant.request("where in the world am i yeet", snap, now=10.0)
    assert "You are at" not in text_of(assistant.request("1", snap, now=10_000.0))


def test_explicit_phrase_comes_before_the_index(runtime_factory: Callable[..., AssistantRuntime]) -> None:
    runtime = runtime_factory()
    reply = runtime.new_assistant().request("pos", make_snapshot(), now=0.0)
    assert "You are at" in text_of(reply)
    assert runtime.stats.counters == {Reason.EXPLICIT: 1}


def test_model_choice_of_a_read_module_is_cached_and_re_parsed_on_hit(
    with_model: AssistantRuntime, model: FakeModel
) -> None:
    assistant = with_model.new_assistant()
    snap = make_snapshot(inventory={10: _torch(5)})
    text = "torches how many do i have"
    assert asked(assistant.request(text, snap, now=0.0))
    request = model.requests[-1]
    assert request.text == text and request.ticket.key is not None
    reply = model.choose(assistant, "!inv minecraft:torch", snap, now=1.0)
    assert "You have 5 × Torch" in text_of(reply)
    assert with_model.stats.counters[Reason.CACHE_WRITE] == 1
    # Same text again: no model call, the inventory is read again (now 7 torches).
    again = assistant.request(text, make_snapshot(inventory={10: _torch(7)}), now=2.0)
    assert "You have 7 × Torch" in text_of(again)
    assert len(model.requests) == 1
    assert with_model.stats.counters[Reason.CACHE_HIT] == 1


def test_cache_is_not_written_with_an_unfamiliar_topic(with_model: AssistantRuntime, model: FakeModel) -> None:
    assistant = with_model.new_assistant()
    snap = make_snapshot(inventory={10: _torch(5)})
    text = "how many torches are hiding in my pockets"
    assistant.request(text, snap, now=0.0)
    reply = model.choose(assistant, "!inv minecraft:torch", snap, now=1.0)
    assert "You have 5 × Torch" in text_of(reply)  # answered, but "hiding"/"pockets" are not covered: not cached
    assert len(with_model.cache) == 0


def test_filler_and_wording_do_not_block_the_cache(with_model: AssistantRuntime, model: FakeModel) -> None:
    # Every term is familiar to agent:inventory, none of its examples reads like this,
    # the filler ("yo", "bro", "pls", "rn") is no term at all and "yeet" is no English
    # word, so it names no topic: cached.
    assistant = with_model.new_assistant()
    snap = make_snapshot(inventory={10: _torch(5)})
    text = "yo bro torches in inv rn how many got pls yeet"
    assert asked(assistant.request(text, snap, now=0.0))
    model.choose(assistant, "!inv minecraft:torch", snap, now=1.0)
    assert len(with_model.cache) == 1
    again = assistant.request(text, make_snapshot(inventory={10: _torch(6)}), now=2.0)
    assert "You have 6 × Torch" in text_of(again) and len(model.requests) == 1


def test_an_unknown_word_that_names_no_topic_does_not_block_the_cache(
    with_model: AssistantRuntime, model: FakeModel
) -> None:
    # Issue 23: "ayo" and "wagwan" are no English words, so they name nothing the
    # position module could be wrong about; the repeat a minute later is a hit.
    assistant = with_model.new_assistant()
    snap = make_snapshot()
    # (Not "ayo wassup whats my location…": since the sixth round its question clause goes direct;
    # nor "wassup": since the tenth it is read as "was sup", run together.)
    text = "ayo wagwan my location in this world rn"
    assert asked(assistant.request(text, snap, now=0.0))
    model.choose(assistant, "!pos", snap, now=1.0)
    assert len(with_model.cache) == 1
    again = assistant.request(text, snap, now=60.0)
    assert "You are at" in text_of(again) and len(model.requests) == 1


@pytest.mark.parametrize("text", ["where is my house rn", "any village near my location", "my dog location"])
def test_an_unknown_word_that_may_be_a_topic_blocks_the_cache(
    with_model: AssistantRuntime, model: FakeModel, text: str
) -> None:
    assistant = with_model.new_assistant()
    snap = make_snapshot()
    assistant.request(text, snap, now=0.0)
    model.choose(assistant, "!pos", snap, now=1.0)
    assert len(with_model.cache) == 0


# "和 血量 经验 模式" opens with "and" (it continues another line), so it is not anchored and the
# model decides; "血量 经验 和 模式" itself now goes direct (test_anchored.py), as does "hp xp and
# gamemode pls" (the please asks for it).
@pytest.mark.parametrize("text, locale", [("hp xp and gamemode", "en_us"), ("和 血量 经验 模式", "zh_cn")])
def test_topics_familiar_to_the_module_are_cached_though_no_one_example_has_them_all(
    with_model: AssistantRuntime, model: FakeModel, text: str, locale: str
) -> None:
    # The seed's gap is an *unfamiliar* topic; the closest single example needs not hold every topic.
    assistant = with_model.new_assistant()
    snap = make_snapshot(locale=locale)
    assert asked(assistant.request(text, snap, now=0.0))
    model.choose(assistant, "!status", snap, now=1.0)
    assert len(with_model.cache) == 1


def test_chinese_particles_do_not_block_the_cache(with_model: AssistantRuntime, model: FakeModel) -> None:
    assistant = with_model.new_assistant()
    snap = make_snapshot(locale="zh_cn")
    text = "和 请问呀 背包 手上 啥 有 呢"  # opens with 和: not anchored, so the model is asked
    assert asked(assistant.request(text, snap, now=0.0))
    model.choose(assistant, "!inv", snap, now=1.0)
    assert len(with_model.cache) == 1


def test_a_model_chosen_write_is_never_executed_nor_cached(with_model: AssistantRuntime, model: FakeModel) -> None:
    assistant = with_model.new_assistant()
    snap = make_snapshot()
    text = "please bring me over to 10 64 10"
    assistant.request(text, snap, now=0.0)
    reply = model.choose(assistant, "!goto 10 64 10", snap, now=1.0)
    assert isinstance(reply[0], ReplyToPlayer)
    # A card button the player must click: it shows the command and sends the card's id and version.
    assert reply[0].buttons[0].label == "!goto 10 64 10"
    assert reply[0].buttons[0].command.startswith("/agent card ")
    assert "Not available yet" not in text_of(reply)  # nothing ran
    assert len(with_model.cache) == 0


def test_cache_is_not_written_when_arguments_disagree(with_model: AssistantRuntime, model: FakeModel) -> None:
    assistant = with_model.new_assistant()
    snap = make_snapshot()
    text = "torches how many do i have"
    assistant.request(text, snap, now=0.0)
    model.choose(assistant, "!inv minecraft:diamond", snap, now=1.0)
    assert len(with_model.cache) == 0


def test_two_players_never_share_the_cache(with_model: AssistantRuntime, model: FakeModel) -> None:
    alice, bob = with_model.new_assistant(), with_model.new_assistant()
    snap = make_snapshot()
    text = "torches how many do i have"
    alice.request(text, snap, now=0.0)
    model.choose(alice, "!inv minecraft:torch", snap, now=1.0)
    bob.request(text, snap, now=2.0)
    assert len(model.requests) == 2  # bob's identical request still went to the model


def test_late_model_answer_after_disconnect_is_dropped(with_model: AssistantRuntime, model: FakeModel) -> None:
    assistant = with_model.new_assistant()
    snap = make_snapshot()
    text = "torches how many do i have"
    assistant.request(text, snap, now=0.0)
    assistant.clear_scope()
    assert model.choose(assistant, "!inv minecraft:torch", snap, now=1.0) == []
    assert len(with_model.cache) == 0


def test_late_cache_write_after_memory_clear_is_dropped(with_model: AssistantRuntime, model: FakeModel) -> None:
    assistant = with_model.new_assistant()
    snap = make_snapshot()
    text = "torches how many do i have"
    assistant.request(text, snap, now=0.0)
    ticket = model.requests[-1].ticket
    # The ticket survives but its key carries the old memory generation.
    assistant.memory_generation += 1
    assert with_model.router.remember(ticket.key, text, "agent:inventory", None, snap, 1.0) is False


def test_history_off_means_no_cache_read_or_write(with_model: AssistantRuntime, model: FakeModel) -> None:
    assistant = with_model.new_assistant()
    assistant.set_history(False)
    snap = make_snapshot()
    assistant.request("torches how many do i have", snap, now=0.0)
    assert model.requests[-1].ticket.key is None


def test_model_gets_candidates_and_catalog(with_model: AssistantRuntime, model: FakeModel) -> None:
    with_model.new_assistant().request("where in the world am i yeet", make_snapshot(), now=0.0)
    request = model.requests[-1]
    assert request.candidates and request.candidates[0].module_id == "agent:position"
    assert request.candidates[0].command_line == "!pos"
    catalog = {c.module_id: c for c in request.catalog}
    assert catalog["agent:goto"].read_only is False
    assert "agent:routing" not in catalog


def test_shadow_mode_counts_but_never_goes_direct(runtime_factory: Callable[..., AssistantRuntime], model: FakeModel) -> None:
    runtime = runtime_factory(parse_config('{"mode": "SHADOW"}'), llm=model)
    assistant = runtime.new_assistant()
    assert asked(assistant.request("where am i", make_snapshot(), now=0.0))
    assert runtime.stats.counters[Reason.SHADOW_DIRECT] == 1
    assert model.requests[-1].candidates == ()
    assert model.requests[-1].ticket.key is None


def test_off_mode_skips_index_and_cache_but_keeps_explicit(runtime_factory: Callable[..., AssistantRuntime]) -> None:
    runtime = runtime_factory(parse_config('{"mode": "OFF"}'))
    assert runtime.index is None
    assistant = runtime.new_assistant()
    assert "not sure" in text_of(assistant.request("where am i", make_snapshot(), now=0.0))
    assert "You are at" in text_of(assistant.request("pos", make_snapshot(), now=0.0))
    assert runtime.stats.counters[Reason.MODE_OFF] == 1


def test_too_long_requests_are_not_matched_locally(runtime_factory: Callable[..., AssistantRuntime]) -> None:
    runtime = runtime_factory(parse_config('{"maxCharacters": 20}'))
    reply = runtime.new_assistant().request("where am i " + "x" * 30, make_snapshot(), now=0.0)
    assert "too long" in text_of(reply)
    assert runtime.stats.counters[Reason.TOO_LONG] == 1


def test_latest_match_and_counters_hold_no_text_or_uuid(runtime_factory: Callable[..., AssistantRuntime]) -> None:
    runtime = runtime_factory()
    assistant = runtime.new_assistant()
    snap = make_snapshot()
    secret = "where am i zanzibar"
    assistant.request(secret, snap, now=0.0)
    assistant.request("where am i", snap, now=0.0)
    lines = "\n".join(runtime.diagnostics())
    assert "zanzibar" not in lines and "uuid-" not in lines and "where am i" not in lines
    assert "latest match: agent:position [en] score=1.000" in lines
    assert "DIRECT=1" in lines
    assert repr(runtime.stats.latest).count("zanzibar") == 0


def test_reload_applies_mode_and_limits(tmp_path: object, runtime_factory: Callable[..., AssistantRuntime]) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "system-semantic.json"
    runtime = AssistantRuntime.from_file(path, items=runtime_factory().items)
    assert path.exists() and runtime.config.mode is Mode.ENFORCE
    path.write_text(json.dumps({"mode": "SHADOW", "cacheEntries": 5, "examples": {"agent:status": {"en": ["vitals"]}}}))
    lines = runtime.reload_lines()
    assert runtime.config.mode is Mode.SHADOW and runtime.cache.max_entries == 5
    assert any("restart" in line and "examples" in line for line in lines)


def _torch(count: int) -> object:
    from engine.events import SlotItem

    return SlotItem("minecraft:torch", count)
