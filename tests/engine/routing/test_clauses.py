"""Context clauses (issue 23): the question of a line that also says what happened around it."""
from __future__ import annotations

import pytest

from engine.assistant import AssistantRuntime
from engine.routing.clauses import clauses
from tests.engine.routing.routes import module_of as route


def test_a_line_is_cut_at_commas_and_sentence_marks() -> None:
    assert clauses("i'm lost. location") == [("i'm lost", False), ("location", False)]
    assert clauses("anyone near me? hearing footsteps") == [("anyone near me", True), ("hearing footsteps", False)]
    assert clauses("刚上线，有消息吗") == [("刚上线", False), ("有消息吗", False)]


@pytest.mark.parametrize(
    "text, lang, module",
    [
        ("just got blown up by a creeper, how much health do i have now", "en", "agent:status"),
        ("about to craft, how many planks do i have", "en", "agent:inventory"),
        ("I'm lost. Location?", "en", "agent:position"),
        ("刚上线，有消息吗", "zh", "agent:inbox"),
        ("刚过传送门，我在哪个维度", "zh", "agent:position"),
        ("准备附魔，我现在多少级", "zh", "agent:status"),
    ],
)
def test_the_question_is_answered_past_its_context(shared_runtime: AssistantRuntime, text: str, lang: str, module: str) -> None:
    assert route(shared_runtime, text, lang) == module


@pytest.mark.parametrize(
    "text, lang",
    [
        ("go home, where am i", "en"),                      # a command and a question
        ("trying to mine, where are diamonds", "en"),       # the question alone is not the player's state
        ("craft a table, how many planks do i have", "en"),
        ("is it raining, where am i", "en"),                # two questions
        ("where am i, show my inventory", "en"),            # two requests
        ("don't bother, where am i", "en"),
        ("if i die, where am i", "en"),
        ("alex wants to know, how much health do i have", "en"),  # someone else is in it
        ("nvm, whats my health", "en"),
        ("then, where am i", "en"),
        ("带我回家，我在哪", "zh"),
        ("下雨了吗，我在哪", "zh"),
        ("如果我死了，我在哪", "zh"),
        ("算了，我在哪", "zh"),
        ("Alex想知道，我有多少血", "zh"),
        ("把泥土扔了，背包里有啥", "zh"),
    ],
)
def test_a_clause_that_is_not_context_keeps_the_line_with_the_model(
    shared_runtime: AssistantRuntime, text: str, lang: str
) -> None:
    assert route(shared_runtime, text, lang) is None


@pytest.mark.parametrize("text, lang, module", [
    # What happened, said after the question without a comma, or once more ("again", 又).
    ("@ai where am i im so lost in this cave", "en", "agent:position"),
    ("am i low on hp i keep hearing skeletons", "en", "agent:status"),
    ("lost in a mineshaft again lmao where am i", "en", "agent:position"),
    ("又掉线了 有人私聊我吗", "zh", "agent:inbox"), ("又饿了 我饱食度多少", "zh", "agent:status"),
    # Still a request, or still pointing back.
    ("where am i i keep asking you to tp me home", "en", None), ("do that again, where am i", "en", None),
    ("又给我tp回家 我在哪", "zh", None), ("又是他 他在哪", "zh", None),
])
def test_what_happened_again_is_context(shared_runtime: AssistantRuntime, text: str, lang: str,
                                        module: str | None) -> None:
    assert route(shared_runtime, text, lang) == module


@pytest.mark.parametrize("text, lang, module", [
    ("just fell into lava lol am i ok, hp?", "en", "agent:status"),  # what happened; the question, then its topic
    ("what is my hp, tryna fight the warden", "en", "agent:status"),  # what the player is trying to do
    ("bot status on ur goal?", "en", "agent:progress"), ("status of the goal", "en", "agent:progress"),
    ("wat lvl am i xp wise", "en", "agent:status"), ("how do i talk to you properly", "en", "agent:help"),
    ("health status", "en", "agent:status"),
    # Something asked of the assistant about a thing is a second request; another player's status is not ours.
    ("where am i, want you to find diamonds", "en", None), ("where am i, i want you to find diamonds", "en", None),
    ("alex status", "en", None), ("is he ok, hp?", "en", None), ("where am i, wanna give alex my sword", "en", None),
])
def test_what_the_player_did_or_tries_and_what_a_status_is_of(shared_runtime: AssistantRuntime, text: str, lang: str,
                                                              module: str | None) -> None:
    assert route(shared_runtime, text, lang) == module


