"""What the player takes back in the line (issue 23): self-corrections, items described then named,
contrasts. Each reading is tested both ways: the line as meant goes direct, and the words that
still make it unsafe (a write, a negation of the request, a condition, a request) keep stopping it."""
from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.assistant import AssistantRuntime
from engine.routing.corrections import corrected, without_guesses
from engine.routing.evaluation import fixture_snapshot
from engine.routing.router import ScopeState
from engine.routing.terms import Analysis
from tests.engine.routing.routes import module_of as route


def _analyzer(runtime: AssistantRuntime) -> Callable[[str], Analysis]:
    snapshot = fixture_snapshot("en_us")
    return lambda text: runtime.router.analyze(text, snapshot)


@pytest.mark.parametrize("line, meant", [
    ("whats the id of dirt wait no coarse dirt", "whats the id of coarse dirt"),
    ("how many torches do i have, i mean soul torches", "how many soul torches do i have"),
    ("wat lvl am i on, y level i mean", "wat y level am i on"),
    ("how much xp have i got, in points not levels", "how much xp have i got, in points"),
    ("y level? not the full coords just y", "y level? just y"),
    ("the flower thats blue and small, cornflower, id", "cornflower, id"),
    ("whats the id for the stripey wood, stripped oak log", "whats the id of stripped oak log"),
])
def test_the_line_is_read_as_meant(shared_runtime: AssistantRuntime, line: str, meant: str) -> None:
    assert corrected(line, _analyzer(shared_runtime)) == meant


@pytest.mark.parametrize("line", [
    "where am i, not now",                      # when, not what: the request is put off
    "do not tell me my coords",                 # a negation of the request
    "im not asking you where i am",
    "is my hunger not full yet",
    "whats my health not that it matters",      # a pronoun in the phrase
    "where am i, actually whats my hp",         # "actually" is no marker: two questions stay two
    "y level i mean",                           # nothing said before the correction
    "get me some, sea lantern, how many do i have",  # said to the assistant: no description
])
def test_lines_that_take_nothing_back_are_left_as_written(shared_runtime: AssistantRuntime, line: str) -> None:
    assert corrected(line, _analyzer(shared_runtime)) == line


@pytest.mark.parametrize("text, module", [
    ("@ai how much xp have i got, in points not levels", "agent:status"),
    ("ai how many arrows do i have, tipped ones not normal", "agent:inventory"),
    ("bot whats the minecraft: name for the smooth stone slab, not the normal stone slab", "agent:item"),
    ("@ai my health, full numbers not hearts pls", "agent:status"),
    ("@ai am i on full hunger? no, i mean health, hearts", "agent:status"),
    ("ai whats my y level rn, wait no i mean my x and z", "agent:position"),
    ("ai the blue glowy block you get from prismarine, sea lantern, whats the registry name", "agent:item"),
    ("ai how many of them white fluffy blocks from sheep do i have, wool i think", "agent:inventory"),
    ("@ai since i'm about to dig down, what Y am i at rn", "agent:position"),
    ("i'm about to fight the wither so how many ender pearls do i have", "agent:inventory"),
    ("what's my position, not alex's", "agent:position"),  # whose it is not: the player's own
])
def test_what_is_taken_back_no_longer_stops_the_line(shared_runtime: AssistantRuntime, text: str, module: str) -> None:
    assert route(shared_runtime, text, "en") == module


@pytest.mark.parametrize("text", [
    "give me diamonds, i mean coal",                     # the correction keeps the write
    "don't tell me my coords, i mean my health",         # and the negation
    "tell me when my health is low, i mean my hunger",   # and the condition
    "where am i? not now",
    "who's online, not yet",
    "tell me my coords, not tp me",                      # a write after "not"
    "get me some, sea lantern, how many do i have",
    "craft a table, crafting table, how many do i have",
    "since i'm about to dig down, tp me home",           # the reason's plan, then a command
    "i'm about to fight the wither so give me diamonds",
    "whats my xp and what dimension am i in",            # two questions joined by "and"
])
def test_the_unsafe_part_still_stops_it(shared_runtime: AssistantRuntime, text: str) -> None:
    assert route(shared_runtime, text, "en") is None


@pytest.mark.parametrize("text, item", [
    ("whats the id of dirt wait no coarse dirt", "minecraft:coarse_dirt"),
    ("ai how many of the orange metal bars do i have, the copper ones", "minecraft:copper_ingot"),
    ("how many diamonds, emeralds i mean", "minecraft:emerald"),
])
def test_the_item_answered_is_the_one_meant(shared_runtime: AssistantRuntime, text: str, item: str) -> None:
    found = shared_runtime.router.route(text, "en", ScopeState("t"), fixture_snapshot("en_us"), now=0.0)
    assert found.args is not None
    assert item in (getattr(found.args, "matches", None) or (found.args.item_id,))


@pytest.mark.parametrize("line, meant", [
    ("how many pearls do i have? like 16", "how many pearls do i have?"),
    ("xp level?? am i 30 yet", "xp level??"),
    ("how far is alex like 20 blocks", "how far is alex"),
    ("y多少 是不是-59", "y多少"),
    ("经验瓶还有多少瓶 有64吗", "经验瓶还有多少瓶"),
    ("my health? 20/20", "my health?"),
])
def test_a_guess_beside_the_question_is_dropped(line: str, meant: str) -> None:
    assert without_guesses(line) == meant


@pytest.mark.parametrize("line", [
    "is my health 10",                 # the number is the question's own
    "tp me to 100 64 200",
    "i'm at like 2 hearts, how many do i have exactly",   # a statement says it, it guesses nothing
    "16",
])
def test_a_number_that_is_no_guess_stays(line: str) -> None:
    assert without_guesses(line) == line


@pytest.mark.parametrize("text, lang, module", [
    ("@ai how many pearls do i have? like 16?", "en", "agent:inventory"),
    ("progress?? how far are we?? 50%???", "en", "agent:progress"),
    ("黑曜 还剩多少个 有10个没", "zh", "agent:inventory"),
    # Players' nicknames for items: 金果, 黑曜, 史莱姆球; "wood logs" is every log.
    ("ai 我有几个金果", "zh", "agent:inventory"), ("哭泣的黑曜 id 多少", "zh", "agent:item"),
    ("how many wood logs do i have", "en", "agent:inventory"), ("包里有木头不", "zh", "agent:inventory"),
])
def test_guesses_and_nicknames(shared_runtime: AssistantRuntime, text: str, lang: str, module: str) -> None:
    assert route(shared_runtime, text, lang) == module


@pytest.mark.parametrize("text", ["tp me to 0 0? like 0 0", "give me 16 pearls, like 16", "how many pearls does alex have? like 16?"])
def test_a_guess_leaves_what_stops_the_line(shared_runtime: AssistantRuntime, text: str) -> None:
    assert route(shared_runtime, text, "en") is None
