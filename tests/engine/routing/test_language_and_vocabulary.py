from __future__ import annotations

import pytest

from engine.assistant import AssistantRuntime
from engine.routing.filters import blocking_filter
from engine.routing.language import detect_language, reply_language
from engine.routing.normalize import normalize_text
from engine.routing.terms import Analysis, TermKind
from engine.routing.vocabulary import (
    ITEM_FEATURE,
    NUMBER_FEATURE,
    PLAYER_FEATURE,
    Vocabulary,
    VocabularyError,
    VocabularyFile,
    load_vocabulary_file,
)


def analyze(runtime: AssistantRuntime, text: str, names: tuple[str, ...] = ()) -> Analysis:
    return runtime.vocabulary.analyze(normalize_text(text), set(names))


@pytest.mark.parametrize(
    "text, locale, expected",
    [
        ("where am i", "en_us", "en"),
        ("where am i", "zh_cn", "en"),     # script wins over a contradicting locale
        ("我在哪", "en_us", "zh"),
        ("我在哪", None, "zh"),
        ("where am i", None, "en"),
        ("où suis-je", "fr_fr", "fr"),      # a locale we have no vocabulary for: not matched as English
        ("12 64 3", "zh_cn", "zh"),         # no script: the locale decides
        ("どこ", "ja_jp", "ja"),
    ],
)
def test_language_from_locale_with_script_fallback(text: str, locale: str | None, expected: str) -> None:
    assert detect_language(text, locale) == expected


def test_reply_language() -> None:
    assert reply_language("zh_cn") == "zh"
    assert reply_language("en_gb") == "en"
    assert reply_language("fr_fr") == "en"
    assert reply_language("en_us", "zh") == "zh"


def test_normalize_folds_width_case_and_edge_punctuation() -> None:
    assert normalize_text("  Where   AM I？ ") == "where am i"
    assert normalize_text("ＩＤ的物品") == "id的物品"
    assert normalize_text("what\u2019s up!!") == "what's up"


@pytest.mark.parametrize("text", ["where am i", "coords", "my coordinates", "position", "坐标", "我的位置"])
def test_synonyms_normalize_to_one_domain_feature(shared_runtime: AssistantRuntime, text: str) -> None:
    assert "@position" in analyze(shared_runtime, text).features


def test_unknown_words_and_characters_are_kept(shared_runtime: AssistantRuntime) -> None:
    assert "w:village" in analyze(shared_runtime, "where is the village").features
    assert "c:狗" in analyze(shared_runtime, "我的狗在哪").features
    assert analyze(shared_runtime, "where is the village").must_cover() >= {"w:village"}


def test_filler_is_dropped_and_bigrams_follow_the_remaining_features(shared_runtime: AssistantRuntime) -> None:
    a = analyze(shared_runtime, "please tell me the health")
    assert a.features == ("@health",)
    b = analyze(shared_runtime, "am i hungry")
    assert b.bigrams() == ("@be+@self", "@self+@food")


def test_item_names_become_a_placeholder_with_their_surface_kept(shared_runtime: AssistantRuntime) -> None:
    a = analyze(shared_runtime, "what's the id of oak planks")
    items = [t for t in a.terms if t.feature == ITEM_FEATURE]
    assert [t.surface for t in items] == ["oak planks"]
    assert [t.surface for t in analyze(shared_runtime, "how many diamonds do i have").terms
            if t.feature == ITEM_FEATURE] == ["diamonds"]
    assert ITEM_FEATURE in analyze(shared_runtime, "钻石剑的物品id").features
    assert ITEM_FEATURE in analyze(shared_runtime, "minecraft:oak_planks").features


