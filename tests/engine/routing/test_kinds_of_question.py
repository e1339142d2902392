"""Kinds of line that looked like a module's question but ask something else (issue 23, fifth round).

Each kind found with fresh probe lines; each rule is checked both ways: the lines of that
kind stay with the model, and the module's own question next to them still goes direct.
"""
from __future__ import annotations

import pytest

from engine.assistant import AssistantRuntime
from engine.routing.homophones import HomophoneIndex
from engine.routing.tokens import tokenize
from tests.engine.routing.routes import module_of as route


@pytest.mark.parametrize(
    "text",
    [
        # What a thing is or is for, not the player's value.
        "饱食度是什么", "收件箱是干嘛的", "what's the inbox for", "what are milestones for",
        # Things around the player, not people; a place, not the player.
        "附近有什么", "末地在哪", "where is the end",
        # The game's maximum, an item's attribute, advice, why.
        "满血是多少", "在线人数上限多少", "我的护甲值多少", "how much air do i have", "我该吃什么",
        "我怎么在下界", "is my position right", "why is my hp low", "how come am i hungry",
        # A demonstrative that refers back stays a reference, in a clause of its own too.
        "what about that one, how many do i have", "that thing, where is it",
        # A plea joined to a second request asks for both; a joining word does not make a write a question.
        "help, and also where am i", "also take me home",
        # A deferral still stops: "tell me … before/when …"; "need to" after "i" is the question's verb.
        "before it gets dark, tell me when its night", "tell me my health before i die",
        "how many planks do i need to craft a table",
        # A pronoun is typed on purpose: 我着火 is not 握着 火.
        "我着火了吗",
        # Two requests: "我在哪" asks where the player is though 我 is filler.
        "我在哪，血多少", "谁在线，我在哪", "我在哪？Alex在哪",
        # A role or relation is no nickname.
        "管理在线吗", "我朋友在线吗", "is the admin online",
        # How to use a feature is help's question, not the feature's state.
        "自动驾驶怎么用",
        # The assistant's own things, with an item named too.
        "你背包里有几个钻石", "are you holding diamonds", "有人私聊你吗",
        # Later, not now.
        "过会儿看看背包",
        # Coordinates in another dimension; the nearest of something is a place, not a ladder step;
        # blocks of an item are counted, not walked.
        "下界坐标多少", "what are my nether coords", "how far is the nearest iron",
        # Short of (差, 缺) is not left (剩): how many more are needed, for a goal the line does not name.
        "我还差几个钻石", "还缺几个铁", "how many diamonds do i still need", "how many iron do i need for armor",
        # "going to" after the question's subject is its verb, not a purpose clause; "i know" states.
        "where am i going to find iron", "how am i gonna survive", "i know where i am",
        "i love how my health is low", "funny how my inventory is full",
        # "这是哪里" is the player's place; "这是哪个方块" and "这是哪位" are not (哪位 is a word, not a slip of 哪里).
        "这是哪个方块", "这是哪位", "钻石在第几层",
    ],
)
def test_these_kinds_stay_with_the_model(shared_runtime: AssistantRuntime, text: str) -> None:
    assert route(shared_runtime, text) is None


@pytest.mark.parametrize(
    "text, module",
    [
        ("坐标是什么", "agent:position"), ("背包里都有啥东西", "agent:inventory"), ("附近有谁", "agent:players"),
        ("anyone nearby", "agent:players"), ("血满了吗", "agent:status"), ("我在哪", "agent:position"),
        ("Alex在哪", "agent:players"), ("小明在线吗", "agent:players"), ("is kev online", "agent:players"),
        ("怎么用", "agent:help"), ("what are you good for", "agent:help"), ("我的坐标多少", "agent:position"),
        ("can you check how many diamonds i have", "agent:inventory"), ("where am i right now", "agent:position"),
        ("我在下界吗", "agent:position"), ("我还有几个钻石", "agent:inventory"), ("离铁镐还差多少", "agent:progress"), ("how close is the bot to an iron pickaxe", "agent:progress"),
        ("how many blocks of cobblestone do i have", "agent:inventory"), ("how many blocks away is alex", "agent:players"),
        ("what y level am i at, trying to strip mine", "agent:position"), ("idk where i am", "agent:position"),
    ],
)
def test_their_neighbours_still_go_direct(shared_runtime: AssistantRuntime, text: str, module: str) -> None:
    assert route(shared_runtime, text) == module


