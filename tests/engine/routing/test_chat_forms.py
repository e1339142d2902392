"""Chat spellings read as the vocabulary words they stand for, and only when one is meant."""
from __future__ import annotations

import pytest

from engine.routing.chat_forms import RUN_LONGEST, run_together, undoubled, unleet, unstretched
from engine.routing.normalize import normalize_text

KNOWN = frozenset({"where", "am", "i", "how", "many", "torches", "do", "have", "inv", "pls", "in", "inventory",
                   "coords", "wh", "ere", "a", "torch", "es"})


def test_words_run_together_split_into_the_fewest_known_words() -> None:
    assert run_together("whereami", KNOWN) == ("where", "am", "i")
    assert run_together("invpls", KNOWN) == ("inv", "pls")
    assert run_together("howmanytorchesdoihave", KNOWN) == ("how", "many", "torches", "do", "i", "have")


def test_no_split_when_none_or_more_than_one_is_fewest() -> None:
    assert run_together("where", KNOWN) is None  # a known word is no run
    assert run_together("wherezzz", KNOWN) is None
    # "inventory" is known whole; "ininv" splits as in+inv only
    assert run_together("ininv", KNOWN) == ("in", "inv")
    # "a" is no word a run may hold: only "i" and "u" stand alone
    assert run_together("ainv", KNOWN) is None
    ambiguous = frozenset({"ab", "cde", "abc", "de"})
    assert run_together("abcde", ambiguous) is None  # ab+cde and abc+de: two words either way


def test_runs_longer_than_the_bound_are_not_read() -> None:
    word = "where" * 5
    assert len(word) > RUN_LONGEST
    assert run_together(word, KNOWN) is None
    assert run_together("wherewhere", KNOWN) == ("where", "where")


def test_digits_and_held_letters() -> None:
    assert unleet("c00rds", KNOWN) == "coords"
    assert unstretched("whereeee", KNOWN) == "where"
    assert unleet("where", KNOWN) is None


def test_a_short_topic_struck_twice() -> None:
    topics = {"id", "hp", "xp"}
    assert undoubled("idd", topics) == "id" and undoubled("hpp", topics) == "hp"
    assert undoubled("inn", topics) is None and undoubled("bee", topics) is None  # no topic of ours
    assert undoubled("iddd", topics) is None  # a held key is unstretched's


@pytest.mark.parametrize("text, expected", [
    ("Hiw many emeralds do I got", "how many emeralds do i got"), ("Hoe far is the auto pilot", "how far is the auto pilot"),
    ("whats the I'd for smooth stone slab", "whats the id for smooth stone slab"), ("Whats my good level", "whats my food level"),
    ("i'd like to know", "i'd like to know"), ("right now many mobs", "right now many mobs"), ("is my hoe good", "is my hoe good"),
    ("下届合金锭的id", "下界合金锭的id"), ("bot wyd", "bot what you doing"), ("wya", "where you at"),
    ("wydness", "wydness"),
])
def test_phone_and_ime_slips_read_as_the_word_around_them_allows(text: str, expected: str) -> None:
    assert normalize_text(text) == expected


def test_words_typed_without_their_vowels() -> None:
    from engine.routing.chat_forms import devoweled, skeletons
    known = skeletons(["health", "inventory", "inventroy", "position", "piston", "hunger", "but"], taken={"bt"},
                      meaning={"inventory": "@inventory", "inventroy": "@inventory"})
    assert devoweled("hlth", known) == "health"
    assert devoweled("invntry", known) == "inventory"  # a misspelling of the same meaning is no rival
    assert devoweled("pstn", known) is None  # position or piston
    assert devoweled("health", known) is None and devoweled("ht", known) is None  # vowels, or too short
