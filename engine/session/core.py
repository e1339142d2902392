"""One player's engine session: events in, actions out.

How this works: the proxy calls ``handle(event, now)`` for every decoded event and
``tick(now)`` at 20 Hz. Both return a list of actions for the proxy to perform. A chat
line or ``/agent`` command goes to the session's ``ChatPath`` (``engine.session.chat``),
which classifies it, runs it through the command table or the assistant and walks the
answer in one pass; the session's own commands (``!goto``, ``!autopilot``, ...) are
``SessionCommands`` (``engine.session.commands``), which ask this core to hand movement
over or take it back. The session knows whether its player is an authenticated admin
(``AdminState``): the command table checks it for admin commands, and nothing else does.
The session never blocks and never reads a clock: time comes in.

Model calls (the assistant's, the autopilot's ``api`` provider's) all go to the
one ``ModelRunner`` the session was given (``engine.llm.runner``); a reply comes
back through the runner and is answered at the session's next tick, or dropped
if the player left.

Who moves the player, per tick, in priority order (invariant 5): the kill
switch (sneak twice: everything below stops), a reflex, then either the
autopilot (``engine.pilot``) or a command driver (``!goto``, ``!follow``),
never both. ``!eat`` is an item task beside them: it never moves the player.
"""
from __future__ import annotations

from engine import events as ev
from engine.actions import Action, FinishDigging, InjectMovement, SelectHotbar, SetControl, reply
from engine.admin_proof import AdminProof
from engine.commands.builtin import SESSION_TABLE
from engine.control import Control
from engine.decision.goals import DEFAULT_GOAL, Goal
from engine.eating import EatTask
from engine.llm.runner import ModelRunner
from engine.pilot import PilotSeat, PilotSettings
from engine.reflex.engine import ReflexDecision
from engine.session.chat import ChatPath
from engine.session.commands import SessionCommands
from engine.session.parts import AdminState, Assistant, Driver, SessionConfig
from engine.world.model import WorldModel
from engine.world.snapshot import WorldSnapshot

KILL_SWITCH_SECONDS = 0.5
WORLD_EVENTS = (ev.ChunkColumnLoaded, ev.BlocksChanged, ev.ChunkUnloaded, ev.DimensionChanged)
# Packets after which a reflex may be needed at once.
# (The player's own movement counts too: walking into lava is the commonest trigger.
# Entity moves do not: they are many, and a mob is caught at the next tick.)
DANGER_EVENTS = (ev.HealthChanged, ev.OwnMetadata, ev.PositionSet)


def _dead(snapshot: WorldSnapshot) -> bool:
    health = snapshot.player.health
    return health is not None and health <= 0


