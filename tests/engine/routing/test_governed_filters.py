"""Filters look at what the word governs (issue 23).

A reference or negation inside a plain question about the player's own state,
or the assistant itself, no longer stops the line; a negation of the request,
a condition on what will happen, a reference back and any write still do.
"""
from __future__ import annotations

import pytest

from engine.assistant import AssistantRuntime
from engine.routing.evaluation import fixture_snapshot
from engine.routing.filters import blocking_filter
from engine.routing.normalize import normalize_text
from engine.routing.router import ScopeState
from engine.routing.terms import TermKind
from tests.engine.routing.routes import module_of as route


def blocked(runtime: AssistantRuntime, text: str) -> TermKind | None:
    return blocking_filter(runtime.vocabulary.analyze(normalize_text(text)))


@pytest.mark.parametrize(
    "text",
    [
        "how does this work", "how does this thing work", "what can this bot do", "这个怎么用", "这个东西能干嘛",
        "whats my location in this world", "do i have any mail that i haven't read", "emeralds that i have",
        "am i not at full health", "is my hunger not full yet", "饱食度还没满吗", "我是不是没在下界",
        "any messages while i was away", "what did i miss while i was afk", "我不在的时候有人找我吗",
        "is there a help menu", "are there messages for me", "the vault block, what's its id", "宝库这个方块id叫啥",
        "cobblestone's id is what again", "my coords again", "where's the autopilot at in its plan",
        "idk where i am", "i dont know where i am",
    ],
)
def test_harmless_filter_words_no_longer_stop_the_line(shared_runtime: AssistantRuntime, text: str) -> None:
    assert blocked(shared_runtime, text) is None


# Beside test_language_and_vocabulary.py's test_conservative_filters, which keeps the
# plain cases ("don't tell me my coords", "what is that", "如果血量低"): these are the
# lines closest to the governed readings.
@pytest.mark.parametrize(
    "text, kind",
    [
        ("do not show my inventory", TermKind.NEGATION),
        ("我不饿", TermKind.NEGATION),
        ("i am not asking where i am", TermKind.NEGATION),
        ("when i get hungry tell me", TermKind.CONDITION),
        ("tell me when it gets dark", TermKind.CONDITION),
        ("what is this", TermKind.REFERENCE),
        ("how much is that worth", TermKind.REFERENCE),
        ("where did that come from", TermKind.REFERENCE),
        ("这个多少钱", TermKind.REFERENCE),
        ("how much is it", TermKind.REFERENCE),
        ("what is it again", TermKind.REFERENCE),
        ("go there", TermKind.REFERENCE),
        ("do it again", TermKind.REFERENCE),
        ("show my items that i can eat", TermKind.WRITE),
        ("what can this bot build", TermKind.WRITE),
    ],
)
def test_what_must_stay_with_the_model_still_stops(shared_runtime: AssistantRuntime, text: str, kind: TermKind) -> None:
    assert blocked(shared_runtime, text) is kind


@pytest.mark.parametrize("text", ["am i hungry? whats my food bar at", "got any oak logs left? how many", "my coords? pls"])
def test_sentences_that_ask_one_thing_are_one_request(shared_runtime: AssistantRuntime, text: str) -> None:
    assert blocked(shared_runtime, text) is None


@pytest.mark.parametrize("text", ["where am i? how hungry am i", "my coords? take me home", "inventory. then eat"])
def test_sentences_that_ask_two_things_stay_a_compound(shared_runtime: AssistantRuntime, text: str) -> None:
    assert blocked(shared_runtime, text) is not None


# A purpose clause after a complete question says why it is asked; one that opens the
# line is the request itself, and its write still stops it.
@pytest.mark.parametrize(
    "text, lang, module",
    [
        ("what y level am i at, trying to strip mine", "en", "agent:position"),
        ("tell me where i am so i can write it down", "en", "agent:position"),
        ("whats my hp, trying to fight the wither", "en", "agent:status"),
        ("查下我的y值，想挖钻石", "zh", "agent:position"),
        ("我血量多少，准备打末影龙", "zh", "agent:status"),
        # The 我 of the purpose is not the asker's own position: the named player's is asked.
        ("alex在哪个位置 我要去找她", "zh", "agent:players"),
        ("我的坐标 我要去找alex", "zh", "agent:position"),
    ],
)
def test_a_purpose_clause_after_a_question_is_not_the_request(
    shared_runtime: AssistantRuntime, text: str, lang: str, module: str
) -> None:
    assert route(shared_runtime, text, lang) == module


