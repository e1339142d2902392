"""Issue 23, seventh round: kinds of line a fresh writer's tuning split (tuning6) missed.

Each kind is checked both ways on lines written for this test (none is a tuning6 line): the
lines the rule lets through, and lines of the same shape that must stay with the model.
"""
from __future__ import annotations

import pytest

from engine.assistant import AssistantRuntime
from engine.routing.clauses import clauses
from tests.engine.routing.routes import module_of as route


def test_a_space_between_chinese_characters_cuts_a_clause() -> None:
    assert [c for c, _ in clauses("血量多少 刚掉下来摔了")] == ["血量多少", "刚掉下来摔了"]
    assert [c for c, _ in clauses("alex 在线吗")] == ["alex 在线吗"]  # not between two Chinese characters


@pytest.mark.parametrize(
    ("text", "module"),
    [
        # A named sender of a message to the asker: the inbox lists it among the others.
        ("did alex dm me", "agent:inbox"), ("has notch messaged me", "agent:inbox"),
        ("any msgs from Alex?", "agent:inbox"), ("did steve try to message me", "agent:inbox"),
        ("steve有没有给我发消息", "agent:inbox"), ("notch找过我没", "agent:inbox"), ("alex给我留言没", "agent:inbox"),
        ("有人私我吗", "agent:inbox"), ("谁发消息给我了", "agent:inbox"),
        # When the messages came: a past time closing an inbox line.
        ("any pms while i was fighting the warden", "agent:inbox"),
        ("did anyone dm me when i was in the end", "agent:inbox"),
        ("got disconnected for a bit, were there any new messages", "agent:inbox"),
        # A context clause after a space (zh) or saying what the player cannot do.
        ("经验多少级 想去附魔", "agent:status"), ("刚从矿洞出来 我现在坐标多少", "agent:position"),
        ("有几个人在线 服务器好卡", "agent:players"), ("有新消息吗 刚上线", "agent:inbox"),
        ("what gamemode am i in, i cant fly anymore", "agent:status"), ("where am i? cant read f3", "agent:position"),
        ("我是不是在生存模式 挖不动石头", "agent:status"),
        # Words: item ids, help, progress, inventory and status forms.
        ("itemid for ender pearl", "agent:item"), ("whats the blockid for obsidian", "agent:item"),
        ("what do you call cobblestone in commands", "agent:item"),
        ("whats the item id of a copper bulb for a datapack", "agent:item"),
        ("末影珍珠的命令名", "agent:item"), ("下界合金锭英文名字叫什么", "agent:item"),
        ("what can this bot even do lol", "agent:help"), ("介绍下你的功能", "agent:help"),
        ("助手能帮我做什么", "agent:help"), ("我能问哪些问题", "agent:help"), ("你能干些什么", "agent:help"),
        ("what step is the speedrun bot at", "agent:progress"), ("机器人还有几步完成", "agent:progress"),
        ("have i got a diamond pickaxe", "agent:inventory"), ("i have how many diamonds", "agent:inventory"),
        ("how much food do i have left now", "agent:status"), ("how many online in total", "agent:players"),
        # Polite openings of non-native English; "hav".
        ("may i ask where i am", "agent:position"), ("would you mind telling me my coordinates", "agent:position"),
        ("hw many torches i hav", "agent:inventory"),
        # The autopilot by the names players give it; "give me an update on" asks.
        ("自动挂机到第几步了", "agent:progress"), ("自动跑图进行到哪了呀", "agent:progress"),
        ("can you give me an update on the autopilot progress", "agent:progress"),
    ],
)
def test_these_go_direct(shared_runtime: AssistantRuntime, text: str, module: str) -> None:
    assert route(shared_runtime, text) == module


@pytest.mark.parametrize(
    "text",
    [
        # The other direction of a message, another recipient, an ability, a write.
        "did alex get my message", "did steve read my message", "did you message alex", "did i message steve yet",
        "did alex message steve", "can alex message me", "send alex a message", "leave a message for notch",
        "alex收到我的消息了吗", "alex给steve发消息了吗", "我能给alex留言吗", "发消息给alex", "私信给steve说我马上来",
        "did alex mail me the diamonds",
        # A past time outside the inbox; a time to come.
        "what did i have in my inventory when i was in the nether", "how much health did i have when i was in the end",
        "show my messages when i am back", "message alex when i was away",
        # A second question or request after the space; a negation that is no inability.
        "在线几个人 要不要开黑", "几点了 天黑了吗", "我坐标多少 帮我挖到那里", "谁在线 给我一把剑",
        "我血量多少 不要告诉alex", "我血量多少 没吃东西", "我在下界吗 回不去了 帮我传送",
        "where am i? dont tell steve", "where am i, cant you just teleport me home", "i cant find alex, where is he",
        "am i in creative? cant you give me diamonds", "am i in survival? you cant break blocks",
        # Words of this round in lines that ask something else.
        "what do you call a baby zombie", "make a datapack for me", "start the speedrun bot", "stop the auto thing",
        "alex has how many diamonds", "how much food does alex have left", "have i got to eat",
        "你有什么问题吗", "我有个问题", "帮我干活", "帮我完成这个任务", "我完成任务了", "我好无聊", "大佬带带我",
        "给我钻石好不好", "介绍一下下界", "教教我怎么挖钻石",
        "could you please give me diamonds", "are you able to help me build a house", "i hav to go",
        "开启自动挂机", "关掉自动跑图", "自动挂机怎么开", "自动挂机是什么", "keep me updated on the autopilot",
        "速通机器人怎么做", "我卡在哪一步了",
    ],
)
def test_these_stay_with_the_model(shared_runtime: AssistantRuntime, text: str) -> None:
    assert route(shared_runtime, text) is None