@pytest.mark.parametrize("text, lang, module", [
    ("xyz多少 我要回base", "zh", "agent:position"), ("有人留言给我吗 我去吃饭了一下", "zh", "agent:inbox"),
    ("书架id多少 我要打指令", "zh", "agent:item"), ("wher am i lmao got lost in this cave", "en", "agent:position"),
    ("我等级几等", "zh", "agent:status"), ("指令表给我看一下", "zh", "agent:help"),
    # A thing wanted may be asked for; a request to the assistant stays one.
    ("我在哪 我要钻石", "zh", None), ("where am i, i want diamonds", "en", None), ("我在哪 我要你带我回家", "zh", None),
])
def test_plans_and_outings_said_after_the_question(shared_runtime: AssistantRuntime, text: str, lang: str,
                                                   module: str | None) -> None:
    assert route(shared_runtime, text, lang) == module


@pytest.mark.parametrize("text, lang, module", [
    ("hey bot, thanks for earlier! quick one, what are my coords rn", "en", "agent:position"),
    ("刚才挂机 有人找我吗", "zh", "agent:inbox"), ("打末影龙呢 我还有几滴血", "zh", "agent:status"),
    ("在盖城堡 我身上还有多少石砖", "zh", "agent:inventory"), ("itme id for stripped birch log", "en", "agent:item"),
    ("wot is my hp", "en", "agent:status"), ("亚历克斯在哪", "zh", "agent:players"),
    # Someone else's state, a request beside the question, a reference.
    ("史蒂夫还剩多少血", "zh", None), ("告诉我史蒂夫的血量", "zh", None), ("在这里帮我盖房子 我在哪", "zh", None),
    ("给我钻石呢 我在哪", "zh", None), ("你去挖矿呢 我在哪", "zh", None), ("thanks, and give me diamonds, where am i", "en", None),
    ("刚才那个呢 我在哪", "zh", None),
])
def test_thanks_doing_now_and_names_written_in_chinese(shared_runtime: AssistantRuntime, text: str, lang: str,
                                                        module: str | None) -> None:
    assert route(shared_runtime, text, lang) == module


@pytest.mark.parametrize("text, lang, module", [
    ("back after a day offline, did anyone msg me while i was gone", "en", "agent:inbox"),
    ("am i in creative or survival rn, op messed with my gamemode earlier", "en", "agent:status"),
    ("whats my y level, looking for diamonds", "en", "agent:position"), ("hoo is onlien", "en", "agent:players"),
    ("wat comands do u no", "en", "agent:help"), ("item id for red stone dust pls", "en", "agent:item"),
    ("do you know the id for a crying obsidian block", "en", "agent:item"),
    ("附近有冇人啊，我听到有脚步声", "zh", "agent:players"), ("哪个在线噻", "zh", "agent:players"),
    ("我手头拿的是啥玩意儿", "zh", "agent:inventory"),
    # Still put off, still pointing back, still someone else's.
    ("where am i, tell me after i die", "en", None), ("what about earlier, where am i", "en", None),
    ("do it after, where am i", "en", None), ("is alex on line, give him my sword", "en", None),
])
def test_past_times_split_words_and_sounds(shared_runtime: AssistantRuntime, text: str, lang: str,
                                           module: str | None) -> None:
    assert route(shared_runtime, text, lang) == module


