"""A vanilla-movement checker: replays movement packets against the block store.

How this works: ``MovementChecker.feed(packet)`` compares each (tick, x, y, z,
onGround) packet with the one before it (or with the last server teleport) and
returns the rules it breaks:

* ``too_fast``: horizontal distance per tick above the limit (sprinting, 0.281; walking
  speed when the packet says the player was not sprinting: a server that was never
  told of a sprint sees a walker);
* ``too_far``: more than 10 blocks in one packet (vanilla's own limit);
* ``rose_too_fast``: upward motion no vanilla source explains. The allowance
  for a tick comes from where the previous packet stood: on the ground a jump
  (0.42), or a step (0.6) that ends on the ground; in water or lava a swim and
  hop (0.34); on a ladder a climb (0.2); in the air the previous upward speed
  decayed by gravity, ``(dy - 0.08) * 0.98`` (or the 0.3 hop, the tick after
  leaving a fluid). This is the fly check;
* ``airborne_too_long``: 80 ticks in a row off the ground, out of water and
  off ladders (vanilla kicks for floating);
* ``on_ground_lie``: onGround true with no block top under the feet;
* ``inside_block`` / ``through_block``: the box overlaps a block, or every
  way there (straight, rise-then-across, across-then-drop) crosses one.

A gap between packets is a body that stood still: a vanilla client sends a
position whenever it moved (more than 2e-4 blocks) and a reminder every 20
ticks otherwise (LocalPlayer.sendPosition). So after a packet at rest (on the
ground, afloat, on a ladder) a silent gap ends with the rise of one tick, a
jump on the gap's last tick, which carries that jump's speed on; and the gap
counts no airborne ticks (the server counts floating ticks only after a packet
that left the body floating: ServerGamePacketListenerImpl.tick). A gap after a
packet in the air is all airborne, even if the packet that ends it lands.

Unknown blocks never produce a violation: the checker flags only what the
store proves. The checker shares the box and block model of
``engine.motion.physics``, which the stepper also uses; its own tests pin the
rules on hand-written packets so the two cannot drift together unnoticed.
"""
from __future__ import annotations

import enum
import math
from collections.abc import Callable, Iterable

import attrs

from engine.motion import grid as g
from engine.motion import physics as ph
from engine.motion.grid import Terrain

MAX_PACKET_DISTANCE = 10.0
MAX_AIRBORNE_TICKS = 80
FLUID_RISE = ph.FLUID_HOP + ph.SWIM_UP
TOLERANCE = 1e-6


@attrs.frozen
class Movement:
    """One movement packet as the server would see it."""

    tick: int
    x: float
    y: float
    z: float
    on_ground: bool
    sprinting: bool | None = None      # what the server was told (None: not known, any legal speed)


class Rule(enum.Enum):
    TOO_FAST = "too_fast"
    TOO_FAR = "too_far"
    ROSE_TOO_FAST = "rose_too_fast"
    AIRBORNE_TOO_LONG = "airborne_too_long"
    ON_GROUND_LIE = "on_ground_lie"
    INSIDE_BLOCK = "inside_block"
    THROUGH_BLOCK = "through_block"


@attrs.frozen
class Violation:
    tick: int
    rule: Rule
    detail: str