def test_player_names_and_numbers_are_slots(shared_runtime: AssistantRuntime) -> None:
    a = analyze(shared_runtime, "how far is Steve", ("steve",))
    assert PLAYER_FEATURE in a.features
    assert analyze(shared_runtime, "go to 10 -64 3.5").features.count(NUMBER_FEATURE) == 3
    assert [t.surface for t in analyze(shared_runtime, "go to 10 -64 3.5").terms if t.feature == NUMBER_FEATURE] == ["10", "-64", "3.5"]


def test_one_typo_is_corrected_into_the_vocabulary(shared_runtime: AssistantRuntime) -> None:
    assert "@health" in analyze(shared_runtime, "whats my helth").features
    assert "@inventory" in analyze(shared_runtime, "invetory").features
    assert "@inventory" in analyze(shared_runtime, "inventroy").features  # adjacent swap
    # Short words are not corrected: "good" is one letter from "food".
    assert "w:good" in analyze(shared_runtime, "good").features


def test_a_not_a_question_is_not_a_negation(shared_runtime: AssistantRuntime) -> None:
    a = analyze(shared_runtime, "我饿不饿")
    assert a.features == ("@food",)
    assert not a.has(TermKind.NEGATION)
    assert analyze(shared_runtime, "我不饿").has(TermKind.NEGATION)


@pytest.mark.parametrize("text", ["我饿不饿", "我饿吗", "我饿了吗", "我饿了没", "饿不饿啊", "我饿了没有呢"])
def test_chinese_question_forms_are_one_question(shared_runtime: AssistantRuntime, text: str) -> None:
    # Particles (吗/呢/啊), A-not-A and a final "or not" (没/没有) all just ask.
    assert analyze(shared_runtime, text).features == ("@food",)


@pytest.mark.parametrize("text", ["有人找我没", "有新消息没有", "自动驾驶开了没", "有人找过我没", "饿了莫得",
                                  "Alex在线不", "饱食度满不"])
def test_a_final_mei_after_you_or_le_asks_instead_of_negating(shared_runtime: AssistantRuntime, text: str) -> None:
    assert not analyze(shared_runtime, text).has(TermKind.NEGATION)


@pytest.mark.parametrize("text", ["我还没", "一个都没有", "没有", "我没", "消息也没有", "吃了还没", "找过了都没有"])
def test_mei_after_an_adverb_or_alone_still_negates(shared_runtime: AssistantRuntime, text: str) -> None:
    assert analyze(shared_runtime, text).has(TermKind.NEGATION)


def test_one_meaning_said_twice_is_one_term(shared_runtime: AssistantRuntime) -> None:
    assert analyze(shared_runtime, "my xp lvl").features == analyze(shared_runtime, "my xp").features
    assert analyze(shared_runtime, "经验等级").features == ("@xp",)
    # Slots are never merged: two items are two arguments.
    assert analyze(shared_runtime, "bread bread").features == (ITEM_FEATURE, ITEM_FEATURE)


@pytest.mark.parametrize(
    "slang, plain",
    [("list ur cmds", "list your commands"), ("any notifs", "any notifications"), ("yo bro my coords rn pls", "my coords"),
     ("帮我看看坐标呗", "坐标"), ("请问我的血量呢", "血量"), ("wats in my inv", "what is in my inventory"),
     ("wut's my hp", "what is my health"), ("what way am i facing", "which way am i facing"),
     # A Chinese phrase that opens with a Latin letter is one word although the tokenizer splits it.
     ("我的y坐标", "我的坐标"), ("y值多少", "坐标多少"),
     # Digits for letters, when the word they spell is the vocabulary's.
     ("wh0 is 0nline", "who is online"), ("c00rds", "coords"), ("h3lp", "help"),
     # A kind of item asks about an item as "item" does.
     ("what tool am i holding", "what item am i holding"), ("what weapon am i holding", "what item am i holding")],
)
def test_slang_and_filler_read_like_the_plain_words(shared_runtime: AssistantRuntime, slang: str, plain: str) -> None:
    assert analyze(shared_runtime, slang).features == analyze(shared_runtime, plain).features