@pytest.mark.parametrize("text, module", [
    ("am i in the nether rn or did the portal glitch", "agent:position"),
    ("@ai do i still have my elytra or did i lose it when i died", "agent:inventory"),
    ("is alex nearby or did she log", "agent:players"), ("is alex online or has he left", "agent:players"),
    ("im lost wheres my location", "agent:position"),
    # The first part decides: someone else's state, a request.
    ("what is alex's health or did he die", None), ("tp me home or did you forget", None),
])
def test_an_alternative_of_what_happened_asks_nothing_more(shared_runtime: AssistantRuntime, text: str,
                                                           module: str | None) -> None:
    assert route(shared_runtime, text, "en") == module


@pytest.mark.parametrize("text, module", [
    ("@ai hp check before i jump into this bastion", "agent:status"),
    ("@ai is the autopilot still on step 3 or did it move on", "agent:progress"),
    ("tell me my health before i die", None), ("tp me home before i die", None),
])
def test_what_the_player_does_next_and_what_may_befall_them(shared_runtime: AssistantRuntime, text: str,
                                                             module: str | None) -> None:
    assert route(shared_runtime, text, "en") == module


@pytest.mark.parametrize("text, module", [
    ("am i in survival or adventure right now, the minigame swapped it", "agent:status"),
    ("after that creeper how much hp do i have", "agent:status"), ("anyone wanna trade diamonds?", None),
    # A request about it, and "after that" before a request, stay with the model.
    ("whats my health, fix it", None), ("whats my gamemode, change it", None), ("where am i, after that tp me home", None),
    ("where am i, wanna give alex my sword", None),
])
def test_it_in_a_statement_and_after_a_thing(shared_runtime: AssistantRuntime, text: str, module: str | None) -> None:
    assert route(shared_runtime, text, "en") == module


@pytest.mark.parametrize("text, lang, module", [
    ("lol alex look at this. ai how hungry am i", "en", "agent:status"), ("alex where are you? ai where am i", "en", "agent:position"),
    ("steve hows ur health @ai whats my health", "en", "agent:status"), ("刚被炸了 ai 我还有多少血", "zh", "agent:status"),
    # The request after the address is judged as ever; a line that opens with the address is all one request.
    ("alex look at this ai tp me home", "en", None), ("ai tp me home, ai where am i", "en", None),
    ("steve hi @ai whats alex's health", "en", None),
    # The word, not the address.
    ("how do i talk to you, do i need to type @ai every time", "en", "agent:help"),
    ("i'm new here, what does this ai bot even do", "en", "agent:help"),
])
def test_what_comes_before_the_assistant_is_addressed_is_said_to_others(
    shared_runtime: AssistantRuntime, text: str, lang: str, module: str | None
) -> None:
    assert route(shared_runtime, text, lang) == module


@pytest.mark.parametrize("text, lang, module", [
    # A correction names the request again: one request if the same, two otherwise.
    ("whats my hp, i mean my health", "en", "agent:status"), ("饿不饿 我是说我的饥饿值", "zh", "agent:status"),
    # A correction said last takes the place of what it corrects ("lvl" was the y level: corrections.py).
    ("wat lvl am i on, y level i mean", "en", "agent:position"), ("where am i, actually whats my hp", "en", None),
    # An English word is never split into two ("anyway" is no "any way"); "its" in a statement.
    ("@ai anyone near me? hearing footsteps and its sketchy", "en", "agent:players"),
    ("mind checking if i have any torches left", "en", "agent:inventory"),
    ("let me know if my health gets low", "en", None), ("lemme know if alex comes online", "en", None),
])
def test_corrections_whether_and_whole_words(shared_runtime: AssistantRuntime, text: str, lang: str,
                                             module: str | None) -> None:
    assert route(shared_runtime, text, lang) == module