class MovementChecker:
    def __init__(self, terrain: Terrain, max_speed: float = ph.SPRINT_SPEED) -> None:
        self.terrain = terrain
        self.max_speed = max_speed
        self.previous: Movement | None = None
        self.rise_allowance = 0.0       # upward speed the air carries into the next tick
        self.airborne = 0
        self.airborne_flagged = False
        self.violations: list[Violation] = []

    def teleport(self, x: float, y: float, z: float, tick: int) -> None:
        """A server position packet: the next movement starts from here."""
        t = self.terrain
        self.previous = Movement(tick, x, y, z, ph.supported(t, x, y, z))
        self.rise_allowance = 0.0
        self.airborne = 0
        self.airborne_flagged = False

    def feed(self, m: Movement) -> list[Violation]:
        self.terrain.sync()
        found: list[Violation] = []
        t = self.terrain
        prev = self.previous

        def flag(rule: Rule, detail: str) -> None:
            found.append(Violation(m.tick, rule, detail))

        supported = ph.supported(t, m.x, m.y, m.z)
        if m.on_ground and not supported and not ph.support_unknown(t, m.x, m.y, m.z):
            flag(Rule.ON_GROUND_LIE, f"onGround at y={m.y:.4f} with no block top under the feet")
        inside = ph.collides(t, m.x, m.y, m.z, unknown_solid=False)
        if inside:
            flag(Rule.INSIDE_BLOCK, f"box at ({m.x:.3f}, {m.y:.3f}, {m.z:.3f}) overlaps a block")
        fluid_or_ladder = self._fluid_or_ladder(m.x, m.y, m.z)

        if prev is not None:
            dt = max(1, m.tick - prev.tick)
            dx, dy, dz = m.x - prev.x, m.y - prev.y, m.z - prev.z
            distance = math.sqrt(dx * dx + dy * dy + dz * dz)
            if distance > MAX_PACKET_DISTANCE:
                flag(Rule.TOO_FAR, f"{distance:.2f} blocks in one packet")
            speed = math.hypot(dx, dz) / dt
            limit = self.max_speed if m.sprinting is not False else min(self.max_speed, ph.WALK_SPEED)
            if speed > limit + TOLERANCE:
                flag(Rule.TOO_FAST, f"{speed:.4f} blocks/tick horizontally, limit {limit}"
                                    + ("" if m.sprinting is not False else " (not sprinting)"))
            launch = self._launch(prev)
            allowed = self._rise_allowed(launch, supported and m.on_ground, dt)
            if dy > allowed + TOLERANCE:
                flag(Rule.ROSE_TOO_FAST, f"rose {dy:.4f} in {dt} tick(s), physics allows {allowed:.4f}")
            if not inside and not ph.collides(t, prev.x, prev.y, prev.z, unknown_solid=False) \
                    and not self._reachable(prev, m):
                flag(Rule.THROUGH_BLOCK, f"({prev.x:.3f}, {prev.y:.3f}, {prev.z:.3f}) -> "
                                         f"({m.x:.3f}, {m.y:.3f}, {m.z:.3f}) crosses a block")
            if (m.on_ground and supported) or fluid_or_ladder:
                self.rise_allowance = 0.0
            elif ph.touching(t, prev.x, prev.y, prev.z, g.WATER | g.LAVA):
                # A tick that began afloat ends with fluid drag, or with the 0.3 hop out.
                self.rise_allowance = ph.FLUID_HOP
            else:
                # Upward speed decays like vanilla's: the next tick may rise at most this. A silent
                # gap from a body at rest rose on its last tick alone (a client that moved says so).
                rate = min(dy, launch) if dt > 1 and launch > 0 else min(dy / dt, allowed)
                self.rise_allowance = (rate - ph.GRAVITY) * ph.DRAG
            self._count_airborne(m, fluid_or_ladder, dt, flag)
        else:
            self._count_airborne(m, fluid_or_ladder, 0, flag)
        self.previous = m
        self.violations += found
        return found

    def _fluid_or_ladder(self, x: float, y: float, z: float) -> bool:
        t = self.terrain
        return ph.touching(t, x, y, z, g.WATER | g.LAVA) or ph.on_climbable(t, x, y, z)

    def _launch(self, prev: Movement) -> float:
        """The rise a body at ``prev`` can give itself in one tick (jump, swim, climb); 0 in the air."""
        t = self.terrain
        per_tick = 0.0
        if prev.on_ground and ph.supported(t, prev.x, prev.y, prev.z):
            per_tick = ph.JUMP_VELOCITY
        if ph.touching(t, prev.x, prev.y, prev.z, g.WATER | g.LAVA):
            per_tick = max(per_tick, FLUID_RISE)
        if ph.on_climbable(t, prev.x, prev.y, prev.z):
            per_tick = max(per_tick, ph.CLIMB_VELOCITY)
        return per_tick

    def _rise_allowed(self, per_tick: float, lands: bool, dt: int) -> float:
        if per_tick > 0:
            total = per_tick * dt
        else:
            # Carried air speed over dt ticks, each decayed by gravity and drag.
            total, v = 0.0, self.rise_allowance
            for _ in range(dt):
                total += max(0.0, v)
                v = (v - ph.GRAVITY) * ph.DRAG
        if lands:
            total = max(total, ph.STEP_HEIGHT)
        return total

    def _count_airborne(self, m: Movement, fluid_or_ladder: bool, dt: int, flag: Callable[[Rule, str], None]) -> None:
        # Off the ground since the last packet, or (after a packet at rest) since this one: a gap
        # the body stood through is no floating time, a gap in the air is (it landed on m's tick
        # at the latest).
        was_airborne = self.airborne > 0
        if m.on_ground or fluid_or_ladder:
            self.airborne += max(0, dt - 1) if was_airborne else 0
        else:
            self.airborne += dt if was_airborne else 1
        if self.airborne >= MAX_AIRBORNE_TICKS and not self.airborne_flagged:
            self.airborne_flagged = True
            flag(Rule.AIRBORNE_TOO_LONG, f"{self.airborne} ticks off the ground")
        if m.on_ground or fluid_or_ladder:
            self.airborne = 0
            self.airborne_flagged = False

    def _clear(self, x0: float, y0: float, z0: float, x1: float, y1: float, z1: float) -> bool:
        steps = max(1, math.ceil(math.sqrt((x1 - x0) ** 2 + (y1 - y0) ** 2 + (z1 - z0) ** 2) / 0.1))
        for i in range(1, steps):
            f = i / steps
            if ph.collides(self.terrain, x0 + (x1 - x0) * f, y0 + (y1 - y0) * f, z0 + (z1 - z0) * f,
                           unknown_solid=False):
                return False
        return True

    def _reachable(self, a: Movement, b: Movement) -> bool:
        if self._clear(a.x, a.y, a.z, b.x, b.y, b.z):
            return True
        # Vanilla resolves y before x and z, and steps up before moving across: a move is
        # legal if the box can go up (or down) first and across after, or across then down.
        if not ph.collides(self.terrain, a.x, b.y, a.z, unknown_solid=False) and \
                self._clear(a.x, a.y, a.z, a.x, b.y, a.z) and self._clear(a.x, b.y, a.z, b.x, b.y, b.z):
            return True
        return not ph.collides(self.terrain, b.x, a.y, b.z, unknown_solid=False) and \
            self._clear(a.x, a.y, a.z, b.x, a.y, b.z) and self._clear(b.x, a.y, b.z, b.x, b.y, b.z)


def check_movements(terrain: Terrain, packets: Iterable[Movement], max_speed: float = ph.SPRINT_SPEED,
                    teleports: dict[int, tuple[float, float, float]] | None = None) -> list[Violation]:
    """Replay packets; ``teleports`` maps a tick to a server teleport applied before that tick's packet."""
    checker = MovementChecker(terrain, max_speed)
    for packet in packets:
        if teleports and packet.tick in teleports:
            checker.teleport(*teleports[packet.tick], tick=packet.tick - 1)
        checker.feed(packet)
    return checker.violations
