"""The reflex engine: at most one reflex drives at a time, chosen by priority.

How this works: ``decide(inputs, terrain, now)`` is called once per tick. The
engine is in one of three states, and everything that changes state lives in
``_fire`` below, driven by the table ``TRANSITIONS``:

    IDLE ──trigger(r)──► ACTIVE(r) ──release / timeout / cancel──► COOLDOWN
                           │ ──preempt (q above r fires)──► IDLE ──trigger(q)──► ACTIVE(q)
                           │ ──disable(r)──► IDLE
    COOLDOWN ──trigger(q)──► ACTIVE(q)          COOLDOWN ──cooled──► IDLE

COOLDOWN means "nothing drives, some reflex is cooling"; IDLE, "nothing drives
or cools", so a transition into IDLE lands in COOLDOWN while any reflex still
cools. Each reflex keeps its own "cooling until" time: while r cools the others
may fire. A preempted reflex does not cool, so it may fire again once the
higher one lets go. Priority (high to low) is the order of the reflex list:
lava, fire, drowning, edge, hostile, starving, heal. A reflex fires only if it is
enabled for this player (all are, under autopilot) and the player is not in
creative or spectator mode. The tick that a reflex fires on already carries its
first movement packet or item operation, and the notice to show.

The kill switch (``cancel``) and every preemption call the activity's
``abort`` so a half-eaten meal gives the slot back.

A reflex that drives lets go (release or timeout) only with its body at rest:
on the ground, afloat or on a ladder. Done in mid-air (a flight that ends at
the top of a jump), the activity keeps driving until the body lands, so
whoever moves next (the player's client, the autopilot, a command) starts
from a body that stands where the last packet put it. Let go in mid-air, the
next driver starts from rest at the top of the arc (the client is synced by
position packets, which stop it), and a player who does not move at once
leaves the server a floating body, kicked after 80 ticks.
"""
from __future__ import annotations

import enum
from collections import deque
from collections.abc import Callable, Iterable

import attrs

from engine.actions import InjectMovement, ItemAction
from engine.motion import physics as ph
from engine.motion.astar import PathStep
from engine.motion.grid import Terrain
from engine.motion.navigator import Navigator
from engine.reflex.base import Activity, Reflex, ReflexContext
from engine.reflex.drowning import DrowningReflex
from engine.reflex.edge import EdgeReflex
from engine.reflex.fire import FireReflex
from engine.reflex.hostile import HostileReflex
from engine.reflex.inputs import ReflexInputs
from engine.reflex.lava import LavaReflex
from engine.reflex.notice import Notice
from engine.reflex.starving import HealReflex, StarvingReflex
from engine.world.snapshot import Vec3

def default_reflexes() -> tuple[Reflex, ...]:
    return (LavaReflex(), FireReflex(), DrowningReflex(), EdgeReflex(), HostileReflex(), StarvingReflex(),
            HealReflex())


class EngineState(enum.Enum):
    IDLE = "idle"
    ACTIVE = "active"
    COOLDOWN = "cooldown"


class Event(enum.Enum):
    TRIGGER = "trigger"
    PREEMPT = "preempt"
    RELEASE = "release"
    TIMEOUT = "timeout"
    CANCEL = "cancel"
    DISABLE = "disable"
    COOLED = "cooled"


TRANSITIONS: dict[tuple[EngineState, Event], EngineState] = {
    (EngineState.IDLE, Event.TRIGGER): EngineState.ACTIVE,
    (EngineState.COOLDOWN, Event.TRIGGER): EngineState.ACTIVE,
    (EngineState.COOLDOWN, Event.COOLED): EngineState.IDLE,
    (EngineState.ACTIVE, Event.PREEMPT): EngineState.IDLE,
    (EngineState.ACTIVE, Event.RELEASE): EngineState.COOLDOWN,
    (EngineState.ACTIVE, Event.TIMEOUT): EngineState.COOLDOWN,
    (EngineState.ACTIVE, Event.CANCEL): EngineState.COOLDOWN,
    (EngineState.ACTIVE, Event.DISABLE): EngineState.IDLE,
}


HISTORY_LIMIT = 256
# Seconds past its timeout a reflex may go on driving to land the body (a fall of ~60 blocks);
# a body falling longer than this (into the void) is let go anyway.
LANDING_GRACE = 3.0


