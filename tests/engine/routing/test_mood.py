"""Lines that are no request for the player's state stay with the model (issue 23, zh precision).

The vocabulary drops 了, 吗 and 我 as filler and the tokenizer drops quotes, so
these are read from the text (``engine/routing/mood.py``): a statement ("我饿了"),
a quote ("he said "where am i""), a how-to question ("怎么查看自己的血量"), a
where-question with no subject ("在哪"), and the player's state asked of the
assistant ("你饿吗"). Each kind has its question counterpart that still goes direct.
"""
from __future__ import annotations

import pytest

from engine.assistant import AssistantRuntime
from engine.routing.evaluation import fixture_snapshot
from engine.routing.mood import Mood, is_statement, mood
from engine.routing.normalize import normalize_text
from engine.routing.router import ScopeState
from engine.routing.stats import Reason


def route(runtime: AssistantRuntime, text: str, lang: str) -> tuple[str | None, Reason]:
    snapshot = fixture_snapshot("zh_cn" if lang == "zh" else "en_us")
    found = runtime.router.route(text, lang, ScopeState("t"), snapshot, now=0.0)
    return found.module_id, found.reason


@pytest.mark.parametrize(
    "text, lang",
    [
        ("我饿了", "zh"), ("饿了", "zh"), ("我血量满了", "zh"), ("背包满啦", "zh"), ("我到下界了", "zh"),
        ("我在下界", "zh"), ("哈哈我在下界", "zh"), ("我没在下界", "zh"), ("我有钻石", "zh"),
        ("在哪", "zh"), ("在哪里", "zh"),
        ("你饿吗", "zh"), ("你的坐标多少", "zh"), ("where r u", "en"), ("what are your coords", "en"),
        ('有人说"谁在线"', "zh"), ('他问“我在哪”', "zh"), ('he said "where am i"', "en"),
        ('what does "pos" mean', "en"), ("「坐标」英文怎么说", "zh"),
        ("怎么查看自己的血量", "zh"), ("如何看坐标", "zh"), ("how do i check my health", "en"),
        ("how can i see my coordinates", "en"), ("what is a milestone", "en"), ("whats an inventory", "en"),
        ("what's in my friend's inventory", "en"), ("where's my buddy's base", "en"),
    ],
)
def test_what_asks_nothing_of_the_players_state_stays_with_the_model(
    shared_runtime: AssistantRuntime, text: str, lang: str
) -> None:
    assert route(shared_runtime, text, lang)[0] is None


@pytest.mark.parametrize(
    "text, lang, module",
    [
        ("我饿了吗", "zh", "agent:status"), ("我饿不饿", "zh", "agent:status"), ("我饿了没", "zh", "agent:status"),
        ("我在下界吗", "zh", "agent:position"), ("我在哪", "zh", "agent:position"),
        ("我在主世界还是末地啊", "zh", "agent:position"), ("有人找我没", "zh", "agent:inbox"),
        ("重锤id我忘了", "zh", "agent:item"), ("进度咋样了", "zh", "agent:progress"),
        ("我的血量怎么样", "zh", "agent:status"), ("你能做什么", "zh", "agent:help"),
        ("what can you do", "en", "agent:help"), ("whats my health", "en", "agent:status"),
        ("how do i use you", "en", "agent:help"), ("Alex在哪", "zh", "agent:players"),
        ("what is the current milestone", "en", "agent:progress"), ("where am i my friend", "en", "agent:position"),
    ],
)
def test_the_question_counterparts_still_go_direct(
    shared_runtime: AssistantRuntime, text: str, lang: str, module: str
) -> None:
    assert route(shared_runtime, text, lang)[0] == module


@pytest.mark.parametrize(
    "text, expected",
    [
        ("我饿了", Mood.STATES), ("我饿了吗", Mood.ASKS), ('他说"我在哪"', Mood.QUOTES),
        ("我现在在下界", Mood.STATES), ("我目前有钻石", Mood.STATES), ("我的血量是满的", Mood.STATES),
        ("我现在在哪", Mood.ASKS), ("我的血量是满的吗", Mood.ASKS), ("我现在有多少血", Mood.ASKS),
        ("我的坐标是多少", Mood.ASKS), ("我经验30级", Mood.STATES), ("我有64个圆石", Mood.STATES),
        ("离30级还差多少", Mood.ASKS),
        ("怎么查看自己的血量", Mood.HOW_TO), ("how do you check my xp", Mood.HOW_TO), ("how do i use you", Mood.ASKS),
        ("我的坐标", Mood.ASKS), ("谢谢啦", Mood.STATES), ("饿不饿了", Mood.ASKS),
    ],
)
def test_mood_of_the_text(text: str, expected: Mood) -> None:
    normalized = normalize_text(text)
    assert mood(normalized, not normalized.isascii()) is expected


def test_a_statement_is_counted_as_not_asked(shared_runtime: AssistantRuntime) -> None:
    assert route(shared_runtime, "我饿了", "zh") == (None, Reason.NOT_ASKED)


def test_the_statement_check_is_linear_in_the_text() -> None:
    # One pass per check: a long line of 了 costs no more than reading it.
    assert is_statement("我" + "饿" * 20000 + "了")
    assert not is_statement("我" + "饿不" * 20000 + "了吗")
