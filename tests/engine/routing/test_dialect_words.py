"""Cantonese and Taiwanese words are read as Mandarin (issue 23)."""
from __future__ import annotations

import pytest

from engine.assistant import AssistantRuntime
from engine.routing.dialect_words import fold_dialect_words
from tests.engine.routing.routes import module_of as route


@pytest.mark.parametrize("text, mandarin", [
    ("我系唔系喺地狱度", "我是不是在地狱"), ("你而家做紧乜嘢 到边一步", "你现在在做什么 到哪一步"),
    ("你识做咩", "你会做什么"), ("好咩", "好吗"), ("我有几多血", "我有多少血"), ("佢喺边度", "他在哪里"),
    ("有冇人搵我", "有没有人找我"), ("讯息", "消息"), ("你识做啲咩", "你会做什么"), ("主世界定系地狱", "主世界还是地狱"),
    # What Mandarin writes with the same characters is left alone.
    ("我旁边有谁", "我旁边有谁"), ("这边", "这边"), ("要紧", "要紧"), ("赶紧", "赶紧"), ("认识", "认识"),
    ("几点了", "几点了"), ("系统", "系统"),
])
def test_cantonese_words_fold_and_mandarin_stays(text: str, mandarin: str) -> None:
    assert fold_dialect_words(text) == mandarin


@pytest.mark.parametrize("text, module", [
    ("我系唔系喺地狱度", "agent:position"), ("你而家做紧乜嘢 到边一步", "agent:progress"),
    ("ai 你识做咩㗎 讲嚟听下", "agent:help"), ("TNT 的物品 id 系乜", "agent:item"), ("我有几多血", "agent:status"),
    ("有人揾我未", "agent:inbox"), ("@ai 我而家喺主世界定係地獄", "agent:position"), ("我身上有冇床", "agent:inventory"), ("我离线时有人传讯息给我吗", "agent:inbox"),
    # Still someone else, a request, a negation.
    ("佢喺边度", None), ("帮我揾钻石", None), ("我唔想知我喺边度", None), ("传消息给alex", None),
])
def test_cantonese_lines_route_as_their_mandarin(shared_runtime: AssistantRuntime, text: str,
                                                 module: str | None) -> None:
    assert route(shared_runtime, text, "zh") == module


def test_folding_is_one_linear_pass() -> None:
    line = "你而家做紧乜嘢" * 5000
    assert fold_dialect_words(line) == "你现在在做什么" * 5000