@pytest.mark.parametrize(
    "text, kind",
    [
        ("don't tell me my coords", TermKind.NEGATION),
        ("not my inventory", TermKind.NEGATION),
        ("不要告诉我坐标", TermKind.NEGATION),
        ("别显示背包", TermKind.NEGATION),
        ("if my health is low", TermKind.CONDITION),
        ("when i'm hungry", TermKind.CONDITION),
        ("如果血量低", TermKind.CONDITION),
        ("what is that", TermKind.REFERENCE),
        ("where is it", TermKind.REFERENCE),
        ("那个是什么", TermKind.REFERENCE),
        ("where am i and then go home", TermKind.COMPOUND),
        ("我在哪然后回家", TermKind.COMPOUND),
        ("where am i? how hungry am i", TermKind.COMPOUND),
        ("take me to 10 64 10", TermKind.WRITE),
        ("eat something", TermKind.WRITE),
        ("吃点东西", TermKind.WRITE),
        ("pay steve", TermKind.WRITE),
    ],
)
def test_conservative_filters(shared_runtime: AssistantRuntime, text: str, kind: TermKind) -> None:
    assert blocking_filter(analyze(shared_runtime, text)) is kind


@pytest.mark.parametrize("text", ["where am i", "当前进度", "我饿不饿", "有没有新消息", "how many diamonds do i have"])
def test_filters_leave_plain_questions_alone(shared_runtime: AssistantRuntime, text: str) -> None:
    assert blocking_filter(analyze(shared_runtime, text)) is None


def test_a_phrase_defined_twice_with_different_meanings_is_refused() -> None:
    en = VocabularyFile(language="en", features={
        "@a": {"kind": "topic", "phrases": ["same"]},  # type: ignore[dict-item]
        "@b": {"kind": "topic", "phrases": ["same"]},  # type: ignore[dict-item]
    })
    zh = VocabularyFile(language="zh", features={})
    with pytest.raises(VocabularyError, match="same"):
        Vocabulary(en, zh)


def test_digits_are_letters_only_when_they_spell_a_vocabulary_word(shared_runtime: AssistantRuntime) -> None:
    # "alex_99" is a player's name, "r0fl" spells no vocabulary word: both stay as they are;
    # "b0at" is the item.
    assert "w:r0fl" in analyze(shared_runtime, "where am i r0fl").features
    assert ITEM_FEATURE in analyze(shared_runtime, "do i have a b0at").features
    assert analyze(shared_runtime, "is alex_99 online").features[1] == PLAYER_FEATURE


@pytest.mark.parametrize("text", ["where tf am i", "where the heck am i", "where on earth am i", "whre am i"])
def test_an_interjection_inside_a_phrase_does_not_split_it(shared_runtime: AssistantRuntime, text: str) -> None:
    assert [t.feature for t in analyze(shared_runtime, text).terms] == ["@position"]


def test_an_interjection_that_is_a_players_name_is_kept(shared_runtime: AssistantRuntime) -> None:
    assert PLAYER_FEATURE in [t.feature for t in analyze(shared_runtime, "where is yo", names=("yo",)).terms]


def test_no_phrase_holds_a_filler_interjection_inside_it() -> None:
    """An interjection that is filler ("even", "pls") is dropped before phrases are matched, unless some
    longer phrase contains it: then it stays everywhere, and "what can u even do" loses its meaning.
    A phrase that is only the word said twice ("fr fr") is the one exception."""
    from engine.routing.asides import INTERJECTIONS

    english = load_vocabulary_file("en")
    phrases = [p for spec in english.features.values() for p in spec.phrases] + list(english.filler)
    filler = set(english.filler) & INTERJECTIONS
    inside = sorted((word, phrase) for phrase in phrases for word in set(phrase.split(" ")) & filler
                    if len(phrase.split(" ")) > 1 and set(phrase.split(" ")) != {word})
    assert inside == []
