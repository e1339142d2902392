"""What the session's own commands do: ``!help``, ``!stop``, ``!eat``, ``!goto``, ``!follow``,
``!reflex``, ``!autopilot`` and ``!admin login``.

The command table (``engine.commands.builtin``) parses them and checks access; its handlers
call ``SessionCommands`` (the ``PlayerSession`` of ``engine.commands.table``), which words the
replies and asks the session core (``Movers``) to hand movement over or take it back. Who
moves the player, and in which order, stays the core's (``engine.session.core``).
"""
from __future__ import annotations

import math
from typing import Protocol

from engine.actions import Action, ReplyToPlayer, reply
from engine.commands.table import CommandTable, Text
from engine.control import Control
from engine.decision.goals import DEFAULT_GOAL, Goal, parse_goal, resolve
from engine.decision.provider_names import PROVIDERS
from engine.decision.state import inventory_counts
from engine.eating import EatTask
from engine.pilot import PilotSeat
from engine.planning.planner import OutOfReach
from engine.session.parts import AdminState, Driver, SessionConfig
from engine.world.snapshot import WorldSnapshot

HELP_HEAD = Text("Proxy commands (never sent to the server):", "代理命令（从不发送到服务器）：")
HELP_ASK = Text("Ask the assistant: {address}<question> or /ai <question>", "询问助手：{address}<问题> 或 /ai <问题>")
HELP_AGENT = Text("Every {prefix}command also works as /agent <command>.", "每个 {prefix}命令也可以写成 /agent <命令>。")


class Movers(Protocol):
    """What the commands ask of the session core: the world as it is, and who moves the player."""

    control: Control
    pilot: PilotSeat

    def snapshot(self) -> WorldSnapshot: ...

    def take_control(self, driver: Driver, announce: str | None = None, now: float = 0.0) -> list[Action]: ...

    def release(self, why: str, now: float = 0.0) -> list[Action]: ...

    def start_autopilot(self, now: float, goal: Goal = DEFAULT_GOAL) -> list[Action] | str: ...

    def start_eating(self, task: EatTask) -> list[Action]: ...


class SessionCommands:
    def __init__(self, movers: Movers, config: SessionConfig, commands: CommandTable, admin: AdminState) -> None:
        self.movers = movers
        self.config = config
        self.commands = commands
        self.admin = admin

    def help(self, lang: str) -> ReplyToPlayer:
        p = self.config.command_prefix
        lines = [HELP_HEAD.say(lang)]
        lines += [f"{usage} - {text}" for usage, text in self.commands.help_rows(lang, self.admin.granted, p)]
        lines.append(HELP_ASK.say(lang).format(address=self.config.address_prefix))
        lines.append(HELP_AGENT.say(lang).format(prefix=p))
        return ReplyToPlayer(tuple(lines))

    def stop(self, now: float) -> list[Action]:
        return self.movers.release("Stopped", now) or [reply("Nothing to stop: you are in control.")]

    def eat(self) -> list[Action]:
        planned = EatTask.plan(self.movers.snapshot())
        if isinstance(planned, str):
            return [reply(f"Cannot eat: {planned}.")]
        return self.movers.start_eating(planned) + [reply(f"Eating {planned.food.replace('_', ' ')}.")]

    def goto(self, x: float, y: float, z: float) -> list[Action]:
        p = self.config.command_prefix
        bx, by, bz = (int(math.floor(v)) for v in (x, y, z))
        found = self.movers.control.goto(bx, by, bz, self.movers.snapshot())
        if isinstance(found, str):
            return [reply(f"Cannot go there: {found}.")]
        return self.movers.take_control(found, f"Going to {bx} {by} {bz}; sneak twice or {p}stop to take over.")

    def follow(self, name: str) -> list[Action]:
        p = self.config.command_prefix
        follower = self.movers.control.follow(name, self.movers.snapshot())
        if isinstance(follower, str):
            return [reply(f"Cannot follow: {follower}.")]
        return self.movers.take_control(follower, f"Following {name}; sneak twice or {p}stop to take over.")

    def reflex(self, word: str, now: float) -> list[Action]:
        reflexes = self.movers.control.reflexes
        if word in ("on", "off"):
            ops = reflexes.set_all(word == "on", now)
            return list[Action](ops) + [reply(f"Reflexes {word}: " + ", ".join(r.name for r in reflexes.reflexes))]
        rows = [f"{r.name}: {'on' if r.enabled else 'off'}"
                + (" (active)" if r.active else "")
                + (f" (cooling {r.cooling_for:.0f}s)" if r.cooling_for > 0 else "")
                for r in reflexes.listing(now)]
        return [ReplyToPlayer(tuple(["Reflexes:"] + rows))]

    def autopilot(self, word: str, provider: str | None, now: float) -> list[Action]:
        p = self.config.command_prefix
        pilot = self.movers.pilot
        if word == "on":
            if provider is not None:             # !autopilot on <goal>: as !get <goal>
                return self.get(provider, now)
            if pilot.active:
                return [reply(f"The autopilot is already on: {pilot.progress}.")]
            started = self.movers.start_autopilot(now)
            if isinstance(started, str):
                return [reply(f"Cannot start the autopilot: {started}.")]
            return started + [reply(f"Autopilot on ({pilot.provider_name}): working toward an iron pickaxe; "
                                    f"sneak twice or {p}stop to take over.")]
        if word == "off":
            if not pilot.active:
                return [reply("The autopilot is not running.")]
            return self.movers.release("Autopilot off", now)
        if word == "provider":
            if provider is None:
                return [reply(f"Usage: {p}autopilot provider {'|'.join(PROVIDERS)} (now: {pilot.provider_name})")]
            return [reply(pilot.choose(provider))]
        return [reply(pilot.progress or f"The autopilot is off ({pilot.provider_name} provider); "
                                        f"{p}autopilot on starts it.")]

    def get(self, text: str, now: float) -> list[Action]:
        """``!get [count] <item>``: the plan toward it, or at once why it is out of reach."""
        p = self.config.command_prefix
        pilot = self.movers.pilot
        goal = parse_goal(text)
        if isinstance(goal, str):
            return [reply(f"Usage: {p}get [count] <item>: {goal}.")]
        if pilot.active:
            return [reply(f"The autopilot is already on: {pilot.progress}. {p}autopilot off first.")]
        counts = inventory_counts(self.movers.snapshot().player.inventory)
        planned = resolve(goal, counts, frozenset(), self.config.game_version or self.config.version)
        if isinstance(planned, OutOfReach):
            return [reply(f"Cannot get {goal.label}: {planned.reason}.")]
        if planned.done:
            return [reply(f"You already have {goal.label}.")]
        started = self.movers.start_autopilot(now, goal)
        if isinstance(started, str):
            return [reply(f"Cannot start the autopilot: {started}.")]
        steps = [s.text() for s in planned.steps]
        more = f" (+{len(steps) - 5} more)" if len(steps) > 5 else ""
        return started + [reply(f"Autopilot on ({pilot.provider_name}): getting {goal.label} in {len(steps)} "
                                f"steps: {'; '.join(steps[:5])}{more}. Sneak twice or {p}stop to take over.")]

    def admin_login(self, secret: str, now: float) -> list[Action]:
        """``!admin login <secret>``: swallowed like every proxy command, never echoed or logged."""
        if self.admin.granted:
            return [reply("You are already an authenticated admin in this session.")]
        if self.admin.proof is None:
            return [reply("Nothing to prove: admins are recognised by their verified name on this proxy.")]
        granted, text = self.admin.proof.login(secret, now)
        if granted:
            self.admin.granted = True
        return [reply(text)]