@pytest.mark.parametrize(
    "text, module",
    [
        ("health + hunger pls", "agent:status"), ("hp & food", "agent:status"),
        ("how am i doing health wise", "agent:status"), ("what did i miss", "agent:inbox"),
        ("what are you able to do", "agent:help"), ("what kind of stuff can i ask", "agent:help"),
        ("lost lol where am i", "agent:position"), ("which dim am i in", "agent:position"),
        ("这是哪里", "agent:position"), ("我在第几层", "agent:position"),
        # A topic phrase that opens with a question's auxiliary asks.
        ("did i miss any messages", "agent:inbox"),
        # The name the player calls the assistant, before the question.
        ("clanker what do i have", "agent:inventory"), ("jeeves, where am i", "agent:position"),
        # Room in the inventory; the item in hand; a kind in players' words; where "we" are.
        ("is my inventory full", "agent:inventory"), ("whats the id of what im holding", "agent:item"),
        ("我有几把剑", "agent:inventory"), ("where we at", "agent:position"), ("am i low on food", "agent:status"),
        # "this cave" in the clause that says what the player is doing points, it refers back to nothing.
        ("ok so im about to go into this cave, how many torches do i have", "agent:inventory"),
        ("刚进这个洞，我还有几个火把", "agent:inventory"),
        ("sorry to bother you but could you tell me my health", "agent:status"),
        # Two vocabulary words run together; a plea or a joining word that opens a question.
        ("wheream i", "agent:position"), ("invpls", "agent:inventory"), ("HELP WHERE AM I", "agent:position"),
        ("whereami", "agent:position"), ("howmanytorchesdoihave", "agent:inventory"), ("am i in teh end", "agent:position"),
        ("hwo do i use u", "agent:help"), ("tnt的id", "agent:item"), ("偶现在坐标多少啊", "agent:position"),
        ("自动驾驶还要多久 完成多少了", "agent:progress"), ("我的收件箱里有什么", "agent:inbox"),
        # What the player is about to do, said as a plan around the question.
        ("how many food i have, i go to mine now", "agent:status"), ("要盖房子了，我有多少橡木原木", "agent:inventory"),
        ("要回家了，先告诉我现在坐标", "agent:position"), ("@ai 你能帮我查什么", "agent:help"),
        ("bot u done yet?", "agent:progress"), ("how far did you get", "agent:progress"), ("bang zhu", "agent:help"),
        ("你能干神马", "agent:help"), ("i am in the nether or not", "agent:position"),
        ("do I have any torches on me? about to go caving", "agent:inventory"),
        ("id of the thing im holding", "agent:item"), ("自动驾驶现在在执行什么任务", "agent:progress"),
        ("饥饿值duoshao", "agent:status"), ("what is the id of the thing called ender chest", "agent:item"),
        ("im on a boat in the ocean, which way am i facing", "agent:position"), ("no idea where i am lol", "agent:position"),
        ("how many diamonds i have? i need for the pickaxe", "agent:inventory"), ("Steve where?", "agent:players"),
        ("咋整 我迷路了 坐标多少来着", "agent:position"), ("给我康康背包", "agent:inventory"),
        ("what stage is the speedrun bot on", "agent:progress"), ("who on", "agent:players"),
        ("wats da id of netherrack", "agent:item"), ("did the auto thing finish yet", "agent:progress"),
        ("ok chat watch this, hey bot how many diamonds do i have", "agent:inventory"),
        ("lemme check real quick @ai inv", "agent:inventory"), ("wait wait wait how much hp do i have", "agent:status"),
        ("omg where am i??? help", "agent:position"),
        # A pronoun in a context clause is the player the question names.
        ("Alex在哪，我好像看到她了", "agent:players"), ("alex在哪 我看到他了但是找不到", "agent:players"),
        ("where is alex, i can kind of see her over there", "agent:players"),
        ("how far is alex from me, i dont see her good", "agent:players"),
        ("who is neer me", "agent:players"), ("were am i rn", "agent:position"),
        ("where is located steve", "agent:players"), ("ARROW COUNT??", "agent:inventory"),
        ("你都能查什么东东", "agent:help"), ("我现在在那里", "agent:position"),
        ("ai 兄弟 我有水桶不", "agent:inventory"), ("steve在那个位置", "agent:players"),
        ("new here, ai what kind of stuff can you tell me", "agent:help"),
        ("i'm new to this server, what can the ai do for me", "agent:help"), ("@ai how do i ues the bot", "agent:help"),
        ("give me a quick rundown of my health and hunger", "agent:status"),
        ("我要写数据包 告诉我烈焰棒的id", "agent:item"), ("风弹的id 我做数据包要用", "agent:item"),
        ("on a boat, where am i heading", "agent:position"), ("wonder where i am", "agent:position"),
        ("你能不能帮我查下坐标嘛", "agent:position"), ("我是不是快饿死了hhh", "agent:status"),
        ("挖矿挖到一半 火把还有几个", "agent:inventory"), ("steve dist", "agent:players"),
        ("whos online rn lmk", "agent:players"),
        ("@ai 我现在的x和z是多少", "agent:position"), ("@ai 我迷路了 我在哪里 zuo biao 是多少", "agent:position"),
        ("and my xp?", "agent:status"), ("also whats my level", "agent:status"),
        # What the player will do next, said before or after a question asked now.
        ("before i fight the wither, how's my health", "agent:status"), ("打末影龙之前，我血多少", "agent:status"),
        ("what level am i, i wanna enchant my sword", "agent:status"),
        ("how many iron ingots do i have, need to make armor", "agent:inventory"),
        ("刚被苦力怕炸了一下 感觉要死了 ai 我现在多少血", "agent:status"), ("@ai 而家邊個喺線", "agent:players"),
        ("ai check my health please i just fell off a cliff", "agent:status"), ("ai any notices for me", "agent:inbox"),
    ],
)
def test_more_english_ways_to_ask(shared_runtime: AssistantRuntime, text: str, module: str) -> None:
    assert route(shared_runtime, text) == module