@pytest.mark.parametrize(
    "text, kind",
    [
        ("i want to go to the nether", TermKind.WRITE),
        ("我想去下界", TermKind.WRITE),
        ("带我回家，想睡觉", TermKind.WRITE),
        ("don't tell me my coords, trying to guess", TermKind.NEGATION),
    ],
)
def test_a_purpose_that_is_the_request_still_stops(shared_runtime: AssistantRuntime, text: str, kind: TermKind) -> None:
    assert blocked(shared_runtime, text) is kind


@pytest.mark.parametrize(
    "text, lang",
    [("where are diamonds, trying to mine", "en"), ("where is the nearest village so i can trade", "en"),
     ("钻石在哪，想挖", "zh"), ("村庄在哪，我想交易", "zh")],
)
def test_a_question_before_a_purpose_is_still_judged_on_its_own(shared_runtime: AssistantRuntime, text: str, lang: str) -> None:
    # Without its purpose the line is "where are diamonds": no module answers that.
    snapshot = fixture_snapshot("zh_cn" if lang == "zh" else "en_us")
    assert shared_runtime.router.route(text, lang, ScopeState("t"), snapshot, now=0.0).module_id is None


# "until"/"till" before a goal that ends the line measures the way to it; before a
# clause (a verb, a person) it is still a condition on what will happen.
@pytest.mark.parametrize("text", ["how much xp until next level", "how many steps left till iron pickaxe",
                                  "how many steps left until the iron pickaxe"])
def test_until_a_goal_is_not_a_condition(shared_runtime: AssistantRuntime, text: str) -> None:
    assert blocked(shared_runtime, text) is None


@pytest.mark.parametrize("text", ["how much xp until i level up", "tell me my coords until i stop", "wait until night",
                                  "until next level", "show my health till it drops"])
def test_until_a_clause_is_still_a_condition(shared_runtime: AssistantRuntime, text: str) -> None:
    assert blocked(shared_runtime, text) is not None


# Chinese says "when X, tell me" without 如果: an event ending in 了/时/就, then 告诉我/通知我/提醒我.
@pytest.mark.parametrize("text", ["Steve上线了告诉我", "自动驾驶完成了告诉我", "自动驾驶做完了告诉我", "血满了告诉我", "alex下线了就通知我", "天黑了叫我", "血量低了提醒我", "有人上线就通知我", "Alex上线时告诉我",
                                  "饿了跟我说"])
def test_zh_event_then_tell_me_is_a_condition(shared_runtime: AssistantRuntime, text: str) -> None:
    assert blocked(shared_runtime, text) is TermKind.CONDITION
    snapshot = fixture_snapshot("zh_cn")
    assert shared_runtime.router.route(text, "zh", ScopeState("t"), snapshot, now=0.0).module_id is None


@pytest.mark.parametrize("text", ["告诉我我的坐标", "Steve在线吗，告诉我", "有没有人给我留言，提醒我一下"])
def test_zh_tell_me_without_an_event_is_no_condition(shared_runtime: AssistantRuntime, text: str) -> None:
    assert blocked(shared_runtime, text) is not TermKind.CONDITION


# "is this the nether" as "这是下界不": the place the player is in.
@pytest.mark.parametrize("text", ["what game mode is this", "what dimension is this", "is this the nether"])
def test_this_after_what_dimension_or_mode_is_the_players_own(shared_runtime: AssistantRuntime, text: str) -> None:
    assert blocked(shared_runtime, text) is None


@pytest.mark.parametrize("text", ["what block is this", "what item is this", "what is this", "is this a nether fortress"])
def test_other_this_still_refers_back(shared_runtime: AssistantRuntime, text: str) -> None:
    assert blocked(shared_runtime, text) is TermKind.REFERENCE