# "it's dark down here" after a question: the "it" of the weather or the place points at
# nothing, so the clause only says how things are (issue 23, fourteenth round).
@pytest.mark.parametrize("text, lang, module", [
    ("how many torches i got left mate, it's pitch black down here", "en", "agent:inventory"),
    ("where am i, it is so dark", "en", "agent:position"), ("where am i, it is my house", "en", None),
    # A statement with its own subject: its negation and its pronouns are its own.
    ("how many free slots do i have, my inv is so full it's not even funny", "en", "agent:inventory"),
    ("where is alex, i can see her name tag but not her", "en", "agent:players"),
    ("bro what step are we on, it's been forever, this is so mid", "en", "agent:progress"),
    ("where am i, i dont need coords", "en", None), ("how many free slots do i have, i dont want you to tell me", "en", None),
    ("where is steve rn, he's not answering", "en", None), ("where am i, it was the same as before", "en", None),
])
def test_a_clause_about_the_weather_or_the_place_is_context(shared_runtime: AssistantRuntime, text: str, lang: str,
                                                            module: str | None) -> None:
    assert route(shared_runtime, text, lang) == module


# The topic first, then "any": "mailbox, anything in it" asks as "any mail" does.
@pytest.mark.parametrize("text, module", [("mailbox, anything in it", "agent:inbox"), ("my inventory is full", None),
                                          ("my inventory is full lol", None)])
def test_a_topic_then_any_asks(shared_runtime: AssistantRuntime, text: str, module: str | None) -> None:
    assert route(shared_runtime, text) == module


# A question after the address opens with its question word ("@ai which way am i facing, lost in
# the end islands"); "anyway" after what happened only turns to the question.
@pytest.mark.parametrize("text, module", [
    ("@ai which way am i facing, lost in the end islands", "agent:position"),
    ("this server lags so bad omg. anyway how full is my hunger", "agent:status"),
])
def test_the_question_after_the_address_or_anyway(shared_runtime: AssistantRuntime, text: str, module: str) -> None:
    assert route(shared_runtime, text) == module


# A plan said after the question ("wanna enchant", "wanna invite him to my skyblock"): what the
# answer is for, its pronoun the player the question names; a plan to act on another player
# still has a write in it and stops ("wanna give alex some").
@pytest.mark.parametrize("text, module", [
    ("how much xp do i have, wanna enchant", "agent:status"),
    ("is notch online? wanna invite him to my skyblock", "agent:players"),
    ("how many diamonds do i have, wanna give alex some", None),
    ("would it be possible to see my health and hunger", "agent:status"),
    ("would it be possible to take me home", None), ("is it possible to craft a beacon", None),
])
def test_plans_and_roundabout_asking(shared_runtime: AssistantRuntime, text: str, module: str | None) -> None:
    assert route(shared_runtime, text) == module


# "anyway" turns from a story to the request: what came before is only told, unless it asks for
# something itself ("take me home", "if i die tell me").
@pytest.mark.parametrize("text, module", [
    ("@ai ok so i was mining and then i fell into like a ravine or smth, wait no it was a cave, anyway where am i rn",
     "agent:position"),
    ("take me home, anyway where am i", None), ("if i die tell me, anyway whats my hp", None),
    ("hlep me i dont no wat to say to u", "agent:help"),
])
def test_anyway_turns_to_the_request(shared_runtime: AssistantRuntime, text: str, module: str | None) -> None:
    assert route(shared_runtime, text) == module


# A statement of the player's own about one topic, then a question that names nothing: the
# question is about that topic. "did i get …" opens a question as "did anyone" does.
@pytest.mark.parametrize("text, module", [
    ("bro my hearts are looking sus, how many do i have left fr", "agent:status"),
    ("did i get any notices while i was gone, my internet died for like 10 min ugh", "agent:inbox"),
    ("my hp is low, where am i", None), ("alex is low, how much does he have", None),
    ("how do i talk to you, do i need to type @ai every time", "agent:help"),
])
def test_what_the_question_asks_about_was_said_first(shared_runtime: AssistantRuntime, text: str,
                                                     module: str | None) -> None:
    assert route(shared_runtime, text) == module


# Formal requests ("kindly provide", "would you be so kind", "inform me of") ask to be shown; "cant
# see her" after a question about a named player is what the player sees of them.
@pytest.mark.parametrize("text, module", [
    ("Dear assistant, could you kindly inform me of my current health and hunger levels? Thank you.", "agent:status"),
    ("Kindly provide a list of players currently connected to the server.", "agent:players"),
    ("bot is alex close by, cant see her anywhere in this fog", "agent:players"),
    ("confirm the teleport", None), ("where am i, dont show it in chat", None),
])
def test_formal_requests_and_what_the_player_cannot_see(shared_runtime: AssistantRuntime, text: str,
                                                        module: str | None) -> None:
    assert route(shared_runtime, text) == module


