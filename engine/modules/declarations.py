"""How a module declares its routing: commands, a semantic profile, shortcuts.

Mirrors the seed's ``ModuleRouting<I>`` builder. Every method returns a new
frozen value, so a declaration can be built in one expression and never
changes after registration::

    ModuleRouting.defaults()
        .command(AgentCommand.literal(EMPTY, "pos", "position", usage="!pos", description="..."))
        .semantic(RoutingProfile.read(parse_nothing, ["where am i"], ["我在哪"]))
        .shortcut("shortcut.position", EMPTY)

* ``RoutingProfile.read`` may go direct (if the module is read-only);
  ``RoutingProfile.hints`` only contributes candidate examples.
* ``explicit_only()``: no semantic match, no intent cache; a model must be
  very sure to choose it. ``structured_only()``: not even the model may.
* A parser gets the text of *this* request and returns None when arguments
  are missing or ambiguous; it never fills them in from history.
* A label (``shortcut(key, value, en=..., zh=...)``, ``choice(key, en=..., zh=...)``)
  is a key plus its text: a built-in key has its text in the reply table
  (``engine.modules.messages``), a module from outside declares its own; the
  option card shows the text, never the key (``label_text``).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Generic, TypeVar

import attrs

from engine.commands.args import Arg, args_from_usage
from engine.routing.terms import Analysis
from engine.world.snapshot import WorldSnapshot

I = TypeVar("I")


@attrs.frozen
class ParseContext:
    """What a parser may consult besides the text: live state and this text's analysis, never history."""

    snapshot: WorldSnapshot
    language: str
    analysis: Analysis
    # Known player names, lower-cased → as the tab list spells them; built once per request.
    players: Mapping[str, str] = attrs.field(factory=dict)

    @staticmethod
    def bare(snapshot: WorldSnapshot, language: str) -> "ParseContext":
        """For parsers that read only the argument string (no vocabulary at hand)."""
        return ParseContext(snapshot, language, Analysis(()))

    @staticmethod
    def player_names(snapshot: WorldSnapshot) -> dict[str, str]:
        names = {name.lower(): name for name in snapshot.online_players}
        for entity in snapshot.entities:
            if entity.kind == "player" and entity.name:
                names.setdefault(entity.name.lower(), entity.name)
        return names


@attrs.frozen
class AgentCommand(Generic[I]):
    """``!name args``: ``parse`` reads the args string, ``render`` writes it back for buttons."""

    name: str
    usage: str
    description: str
    parse: Callable[[str, ParseContext], I | None]
    render: Callable[[I], str]
    aliases: tuple[str, ...] = ()
    phrases: tuple[str, ...] = ()  # exact @ai requests that mean this command, e.g. "pos"
    description_zh: str = ""       # the help text in Chinese (the English one is the model's too)
    completion: tuple[str, ...] = ()  # argument word paths for completion, e.g. ("reload", "mode off")
    args: tuple[Arg, ...] | None = None  # its arguments (engine.commands.args); None: read off ``usage``

    @property
    def arguments(self) -> tuple[Arg, ...]:
        return self.args if self.args is not None else args_from_usage(self.usage)

    @staticmethod
    def literal(
        value: I, name: str, *phrases: str, usage: str | None = None, description: str = "", aliases: Sequence[str] = (),
        description_zh: str = "",
    ) -> "AgentCommand[I]":
        """A command without arguments (extra words after it are ignored)."""
        return AgentCommand(
            name=name,
            usage=usage or f"!{name}",
            description=description,
            parse=lambda _args, _ctx: value,
            render=lambda _value: "",
            aliases=tuple(aliases),
            phrases=tuple(phrases),
            description_zh=description_zh,
        )

    @staticmethod
    def parsed(
        name: str,
        parse: Callable[[str, ParseContext], I | None],
        render: Callable[[I], str],
        *,
        usage: str,
        description: str,
        aliases: Sequence[str] = (),
        description_zh: str = "",
        completion: Sequence[str] = (),
        args: Sequence[Arg] | None = None,
    ) -> "AgentCommand[I]":
        return AgentCommand(name, usage, description, parse, render, tuple(aliases), description_zh=description_zh,
                            completion=tuple(completion), args=None if args is None else tuple(args))

    def line(self, value: I) -> str:
        """The explicit command line that runs ``value``, e.g. ``!item minecraft:torch``."""
        args = self.render(value)
        return f"!{self.name} {args}".rstrip()