class ReflexMisuse(Exception):
    """An event the state table does not allow in the current state (a bug in our code)."""


@attrs.frozen
class ReflexDecision:
    state: EngineState
    reflex: str | None = None             # the reflex driving this tick
    started: bool = False                 # it took over this tick: show ``notice``
    released: str | None = None           # the reflex that let go this tick (released, timed out, cancelled)
    move: InjectMovement | None = None       # movement packet to inject this tick (hold the client's own)
    items: tuple[ItemAction, ...] = ()        # hotbar / use-item operations, in order
    notice: Notice | None = None
    path: tuple[PathStep, ...] = ()

    @property
    def driving(self) -> bool:
        """The agent owns the player's movement this tick."""
        return self.move is not None


@attrs.frozen
class ReflexStatus:
    name: str
    enabled: bool
    active: bool
    cooling_for: float        # seconds left, 0 if not cooling


class ReflexEngine:
    def __init__(self, reflexes: Iterable[Reflex] | None = None, enabled: Iterable[str] = (),
                 clock: Callable[[], float] | None = None) -> None:
        """``enabled``: reflexes on for this player (none by default: a human drives).
        ``clock``: read only to bound planning time within a tick; None plans by node budget only."""
        self.reflexes = tuple(reflexes) if reflexes is not None else default_reflexes()
        self.by_name = {r.name: r for r in self.reflexes}
        self.enabled = {name for name in enabled if name in self.by_name}
        self.clock = clock
        self.state = EngineState.IDLE
        self.active: Reflex | None = None
        self.activity: Activity | None = None
        self.since = 0.0
        self.cooling: dict[str, float] = {}
        # (now, reflex, event), for logs and tests; bounded: a session may last for weeks.
        self.history: deque[tuple[float, str, Event]] = deque(maxlen=HISTORY_LIMIT)
        # Reflexes whose trigger was false with ``_still`` (all the inputs but the velocity,
        # the terrain and its revision): asked again at once, they would say false again.
        self._still: tuple[object, ...] | None = None
        self._quiet: set[str] = set()

    # Switches --------------------------------------------------------------------------------

    def enable(self, name: str) -> None:
        if name not in self.by_name:
            raise KeyError(name)
        self.enabled.add(name)

    def disable(self, name: str, now: float = 0.0) -> tuple[ItemAction, ...]:
        """Turn a reflex off for this player; if it is driving, it lets go at once."""
        if name not in self.by_name:
            raise KeyError(name)
        self.enabled.discard(name)
        if self.active is not None and self.active.name == name:
            return self._stop(Event.DISABLE, now)
        return ()

    def set_all(self, on: bool, now: float = 0.0) -> tuple[ItemAction, ...]:
        if on:
            self.enabled = set(self.by_name)
            return ()
        ops: tuple[ItemAction, ...] = ()
        for name in list(self.enabled):
            ops += self.disable(name, now)
        return ops

    def listing(self, now: float) -> tuple[ReflexStatus, ...]:
        return tuple(
            ReflexStatus(r.name, r.name in self.enabled, self.active is r, max(0.0, self.cooling.get(r.name, 0.0) - now))
            for r in self.reflexes
        )

    # Signals from the world --------------------------------------------------------------------

    def cancel(self, now: float) -> tuple[ItemAction, ...]:
        """The kill switch: the active reflex lets go now and cools down."""
        if self.active is None:
            return ()
        return self._stop(Event.CANCEL, now)

    def block_changed(self, x: int, y: int, z: int) -> None:
        navigator = self._navigator()
        if navigator is not None:
            navigator.block_changed(x, y, z)

    def teleported(self, position: Vec3) -> None:
        """A server position packet while a reflex drives: it re-plans from there."""
        navigator = self._navigator()
        if navigator is not None:
            navigator.teleport(position)

    def _navigator(self) -> Navigator | None:
        navigator = getattr(self.activity, "navigator", None)
        return navigator if isinstance(navigator, Navigator) else None

    def _at_rest(self, terrain: Terrain) -> bool:
        """The driving activity's body stands, floats or climbs (an activity that does not move is at rest)."""
        navigator = self._navigator()
        if navigator is None:
            return True
        body = navigator.stepper.body
        return body.on_ground or ph.medium(terrain, body) != "air"

    # The tick -------------------------------------------------------------------------------------

    def decide(self, inputs: ReflexInputs, terrain: Terrain, now: float, autopilot: bool = False) -> ReflexDecision:
        ctx = ReflexContext(inputs, terrain, now, self.clock)
        for name, until in list(self.cooling.items()):
            if now >= until:
                del self.cooling[name]
        if self.state is EngineState.COOLDOWN and not self.cooling:
            self._fire(Event.COOLED, self.history[-1][1] if self.history else "", now)
        candidate = self._candidate(ctx, autopilot)
        released: str | None = None
        items: tuple[ItemAction, ...] = ()
        if self.active is not None and self.activity is not None:
            active = self.active
            landing = not self._at_rest(terrain)     # let go only once the body has landed
            if candidate is not None and self._priority(candidate) < self._priority(active):
                items += self.activity.abort()
                self._fire(Event.PREEMPT, active.name, now)
                self.active = self.activity = None
            elif self.activity.done(ctx) and not landing:
                released = active.name
                self._stop(Event.RELEASE, now)
            elif now - self.since > active.timeout + (LANDING_GRACE if landing else 0.0):
                released = active.name
                items += self._stop(Event.TIMEOUT, now)
            else:
                out = self.activity.tick(ctx)
                return self._decision(active, False, released, out.move, items + out.items)
        if candidate is None:
            return ReflexDecision(self.state, released=released, items=items)
        self.activity = candidate.begin(ctx)
        self.active = candidate
        self.since = now
        self._fire(Event.TRIGGER, candidate.name, now)
        out = self.activity.tick(ctx)
        return self._decision(candidate, True, released, out.move, items + out.items)

    def _candidate(self, ctx: ReflexContext, autopilot: bool) -> Reflex | None:
        """The highest reflex that fires. Decisions come twice a tick while the player moves (on
        its movement packet and on the tick, where only the velocity is new), so a trigger that
        does not read the velocity (``reads_velocity`` False) and was false for the same inputs,
        terrain and terrain revision is not asked again: triggers are functions of those alone."""
        i = ctx.inputs
        if i.game_mode in (1, 3):
            return None
        terrain = ctx.terrain
        still = (i.position, i.on_ground, i.health, i.food, i.air, i.burning, i.inventory, i.held_slot,
                 i.hostile_mobs, i.game_mode, i.min_y, terrain, terrain.store.revision)
        if still != self._still:
            self._still = still
            self._quiet = set()
        quiet = self._quiet
        for reflex in self.reflexes:
            if reflex is self.active:
                # Reflexes below the active one cannot preempt it: stop looking.
                return None
            if not autopilot and reflex.name not in self.enabled:
                continue
            if reflex.name in self.cooling or reflex.name in quiet:
                continue
            if reflex.triggered(ctx):
                return reflex
            if not getattr(reflex, "reads_velocity", True):
                quiet.add(reflex.name)
        return None

    def _priority(self, reflex: Reflex) -> int:
        return self.reflexes.index(reflex)

    def _stop(self, event: Event, now: float) -> tuple[ItemAction, ...]:
        assert self.active is not None and self.activity is not None
        ops = () if event is Event.RELEASE else self.activity.abort()
        if event is not Event.DISABLE:
            self.cooling[self.active.name] = now + self.active.cooldown
        self._fire(event, self.active.name, now)
        self.active = self.activity = None
        return ops

    def _fire(self, event: Event, name: str, now: float) -> None:
        key = (self.state, event)
        if key not in TRANSITIONS:
            raise ReflexMisuse(f"{event.value} in state {self.state.value}")
        self.state = TRANSITIONS[key]
        if self.state is EngineState.IDLE and self.cooling:
            self.state = EngineState.COOLDOWN
        self.history.append((now, name, event))

    def _decision(self, reflex: Reflex, started: bool, released: str | None, move: InjectMovement | None,
                  items: tuple[ItemAction, ...]) -> ReflexDecision:
        navigator = self._navigator()
        path = navigator.path.steps if navigator is not None and navigator.path is not None else ()
        notice = self.activity.notice if started and self.activity is not None else None
        return ReflexDecision(self.state, reflex.name, started, released, move, items, notice, path)
