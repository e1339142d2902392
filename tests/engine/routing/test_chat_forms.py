"""Chat spellings read as the vocabulary words they stand for, and only when one is meant."""
from __future__ import annotations

from engine.routing.chat_forms import RUN_LONGEST, run_together, unleet, unstretched

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
