"""What a command takes after its name: its arguments and its completion words, declared once.

How this works: a command entry (``engine.commands.table.Command``, a module's
``AgentCommand``) declares its arguments as ``Arg`` values — a name, a kind, the
choices of a ``CHOICE``, whether it may be left out. Every surface reads them:
completion (``words_from_args``, when the entry gives no words of its own), the
console's player names (a ``PLAYER`` argument), and the model's tool schema
(``engine.llm.tools``). An entry that declares none has them read off its usage
line (``args_from_usage``: ``<name>`` required, ``[name]`` optional, ``a|b`` a
choice), which is how a module from outside the repository gets a schema.

This module imports nothing else of the engine, so the routing layer's catalog
and the modules' declarations may use it without a cycle.
"""
from __future__ import annotations

import enum
import re
from collections.abc import Sequence

import attrs


class ArgKind(enum.Enum):
    WORD = "word"        # one word
    TEXT = "text"        # the rest of the line
    NUMBER = "number"
    PLAYER = "player"    # an online player's name
    CHOICE = "choice"    # one of ``choices``


@attrs.frozen
class Arg:
    """One argument of a command, in the order it is typed."""

    name: str
    kind: ArgKind = ArgKind.WORD
    choices: tuple[str, ...] = ()
    optional: bool = False
    description: str = ""  # what the model is told about it (English)


@attrs.frozen
class Word:
    """An argument word offered by completion; ``then`` are the words that may follow it.

    ``player``: not a literal but a place for an online player's name (``text`` names the
    argument); the console offers the names connected now, the client's command tree leaves
    it to its free-text argument.
    """

    text: str
    then: tuple["Word", ...] = ()
    player: bool = False


def words(*names: str | Word) -> tuple[Word, ...]:
    return tuple(n if isinstance(n, Word) else Word(n) for n in names)


def words_from_args(args: Sequence[Arg]) -> tuple[Word, ...]:
    """The completion tree an argument list gives: a choice's words or a player's place, each
    followed by the rest; a free word, a number or text ends what can be offered."""
    if not args:
        return ()
    first, rest = args[0], words_from_args(args[1:])
    if first.kind is ArgKind.CHOICE:
        return tuple(Word(choice, rest) for choice in first.choices)
    if first.kind is ArgKind.PLAYER:
        return (Word(first.name, rest, player=True),)
    return ()


def literal_words(tree: Sequence[Word]) -> tuple[Word, ...]:
    """``tree`` without the players' places: what a client's command tree can hold."""
    return tuple(Word(w.text, literal_words(w.then)) for w in tree if not w.player)


_NAME = re.compile(r"[^A-Za-z0-9_-]")
_PLACEHOLDER = re.compile(r"^[<\[]([^>\]]+)[>\]]$")


def args_from_usage(usage: str) -> tuple[Arg, ...]:
    """``!item <name>`` → (name, required); ``[count]`` optional; ``on|off`` a choice named ``state``
    when it comes first (``arg<n>`` later); any other word a required word of that name."""
    args: list[Arg] = []
    for n, token in enumerate(usage.split()[1:]):
        found = _PLACEHOLDER.match(token)
        if found is not None:
            args.append(Arg(_NAME.sub("_", found.group(1)) or f"arg{n}", optional=token.startswith("[")))
        elif "|" in token:
            args.append(Arg(f"arg{n}" if args else "state", ArgKind.CHOICE, tuple(token.split("|"))))
        else:
            args.append(Arg(_NAME.sub("_", token) or f"arg{n}"))
    return tuple(args)
