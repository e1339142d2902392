"""The stepper: turns a path into one movement packet per tick.

How this works: the stepper owns a simulated body (``engine.motion.physics``)
and a pointer into the path. Each ``tick()`` it picks controls the way a
player would press keys — walk toward the centre of the next step, jump when
the next step is higher than a step-up, swim up in water, climb on ladders —
lets the physics move the body one tick, and returns the resulting absolute
position, look and onGround. Speeds never exceed vanilla's for the medium;
onGround is the physics' "resting on a block top"; nothing moves more than a
fraction of a block per tick.

States (everything that changes ``state`` lives in this module):

    IDLE ──follow(path)──► MOVING ──last step reached──► ARRIVED
                             │  no progress for STUCK_TICKS ──► STUCK
    any ──teleport(pos)──► TELEPORTED  (the caller re-plans, then follow())
    IDLE / ARRIVED / STUCK / TELEPORTED: tick() holds still (gravity still applies)
"""
from __future__ import annotations

import enum
import math


from engine.actions import InjectMovement
from engine.motion import grid as g
from engine.motion import physics as ph
from engine.motion.astar import Move, Path, PathStep
from engine.motion.grid import Terrain
from engine.world.snapshot import Vec3

STUCK_TICKS = 40          # two seconds without getting closer to the next step
CENTRE_TOLERANCE = 1e-3


class StepperState(enum.Enum):
    IDLE = "idle"
    MOVING = "moving"
    ARRIVED = "arrived"
    STUCK = "stuck"
    TELEPORTED = "teleported"


def yaw_towards(dx: float, dz: float) -> float:
    """Minecraft yaw in degrees: 0 faces +z (south), 90 faces -x (west)."""
    return math.degrees(math.atan2(-dx, dz))


class Stepper:
    def __init__(self, terrain: Terrain, position: Vec3, sprint: bool = False, on_ground: bool | None = None) -> None:
        self.terrain = terrain
        self.sprint = sprint
        if on_ground is None:
            on_ground = ph.supported(terrain, position.x, position.y, position.z)
        self.body = ph.Body(position.x, position.y, position.z, 0.0, on_ground)
        self.state = StepperState.IDLE
        self.path: Path | None = None
        self.index = 0
        self.yaw = 0.0
        self.ticks = 0
        self._best = math.inf
        self._since_progress = 0

    @property
    def position(self) -> Vec3:
        return Vec3(self.body.x, self.body.y, self.body.z)

    @property
    def target(self) -> PathStep | None:
        if self.path is None or self.index >= len(self.path.steps):
            return None
        return self.path.steps[self.index]

    def follow(self, path: Path) -> None:
        """Drive along ``path`` from wherever the body is (its first step is the start)."""
        # Index 0 is the start cell: after a re-plan the body may be off its centre, and
        # only centre-to-centre lines were checked for clear corners.
        self.path = path
        self.index = 0
        self.state = StepperState.MOVING
        self._reset_progress()

    def stop(self) -> None:
        self.path = None
        self.state = StepperState.IDLE

    def teleport(self, position: Vec3) -> None:
        """The server moved the player: start over from there; the caller re-plans."""
        t = self.terrain
        self.body = ph.Body(position.x, position.y, position.z, 0.0, ph.supported(t, position.x, position.y, position.z))
        self.path = None
        self.state = StepperState.TELEPORTED

    def _reset_progress(self) -> None:
        self._best = math.inf
        self._since_progress = 0

    def _reached(self, step: PathStep) -> bool:
        b = self.body
        if math.hypot(step.x + 0.5 - b.x, step.z + 0.5 - b.z) > CENTRE_TOLERANCE:
            return False
        if step.move is Move.START:
            # The start may be mid-air or mid-swim: only the column matters.
            return True
        if self.terrain.cell(step.x, step.y, step.z) & (g.WATER | g.LAVA | g.CLIMB):
            # Afloat or on a ladder the body drifts: the feet in the step's cell will do.
            return step.y - 0.05 <= b.y < step.y + 1.0
        return b.on_ground and abs(b.y - step.feet_y) < 1e-6

    def tick(self) -> InjectMovement:
        self.terrain.sync()
        self.ticks += 1
        controls = ph.Controls()
        if self.state is StepperState.MOVING:
            assert self.path is not None
            steps = self.path.steps
            while self.index < len(steps) and self._reached(steps[self.index]):
                self.index += 1
                self._reset_progress()
            if self.index >= len(steps):
                self.state = StepperState.ARRIVED
            else:
                controls = self._controls(steps[self.index])
        # The speed was chosen for the medium the body starts the tick in (_controls): a sprint-speed
        # step on the ground that ends in water is still a sprint, and the server must be told so.
        before = ph.medium(self.terrain, self.body)
        result = ph.advance(self.terrain, self.body, controls)
        self.body = result.body
        if controls.dx or controls.dz:
            self.yaw = yaw_towards(controls.dx, controls.dz)
        if self.state is StepperState.MOVING:
            self._watch_progress()
        b = self.body
        sprinting = self.sprint and bool(controls.dx or controls.dz) and before in ("ground", "air")
        return InjectMovement(b.x, b.y, b.z, self.yaw, 0.0, b.on_ground, sprinting)

    def _controls(self, step: PathStep) -> ph.Controls:
        b = self.body
        where = ph.medium(self.terrain, b)
        dx, dz = step.x + 0.5 - b.x, step.z + 0.5 - b.z
        distance = math.hypot(dx, dz)
        speed = ph.max_speed(where, self.sprint)
        if where == "ladder":
            # Vanilla caps each axis on a ladder; capping the length keeps both under it.
            speed = min(speed, ph.LADDER_AXIS_SPEED)
        rise = step.feet_y - b.y
        if where in ("water", "lava"):
            # Swim up toward the step (bobbing at the surface keeps the head out); else sink.
            jump = rise > -0.2
        elif where == "ladder":
            jump = rise > 1e-6
        else:
            # Jump only next to the higher step; the block face holds the box back until
            # the feet clear its top, as it does for a player.
            jump = b.on_ground and rise > ph.STEP_HEIGHT and distance < 1.5
        if distance < CENTRE_TOLERANCE:
            return ph.Controls(0.0, 0.0, jump)
        scale = min(speed, distance) / distance
        return ph.Controls(dx * scale, dz * scale, jump)

    def _watch_progress(self) -> None:
        step = self.target
        if step is None:
            return
        b = self.body
        gap = math.hypot(step.x + 0.5 - b.x, step.z + 0.5 - b.z) + abs(step.feet_y - b.y)
        if gap < self._best - 0.01:
            self._best = gap
            self._since_progress = 0
        else:
            self._since_progress += 1
            if self._since_progress >= STUCK_TICKS:
                self.state = StepperState.STUCK