class Session:
    def __init__(
        self,
        player_name: str,
        config: SessionConfig | None = None,
        assistant: Assistant | None = None,
        pilot: PilotSettings | None = None,
        admin: bool = False,
        models: ModelRunner | None = None,
        admin_proof: AdminProof | None = None,
    ) -> None:
        self.player_name = player_name
        self.config = config or SessionConfig()
        self.assistant = assistant
        self.commands = assistant.commands if assistant is not None else SESSION_TABLE
        self.admin_state = AdminState(admin, admin_proof)
        self.world = WorldModel(player_name, self.config.game_version or self.config.version)
        self.last_tick: float | None = None
        self.ticks = 0
        self.driver: Driver | None = None
        self._last_sneak: float | None = None
        self.control = Control(self.config.version, self.config.reflexes)
        self.pilot = PilotSeat(player_name, pilot, models)
        self.item_task: EatTask | None = None
        self._early_move = False  # a reflex already moved since the last tick
        self.reflex_firings: dict[str, int] = {}
        self.own_commands = SessionCommands(self, self.config, self.commands, self.admin_state)
        self.chat = ChatPath(self.config, assistant, self.commands, models, self.admin_state, self.own_commands,
                             self.snapshot, lambda: self.pilot.progress)

    @property
    def admin(self) -> bool:
        """Whether this player is an authenticated admin (``AdminState``)."""
        return self.admin_state.granted

    @property
    def left(self) -> bool:
        return self.chat.left

    def handle(self, event: ev.Event, now: float) -> list[Action]:
        if type(event) is ev.PositionSet and not event.from_server:
            # The client's own movement, about one a tick: what the general path below does with it.
            self.world.apply(event)
            return self._reflex_now(now)
        if type(event) is ev.EntityMoved or type(event) is ev.EntityMovedBy:
            self.world.apply(event)  # a mob's step, the commonest server event: only the world reads it
            return []
        if isinstance(event, WORLD_EVENTS):
            for x, y, z in self.control.world_event(event):
                changed = getattr(self.driver, "block_changed", None)
                if changed is not None:
                    changed(x, y, z)
            if isinstance(event, ev.DimensionChanged):
                return self.release("The world changed") if self.driver is not None else []
            return []
        if isinstance(event, ev.SneakPressed):
            return self._sneak(now)
        if isinstance(event, ev.PositionSet) and event.from_server:
            self.world.apply(event)
            pos = self.world.position
            if pos is not None and (self.driver is not None or self.control.reflex_driving):
                self.control.moved(pos.x, pos.y, pos.z)
                if self.driver is not None:
                    self.driver.server_moved(pos.x, pos.y, pos.z, now)
            return self._reflex_now(now)
        self.world.apply(event)
        if isinstance(event, DANGER_EVENTS):
            return self._reflex_now(now)
        if isinstance(event, ev.ChatTyped):
            return self.chat.typed(event.text, now)
        if isinstance(event, ev.CommandTyped):
            return self.chat.command_typed(event.command, now)
        if isinstance(event, ev.ServerChatSeen) and event.private and self.assistant is not None:
            return list(self.assistant.notify(event.text, now))
        elif isinstance(event, ev.Disconnected):
            self.chat.leave()
            self.pilot.stop("the player left", self.ticks, now)   # ends the episode; its logs are handed over
            if self.assistant is not None:
                self.assistant.clear_scope()
        return []

    def tick(self, now: float) -> list[Action]:
        self.last_tick = now
        self.ticks += 1
        actions = self.chat.model_answers(now) + self._tick(now)
        self.pilot.after_tick(now)
        return actions

    def _idle(self) -> bool:
        """Nothing can act this tick: no reflex may fire or is driving, no autopilot, no command
        driver, no ``!eat``. Then no snapshot is built; the tick only keeps the position it tracks."""
        return (self.item_task is None and self.driver is None and not self.pilot.active
                and not self.control.reflex_driving and not self.control.reflexes_may_fire())

    def _tick(self, now: float) -> list[Action]:
        if self._idle():
            # What the full tick below does when nothing can act, without the snapshot: most
            # players, when the reflexes and the autopilot are off (features off).
            world = self.world
            self.control.observe(world.position)
            if not (world.health is not None and world.health <= 0):  # as _dead, NaN included
                self._early_move = False
            return []
        snapshot = self.snapshot()
        self.control.observe(snapshot.player.position)
        actions: list[Action] = self._item_task(snapshot, now)
        pilot = self.pilot.autopilot if self.pilot.active else None
        dead = _dead(snapshot)
        if dead:
            # Nothing saves the dead: a reflex that was driving lets go (the autopilot respawns).
            actions += self._let_go_of_reflexes(now, pilot is None)
        # Reflexes come before any command driver (invariant 5: kill switch > reflex > rest).
        elif self._early_move:
            # A reflex reacted to a packet since the last tick: that was this tick's move.
            self._early_move = False
            if self.control.reflex_driving:
                return actions
        decision = None if dead else self.control.reflex_tick(snapshot, now, autopilot=pilot is not None)
        if decision is not None:
            actions += self._reflex(decision, now)
            if decision.driving:
                return self._moved(actions)
        if pilot is not None:
            actions += pilot.tick(snapshot, self.ticks, now, day=not self.world.night)
            for text, keep in self.pilot.notices():
                if self.assistant is None:
                    actions.append(reply(text))
                elif keep:  # a death: said, and kept in the inbox with its notification
                    actions += [reply(text), *self.assistant.notify(text, now)]
                else:  # a milestone: said once, with its buttons (status, stop autopilot, dismiss)
                    actions += self.assistant.milestone(text, now)
            self._moved(actions)
            if self.pilot.finished:
                goal = pilot.goal
                actions += self.release("Autopilot finished: all 9 milestones reached, up to the iron pickaxe"
                                        if goal == DEFAULT_GOAL else f"Autopilot finished: {goal.label} in hand", now)
                actions += self._reflexes_stay_on(now)
            return actions
        if self.driver is None:
            return actions
        actions += self.driver.step(snapshot, now)
        ended = self.driver.finished()
        if ended is not None:
            actions += self.release(f"{self.driver.name}: {ended}")
        return self._moved(actions)

    def _reflexes_stay_on(self, now: float) -> list[Action]:
        """The autopilot ran with every reflex on; a player it hands back idle keeps them (an idle
        body in a world with lava and mobs, that was never watching over itself), until ``!reflex off``."""
        reflexes = self.control.reflexes
        if reflexes.enabled == set(reflexes.by_name):
            return []
        reflexes.set_all(True, now)
        return [reply(f"Reflexes stay on while you are away; {self.config.command_prefix}reflex off turns them off.")]

    def _item_task(self, snapshot: WorldSnapshot, now: float) -> list[Action]:
        task = self.item_task
        if task is None:
            return []
        out = task.step(snapshot, now)
        ended = task.finished()
        if ended is not None:
            self.item_task = None
            out.append(reply(ended[0].upper() + ended[1:] + "."))
        return self._moved(out)

    def _reflex_now(self, now: float) -> list[Action]:
        """React to a dangerous packet at once instead of at the next tick (a reflex's
        latency is then the time to decide, not up to 50 ms of waiting)."""
        autopilot = self.pilot.active
        if self.control.reflex_driving or self._early_move or not (self.control.reflexes.enabled or autopilot):
            return []
        snapshot = self.snapshot()
        if _dead(snapshot):
            return []
        decision = self.control.reflex_tick(snapshot, now, autopilot=autopilot)
        if decision is None:
            return []
        if not decision.driving:
            # An item reflex (eating) may start on a packet too: its first operations (select the
            # food, start using it) go out now, or it would "eat" with nothing in use.
            return self._reflex(decision, now)
        self._early_move = True
        return self._moved(self._reflex(decision, now))

    def _let_go_of_reflexes(self, now: float, give_back: bool) -> list[Action]:
        if not self.control.reflex_driving:
            return []
        self.control.reflex_driving = False
        self._early_move = False
        actions: list[Action] = self._moved(list(self.control.reflexes.cancel(now)))
        if give_back and self.driver is None:
            actions.append(SetControl(False))
        return actions

    def _moved(self, actions: list[Action]) -> list[Action]:
        for action in actions:
            if isinstance(action, InjectMovement):
                # Our own movement is the truth while we drive: the client's is held back.
                self.world.apply(ev.PositionSet(action.x, action.y, action.z, action.yaw, action.pitch,
                                                from_server=False, on_ground=action.on_ground))
            elif isinstance(action, SelectHotbar):
                self.world.apply(ev.HeldSlotChanged(action.slot))
            elif isinstance(action, FinishDigging):
                self._predict_broken(action.x, action.y, action.z)
        return actions

    def _predict_broken(self, x: int, y: int, z: int) -> None:
        """A digging client assumes its block is gone (servers need not echo a player's own break:
        flying-squid does not); a refusal comes back as a block change with the old block."""
        table = self.control.table
        if table is not None:
            self.handle(ev.BlocksChanged(((x, y, z, table.state_for("air")),)), self.last_tick or 0.0)

    def _reflex(self, decision: ReflexDecision, now: float) -> list[Action]:
        actions: list[Action] = list(decision.items)
        for op in actions:
            if isinstance(op, SelectHotbar):
                self.world.apply(ev.HeldSlotChanged(op.slot))
        pilot = self.pilot.autopilot if self.pilot.active else None
        if decision.driving:
            if not self.control.reflex_driving and self.driver is None and pilot is None:
                actions.insert(0, SetControl(True))
            if pilot is not None:
                # The reflex preempts the autopilot's action; what undoes it goes first.
                actions[:0] = pilot.reflex_active(decision.reflex or "reflex", self.ticks, now)
            self.control.reflex_driving = True
            assert decision.move is not None
            actions.append(decision.move)
        if decision.started and decision.reflex is not None:
            self.reflex_firings[decision.reflex] = self.reflex_firings.get(decision.reflex, 0) + 1
        if decision.started and decision.notice is not None:
            text = decision.notice.text(self.world.locale)
            actions.append(reply(text))
            if self.assistant is not None:
                actions += self.assistant.notify(text, now)
        if decision.released is not None and self.control.reflex_driving and not decision.driving:
            self.control.reflex_driving = False
            pos = self.world.position
            if self.driver is not None and pos is not None:
                self.driver.server_moved(pos.x, pos.y, pos.z, now)  # resume the command from here
            elif self.driver is None and pilot is None:
                actions.append(SetControl(False))
        return actions

    # -- control -----------------------------------------------------------------------
    def take_control(self, driver: Driver, announce: str | None = None, now: float = 0.0) -> list[Action]:
        """Hand movement to ``driver`` (replacing any current one, and the autopilot)."""
        had = self.driver is not None or self.pilot.active or self.control.reflex_driving
        actions: list[Action] = self.pilot.stop("a movement command took over", self.ticks, now)
        self.driver = driver
        if not had:
            actions.append(SetControl(True))
        if announce:
            actions.append(reply(announce))
        return actions

    def new_world(self, why: str, now: float) -> list[Action]:
        """The player moved to another server behind the proxy: whatever moved them lets go, and the
        world model, reflex state and autopilot start afresh; the conversation, inbox, settings (which
        reflexes are on, the admin proof) and intent cache stay, as they are the player's."""
        actions = self.release(why, now)
        enabled = set(self.control.reflexes.enabled)
        self.control = Control(self.config.version, False)
        for name in enabled:
            self.control.reflexes.enable(name)
        self.world = WorldModel(self.player_name, self.config.game_version or self.config.version)
        self._early_move = False
        self._last_sneak = None
        return actions

    def release(self, why: str, now: float = 0.0) -> list[Action]:
        """Give everything back to the player: the autopilot, the command driver, any reflex, ``!eat``."""
        task, self.item_task = self.item_task, None
        actions: list[Action] = task.cancel() if task is not None else []
        moving = self.driver is not None or self.control.reflex_driving or self.pilot.active
        if not moving:
            return actions + [reply(f"{why}: eating cancelled.")] if task is not None else actions
        actions += self.pilot.stop(why, self.ticks, now)
        self.driver = None
        # A meal cut short gives the slot back: the model must know (no server echoes it).
        actions += self._moved(list(self.control.reflexes.cancel(now)))
        self.control.reflex_driving = False
        return actions + [SetControl(False), reply(f"{why}; you have control again.")]

    def _sneak(self, now: float) -> list[Action]:
        last, self._last_sneak = self._last_sneak, now
        driving = self.driver is not None or self.control.reflex_driving or self.pilot.active
        if driving and last is not None and now - last <= KILL_SWITCH_SECONDS:
            self._last_sneak = None
            return self.release("Stopped by the kill switch (sneak twice)", now)
        return []

    def snapshot(self) -> WorldSnapshot:
        return self.world.snapshot()

    # -- admin surface (console, !system) ------------------------------------------------
    def control_summary(self) -> str:
        driving = f"driving ({self.driver.name})" if self.driver is not None else "not driving"
        on = sorted(self.control.reflexes.enabled)
        pilot = self.pilot.progress or "autopilot off"
        return f"{driving}, reflexes {', '.join(on) if on else 'off'}, {pilot}"

    def admin_agent(self, command: str, now: float) -> list[Action]:
        """The console's ``agent <player> on|off|status|provider <name>``: what the player sees too."""
        return self.run_command(f"autopilot {command}", now)

    def admin_reflex(self, enabled: bool, now: float) -> list[str]:
        self.control.reflexes.set_all(enabled, now)
        return [f"{self.player_name}: reflexes {'on' if enabled else 'off'}"]

    def grant_admin(self, admin: bool = True) -> None:
        self.admin_state.granted = admin

    def may_take(self, text: str, now: float) -> bool:
        """The proxy's chat fast path (``ChatPath.may_take``)."""
        return self.chat.may_take(text, now)

    def run_command(self, line: str, now: float) -> list[Action]:
        """``name args`` as the player typed it after the prefix (or ``/agent``)."""
        return self.chat.run_command(line, now)

    # -- what the session's commands ask of the core (``engine.session.commands.Movers``) -----------
    def start_autopilot(self, now: float, goal: Goal = DEFAULT_GOAL) -> list[Action] | str:
        """The autopilot takes over (replacing a running ``!goto`` or ``!follow``); why not, if it cannot."""
        terrain = self.control.terrain
        why = self.control.ready(self.snapshot())
        if why is not None or terrain is None:
            return why or "no block data"
        had = self.control.reflex_driving or self.driver is not None
        failed = self.pilot.start(terrain, self.ticks, now, goal, self.config.game_version or self.config.version)
        if failed is not None:
            return failed
        self.driver = None                  # the autopilot replaces a running !goto or !follow
        return [] if had else [SetControl(True)]

    def start_eating(self, task: EatTask) -> list[Action]:
        """``!eat``: a meal beside whatever moves the player; a meal already going is cancelled first."""
        previous = self.item_task.cancel() if self.item_task is not None else []
        self.item_task = task
        return previous