# Pronouns whose antecedent is in the line, writes that ask what happened or how far something
# got (issue 23, ninth round): the line is a plain question.
@pytest.mark.parametrize(
    "text",
    ["is steve still logged in or did he leave", "is alex nearby or did she wander off, how far",
     "has the autopilot got iron yet, what step is it on", "did steve send me anything while i was gone",
     "what messages did you save for me", "自动跑图跑到哪一步了", "进度到多少了",
     # A step reached, named by what it gets, then the step asked about (eleventh round).
     "自动驾驶到下界那步了吗", "机器人拿到铁了没 在第几步"],
)
def test_what_the_line_itself_names_or_asks_about_does_not_stop_it(shared_runtime: AssistantRuntime, text: str) -> None:
    assert blocked(shared_runtime, text) is None


@pytest.mark.parametrize(
    "text, kind",
    [
        ("what is he holding", TermKind.REFERENCE),  # nobody named: "he" is someone from earlier
        ("where is she", TermKind.REFERENCE),
        ("did you see that", TermKind.REFERENCE),
        ("send me a diamond", TermKind.WRITE),  # no "did": a request
        ("where is alex, give alex a diamond", TermKind.WRITE),
        ("自动驾驶跑到村庄", TermKind.WRITE),  # the move reaches a place, not a question
        ("跑到哪里去挖铁", TermKind.WRITE),  # a second write
        ("带我跑到哪一步", TermKind.WRITE),
        ("带我去下界", TermKind.WRITE), ("拿到铁", TermKind.WRITE), ("拿到铁再去下界那步", TermKind.COMPOUND),
    ],
)
def test_pronouns_and_writes_about_something_else_still_stop(
    shared_runtime: AssistantRuntime, text: str, kind: TermKind
) -> None:
    assert blocked(shared_runtime, text) is kind


# A read verb opening the line, or a please closing one that states nothing, asks to be shown.
@pytest.mark.parametrize(
    "text, module",
    [("check my inventory for ender pearls", "agent:inventory"), ("hunger bar status pls", "agent:status"),
     ("my inventory is full pls", None), ("tell steve where i am", None), ("what is xp", None)],
)
def test_a_request_to_be_shown_asks(shared_runtime: AssistantRuntime, text: str, module: str | None) -> None:
    snapshot = fixture_snapshot("en_us")
    assert shared_runtime.router.route(text, "en", ScopeState("t"), snapshot, now=0.0).module_id == module


# 莫得/没得 are 没有 in south-western speech; "了没" asks whether it happened, even before a
# second phrase; a past time in a line about messages says when they came.
@pytest.mark.parametrize("text", ["有莫得人在线哦", "有人私聊我没得", "alex上线了没 在哪", "steve刚才给我发消息了没",
                                  "did anyone msg me earlier", "铁那个阶段过了没", "自动驾驶在下界那一步吗"])
def test_dialect_questions_and_times_of_messages_do_not_stop_the_line(shared_runtime: AssistantRuntime, text: str) -> None:
    assert blocked(shared_runtime, text) is None


@pytest.mark.parametrize(
    "text, kind",
    [("我还没有", TermKind.NEGATION), ("我背包里什么都没有", TermKind.NEGATION), ("那个坐标是多少", TermKind.REFERENCE),
     ("what did you say earlier", TermKind.REFERENCE), ("刚才那个是什么", TermKind.REFERENCE)],
)
def test_statements_and_references_back_still_stop(shared_runtime: AssistantRuntime, text: str, kind: TermKind) -> None:
    assert blocked(shared_runtime, text) is kind


# What the player just did, said around a question, is context even with a verb in it; an
# imperative is not ("just take me home" asks for something to be done).
@pytest.mark.parametrize(
    "text, lang, module",
    [("i was mining, where am i", "en", "agent:position"), ("刚去吃饭了 有没有人找我", "zh", "agent:inbox"),
     ("有人给我发信息吗 刚在打副本", "zh", "agent:inbox"), ("just take me home, where am i", "en", None),
     ("带我回家 我在哪", "zh", None), ("did alex send me anything", "en", "agent:inbox"),
     ("did steve send me a diamond", "en", None), ("我这是在哪个世界", "zh", "agent:position"), ("他在哪", "zh", None),
     ("for the stream: what stage is the autopilot at", "en", "agent:progress"), ("note: take me home", "en", None)],
)
def test_what_the_player_just_did_is_context(shared_runtime: AssistantRuntime, text: str, lang: str,
                                             module: str | None) -> None:
    assert route(shared_runtime, text, lang) == module


