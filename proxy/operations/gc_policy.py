"""The garbage collector's policy for a long-running proxy process.

Why: CPython's full (generation 2) collection walks every container object the process
holds. With everything on, each player keeps tens of thousands of them (world model,
planner caches, connection state), so at 30+ players in one process a full collection held
the reactor for up to 656 ms (measured with ``gc.callbacks``; docs/performance.md, "Garbage
collection"), and every player's packets and chat waited behind it. Almost none of that
walk finds garbage: a player's long-lived state dies when the player leaves, and the
per-packet garbage dies young or by reference counting.

How this works:

- At start-up (everything imported, the server built) the heap is collected once and
  **frozen** (``gc.freeze``): module tables, protocol data and the like are never walked again.
- After each automatic full collection, whatever survived it is frozen too, at the policy's
  next check (every ``CHECK_SECONDS`` on the reactor): the collector's callback only raises a
  flag, since a collection may run in any thread (the account store's workers) and in the
  middle of any code, the reactor's own included. So the next full collection walks only what
  became long-lived since the last one: its pause follows the growth of the heap, not its size
  (100 players: full collections of 141–166 ms of CPU while they played, now at most ~34).
- Frozen objects are still freed by reference counting; only **cycles** among them are not
  (a closed connection and its session refer to each other). So when players leave, their
  frozen state may wait: after ``thaw_after`` departures, or a quarter of the players now
  playing if more, the policy **thaws** (``gc.unfreeze``, one full collection, freeze again).
  That one pause is the price of a player's memory coming back while others play; it is
  paid per batch of departures instead of every time the heap grows by a quarter.
- When the last player has left (``release``: the server calls it once idle) the policy
  thaws, collects, and has glibc give free pages back (``heap.trim``), so the memory after
  everyone left is what it would be without freezing.
- The young generation's threshold is raised from 700 to ``YOUNG_THRESHOLD`` (2000, CPython
  3.13's own default): a third as many young passes for the same total time, with the same
  longest pause as 700 within this machine's noise. 7000 was tried and not kept: young
  pauses grew to 40 ms at 100 players, most of a chat round trip's budget.

The collector is an argument (the ``gc`` module by default) so tests can drive the policy
with a fake one and without timing.
"""
from __future__ import annotations

import gc
from typing import Any, Callable, Protocol

from proxy.operations import heap

YOUNG_THRESHOLD = 2000
THAW_AFTER_DEPARTURES = 8
THAW_SHARE_OF_PLAYERS = 0.25
THAW_DELAY_SECONDS = 1.0  # the closing connection is still on the stack when it reports
CHECK_SECONDS = 1.0


class Collector(Protocol):
    """The part of the ``gc`` module the policy uses."""

    callbacks: list[Callable[[str, dict[str, Any]], None]]

    def collect(self, generation: int = 2) -> int: ...
    def freeze(self) -> None: ...
    def unfreeze(self) -> None: ...
    def get_threshold(self) -> tuple[int, int, int]: ...
    def set_threshold(self, threshold0: int, threshold1: int = ..., threshold2: int = ...) -> None: ...


class Clock(Protocol):
    def callLater(self, delay: float, f: Callable[..., object], *args: Any) -> Any: ...


class GcPolicy:
    def __init__(self, clock: Clock, collector: Collector | None = None,
                 release_pages: Callable[[], bool] | None = None, *,
                 young_threshold: int = YOUNG_THRESHOLD, thaw_after: int = THAW_AFTER_DEPARTURES,
                 thaw_share: float = THAW_SHARE_OF_PLAYERS) -> None:
        self.clock = clock
        self.gc: Collector = collector if collector is not None else gc  # type: ignore[assignment]
        self.release_pages = release_pages if release_pages is not None else heap.trim
        self.young_threshold = young_threshold
        self.thaw_after = thaw_after
        self.thaw_share = thaw_share
        self.started = False
        self.departed = 0  # players gone since the last thaw (their frozen cycles wait for one)
        self.freezes = 0
        self.thaws = 0
        self._old_threshold: tuple[int, int, int] | None = None
        self._freeze_wanted = False  # set by the collector's callback, in whichever thread
        self._check_due: Any = None
        self._thaw_due: Any = None
        self._own_collection = False

    def start(self) -> None:
        """Once everything is imported and built, before the reactor runs."""
        if self.started:
            return
        self.started = True
        self._old_threshold = self.gc.get_threshold()
        _, t1, t2 = self._old_threshold
        self.gc.set_threshold(self.young_threshold, t1, t2)
        self._collect_and_freeze()
        self.gc.callbacks.append(self._observe)
        self._check_due = self.clock.callLater(CHECK_SECONDS, self._check)

    def stop(self) -> None:
        """Back to the collector's defaults; everything frozen is walked again."""
        if not self.started:
            return
        self.started = False
        if self._observe in self.gc.callbacks:
            self.gc.callbacks.remove(self._observe)
        for due in (self._check_due, self._thaw_due):
            if due is not None and due.active():
                due.cancel()
        self._check_due = self._thaw_due = None
        self.gc.unfreeze()
        if self._old_threshold is not None:
            self.gc.set_threshold(*self._old_threshold)

    def session_closed(self, playing: int) -> None:
        """A player left; ``playing`` are still in. Thaw once enough have left."""
        if not self.started:
            return
        self.departed += 1
        if self.departed >= max(self.thaw_after, self.thaw_share * playing) and self._thaw_due is None:
            self._thaw_due = self.clock.callLater(THAW_DELAY_SECONDS, self._thaw)

    def release(self) -> bool:
        """The proxy is idle (every player left): thaw and collect, then give free pages back.
        True if glibc trimmed (as ``heap.release``)."""
        if self.started:
            self._thaw()
        else:
            self.gc.collect()
        return self.release_pages()

    def _observe(self, phase: str, info: dict[str, Any]) -> None:
        # Inside the collector's call, in any thread: only a flag (an attribute store).
        if phase == "stop" and info.get("generation") == 2 and not self._own_collection:
            self._freeze_wanted = True

    def _check(self) -> None:
        self._check_due = self.clock.callLater(CHECK_SECONDS, self._check)
        if self._freeze_wanted:
            self._freeze_survivors()

    def _freeze_survivors(self) -> None:
        self._freeze_wanted = False
        if self.started:
            self.gc.freeze()
            self.freezes += 1

    def _thaw(self) -> None:
        self._thaw_due = None
        if not self.started:
            return
        self.gc.unfreeze()
        self._collect_and_freeze()
        self.thaws += 1
        self.departed = 0

    def _collect_and_freeze(self) -> None:
        self._own_collection = True
        try:
            self.gc.collect()
        finally:
            self._own_collection = False
        self.gc.freeze()
        self.freezes += 1


def install(server: Any, clock: Clock) -> GcPolicy:
    """``mcagent run``: the policy started for ``server``, told of departures and of idleness."""
    policy = GcPolicy(clock)
    server.session_closed_hook = policy.session_closed
    server.release_memory = policy.release
    policy.start()
    return policy
