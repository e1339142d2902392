"""Typo correction (issue 23): one edit in a short word, two in a long one, never a common word."""
from __future__ import annotations

import pytest

from engine.assistant import AssistantRuntime
from engine.routing.homophones import HomophoneIndex
from engine.routing.normalize import normalize_text
from engine.routing.spelling import SpellingBudget, SpellingIndex, distance


def features(runtime: AssistantRuntime, text: str) -> tuple[str, ...]:
    return runtime.vocabulary.analyze(normalize_text(text)).features


@pytest.mark.parametrize(
    "typo, feature",
    [("hepl", "@help"), ("proggress", "@progress"), ("invetory", "@inventory"), ("inevntory", "@inventory"),
     ("coordinats", "@position"), ("mesages", "@inbox"), ("helth", "@health"),
     ("corrds", "@position")],  # cords or coords: a tie of one meaning
)
def test_a_typo_reads_as_the_word(shared_runtime: AssistantRuntime, typo: str, feature: str) -> None:
    assert feature in features(shared_runtime, typo)


def test_a_corrected_word_joins_a_phrase(shared_runtime: AssistantRuntime) -> None:
    # Correction comes before phrase matching: "blok" is the "block" of the item name.
    assert features(shared_runtime, "emerald blok id") == features(shared_runtime, "emerald block id")
    assert features(shared_runtime, "emerald blok id")[0] == "@item"


@pytest.mark.parametrize("word", ["good", "mood", "wealth", "heath", "goods",
                                  # The game's own words: "mineshaft" once read as "minecraft", "preset" as "set".
                                  "mineshaft", "preset", "opped", "piglin", "stronghold"])
def test_common_english_words_are_never_corrected(shared_runtime: AssistantRuntime, word: str) -> None:
    assert features(shared_runtime, word) == (f"w:{word}",)


def test_the_closest_word_wins_and_a_tie_stays_unknown() -> None:
    index = SpellingIndex(["stew", "stem", "stop", "help", "hell", "block", "book", "inventory"])
    budget = SpellingBudget()
    assert index.correct("step", budget) is None  # three words one substitution away
    assert index.correct("hepl", budget) == "help"  # a swap beats a substitution ("hell")
    assert index.correct("blok", budget) == "block"  # a dropped letter beats a substitution ("book")
    assert index.correct("invntry", budget) == "inventory"  # two edits in a long word
    assert index.correct("stxx", budget) is None  # two edits in a short word are too many


def test_two_edit_lookups_stay_bounded() -> None:
    index = SpellingIndex(["inventory", "coordinates"])
    budget = SpellingBudget()
    word = "coordinatez"
    assert index.correct(word, budget) == "coordinates"
    n = len(word)
    assert budget.keys <= 1 + n + n * (n - 1) // 2
    assert index.correct("x" * (index.max_length + 1), budget) is None
    assert budget.words == 1


@pytest.mark.parametrize("a, b, d", [("help", "hepl", 1), ("block", "blok", 1), ("inventory", "invntry", 2),
                                     ("abc", "abc", 0), ("kitten", "sitting", 3)])
def test_distance(a: str, b: str, d: int) -> None:
    assert distance(a, b, 3) == d
    assert distance(a, b, 1) == min(d, 2)


@pytest.mark.parametrize(
    "slip, right",
    [("学量多少", "血量多少"), ("我的坐表多少", "我的坐标多少"), ("作标多少", "坐标多少"), ("我的背宝里有什么", "我的背包里有什么"),
     ("我的留盐呢", "我的留言呢"), ("经严多少", "经验多少"), ("嗅探受蛋id", "嗅探兽蛋id")],
)
def test_a_pinyin_ime_slip_reads_as_the_word(shared_runtime: AssistantRuntime, slip: str, right: str) -> None:
    assert features(shared_runtime, slip) == features(shared_runtime, right)


def test_an_unknown_character_with_no_sound_alike_word_stays_unknown(shared_runtime: AssistantRuntime) -> None:
    assert "c:狗" in features(shared_runtime, "狗的血量")


def test_a_slip_that_fits_words_of_two_meanings_is_not_repaired() -> None:
    readings = {"a": ("x",), "b": ("x",), "c": ("x",), "d": ("y",)}
    index = HomophoneIndex({"ad": "one", "bd": "two"}, readings, {"ad": "one", "bd": "two"})
    assert index.repair("cd", 0) is None
    same = HomophoneIndex({"ad": "one", "bd": "one"}, readings, {"ad": "one", "bd": "one"})
    assert same.repair("cd", 0) in {(0, "cd", "ad"), (0, "cd", "bd")}


@pytest.mark.parametrize("text", ["我学两多少", "我的学两"])
def test_a_word_whose_two_characters_both_slipped_reads_as_the_word(shared_runtime: AssistantRuntime, text: str) -> None:
    assert "@health" in features(shared_runtime, text)


@pytest.mark.parametrize("text", ["天气怎么样", "学校在哪"])
def test_two_unknown_characters_that_sound_like_no_word_stay_unknown(shared_runtime: AssistantRuntime, text: str) -> None:
    assert [f for f in features(shared_runtime, text) if f.startswith("c:")][:2] == [f"c:{text[0]}", f"c:{text[1]}"]
