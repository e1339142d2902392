"""The command table: every ``!command`` (and ``/agent command``) in one place.

How this works: a ``Command`` is one entry — its name and aliases, a parser
for the argument string, usage and help text in English and Chinese, who may
run it (``Access``: a player, an admin, or the proxy's admin console), its
arguments and the words that complete them (``engine.commands.args``),
whether it writes, and a handler.
``CommandTable`` holds the entries, frozen once built, and answers every
question asked about commands: which entry a line names (two-word names such
as ``system routing`` first), the ``!help`` rows, the completion tree the proxy
puts under ``/agent`` and the console offers, and the catalog the model is
given as tools. Running a line is ``CommandTable.run``: look up, check access
(the only admin check there is), parse, call the handler with an
``Invocation`` that says who typed it and what the world looks like;
``execute`` runs a typed line and walks what it gives in the one pass of
``engine.commands.expansion``.

An entry with ``routing`` is also a routing target of the assistant (its
semantic hints compete in the margin and the model may propose it); such
commands change things, so routing never runs them, it only offers them for
the player to confirm (invariant 2).
"""
from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Generic, Protocol, TypeVar

import attrs

from engine.actions import Action, ReplyToPlayer, RunLine
from engine.commands.args import Arg, Word, args_from_usage, literal_words, words_from_args
from engine.commands.expansion import Ask, expand
from engine.modules import messages as m
from engine.modules.declarations import ParseContext, RoutingProfile
from engine.world.snapshot import WorldSnapshot

I = TypeVar("I")


class CommandError(Exception):
    """Our own code misused the table (a duplicate name, a change after it was frozen)."""


class Access(enum.Enum):
    PLAYER = "player"
    ADMIN = "admin"  # the session's player must be an authenticated admin
    CONSOLE = "console"  # the proxy's admin console (its terminal, its TCP port, !system in game)


@attrs.frozen
class Text:
    """One piece of player-facing text in both reply languages."""

    en: str
    zh: str = ""

    def say(self, lang: str) -> str:
        return self.zh if lang == "zh" and self.zh else self.en


@attrs.frozen
class CommandRouting(Generic[I]):
    """How a command is also a routing target: an id, semantic hints, and how to write a value back."""

    module_id: str
    profile: RoutingProfile[I]
    render: Callable[[I], str]


class PlayerSession(Protocol):
    """What the session's own commands ask of the player's Session (``engine.session``)."""

    def help(self, lang: str) -> ReplyToPlayer: ...
    def stop(self, now: float) -> list[Action]: ...
    def goto(self, x: float, y: float, z: float) -> list[Action]: ...
    def follow(self, name: str) -> list[Action]: ...
    def autopilot(self, word: str, provider: str | None, now: float) -> list[Action]: ...
    def get(self, text: str, now: float) -> list[Action]: ...
    def eat(self) -> list[Action]: ...
    def reflex(self, word: str, now: float) -> list[Action]: ...
    def admin_login(self, secret: str, now: float) -> list[Action]: ...


class PlayerAssistant(Protocol):
    """What the assistant's commands and its modules' ask of the player's assistant (``engine.assistant``)."""

    def mode_command(self, word: str, lang: str) -> list[Action]: ...
    def ai_command(self, word: str, lang: str) -> list[Action]: ...
    def memory_command(self, word: str, lang: str) -> list[Action]: ...
    def history_command(self, word: str, lang: str) -> list[Action]: ...
    def click_card(self, args: str, lang: str, now: float) -> Sequence[Action | RunLine]: ...
    def click_notice(self, args: str, lang: str, now: float) -> Sequence[Action | RunLine]: ...
    def run_module(self, entry: Any, value: Any, inv: "Invocation") -> ReplyToPlayer: ...