@pytest.mark.parametrize("text, lang, module", [
    ("tell me if im in the nether", "en", "agent:position"), ("is this the nether", "en", "agent:position"),
    ("面包还够吃吗，剩几个", "zh", "agent:inventory"), ("tell me if my health drops", "en", None),
    ("tell me if someone messages me", "en", None),
])
def test_whether_the_player_is_somewhere_is_no_condition(shared_runtime: AssistantRuntime, text: str, lang: str,
                                                         module: str | None) -> None:
    assert route(shared_runtime, text, lang) == module


# A time back then that opens a question about messages says when they came ("打boss那会儿有人msg我吗");
# the same time before a request for a reminder is a condition on what is still to come.
@pytest.mark.parametrize("text, module", [
    ("打boss那会儿有人msg我吗", "agent:inbox"), ("我打boss的时候有人私聊我吗", "agent:inbox"),
    ("挂机那个进度咋样了", "agent:progress"), ("我血少的时候提醒我一下", None), ("ai 背包满了的时候提醒我", None),
    ("我下线的时候有消息就提醒我", None), ("帮我完成这个任务", None), ("那会儿你说的是啥", None),
])
def test_a_time_back_then_frames_the_inbox_question(shared_runtime: AssistantRuntime, text: str,
                                                    module: str | None) -> None:
    snapshot = fixture_snapshot("zh_cn")
    assert shared_runtime.router.route(text, "zh", ScopeState("t"), snapshot, now=0.0).module_id == module


@pytest.mark.parametrize("text, kind", [("what's my health and is it low", None),
                                        ("where am i and is it safe", TermKind.REFERENCE),
                                        ("what's my health and can you fix it", TermKind.REFERENCE)])
def test_it_after_be_points_at_the_state_just_asked(shared_runtime: AssistantRuntime, text: str,
                                                    kind: TermKind | None) -> None:
    assert blocked(shared_runtime, text) is kind


# Clauses that ask one thing in other words are one request, each clause judged on its own;
# clauses that name different things, or lean on each other ("is it", "also"), are not.
@pytest.mark.parametrize("text, lang, module", [
    ("where am i, what are my coords", "en", "agent:position"), ("how many torches do i have, do i have torches", "en",
                                                                 "agent:inventory"),
    ("我在哪 坐标多少", "zh", "agent:position"), ("ai 我在哪 背包里有啥", "zh", None), ("我在哪 谁在线", "zh", None),
    ("whos on, also any mail?", "en", None), ("where am i, how hungry am i", "en", None),
    ("how much health do i have, what's alex's health", "en", None),
])
def test_clauses_that_restate_one_question(shared_runtime: AssistantRuntime, text: str, lang: str,
                                           module: str | None) -> None:
    assert route(shared_runtime, text, lang) == module


# A statement with a clause that asks ("我在写命令方块，给个烈焰棒的id呗"); asked to be shown in
# Chinese; a pronoun the whole line resolves is no reference in its clause; 漏掉的消息 is the inbox.
@pytest.mark.parametrize("text, lang, module", [
    ("我在写命令方块，给个烈焰棒的id呗", "zh", "agent:item"), ("给个钻石呗", "zh", None), ("@ai 功能列表发一下", "zh", "agent:help"),
    ("我要用give指令 ai 告诉我金苹果的id", "zh", "agent:item"), ("把坐标发一下给alex", "zh", None),
    ("first time using this bot, what kind of stuff can i ask it", "en", "agent:help"),
    ("this bot is cool, can it give me diamonds", "en", None), ("刚掉线重连，有没有漏掉的消息", "zh", "agent:inbox"),
    ("我刚去吃了个饭，回来看看有没有人找过我", "zh", "agent:inbox"), ("这个机器人怎么用啊，求教", "zh", "agent:help"),
    ("附魔台怎么做，求教", "zh", None), ("我在下界，背包满了", "zh", None), ("刚上线 有人找我没", "zh", "agent:inbox"),
    ("我背包里都没有", "zh", None),
])
def test_statements_shows_and_pronouns_within_the_line(shared_runtime: AssistantRuntime, text: str, lang: str,
                                                       module: str | None) -> None:
    assert route(shared_runtime, text, lang) == module