@attrs.frozen
class LabelText:
    """What a label key says, per language; empty when the reply table has the key."""

    en: str = ""
    zh: str = ""

    def say(self, lang: str) -> str:
        return (self.zh if lang == "zh" else "") or self.en or self.zh

    @property
    def texts(self) -> tuple[str, ...]:
        return tuple(t for t in (self.en, self.zh) if t)


@attrs.frozen
class RoutingProfile(Generic[I]):
    parser: Callable[[str, ParseContext], I | None] | None
    examples: Mapping[str, tuple[str, ...]]
    direct: bool
    choice_label: str | None = None
    choice_text: LabelText = LabelText()
    card_without_model: bool = False  # a write: offered as its confirmation card when no model can choose

    @staticmethod
    def read(
        parser: Callable[[str, ParseContext], I | None], examples_en: Sequence[str], examples_zh: Sequence[str]
    ) -> "RoutingProfile[I]":
        """A read-only query that may go direct when the match is confident and ``parser`` succeeds."""
        return RoutingProfile(parser, {"en": tuple(examples_en), "zh": tuple(examples_zh)}, True)

    @staticmethod
    def hints(
        examples_en: Sequence[str],
        examples_zh: Sequence[str],
        parser: Callable[[str, ParseContext], I | None] | None = None,
    ) -> "RoutingProfile[I]":
        """Examples that make the module a candidate (and a competitor in the margin), never direct."""
        return RoutingProfile(parser, {"en": tuple(examples_en), "zh": tuple(examples_zh)}, False)

    def confirmed_without_model(self) -> "RoutingProfile[I]":
        """A write whose sure match (and parsed arguments) gets its confirmation card even when no
        model can be asked; the player's click or "yes" runs it, never the match."""
        return attrs.evolve(self, card_without_model=True)

    def choice(self, label_key: str, *, en: str = "", zh: str = "") -> "RoutingProfile[I]":
        """Label for the option card when the module has no no-argument shortcut (``en``/``zh``:
        its text, for a key the reply table does not have)."""
        return attrs.evolve(self, choice_label=label_key, choice_text=LabelText(en, zh))


@attrs.frozen
class Shortcut(Generic[I]):
    label_key: str
    value: I
    text: LabelText = LabelText()


@attrs.frozen
class ModuleRouting(Generic[I]):
    commands: tuple[AgentCommand[I], ...] = ()
    profile: RoutingProfile[I] | None = None
    shortcuts: tuple[Shortcut[I], ...] = ()
    is_explicit_only: bool = False
    is_structured_only: bool = False

    @classmethod
    def defaults(cls) -> "ModuleRouting[I]":
        return cls()

    def command(self, command: AgentCommand[I]) -> "ModuleRouting[I]":
        return attrs.evolve(self, commands=self.commands + (command,))

    def semantic(self, profile: RoutingProfile[I]) -> "ModuleRouting[I]":
        return attrs.evolve(self, profile=profile)

    def shortcut(self, label_key: str, value: I, *, en: str = "", zh: str = "") -> "ModuleRouting[I]":
        """A read-only option without arguments; ``en``/``zh``: the label's text, for a key the
        reply table does not have (a module from outside)."""
        return attrs.evolve(self, shortcuts=self.shortcuts + (Shortcut(label_key, value, LabelText(en, zh)),))

    def label_text(self, label_key: str) -> LabelText:
        """The text this declaration gives ``label_key`` (empty when it gives none)."""
        for shortcut in self.shortcuts:
            if shortcut.label_key == label_key and shortcut.text.texts:
                return shortcut.text
        profile = self.profile
        if profile is not None and profile.choice_label == label_key:
            return profile.choice_text
        return LabelText()

    def explicit_only(self) -> "ModuleRouting[I]":
        return attrs.evolve(self, is_explicit_only=True)

    def structured_only(self) -> "ModuleRouting[I]":
        return attrs.evolve(self, is_structured_only=True)
