"""The seed's "command to be confirmed" cards: id and version, explicit clicks, stale versions refused."""
from __future__ import annotations

from engine.llm.cards import CardBook, CardError, CardOption, parse_click
from engine.llm.testing import tool_body
from engine.routing.stats import Reason
from tests.engine.conftest import make_snapshot
from engine.session import Session
from tests.engine.llm.conftest import RigFactory, buttons, click, text

UNSURE = "where in the world am i yeet"


def test_card_book_versions_expiry_and_single_use() -> None:
    book = CardBook(seconds=10.0)
    card = book.issue((CardOption("!pos", "where am I"), CardOption("!status", "status")), now=0.0)
    assert card.button_command(2) == f"/agent card {card.card_id} {card.version} 2"
    assert book.resolve(card.card_id, card.version, 2, 1.0) == CardOption("!status", "status")
    assert book.resolve(card.card_id, card.version + 1, 1, 1.0) is CardError.STALE
    assert book.resolve(card.card_id, card.version, 3, 1.0) is CardError.RANGE
    assert book.resolve(card.card_id, card.version, 1, 10.0) is CardError.EXPIRED
    assert book.resolve(999, card.version, 1, 1.0) is CardError.UNKNOWN
    book.invalidate()
    assert book.resolve(card.card_id, card.version, 1, 1.0) is CardError.STALE
    once = book.issue((CardOption("!goto 1 2 3", "walk", write=True),), 0.0, single_use=True)
    assert book.resolve(once.card_id, once.version, 1, 1.0) == CardOption("!goto 1 2 3", "walk", write=True)
    assert book.resolve(once.card_id, once.version, 1, 1.0) is CardError.USED
    assert parse_click("3 1 2") == (3, 1, 2) and parse_click("3 1") == (3, 1, 1)
    assert parse_click("3 x 1") is None and parse_click("") is None


def test_no_key_card_lists_candidates_and_a_click_runs_as_an_explicit_request(rig_factory: RigFactory) -> None:
    rig = rig_factory(key=False)
    assistant = rig.assistant()
    card = rig.ask(assistant, UNSURE)
    assert "I'm not sure what you mean, so I did nothing." in text(card)
    assert "no API key configured" in text(card)
    (button,) = buttons(card)
    assert button.label == "!pos" and button.command == "/agent card 1 1 1"
    before = dict(rig.runtime.stats.counters)
    clicked = rig.command(assistant, button.command)
    assert "You are at 10.5, 64, -20.2" in text(clicked)
    assert rig.calls == 0
    assert rig.runtime.stats.counters == before  # no routing happened for the click


def test_a_stale_card_version_is_rejected_with_a_message(rig_factory: RigFactory) -> None:
    rig = rig_factory(key=False)
    assistant = rig.assistant()
    (button,) = buttons(rig.ask(assistant, UNSURE))
    rig.command(assistant, "!mode extended")  # a preference change: cards issued before are stale
    assert "out of date" in text(rig.command(assistant, button.command))
    forged = button.command.rsplit(" ", 2)[0] + " 7 1"
    assert "out of date" in text(rig.command(assistant, forged))
    assert "Usage: /agent card" in text(rig.command(assistant, "/agent card nonsense"))


def test_without_candidates_the_card_offers_the_read_only_shortcuts(rig_factory: RigFactory) -> None:
    rig = rig_factory(key=False)
    card = rig.ask(rig.assistant(), "tell me a joke")
    assert "Read-only commands: !assistant, !status, !pos, !players, !inv, !inbox, !progress." in text(card)
    assert "!help lists every command." in text(card)
    labels = [b.label for b in buttons(card)]
    assert labels == ["!assistant", "!status", "!pos", "!players", "!inv", "!inbox", "!progress"]
    assert all(b.command.startswith("/agent card ") for b in buttons(card))


def test_a_low_scoring_candidate_is_never_chosen_automatically(rig_factory: RigFactory) -> None:
    rig = rig_factory(key=False)
    assistant = rig.assistant()
    card = rig.ask(assistant, UNSURE)
    assert "You are at" not in text(card)
    assert rig.runtime.stats.counters[Reason.NO_MODEL] == 1
    # Typing the option number is like a click.
    assert "You are at" in text(rig.ask(assistant, "1"))


def test_model_failure_card_is_the_same_card(rig_factory: RigFactory) -> None:
    rig = rig_factory(500, 500)
    card = rig.ask(rig.assistant(), UNSURE)
    assert "unavailable right now" in text(card) and buttons(card)[0].label == "!pos"


def test_a_write_card_from_the_model_runs_the_write_only_on_click_and_only_once(rig_factory: RigFactory) -> None:
    rig = rig_factory(tool_body("agent_eat"))
    assistant = rig.assistant()
    card = rig.ask(assistant, "i feel like having a snack now")
    (button,) = buttons(card)
    assert button.label == "!eat" and "Nothing was done yet" in text(card)
    session = Session("Tester", assistant=assistant)  # a click runs !eat in the player's session
    assert "Cannot eat: you carry no food I may eat." in text(click(session, button.command))
    assert "already used" in text(click(session, button.command))
    assert len(rig.runtime.cache) == 0


def test_cards_survive_other_cards_but_not_a_reconnect(rig_factory: RigFactory) -> None:
    rig = rig_factory(key=False)
    assistant = rig.assistant()
    (first,) = buttons(rig.ask(assistant, UNSURE))
    rig.ask(assistant, "tell me a joke")
    assert "You are at" in text(rig.command(assistant, first.command))
    assistant.clear_scope()
    assert "out of date" in text(rig.command(assistant, first.command, make_snapshot()))


def test_a_get_card_from_the_model_runs_only_on_click(rig_factory: RigFactory) -> None:
    rig = rig_factory(tool_body("agent_get", {"goal": "16 torch"}))
    assistant = rig.assistant()
    card = rig.ask(assistant, "could you sort me out with some torches")
    (button,) = buttons(card)
    assert button.label == "!get 16 torch" and "Nothing was done yet" in text(card)
    session = Session("Tester", assistant=assistant)     # no world: the click is refused, not run unasked
    answer = text(click(session, button.command))
    assert answer == "Cannot start the autopilot: no block data for this Minecraft version."   # it ran !get
    assert "already used" in text(click(session, button.command))
