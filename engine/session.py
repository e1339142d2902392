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
from engine.actions import (Action, AdminCommand, ForwardChat, InjectMovement, MeasurePing, ReplyToPlayer, SetControl,
                            reply)
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

    def notify(self, text: str, now: float) -> list[Action] | None:
        """Keep a message for the player's inbox; may return a notification to show."""
        ...

    def clear_scope(self) -> None:
        """The player left: forget per-player state such as cached intents."""
        ...


class Driver(Protocol):
    """Something that moves the player while it has control (a path follower, a reflex)."""

    name: str

    def step(self, snapshot: WorldSnapshot, now: float) -> list[Action]:
        """This tick's actions (at most one InjectMovement); called at 20 Hz."""
        ...

    def finished(self) -> str | None:
        """None while running; otherwise why it ended ("arrived", "no path", ...)."""
        ...

    def server_moved(self, x: float, y: float, z: float, now: float) -> None:
        """The server corrected the position (a teleport): re-plan from there."""
        ...


KILL_SWITCH_SECONDS = 0.5


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
        self.driver: Driver | None = None
        self._last_sneak: float | None = None

    def handle(self, event: ev.Event, now: float) -> list[Action]:
        if isinstance(event, ev.SneakPressed):
            return self._sneak(now)
        if isinstance(event, ev.PositionSet) and event.from_server and self.driver is not None:
            self.world.apply(event)
            pos = self.world.position
            if pos is not None:
                self.driver.server_moved(pos.x, pos.y, pos.z, now)
            return []
        self.world.apply(event)
        if isinstance(event, ev.ChatTyped):
            return self._chat(classify(event.text, self.config.command_prefix, self.config.address_prefix), now)
        if isinstance(event, ev.CommandTyped):
            return self._chat(classify_command(event.command), now)
        if isinstance(event, ev.ServerChatSeen) and event.private and self.assistant is not None:
            return list(self.assistant.notify(event.text, now) or [])
        elif isinstance(event, ev.Disconnected) and self.assistant is not None:
            self.assistant.clear_scope()
        return []

    def tick(self, now: float) -> list[Action]:
        self.last_tick = now
        self.ticks += 1
        if self.driver is None:
            return []
        actions = self.driver.step(self.snapshot(), now)
        for action in actions:
            if isinstance(action, InjectMovement):
                # Our own movement is the truth while we drive: the client's is held back.
                self.world.apply(ev.PositionSet(action.x, action.y, action.z, action.yaw, action.pitch,
                                                from_server=False, on_ground=action.on_ground))
        ended = self.driver.finished()
        if ended is not None:
            actions = actions + self.release(f"{self.driver.name}: {ended}")
        return actions

    # -- control -----------------------------------------------------------------------
    def take_control(self, driver: Driver, announce: str | None = None) -> list[Action]:
        """Hand movement to ``driver`` (replacing any current one)."""
        had = self.driver is not None
        self.driver = driver
        actions: list[Action] = [] if had else [SetControl(True)]
        if announce:
            actions.append(reply(announce))
        return actions

    def release(self, why: str) -> list[Action]:
        if self.driver is None:
            return []
        self.driver = None
        return [SetControl(False), reply(f"{why}; you have control again.")]

    def _sneak(self, now: float) -> list[Action]:
        last, self._last_sneak = self._last_sneak, now
        if self.driver is not None and last is not None and now - last <= KILL_SWITCH_SECONDS:
            self._last_sneak = None
            return self.release("Stopped by the kill switch (sneak twice)")
        return []

    def snapshot(self) -> WorldSnapshot:
        return self.world.snapshot()

    # -- admin surface (console, !system) ------------------------------------------------
    def control_summary(self) -> str:
        driving = f"driving ({self.driver.name})" if self.driver is not None else "not driving"
        return f"{driving}, autopilot unavailable, reflexes unavailable"

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