# What an amount would be enough for asks nothing of its own; a write with an object after it does.
@pytest.mark.parametrize("text, lang, module", [
    ("do i have enough obby for a portal? need 10", "en", "agent:inventory"),
    ("got enuf diamonds for a pickaxe? need 3", "en", "agent:inventory"), ("我经验等级够附魔吗", "zh", "agent:status"),
    ("i have enough xp, enchant my sword", "en", None), ("is alex strong enough to kill the dragon", "en", None),
    ("do i have enough diamonds to give alex some", "en", None),
])
def test_what_an_amount_is_enough_for(shared_runtime: AssistantRuntime, text: str, lang: str, module: str | None) -> None:
    assert route(shared_runtime, text, lang) == module


# The autopilot stuck is how its run goes; the player stuck is not. A value restates its topic
# ("东还是西" after "which way am i facing"); a question about using the assistant names no topic
# but is still the request beside what the player just did.
@pytest.mark.parametrize("text, lang, module", [
    ("is the autopilot stuck", "en", "agent:progress"), ("自动驾驶是不是卡住了", "zh", "agent:progress"),
    ("自动那个卡住了吧？现在在干嘛", "zh", "agent:progress"), ("我是不是卡住了", "zh", None), ("am i stuck", "en", None),
    ("我现在面朝哪个方向？东还是西", "zh", "agent:position"), ("what are you doing? where am i", "en", None),
    ("我刚来这个服，这个AI怎么用的", "zh", "agent:help"), ("how do i use you, first time here", "en", "agent:help"),
    ("what's it doing now, the auto thing", "en", "agent:progress"), ("i just died, how do i use it", "en", None),
])
def test_stuck_values_and_using_the_assistant(shared_runtime: AssistantRuntime, text: str, lang: str,
                                              module: str | None) -> None:
    assert route(shared_runtime, text, lang) == module


# "wanna know if …" after a complete question says what the answer is for; "till ur done" is a goal;
# 那个 before the goal of the assistant the line names points at it; a job finished or not asks.
@pytest.mark.parametrize("text, lang, module", [
    ("whats my xp lvl, wanna know if i can enchant", "en", "agent:status"),
    ("where am i, check if im in the nether", "en", "agent:position"), ("how many steps left till ur done", "en",
                                                                         "agent:progress"),
    ("你现在忙啥呢 那个目标搞到哪了", "zh", "agent:progress"), ("机器人 你那活干完没", "zh", "agent:progress"),
    ("帮我干活", "zh", None), ("帮我把活干完", "zh", None), ("what's the name id of the redstone torch thingy", "en",
                                                           "agent:item"),
    ("where's alex at, i can see her but lost track", "en", "agent:players"), ("tell me if my health drops", "en", None),
])
def test_purposes_goals_and_jobs(shared_runtime: AssistantRuntime, text: str, lang: str, module: str | None) -> None:
    assert route(shared_runtime, text, lang) == module


@pytest.mark.parametrize("text, lang, module", [
    ("钻石矿的id", "zh", "agent:item"), ("深板岩钻石矿的id叫什么", "zh", "agent:item"), ("我有几个铁矿", "zh", "agent:inventory"),
    ("yo bot what dimension am i in lol i went thru like 3 portals", "en", "agent:position"),
])
def test_ores_by_short_names_and_what_the_player_went_through(shared_runtime: AssistantRuntime, text: str, lang: str,
                                                             module: str | None) -> None:
    assert route(shared_runtime, text, lang) == module


@pytest.mark.parametrize("text, lang, module", [
    ("刚才掉线了，有没有人给我发消息啊", "zh", "agent:inbox"), ("刚才死了，我在哪", "zh", "agent:position"),
    ("刚才alex在线，现在他在哪", "zh", None), ("zidong jindu", "en", "agent:progress"), ("帮我自动挖矿", "zh", None),
])
def test_what_just_happened_and_the_autopilot_said_short(shared_runtime: AssistantRuntime, text: str, lang: str,
                                                         module: str | None) -> None:
    assert route(shared_runtime, text, lang) == module


@pytest.mark.parametrize("text, module", [
    ("any notices for me while i was gone", "agent:inbox"), ("anything for me", "agent:inbox"),
    ("how do i use you, where am i", None),
])
def test_any_opening_a_topic_phrase_asks(shared_runtime: AssistantRuntime, text: str, module: str | None) -> None:
    assert route(shared_runtime, text, "en") == module