@pytest.mark.parametrize(
    "text, module",
    [("你能报坐标吗", "agent:position"), ("你能帮我看看进度吗", "agent:progress"), ("你可以告诉我谁在线吗", "agent:players"),
     ("你能看消息吗", "agent:inbox")],
)
def test_a_polite_chinese_request_to_read_is_the_request(shared_runtime: AssistantRuntime, text: str, module: str) -> None:
    assert route(shared_runtime, text) == module


@pytest.mark.parametrize("text", ["你能帮我看看Alex的背包吗", "你能报一下你的坐标吗", "你能查一下钻石怎么合成吗"])
def test_the_same_request_about_someone_else_stays_with_the_model(shared_runtime: AssistantRuntime, text: str) -> None:
    assert route(shared_runtime, text) is None


def test_a_pronoun_is_never_the_slipped_character() -> None:
    readings = {"我": ("wo",), "握": ("wo",), "着": ("zhe",), "学": ("xue",), "血": ("xue",), "量": ("liang",)}
    index = HomophoneIndex(["握着", "血量"], readings)
    assert index.repair("我着", 1) is None
    assert index.repair("学量", 0) == (0, "学量", "血量")


def test_plus_and_ampersand_join_like_and() -> None:
    assert [t.text for t in tokenize("health + hunger")] == ["health", "and", "hunger"]
    assert [t.text for t in tokenize("hp&food")] == ["hp", "and", "food"]
