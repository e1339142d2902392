"""A request whose every topic belongs to one module goes to it (issue 23).

The lexical thresholds stay the seed's; this only adds requests whose words
the vocabulary knows entirely and whose topics one module alone uses.
"""
from __future__ import annotations

import pytest

from engine.assistant import AssistantRuntime
from engine.routing.config import default_config
from engine.routing.evaluation import fixture_snapshot
from engine.routing.router import ScopeState
from tests.engine.routing.routes import module_of as route


@pytest.fixture(scope="module")
def runtime() -> AssistantRuntime:
    return AssistantRuntime(default_config())


@pytest.mark.parametrize("text, module", [("how many hearts am i on", "agent:status"),
                                          ("do i carry any food", "agent:inventory")])
def test_a_request_named_by_one_modules_topics_goes_there(runtime: AssistantRuntime, text: str, module: str) -> None:
    analysis = runtime.vocabulary.analyze(text)
    assert runtime.index is not None and runtime.index.anchored(analysis, "en", module)
    assert route(runtime, text) == module


def test_a_greeting_that_sounds_like_a_status_question_is_rejected(runtime: AssistantRuntime) -> None:
    assert route(runtime, "how are you doing") is None


@pytest.mark.parametrize(
    "text, lang",
    [
        ("what is xp", "en"),                    # no one asked about: may ask what xp is
        ("how do i get more xp", "en"),          # unknown words
        ("我在哪和谁在线", "zh"),                 # "and" may join a second question
        ("how many diamonds do i have", "en"),
        ("my inventory is full lol", "en"),      # says something, asks nothing   # the item slot is the item module's too: thresholds decide
    ],
)
def test_what_is_not_anchored(runtime: AssistantRuntime, text: str, lang: str) -> None:
    analysis = runtime.vocabulary.analyze(text)
    assert runtime.index is not None
    assert not any(runtime.index.anchored(analysis, lang, m) for m in (m.id for m in runtime.registry.modules()))


@pytest.mark.parametrize("text, expected", [("how close r we to an iron pickaxe", "agent:progress"),
                                            ("离铁镐还差多少", "agent:progress")])
def test_progress_takes_the_ladders_items(runtime: AssistantRuntime, text: str, expected: str) -> None:
    lang = "zh" if not text.isascii() else "en"
    assert route(runtime, text, lang) == expected


def test_progress_does_not_take_other_items(runtime: AssistantRuntime) -> None:
    assert route(runtime, "how far from the diamond sword are we") != "agent:progress"


def test_a_name_no_one_online_has_is_still_a_player(runtime: AssistantRuntime) -> None:
    snapshot = fixture_snapshot("en_us")
    route_ = runtime.router.route("is alex_99 on rn", "en", ScopeState("t"), snapshot, now=0.0)
    assert route_.module_id == "agent:players" and route_.args.name == "alex_99"
    # A word is no name: "wh0" is a typo of "who", "diamond_sword" an item.
    assert "@player" not in runtime.vocabulary.analyze("wh0 is on").features
    assert "@item" in runtime.vocabulary.analyze("diamond_sword id").features


@pytest.mark.parametrize("text, module", [("am i hungry? whats my food bar at", "agent:status"),
                                          ("my food? am i hungry", "agent:status")])
def test_sentences_restating_one_request_agree_on_its_module(runtime: AssistantRuntime, text: str, module: str) -> None:
    analysis = runtime.vocabulary.analyze(text)
    assert analysis.sentences and len(analysis.parts()) == 2
    assert route(runtime, text) == module


# "I'm lost. Location?" is answered: "I'm lost" is context (test_clauses.py).
@pytest.mark.parametrize("text", ["where is my dog? where am i", "hearts left?? im dying", "where am i? who is online"])
def test_a_sentence_that_does_not_go_direct_keeps_the_line_with_the_model(runtime: AssistantRuntime, text: str) -> None:
    assert route(runtime, text) is None


@pytest.mark.parametrize("text", ["is kev online", "where is kev", "how far is kev", "is my friend Kira playing right now",
                                  "distance to kev"])
def test_a_name_where_a_player_question_puts_it_is_a_player(runtime: AssistantRuntime, text: str) -> None:
    assert any(t.feature == "@player" for t in runtime.vocabulary.analyze(text.lower()).terms)
    assert route(runtime, text) == "agent:players"


@pytest.mark.parametrize("text", ["where is my dog", "is pvp on", "where is the village"])
def test_an_english_word_or_another_place_is_no_name(runtime: AssistantRuntime, text: str) -> None:
    assert not any(t.feature == "@player" for t in runtime.vocabulary.analyze(text).terms)
    assert route(runtime, text) is None


@pytest.mark.parametrize("text", ["小明在线吗", "阿杰上线了没", "小明在哪", "小明离我多远", "小红在不在"])
def test_a_chinese_name_opening_a_player_question_is_a_player(runtime: AssistantRuntime, text: str) -> None:
    assert route(runtime, text, "zh") == "agent:players"


