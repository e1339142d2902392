"""Option cards: the seed's "command to be confirmed".

A card is a short list of explicit command lines the player may run by
clicking, by typing ``@ai <number>``, or by typing an option's label (matched
like a notification's buttons, ``engine.assistant.cards``). Each card has an id, unique for the
player's connection, and the version of the player's card state it was
issued under. A button sends ``/agent card <id> <version> <n>``: a new
explicit request that runs the stored command line, with no routing and no
model call; the command line comes from the card, never from the click.

The version moves on whenever what the card was built from may no longer
hold: memory cleared, conversation mode or external-AI switch changed.
A click on a card of an older version is rejected with a message, as is a
click on an unknown or expired card. A card proposing a write can be used
once. Cards are kept in a small bounded book; the oldest go first.
"""
from __future__ import annotations

import enum
import itertools
from collections import OrderedDict

import attrs

CARD_SECONDS = 300.0
KEPT_CARDS = 8
COMMAND = "card"


@attrs.frozen
class CardOption:
    command_line: str  # the explicit command, e.g. "!pos" or "!goto 10 64 10"
    label: str
    write: bool = False
    key: str = ""                  # the label's key: its phrasings in notification-buttons.json
    phrases: tuple[str, ...] = ()  # more words that name it when typed: its command, its label's texts


@attrs.frozen
class Card:
    card_id: int
    version: int
    options: tuple[CardOption, ...]
    expires_at: float
    single_use: bool = False

    def button_command(self, n: int) -> str:
        return f"/agent {COMMAND} {self.card_id} {self.version} {n}"


class CardError(enum.Enum):
    UNKNOWN = "unknown"    # never issued, or pushed out of the book
    EXPIRED = "expired"
    STALE = "stale"        # issued under an older version
    RANGE = "range"        # no such option on the card
    USED = "used"          # a single-use card was already clicked
    SYNTAX = "syntax"


class CardBook:
    def __init__(self, seconds: float = CARD_SECONDS, kept: int = KEPT_CARDS) -> None:
        self.seconds = seconds
        self.kept = kept
        self.version = 1
        self._ids = itertools.count(1)
        self._cards: OrderedDict[int, Card] = OrderedDict()
        self._used: set[int] = set()

    def issue(self, options: tuple[CardOption, ...], now: float, single_use: bool = False) -> Card:
        card = Card(next(self._ids), self.version, options, now + self.seconds, single_use)
        self._cards[card.card_id] = card
        while len(self._cards) > self.kept:
            old, _ = self._cards.popitem(last=False)
            self._used.discard(old)
        return card

    def invalidate(self) -> None:
        """Every card issued so far becomes stale."""
        self.version += 1

    def withdraw(self, card_id: int) -> None:
        """The player declined the card ("cancel"): a later click finds nothing to run."""
        self._cards.pop(card_id, None)
        self._used.discard(card_id)

    def get(self, card_id: int) -> Card | None:
        return self._cards.get(card_id)

    def resolve(self, card_id: int, version: int, n: int, now: float) -> CardOption | CardError:
        card = self._cards.get(card_id)
        if card is None:
            return CardError.UNKNOWN
        if version != card.version or card.version != self.version:
            return CardError.STALE
        if now >= card.expires_at:
            return CardError.EXPIRED
        if not 1 <= n <= len(card.options):
            return CardError.RANGE
        if card.single_use:
            if card_id in self._used:
                return CardError.USED
            self._used.add(card_id)
        return card.options[n - 1]


def parse_click(args: str) -> tuple[int, int, int] | None:
    """``<id> <version> [<n>]`` → numbers, or None."""
    parts = args.split()
    if len(parts) not in (2, 3) or not all(p.isdigit() and len(p) <= 9 for p in parts):
        return None
    card_id, version = int(parts[0]), int(parts[1])
    n = int(parts[2]) if len(parts) == 3 else 1
    return card_id, version, n