@attrs.frozen
class Invocation:
    """Who runs a command, where, and when. ``session`` and ``assistant`` are the player's own."""

    snapshot: WorldSnapshot | None  # None: the console, which has no world
    now: float
    lang: str
    admin: bool
    prefix: str = "!"
    session: PlayerSession | None = None
    assistant: PlayerAssistant | None = None
    parse_context: Callable[[str], ParseContext] | None = None
    progress: str | None = None  # the autopilot's ladder progress, for the modules that show it
    max_args: int | None = None  # the routing text limit, which holds for arguments too (before any parsing)
    admin_pending: bool = False  # a listed admin who has not proved it yet (offline mode): say how

    def context_for(self, args: str) -> ParseContext:
        if self.parse_context is not None:
            return self.parse_context(args)
        return ParseContext.bare(self.the_snapshot(), self.lang)

    def the_snapshot(self) -> WorldSnapshot:
        if self.snapshot is None:
            raise CommandError("this command needs the player's world")
        return self.snapshot

    def the_session(self) -> PlayerSession:
        if self.session is None:
            raise CommandError("this command needs the player's session")
        return self.session

    def the_assistant(self) -> PlayerAssistant:
        if self.assistant is None:
            raise CommandError("this command needs the player's assistant")
        return self.assistant


Handler = Callable[[Invocation, I], Sequence[Action | RunLine]]


@attrs.frozen
class Command(Generic[I]):
    """One command: what it is called, what it takes, who may run it, and its handler.

    ``args`` are its arguments (None: read off the English usage line); completion offers
    ``words`` or, without them, the words its arguments give. ``write``: it changes the world,
    the player's body or what runs for them, so the model may only propose it for the player
    to confirm.
    """

    name: str
    parse: Callable[[str, ParseContext], I | None]
    handler: Handler[I]
    usage: Text
    help: Text
    aliases: tuple[str, ...] = ()
    access: Access = Access.PLAYER
    words: tuple[Word, ...] = ()
    listed: bool = True      # False: a click target (cards, notifications), not in help or completion
    routing: CommandRouting[I] | None = None
    args: tuple[Arg, ...] | None = None
    write: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    @property
    def arguments(self) -> tuple[Arg, ...]:
        return self.args if self.args is not None else args_from_usage(self.usage.en)

    @property
    def completion_words(self) -> tuple[Word, ...]:
        return self.words or words_from_args(self.arguments)


def no_args(value: I) -> Callable[[str, ParseContext], I]:
    """A parser for a command that takes no arguments (words after it are ignored)."""
    return lambda _args, _ctx: value