@pytest.mark.parametrize("text", ["狗在哪", "基地在哪", "等小明上线了告诉我", "出生点离我多远", "村庄离我多远",
                                  "要塞在线吗"])
def test_a_place_or_a_condition_is_no_chinese_name(runtime: AssistantRuntime, text: str) -> None:
    assert route(runtime, text, "zh") is None


@pytest.mark.parametrize("text, module", [("are there messages waiting for me", "agent:inbox"),
                                          ("who sent me mail", "agent:inbox"),
                                          ("anyone else on the server right now?", "agent:players"),
                                          ("what kinds of questions can i ask you", "agent:help")])
def test_questions_about_the_players_or_ones_mail_need_no_my(runtime: AssistantRuntime, text: str, module: str) -> None:
    assert route(runtime, text) == module


@pytest.mark.parametrize("text", ["anyone want to trade", "anyone seen my dog", "players are so annoying"])
def test_lines_about_people_that_ask_nothing_we_answer(runtime: AssistantRuntime, text: str) -> None:
    assert route(runtime, text) is None


@pytest.mark.parametrize(
    "text, module",
    [("whats the next milestone", "agent:progress"), ("whats my total xp", "agent:status"),
     ("what milestone is the autopilot on already", "agent:progress")],
)
def test_a_light_word_does_not_stop_an_anchored_request(runtime: AssistantRuntime, text: str, module: str) -> None:
    assert route(runtime, text) == module


@pytest.mark.parametrize(
    "text",
    ["how do i get iron", "how do i get more hearts", "did alex get diamonds", "how many hearts does a zombie have",
     "what's the total number of items in minecraft", "whats the best way to get food", "what y level are diamonds at"],
)
def test_light_words_do_not_anchor_a_question_about_the_game(runtime: AssistantRuntime, text: str) -> None:
    assert route(runtime, text) is None


@pytest.mark.parametrize("text, lang", [("看看我的血和饱食度", "zh"), ("血量 经验 和 模式", "zh"),
                                        ("how are my health and food", "en")])
def test_and_between_two_of_one_modules_topics_is_anchored(runtime: AssistantRuntime, text: str, lang: str) -> None:
    assert route(runtime, text, lang) == "agent:status"


@pytest.mark.parametrize("text, lang", [("where am i and who is online", "en"), ("my coords and alex's", "en"),
                                        ("我的血量和什么", "zh"), ("我在哪和谁", "zh"), ("my health and what else", "en")])
def test_and_beside_nothing_named_or_another_modules_topic_is_not(runtime: AssistantRuntime, text: str, lang: str) -> None:
    assert route(runtime, text, lang) is None


@pytest.mark.parametrize("text, module", [("how's my health looking", "agent:status"),
                                          ("how is my inventory lookin", "agent:inventory"),
                                          ("which way am i looking", "agent:position")])
def test_a_final_looking_after_a_topic_asks_how_it_is(runtime: AssistantRuntime, text: str, module: str) -> None:
    assert route(runtime, text) == module


@pytest.mark.parametrize("text, module", [("自动驾驶开着没", "agent:progress"), ("饱食度满没", "agent:status")])
def test_a_final_mei_after_a_state_asks_or_not(runtime: AssistantRuntime, text: str, module: str) -> None:
    assert route(runtime, text, "zh") == module


@pytest.mark.parametrize("text", ["自动驾驶还没开", "我还没满"])
def test_a_mei_that_says_not_yet_is_still_a_negation(runtime: AssistantRuntime, text: str) -> None:
    assert route(runtime, text, "zh") is None


@pytest.mark.parametrize("text, lang, item_id", [("id of a totem", "en", "minecraft:totem_of_undying"),
                                                 ("obby id", "en", "minecraft:obsidian"),
                                                 ("fireworks id?", "en", "minecraft:firework_rocket"),
                                                 ("图腾的id", "zh", "minecraft:totem_of_undying"),
                                                 ("盾的id是啥", "zh", "minecraft:shield")])
def test_player_aliases_name_one_item(runtime: AssistantRuntime, text: str, lang: str, item_id: str) -> None:
    snapshot = fixture_snapshot("zh_cn" if lang == "zh" else "en_us")
    route_ = runtime.router.route(text, lang, ScopeState("t"), snapshot, now=0.0)
    assert route_.module_id == "agent:item"
    assert item_id in repr(route_.args)


@pytest.mark.parametrize("text, lang", [("what is the autopilot", "en"), ("whats the autopilot", "en"), ("自动驾驶是什么", "zh"),
                                        ("what am i looking at", "en"), ("who can i message", "en")])
def test_what_a_thing_is_or_what_the_player_looks_at_is_not_anchored(runtime: AssistantRuntime, text: str, lang: str) -> None:
    assert route(runtime, text, lang) is None


@pytest.mark.parametrize("text, module", [("what is the autopilot doing", "agent:progress"),
                                          ("is the autopilot on", "agent:progress"),
                                          ("which way am i looking", "agent:position")])
