"""The shape every reflex has: a trigger, an activity, a release, a cooldown, a notice.

How this works: a ``Reflex`` is stateless. ``triggered(ctx)`` is a pure
function of the tick's inputs and the terrain. ``begin(ctx)`` returns an
``Activity``, the only stateful part, which the engine ticks while the reflex
is active: each tick it returns the movement packet and item operations to
send, and says when it is ``done`` (the release condition). ``abort()`` returns
the operations that undo a half-finished activity (stop eating, give back the
slot) when a higher reflex, the kill switch or a timeout cuts it short.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import attrs

from engine.actions import InjectMovement, ItemAction
from engine.motion.astar import SearchOptions, start_cell
from engine.motion.goals import Goal
from engine.motion.grid import Terrain
from engine.motion.navigator import Navigator, NavState
from engine.reflex.inputs import ReflexInputs
from engine.reflex.notice import Notice
from engine.world.snapshot import Vec3




@attrs.frozen
class ReflexContext:
    inputs: ReflexInputs
    terrain: Terrain
    now: float
    clock: Callable[[], float] | None = None     # for planning time budgets only


@attrs.frozen
class ReflexOutput:
    move: InjectMovement | None = None
    items: tuple[ItemAction, ...] = ()


class Activity(Protocol):
    @property
    def notice(self) -> Notice:
        ...

    def tick(self, ctx: ReflexContext) -> ReflexOutput:
        ...

    def done(self, ctx: ReflexContext) -> bool:
        ...

    def abort(self) -> tuple[ItemAction, ...]:
        ...


class Reflex(Protocol):
    @property
    def name(self) -> str:
        ...

    @property
    def cooldown(self) -> float:
        """Seconds after it lets go before it may fire again."""
        ...

    @property
    def timeout(self) -> float:
        """Seconds before an activity that has not released is given up."""
        ...

    def triggered(self, ctx: ReflexContext) -> bool:
        ...

    def begin(self, ctx: ReflexContext) -> Activity:
        ...


# Planning inside a tick: small node budgets; the time budget applies when a clock is given.
REFLEX_SEARCH = SearchOptions(max_nodes=1500, time_budget=0.0004)
SPRINT_FOOD = 6        # vanilla: no sprinting with the food bar at 6 or below


def can_sprint(inputs: ReflexInputs) -> bool:
    return inputs.food is None or inputs.food > SPRINT_FOOD


def replan_if_off_path(navigator: Navigator) -> None:
    """Plan again when the body has come to rest on a block the path does not pass.

    A plan starts from the body's cell. Made in mid-air (a fall had just begun,
    the player was hopping), it starts from a cell the body then drops out of,
    and its next steps may be out of reach from where it lands: a jump of two
    blocks, tried over and over. Once the body stands where no step is, at its
    level or a block beside it, the path no longer applies.
    """
    path, planner = navigator.path, navigator.planner
    if navigator.state is not NavState.MOVING or path is None or not navigator.stepper.body.on_ground:
        return
    if planner.dirty or getattr(planner, "searching", False):
        return            # a new path is on its way
    x, y, z = start_cell(navigator.position)
    if any(s.y == y and abs(s.x - x) <= 1 and abs(s.z - z) <= 1 for s in path.steps):
        return
    navigator.set_goal(planner.goal)


class NavigateActivity:
    """Drive a Navigator toward a goal; done when ``released(ctx, body position)`` holds
    or the navigator stops (arrived, or nowhere better to go)."""

    def __init__(self, ctx: ReflexContext, goal: Goal, notice: Notice,
                 released: Callable[[ReflexContext, Vec3], bool],
                 options: SearchOptions = REFLEX_SEARCH, sprint: bool = False) -> None:
        i = ctx.inputs
        self.notice = notice
        self.released = released
        self.navigator = Navigator(ctx.terrain, i.position, goal, options, sprint=sprint, clock=ctx.clock,
                                   on_ground=i.on_ground)

    @property
    def position(self) -> Vec3:
        return self.navigator.position

    def tick(self, ctx: ReflexContext) -> ReflexOutput:
        replan_if_off_path(self.navigator)
        return ReflexOutput(move=self.navigator.tick())

    def done(self, ctx: ReflexContext) -> bool:
        if self.navigator.state is not NavState.MOVING:
            return True
        return self.released(ctx, self.navigator.position)

    def abort(self) -> tuple[ItemAction, ...]:
        return ()