# 问题 is no filler: "有什么问题吗" asks nothing of the player's things ("我有个问题" is still filler);
# 稿 after a material is the pickaxe the IME meant.
@pytest.mark.parametrize("text, module", [
    ("有什么问题吗", None), ("有啥问题", None), ("我有个问题 我在哪", "agent:position"), ("@ai 你回答些什么问提", "agent:help"),
    ("bot 怎麼跟你說話 要打什麼指令", "agent:help"), ("谁发消息给我了", "agent:inbox"), ("你打什么", None),
])
def test_questions_and_typing(shared_runtime: AssistantRuntime, text: str, module: str | None) -> None:
    assert route(shared_runtime, text, "zh") == module


def test_a_material_before_gao_is_the_pickaxe() -> None:
    assert normalize_text("我有没有钻石稿子") == "我有没有钻石镐"  # the item's name has no 子
    assert normalize_text("铁镐子还有吗") == "铁镐还有吗"
    assert normalize_text("草稿子") == "草稿子"


@pytest.mark.parametrize("text, lang, module", [
    ("stuff?", "en", None), ("ai 东西", "zh", None), ("my stuff", "en", "agent:inventory"), ("我的东西", "zh", "agent:inventory"),
    ("what stuff do i have", "en", "agent:inventory"),
])
def test_a_vague_word_alone_names_nothing(shared_runtime: AssistantRuntime, text: str, lang: str, module: str | None) -> None:
    assert route(shared_runtime, text, lang) == module


@pytest.mark.parametrize("text, lang, module", [
    ("ai 刚才忙着打龙 有人找我吗", "zh", "agent:inbox"), ("@ai 使用说明发我一下", "zh", "agent:help"),
    ("@ai how many slots are empty in my inv", "en", "agent:inventory"), ("empty my inventory", "en", None),
    ("@ai cords pls im lost af in this cave", "en", "agent:position"), ("i'm lost in this cave, take me home", "en", None),
])
def test_addressed_context_and_empty_slots(shared_runtime: AssistantRuntime, text: str, lang: str,
                                           module: str | None) -> None:
    assert route(shared_runtime, text, lang) == module


@pytest.mark.parametrize("text, lang, module", [
    ("inv full?", "en", "agent:inventory"), ("俺这血还剩多少咧", "zh", "agent:status"), ("我这是在哪", "zh", "agent:position"),
    ("进度条走到多少了", "zh", "agent:progress"), ("帮我走到村庄", "zh", None), ("finish the house", "en", None),
])
def test_own_things_said_short_and_the_progress_bar(shared_runtime: AssistantRuntime, text: str, lang: str,
                                                    module: str | None) -> None:
    assert route(shared_runtime, text, lang) == module


@pytest.mark.parametrize("text, module", [
    ("新人 请问这个ai能问什么问题", "agent:help"), ("@ai 怎么用你啊，输什么指令", "agent:help"), ("这个ai怎么用", "agent:help"),
])
def test_this_ai_in_a_chinese_line_is_the_assistant(shared_runtime: AssistantRuntime, text: str, module: str | None) -> None:
    assert route(shared_runtime, text, "zh") == module


# The topic first, then a question about "it" (issue 23, fourteenth round): the pronoun can only
# point at that topic. With anything else named, or a topic that does not open the line, it
# still refers back.
@pytest.mark.parametrize("text", ["my health, how is it", "food bar, how full is it", "my coordinates, what are they",
                                  "pockets - whats in em", "mailbox, anything in it"])
def test_a_pronoun_after_the_topic_the_line_opens_with_points_at_it(shared_runtime: AssistantRuntime,
                                                                    text: str) -> None:
    assert blocked(shared_runtime, text) is None


@pytest.mark.parametrize("text", ["what is it", "where am i, what is it", "my health and alex, how is it",
                                  "do i have em", "how is it, my health"])
def test_a_pronoun_with_more_than_one_thing_before_it_still_refers_back(shared_runtime: AssistantRuntime,
                                                                       text: str) -> None:
    assert blocked(shared_runtime, text) is TermKind.REFERENCE


# "gonna" after a player named as the subject is that player's verb, not the asker's purpose:
# "is alex gonna starve" asks about alex's hunger, which no module reads.
@pytest.mark.parametrize("text", ["is alex gonna starve soon or nah", "is steve going to die", "is alex gonna starve"])
def test_a_named_players_own_verb_is_no_purpose_clause(shared_runtime: AssistantRuntime, text: str) -> None:
    assert route(shared_runtime, text) is None