def test_the_state_of_the_autopilot_or_the_players_facing_still_is(runtime: AssistantRuntime, text: str, module: str) -> None:
    assert route(runtime, text) == module


@pytest.mark.parametrize(
    "text, module",
    [("how do i get help from the bot", "agent:help"), ("whats the list of stuff u can do", "agent:help"),
     ("any tips on using you", "agent:help"), ("how's my food bar doing", "agent:status"),
     ("am i low on hp", "agent:status"), ("which dimension is this", "agent:position"),
     ("where am i on the map", "agent:position"), ("who sent me stuff", "agent:inbox"),
     ("do i have any torches left", "agent:inventory")],
)
def test_how_players_phrase_the_modules_questions(runtime: AssistantRuntime, text: str, module: str) -> None:
    assert route(runtime, text) == module


@pytest.mark.parametrize("text", ["how do i get diamonds", "how do i get more hearts", "is steve low on food",
                                  "what is alex doing", "can you send me something", "what block is this"])
def test_their_neighbours_stay_with_the_model(runtime: AssistantRuntime, text: str) -> None:
    assert route(runtime, text) is None


@pytest.mark.parametrize(
    "text, module",
    [("Alex在线不", "agent:players"), ("我满血不", "agent:status"), ("我y多少", "agent:position"),
     ("自动驾驶开了吗", "agent:progress"), ("下一个里程碑是啥", "agent:progress"), ("ai能干点啥", "agent:help"),
     ("我能让你干嘛", "agent:help"), ("我面朝东吗", "agent:position")],
)
def test_chinese_colloquial_forms(runtime: AssistantRuntime, text: str, module: str) -> None:
    assert route(runtime, text, "zh") == module


@pytest.mark.parametrize("text", ["我不", "我朝北", "帮我开了自动驾驶", "把自动驾驶开了", "我不在线", "你在线不", "谁穿着钻石盔甲", "下一步该干嘛", "需要吃东西"])
def test_their_statements_and_commands_stay_with_the_model(runtime: AssistantRuntime, text: str) -> None:
    assert route(runtime, text, "zh") is None


@pytest.mark.parametrize("text, lang", [("北", "zh"), ("下界", "zh"), ("north", "en"), ("nether", "en")])
def test_a_bare_value_asks_nothing(runtime: AssistantRuntime, text: str, lang: str) -> None:
    assert route(runtime, text, lang) is None


@pytest.mark.parametrize("text, module", [("我在下界吗", "agent:position"), ("我是创造模式吗", "agent:status")])
def test_a_value_in_a_question_still_anchors(runtime: AssistantRuntime, text: str, module: str) -> None:
    assert route(runtime, text, "zh") == module


@pytest.mark.parametrize(
    "text, module",
    [("wut can i ask", "agent:help"), ("wat can u do", "agent:help"), ("how u work", "agent:help"),
     ("whats this bot for", "agent:help"), ("which way im facing", "agent:position"),
     ("how far underground am i", "agent:position"), ("alex online?", "agent:players"),
     ("whats teh id for stone", "agent:item"), ("bot how far along r u", "agent:progress")],
)
def test_chat_spellings_and_question_shaped_topics(runtime: AssistantRuntime, text: str, module: str) -> None:
    assert route(runtime, text) == module


@pytest.mark.parametrize("text", ["alex online, tell him hi", "alex", "which way to the village",
                                  "how far along the river is the village"])
def test_a_name_or_a_question_word_alone_does_not_anchor(runtime: AssistantRuntime, text: str) -> None:
    assert route(runtime, text) is None


def test_chat_spellings_of_phrase_words_mean_the_phrase(runtime: AssistantRuntime) -> None:
    assert runtime.vocabulary.analyze("wut can i ask").features == runtime.vocabulary.analyze("what can i ask").features
    assert runtime.vocabulary.analyze("what can u do").features == runtime.vocabulary.analyze("what can you do").features


@pytest.mark.parametrize(
    "text, lang, module",
    [("what stuff can you do", "en", "agent:help"), ("what can yu do", "en", "agent:help"),
     ("自动驾驶还在跑吗", "zh", "agent:progress"), ("有什么可以问你的", "zh", "agent:help"),
     ("我往哪边看", "zh", "agent:position"), ("我在地下吗", "zh", "agent:position"), ("我人在哪", "zh", "agent:position")],
)
def test_more_ways_to_ask(runtime: AssistantRuntime, text: str, lang: str, module: str) -> None:
    assert route(runtime, text, lang) == module


@pytest.mark.parametrize("text, lang", [("Alex还在跑吗", "zh"), ("村民在地下吗", "zh"), ("怪物往哪看", "zh"),
                                        ("地下多深有钻石", "zh"), ("what stuff can you do for alex", "en")])
def test_the_same_words_about_someone_else_stay_with_the_model(runtime: AssistantRuntime, text: str, lang: str) -> None:
    assert route(runtime, text, lang) is None
