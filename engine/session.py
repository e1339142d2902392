"""One player's engine session: events in, actions out.

How this works: the proxy calls ``handle(event, now)`` for every decoded event and
``tick(now)`` at 20 Hz. Both return a list of actions for the proxy to perform.
Chat typed by the player is classified by ``engine.chat_tap``: proxy commands are
answered here (built-ins first, then the assistant's command table), requests
addressed to the assistant go to the assistant, everything else is forwarded
unchanged. The session never blocks and never reads a clock: time comes in.
"""
from __future__ import annotations

from typing import Protocol

import attrs

from engine import events as ev
from engine.actions import Action, AdminCommand, ForwardChat, MeasurePing, ReplyToPlayer, reply
from engine.chat_tap import ChatKind, TappedChat, classify, classify_command
from engine.world.model import WorldModel
from engine.world.snapshot import WorldSnapshot


class Assistant(Protocol):
    """What answers requests and owns the commands beyond the built-ins."""

    def request(self, text: str, snapshot: WorldSnapshot, now: float) -> list[Action]:
        ...

    def command(self, name: str, args: str, snapshot: WorldSnapshot, now: float) -> list[Action] | None:
        """Answer ``!name args``; None when the command is not the assistant's."""
        ...

    def command_help(self) -> list[tuple[str, str]]:
        """(usage, description) pairs for ``!help``."""
        ...

    def notify(self, text: str, now: float) -> None:
        """Keep a message for the player's inbox."""
        ...

    def clear_scope(self) -> None:
        """The player left: forget per-player state such as cached intents."""
        ...


@attrs.frozen
class SessionConfig:
    command_prefix: str = "!"
    address_prefix: str = "@ai "


BUILTIN_HELP: tuple[tuple[str, str], ...] = (
    ("!help", "this list"),
    ("!ping", "round-trip time from the proxy to the server"),
    ("!system <console command>", "admin console commands in game (admins only)"),
)


class Session:
    def __init__(
        self,
        player_name: str,
        config: SessionConfig | None = None,
        assistant: Assistant | None = None,
    ) -> None:
        self.player_name = player_name
        self.config = config or SessionConfig()
        self.assistant = assistant
        self.world = WorldModel(player_name)
        self.last_tick: float | None = None
        self.ticks = 0

    def handle(self, event: ev.Event, now: float) -> list[Action]:
        self.world.apply(event)
        if isinstance(event, ev.ChatTyped):
            return self._chat(classify(event.text, self.config.command_prefix, self.config.address_prefix), now)
        if isinstance(event, ev.CommandTyped):
            return self._chat(classify_command(event.command), now)
        if isinstance(event, ev.ServerChatSeen) and event.private and self.assistant is not None:
            self.assistant.notify(event.text, now)
        elif isinstance(event, ev.Disconnected) and self.assistant is not None:
            self.assistant.clear_scope()
        return []

    def tick(self, now: float) -> list[Action]:
        self.last_tick = now
        self.ticks += 1
        return []

    def snapshot(self) -> WorldSnapshot:
        return self.world.snapshot()

    # -- admin surface (console, !system) ------------------------------------------------
    def control_summary(self) -> str:
        return "autopilot unavailable, reflexes unavailable"

    def admin_agent(self, command: str, now: float) -> list[str]:
        return [f"{self.player_name}: the autopilot is not available yet (it arrives with the decision layer)"]

    def admin_reflex(self, enabled: bool, now: float) -> list[str]:
        return [f"{self.player_name}: reflexes are not available yet (they arrive with sense-and-act)"]

    def _chat(self, tapped: TappedChat, now: float) -> list[Action]:
        if tapped.kind is ChatKind.PASS:
            return [ForwardChat()]
        if tapped.kind is ChatKind.ASSISTANT:
            if not tapped.body:
                return [reply(f"Say something after {self.config.address_prefix.strip()}, e.g. "
                              f"{self.config.address_prefix}where am I")]
            if self.assistant is None:
                return [reply("The assistant is not configured yet; try !help for proxy commands.")]
            return self.assistant.request(tapped.body, self.snapshot(), now)
        return self._command(tapped.body, now)

    def _command(self, line: str, now: float) -> list[Action]:
        name, _, args = line.partition(" ")
        name = name.lower()
        if name in ("help", "?"):
            return [self._help()]
        if name == "ping":
            return [MeasurePing()]
        if self.assistant is not None:
            answer = self.assistant.command(name, args.strip(), self.snapshot(), now)
            if answer is not None:
                return answer
        if name == "system":
            return [AdminCommand(args.strip() or "help")]
        return [reply(f"Unknown command {self.config.command_prefix}{name}; "
                      f"{self.config.command_prefix}help lists the commands.")]

    def _help(self) -> ReplyToPlayer:
        rows = list(BUILTIN_HELP)
        if self.assistant is not None:
            rows.extend(self.assistant.command_help())
        lines = ["Proxy commands (never sent to the server):"]
        lines += [f"{usage} - {text}" for usage, text in rows]
        lines.append(f"Ask the assistant: {self.config.address_prefix}<question> or /ai <question>")
        lines.append(f"Every {self.config.command_prefix}command also works as /agent <command>.")
        return ReplyToPlayer(tuple(lines))
