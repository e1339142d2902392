"""The watchdog state machine, after the seed's failure-recovery matrix.

How this works: ``Watchdog`` is told each tick whether an action runs and
where the player is (``observe``), and of reflexes, action outcomes, death,
respawn and the kill switch. Everything that changes ``state`` goes through
``_fire``, driven by the table ``TRANSITIONS``; every transition is appended to
``transitions`` (tick, time, from, event, to, detail) and handed to the ``listener``
(the autopilot's episode log: episode_events.json, in the simulator and the proxy alike).

    HEALTHY ──reflex──► REFLEX_ACTIVE ──cleared──► HEALTHY
    HEALTHY ──stationary 45 s, no inventory change, action running──► STUCK
        STUCK ──recover (cancel goal, step aside, blacklist)──► CLEARING_PATH
        CLEARING_PATH ──moved (or recovery ended)──► HEALTHY
    HEALTHY ──same action failed 3 times──► LOOP ──suppress 60 s──► SUPPRESSING ──alternative──► HEALTHY
    any but DISABLED ──health ≤ 0──► DEAD ──respawn click──► RESPAWNING ──respawned (ladder reset)──► HEALTHY
    any ──kill switch──► DISABLED ──enable──► HEALTHY

The watchdog decides; the autopilot acts (cancels the executor, steps aside,
filters suppressed actions, sends the respawn).
"""
from __future__ import annotations

import enum
from collections.abc import Callable

import attrs

from engine.world.snapshot import Vec3

STUCK_SECONDS = 45.0
LOOP_FAILURES = 3
SUPPRESS_SECONDS = 60.0
MOVED = 1.0                 # blocks from the anchor that count as movement


class WState(enum.Enum):
    HEALTHY = "healthy"
    REFLEX_ACTIVE = "reflex_active"
    STUCK = "stuck_detected"
    CLEARING_PATH = "clearing_path"
    LOOP = "action_loop_detected"
    SUPPRESSING = "blacklisting_action"
    DEAD = "dead"
    RESPAWNING = "respawning"
    DISABLED = "disabled"


class WEvent(enum.Enum):
    REFLEX = "reflex"
    CLEARED = "danger_cleared"
    STUCK = "stuck"
    RECOVER = "recover"
    MOVED = "movement_resumed"
    LOOP = "same_action_failed"
    SUPPRESS = "suppress"
    ALTERNATIVE = "alternative"
    DIED = "died"
    RESPAWN = "respawn_click"
    RESPAWNED = "respawned"
    KILL = "kill_switch"
    ENABLE = "enable"


S, E = WState, WEvent
TRANSITIONS: dict[tuple[WState, WEvent], WState] = {
    (S.HEALTHY, E.REFLEX): S.REFLEX_ACTIVE,
    (S.REFLEX_ACTIVE, E.CLEARED): S.HEALTHY,
    (S.HEALTHY, E.STUCK): S.STUCK,
    (S.STUCK, E.RECOVER): S.CLEARING_PATH,
    (S.CLEARING_PATH, E.MOVED): S.HEALTHY,
    (S.CLEARING_PATH, E.REFLEX): S.REFLEX_ACTIVE,
    (S.HEALTHY, E.LOOP): S.LOOP,
    (S.LOOP, E.SUPPRESS): S.SUPPRESSING,
    (S.SUPPRESSING, E.ALTERNATIVE): S.HEALTHY,
    (S.DEAD, E.RESPAWN): S.RESPAWNING,
    (S.RESPAWNING, E.RESPAWNED): S.HEALTHY,
    (S.DISABLED, E.ENABLE): S.HEALTHY,
}
for _state in WState:
    if _state not in (S.DEAD, S.RESPAWNING, S.DISABLED):
        TRANSITIONS[(_state, E.DIED)] = S.DEAD
    TRANSITIONS[(_state, E.KILL)] = S.DISABLED


class WatchdogMisuse(Exception):
    """An event the table does not allow in the current state (a bug in our code)."""


@attrs.frozen
class Transition:
    tick: int
    now: float
    before: str
    event: str
    after: str
    detail: str = ""

    def to_json(self) -> dict[str, object]:
        return {"tick": self.tick, "t": round(self.now, 3), "from": self.before, "event": self.event,
                "to": self.after, "detail": self.detail}