class CommandTable:
    """Commands by name, frozen after ``freeze``; iteration keeps registration order."""

    def __init__(self, commands: Iterable[Command[Any]] = ()) -> None:
        self._commands: list[Command[Any]] = []
        self._by_name: dict[str, Command[Any]] = {}
        self._frozen = False
        for command in commands:
            self.add(command)

    def add(self, command: Command[Any]) -> None:
        if self._frozen:
            raise CommandError(f"cannot add !{command.name}: the command table is frozen")
        for name in command.names:
            key = name.lower()
            if key in self._by_name:
                raise CommandError(f"command !{key} is declared twice")
            self._by_name[key] = command
        self._commands.append(command)

    def freeze(self) -> "CommandTable":
        self._frozen = True
        return self

    def __iter__(self) -> Iterator[Command[Any]]:
        return iter(self._commands)

    def get(self, name: str) -> Command[Any] | None:
        return self._by_name.get(name.lower())

    def find(self, line: str) -> tuple[Command[Any], str] | None:
        """The entry a command line names and the rest of the line; two-word names first."""
        name, _, args = line.strip().partition(" ")
        first, _, rest = args.strip().partition(" ")
        if first:
            found = self._by_name.get(f"{name.lower()} {first.lower()}")
            if found is not None:
                return found, rest.strip()
        command = self._by_name.get(name.lower())
        return None if command is None else (command, args.strip())

    def execute(self, line: str, inv: Invocation, ask: Ask | None = None) -> list[Action]:
        """Run one command line (without its prefix) and, in the same pass, any line its handler hands
        back (``engine.commands.expansion``); ``ask`` runs a model call one of them asks for."""
        out = self.run(line, inv)
        if out is None:
            name = line.strip().partition(" ")[0].lower()
            return [ReplyToPlayer((UNKNOWN.say(inv.lang).format(command=f"{inv.prefix}{name}", prefix=inv.prefix),))]
        return expand(out, lambda one: self.run(one, inv), ask)

    def run(self, line: str, inv: Invocation) -> Sequence[Action | RunLine] | None:
        """One line's handler output, unexpanded; None when no command has that name."""
        found = self.find(line)
        if found is None:
            return None
        command, args = found
        if command.access is not Access.PLAYER and not inv.admin:
            denied = DENIED_YET if inv.admin_pending else DENIED
            return [ReplyToPlayer((denied.say(inv.lang).format(command=f"{inv.prefix}{command.name}", prefix=inv.prefix),))]
        if inv.max_args is not None and len(args) > inv.max_args:
            usage = self.usage(command, inv.lang, inv.prefix)
            return [ReplyToPlayer((m.say(inv.lang, "args.too_long", limit=inv.max_args, usage=usage),))]
        value = command.parse(args, inv.context_for(args))
        if value is None:
            return [ReplyToPlayer((USAGE.say(inv.lang).format(usage=self.usage(command, inv.lang, inv.prefix)),))]
        return command.handler(inv, value)

    # -- what is derived from the table -------------------------------------------------
    @staticmethod
    def usage(command: Command[Any], lang: str, prefix: str = "!") -> str:
        return prefix + command.usage.say(lang).removeprefix("!")

    def help_rows(self, lang: str, admin: bool, prefix: str = "!") -> list[tuple[str, str]]:
        rows = []
        for command in self._commands:
            if not command.listed or (command.access is Access.ADMIN and not admin):
                continue
            suffix = ADMIN_MARK.say(lang) if command.access is Access.ADMIN else ""  # the console's are all admin
            rows.append((self.usage(command, lang, prefix), command.help.say(lang) + suffix))
        return rows

    def tree(self, admin: bool = True) -> tuple[Word, ...]:
        """Every listed command name (admin ones for admins), each with its argument words and the
        places for players' names."""
        shown = [c for c in self._commands if c.listed and (admin or c.access is Access.PLAYER)]
        out: list[Word] = []
        for command in shown:
            if " " in command.name:  # "system routing": a word under "system"
                continue
            subs = [Word(c.name.split(" ", 1)[1], c.completion_words) for c in shown
                    if c.name.startswith(command.name + " ")]
            for name in command.names:
                out.append(Word(name, command.completion_words + tuple(subs)))
        return tuple(out)

    def completion(self, admin: bool = True) -> tuple[Word, ...]:
        """The words after ``/agent`` in the client's command tree: literal words only."""
        return literal_words(self.tree(admin))

    def complete(self, typed: Sequence[str], admin: bool = True, players: Sequence[str] = ()) -> list[str]:
        """Completions for the last word of ``typed`` (the words after ``/agent``, or a console
        line's words); ``players`` are the names offered where a player's name goes."""
        level = self.tree(admin)
        for word in typed[:-1]:
            match = next((w for w in level if not w.player and w.text == word.lower()), None)
            if match is None:
                match = next((w for w in level if w.player), None)  # any word fills a player's place
            if match is None:
                return []
            level = match.then
        last = typed[-1].lower() if typed else ""
        offered = {w.text for w in level if not w.player}
        if any(w.player for w in level):
            offered |= set(players)
        return sorted(text for text in offered if text.lower().startswith(last))


UNKNOWN = Text("Unknown command {command}; {prefix}help lists the commands.", "未知命令 {command}；{prefix}help 列出所有命令。")
USAGE = Text("Usage: {usage}", "用法：{usage}")
DENIED = Text("Not permitted: {command} is for the proxy's admins.", "无权限：{command} 仅限代理管理员。")
DENIED_YET = Text("Not permitted yet: in offline mode an admin logs in first with {prefix}admin login <secret>.",
                  "暂无权限：离线模式下，管理员需先用 {prefix}admin login <密钥> 登录。")
ADMIN_MARK = Text(" (admin)", "（管理员）")