# "tell me"/"show us" after a few words of address or politeness still asks to be shown.
@pytest.mark.parametrize("text, module", [
    ("bhai kindly tell me my current location", "agent:position"), ("mate could you show me my inventory", "agent:inventory"),
    ("tell me when my health is low", None), ("please dont tell me my coords", None),
])
def test_tell_me_inside_the_line_asks(shared_runtime: AssistantRuntime, text: str, module: str | None) -> None:
    assert route(shared_runtime, text) == module


# A final "then" closes the question ("who's about then"); "and then" before more still joins two.
@pytest.mark.parametrize("text, module", [("who's about then", "agent:players"), ("where am i then", "agent:position"),
                                          ("where am i and then", None), ("take me home then", None)])
def test_a_final_then_closes_the_question(shared_runtime: AssistantRuntime, text: str, module: str | None) -> None:
    assert route(shared_runtime, text) == module


# Words of the fourteenth round's writers, and what they must not catch: "ping" alone is latency,
# "anyone want to trade" asks others for a trade, not who is on.
@pytest.mark.parametrize("text, module", [
    ("did i get pinged while i was at tea", "agent:inbox"), ("did i get pinged", "agent:inbox"),
    ("how's the job going bot, nearly there?", "agent:progress"), ("what sort of stuff can u help with", "agent:help"),
    ("hlep me figure out how to talk to u", "agent:help"), ("anyone home?", "agent:players"),
    ("how many levels have i got, want to enchant", "agent:status"), ("loadout?", "agent:inventory"),
    ("whats my ping", None), ("anyone wanna trade diamonds?", None), ("anyone want to trade emeralds for iron", None),
])
def test_words_players_use_and_their_look_alikes(shared_runtime: AssistantRuntime, text: str, module: str | None) -> None:
    assert route(shared_runtime, text) == module


# How far or how close, said of the autopilot or its goal, is how far the run has got; with a
# player or a thing named it is still a distance (issue 23, fourteenth round).
@pytest.mark.parametrize("text, module", [
    ("ai autopilot how far", "agent:progress"), ("@ai how close is it to the goal", "agent:progress"),
    ("@ai how far is the autopilot from finishing", "agent:progress"), ("how far is alex from the goal", None),
    ("is anyone near the autopilot", None),
])
def test_how_far_of_the_autopilot_is_its_progress(shared_runtime: AssistantRuntime, text: str,
                                                  module: str | None) -> None:
    assert route(shared_runtime, text) == module


# Write words that are something else where they stand: "empty" after "is"/"almost" or before the
# inventory is how full; a slash command named after "in"/"for" is its name; "steps to go" remain.
@pytest.mark.parametrize("text, module", [
    ("is my inventory empty", "agent:inventory"), ("how many empty inventory slots do i have", "agent:inventory"),
    ("empty my inventory", None), ("empty inventory", None),
    ("what is the id of smooth stone slab i keep typing it wrong in /give", "agent:item"),
    ("/give me diamonds", None), ("can you /tp me home", None),
    ("ai is the auto mode almost done? like how many steps to go", "agent:progress"),
    ("first time using this bot, where do i even start", "agent:help"), ("ai what can u even do", "agent:help"),
])
def test_write_words_that_write_nothing_where_they_stand(shared_runtime: AssistantRuntime, text: str,
                                                         module: str | None) -> None:
    assert route(shared_runtime, text) == module


# "them diamonds" points at the item it names; past a word between, the colour would be lost
# ("them purple glass panes" reads as the purple stained glass pane only through its own name).
def test_a_demonstrative_before_an_item_and_a_colour_kept(shared_runtime: AssistantRuntime) -> None:
    assert route(shared_runtime, "do i have them diamonds") == "agent:inventory"
    snapshot = fixture_snapshot("en_us")
    found = shared_runtime.router.route("whats the item id for them purple glass panes bot", "en", ScopeState("t"),
                                        snapshot, now=0.0)
    assert found.module_id == "agent:item" and found.args.matches == ("minecraft:purple_stained_glass_pane",)
    assert blocked(shared_runtime, "what about those big ones") is TermKind.REFERENCE
