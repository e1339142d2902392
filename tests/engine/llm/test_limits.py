"""Per-player rate, global concurrency and the daily token budget; no loop gets past them."""
from __future__ import annotations

from engine.actions import AskModel
from engine.llm.calls import Completion
from engine.llm.limits import DAY, Limit, LimitSettings, ModelLimits
from engine.llm.testing import text_body
from tests.engine.conftest import make_snapshot
from tests.engine.llm.conftest import RigFactory, asks, text


def test_rate_is_per_player_and_slides() -> None:
    limits = ModelLimits(LimitSettings(requests_per_minute=2, max_concurrent=10, daily_tokens=10**6,
                                       per_player_concurrent=10))
    assert limits.admit("alice", 0.0) is None
    assert limits.admit("alice", 10.0) is None
    assert limits.admit("alice", 20.0) is Limit.RATE
    assert limits.admit("bob", 20.0) is None
    assert limits.seconds_until_allowed("alice", 20.0) == 40.0
    assert limits.admit("alice", 60.0) is None  # the first request left the window


def test_concurrency_is_global_and_freed_by_finish() -> None:
    limits = ModelLimits(LimitSettings(requests_per_minute=100, max_concurrent=2, daily_tokens=10**6))
    assert limits.admit("a", 0.0) is None and limits.admit("b", 0.0) is None
    assert limits.admit("c", 0.0) is Limit.CONCURRENCY
    limits.finish("a", 10, 1.0)
    assert limits.admit("c", 1.0) is None


def test_one_player_has_one_call_in_flight_and_cannot_hold_every_slot() -> None:
    limits = ModelLimits(LimitSettings(requests_per_minute=100, max_concurrent=4, daily_tokens=10**6))
    assert limits.admit("mallory", 0.0) is None
    assert limits.admit("mallory", 0.1) is Limit.PLAYER_BUSY
    assert limits.admit("mallory", 0.2) is Limit.PLAYER_BUSY
    assert limits.admit("alice", 0.3) is None and limits.admit("bob", 0.3) is None
    limits.finish("mallory", 10, 1.0)
    assert limits.admit("mallory", 1.0) is None


def test_a_second_question_while_the_first_is_with_the_model_is_told_to_wait(rig_factory: RigFactory) -> None:
    rig = rig_factory(limits=LimitSettings(max_concurrent=4, requests_per_minute=100))
    alice = rig.assistant()
    first = alice.request("hey assistant how is your day going", make_snapshot(), 1000.0)
    assert len(asks(first)) == 1
    second = alice.request("hey assistant what is the meaning of all this", make_snapshot(), 1000.5)
    assert asks(second) == [] and "still with the model" in text(second)
    (ask,) = asks(first)
    rig.runtime.model_finished(ask.call, Completion("hi", (), 40, 2), 1001.0)
    assert len(asks(alice.request("hey assistant what is the meaning of all this", make_snapshot(), 1002.0))) == 1


def test_budget_resets_at_utc_midnight() -> None:
    limits = ModelLimits(LimitSettings(requests_per_minute=100, max_concurrent=10, daily_tokens=100))
    start = 3 * DAY + 100.0
    assert limits.admit("a", start) is None
    limits.finish("a", 150, start + 1)
    assert limits.admit("a", start + 2) is Limit.BUDGET
    assert limits.admit("a", 4 * DAY) is None


def test_limit_messages_reach_the_player(rig_factory: RigFactory) -> None:
    rig = rig_factory(default=text_body("hello"), limits=LimitSettings(requests_per_minute=1))
    assistant = rig.assistant()
    assert "AI: hello" in text(rig.ask(assistant, "hey assistant how is your day going", now=1000.0))
    refused = text(rig.ask(assistant, "hey assistant how is your day going", now=1010.0))
    assert "You asked the model 1 times in the last minute; wait 51 s" in refused
    assert rig.calls == 1


def test_concurrency_refusal_says_busy(rig_factory: RigFactory) -> None:
    rig = rig_factory(limits=LimitSettings(max_concurrent=1))
    alice, bob = rig.assistant(), rig.assistant()
    first = alice.request("hey assistant how is your day going", make_snapshot(), 1000.0)
    assert len(asks(first)) == 1  # in flight, not answered yet
    second = bob.request("hey assistant how is your day going", make_snapshot(), 1000.0)
    assert asks(second) == [] and "busy" in text(second)


def test_a_self_prompting_loop_cannot_exceed_the_limits(rig_factory: RigFactory) -> None:
    """A model whose every answer is a new request (fed back in a loop) is stopped by the rate limit."""
    rig = rig_factory(default=text_body("@ai where in the world am i yeet, ask yourself again"),
                      limits=LimitSettings(requests_per_minute=5, max_concurrent=1, daily_tokens=10**6))
    assistant = rig.assistant()
    said = "hey assistant how is your day going"
    for n in range(50):
        actions = assistant.request(said, make_snapshot(), 1000.0 + n * 0.1)
        for ask in asks(actions):
            reply = rig.driver.loop.run_until_complete(rig.driver.client.complete(ask.call))
            rig.runtime.model_finished(ask.call, reply, 1000.0)
            shown = assistant.model_answered(ask.call, reply, make_snapshot(), 1000.0)
            said = text(shown).removeprefix("AI: ").removeprefix("@ai ")
        if not asks(actions):
            said = "hey assistant how is your day going"
    assert rig.calls == 5
    assert rig.llm.limits.refused[Limit.RATE] == 45


def test_finished_counts_tokens_even_when_the_player_left(rig_factory: RigFactory) -> None:
    rig = rig_factory()
    assistant = rig.assistant()
    (ask,) = asks(assistant.request("hey assistant how is your day going", make_snapshot(), 1000.0))
    assert isinstance(ask, AskModel)
    assistant.clear_scope()
    rig.runtime.model_finished(ask.call, Completion("hi", (), 40, 2), 1001.0)
    assert assistant.model_answered(ask.call, Completion("hi", (), 40, 2), make_snapshot(), 1001.0) == []
    assert rig.llm.limits.in_flight == 0 and rig.llm.limits.tokens_today == 42