class Watchdog:
    def __init__(self, stuck_seconds: float = STUCK_SECONDS, loop_failures: int = LOOP_FAILURES,
                 suppress_seconds: float = SUPPRESS_SECONDS, max_log: int = 2000,
                 listener: Callable[[Transition], None] | None = None) -> None:
        self.stuck_seconds = stuck_seconds
        self.loop_failures = loop_failures
        self.suppress_seconds = suppress_seconds
        self.state = WState.HEALTHY
        self.transitions: list[Transition] = []
        self.max_log = max_log
        self.counts: dict[str, int] = {}
        self._anchor: Vec3 | None = None
        self._anchor_inventory: object = None
        self._since = 0.0
        self._failures: dict[str, int] = {}
        self.suppressed: dict[str, float] = {}       # choice label → until
        self.listener = listener                      # told of every transition (the episode log)

    def _fire(self, event: WEvent, tick: int, now: float, detail: str = "") -> None:
        key = (self.state, event)
        if key not in TRANSITIONS:
            raise WatchdogMisuse(f"{event.value} in state {self.state.value}")
        before, self.state = self.state, TRANSITIONS[key]
        self.counts[event.value] = self.counts.get(event.value, 0) + 1
        transition = Transition(tick, now, before.value, event.value, self.state.value, detail)
        if len(self.transitions) < self.max_log:
            self.transitions.append(transition)
        if self.listener is not None:
            self.listener(transition)

    # -- signals ---------------------------------------------------------------------------------
    def observe(self, tick: int, now: float, position: Vec3, inventory: object, running: bool) -> bool:
        """Called every autopilot tick; True when the stuck watchdog fires (the caller recovers)."""
        moved = self._anchor is None or position.distance_to(self._anchor) > MOVED
        if moved or inventory != self._anchor_inventory or not running:
            self._anchor, self._anchor_inventory, self._since = position, inventory, now
            if self.state is S.CLEARING_PATH and moved:
                self._fire(E.MOVED, tick, now)
            return False
        if self.state is S.HEALTHY and now - self._since >= self.stuck_seconds:
            self._fire(E.STUCK, tick, now, f"stationary {now - self._since:.0f} s")
            self._since = now
            return True
        return False

    def recovering(self, tick: int, now: float, detail: str) -> None:
        self._fire(E.RECOVER, tick, now, detail)

    def recovery_ended(self, tick: int, now: float) -> None:
        if self.state is S.CLEARING_PATH:
            self._fire(E.MOVED, tick, now, "step aside ended")

    def reflex(self, active: bool, tick: int, now: float, name: str = "") -> None:
        if active and self.state in (S.HEALTHY, S.CLEARING_PATH):
            self._fire(E.REFLEX, tick, now, name)
        elif not active and self.state is S.REFLEX_ACTIVE:
            self._fire(E.CLEARED, tick, now, name)

    def outcome(self, label: str, ok: bool, tick: int, now: float) -> bool:
        """An action ended; True when it is now suppressed (the third failure in a row)."""
        if ok:
            self._failures.pop(label, None)
            return False
        n = self._failures.get(label, 0) + 1
        self._failures[label] = n
        if n < self.loop_failures or self.state is not S.HEALTHY:
            return False
        self._failures.pop(label, None)
        self._fire(E.LOOP, tick, now, f"{label} failed {n} times")
        self.suppressed[label] = now + self.suppress_seconds
        self._fire(E.SUPPRESS, tick, now, f"{label} for {self.suppress_seconds:.0f} s")
        self._fire(E.ALTERNATIVE, tick, now)
        return True

    def suppressed_now(self, now: float) -> frozenset[str]:
        for label, until in list(self.suppressed.items()):
            if now >= until:
                del self.suppressed[label]
        return frozenset(self.suppressed)

    def died(self, tick: int, now: float, cause: str = "") -> None:
        if self.state not in (S.DEAD, S.RESPAWNING, S.DISABLED):
            self._fire(E.DIED, tick, now, cause)

    def respawn_clicked(self, tick: int, now: float) -> None:
        if self.state is S.DEAD:
            self._fire(E.RESPAWN, tick, now)

    def respawned(self, tick: int, now: float) -> None:
        if self.state is S.RESPAWNING:
            self._fire(E.RESPAWNED, tick, now, "ladder reset")
            self._anchor = None

    def kill(self, tick: int, now: float, detail: str = "") -> None:
        """The autopilot stops (the seed's kill switch row): the player's kill switch, !autopilot off, done."""
        if self.state is not S.DISABLED:
            self._fire(E.KILL, tick, now, detail)

    def enable(self, tick: int, now: float) -> None:
        if self.state is S.DISABLED:
            self._fire(E.ENABLE, tick, now)
            self._anchor = None