# What the player has been doing ("been grinding the mob farm") is context; "were any notices
# left" opens a question; "till the goal is done" is how far the run still has to go.
@pytest.mark.parametrize("text, module", [
    ("ai how much xp do i got lol, been grinding the mob farm for like an hour", "agent:status"),
    ("I was away for about an hour; were any notices left for me?", "agent:inbox"),
    ("how much longer till the goal is done, roughly", "agent:progress"),
    ("tell me till the goal is done", None), ("how much health till i die", None),
])
def test_what_the_player_has_been_doing_and_how_long_till_done(shared_runtime: AssistantRuntime, text: str,
                                                               module: str | None) -> None:
    assert route(shared_runtime, text) == module


# Feelings and wishes beside a question: "饿死了", "dont wanna fall into the void" (a "do not …"
# that asks nothing); "dont tell alex" stays a negation of the request.
@pytest.mark.parametrize("text, module", [
    ("我身上有多少个面包呀 饿死了", "agent:inventory"), ("what y level am i on, dont wanna fall into the void", "agent:position"),
    ("where am i, dont tell alex", None), ("where am i, dont show my coords in chat", None),
    ("yo bot no cap i'm lowkey lost, what are my coords", "agent:position"), ("我现在几点血啊 在打末影龙呢", "agent:status"),
])
def test_feelings_and_wishes_beside_a_question(shared_runtime: AssistantRuntime, text: str, module: str | None) -> None:
    assert route(shared_runtime, text) == module


@pytest.mark.parametrize("text, lang, module", [
    # The assistant spoken to like a pet is said to it: the request follows.
    ("小助手乖～告诉主人我还剩多少血好不好", "zh", "agent:status"),
    ("小ai小ai，乖乖的，主人问你，我现在在哪个维度呀", "zh", "agent:position"),
    ("宝宝你好呀，你都会些什么本领呀？", "zh", "agent:help"),
    ("帮我看看背包好不好", "zh", "agent:inventory"),   # 好不好 is a softener, no A-not-A about "好"
    ("@ai 怎么用你啊 不会", "zh", "agent:help"),          # 不会: "i can't", said beside the question
    # Said with politeness or as an afterthought, "if" puts nothing off.
    ("@ai What is the current progress on your goal, if you would be so kind?", "en", "agent:progress"),
    ("ai how many golden apples do i have, if any", "en", "agent:inventory"),
    # The player just seen is whom "she"/"he" in the question is.
    ("ai 我看到Alex了，她具体在哪个位置", "zh", "agent:players"),
    ("i can see steve, how far is he", "en", "agent:players"),
    # Autocorrect turns game words into other words: chords, idea, ex.
    ("ai what are my chords", "en", "agent:position"), ("@ai whats the idea of cobblestone", "en", "agent:item"),
    ("ai what's my ex level", "en", "agent:status"),
])
def test_pet_names_softeners_and_seen_players(shared_runtime: AssistantRuntime, text: str, lang: str,
                                              module: str) -> None:
    assert route(shared_runtime, text, lang) == module


@pytest.mark.parametrize("text, lang", [
    ("乖狗狗，过来，告诉我我几级了", "zh"),             # "come here" is a move, whoever it is said to
    ("不会吧 我血多少", "zh"),                          # 不会吧 is no "i can't"
    ("我不会告诉你 我在哪", "zh"),
    ("tell me where i am if my health is low", "en"),  # a condition still stops the line
    ("i can see steve, whats his health", "en"),       # another player's state
    ("i saw alex, give her my diamonds", "en"),
    ("我看到Alex了，她血多少", "zh"),
])
def test_what_those_readings_leave_stopped(shared_runtime: AssistantRuntime, text: str, lang: str) -> None:
    assert route(shared_runtime, text, lang) is None
