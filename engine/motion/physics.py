"""The player's body: its box against the terrain, and one tick of vanilla-like motion.

How this works: the body is a 0.6 x 1.8 x 0.6 box with the feet at its bottom
centre. Blocks are boxes from the cell floor to the collision top (see
``engine.motion.grid`` for the simplifications). ``advance(terrain, body,
controls)`` is one game tick: the controls say how far to go horizontally and
whether to jump or swim up; vertical velocity follows vanilla:

* on land: a jump sets vy = 0.42; after moving, vy = (vy - 0.08) * 0.98;
* in water: swimming up adds 0.04, after moving vy = vy * 0.8 - 0.02, which
  settles at 0.1 blocks a tick up or down (1.8 values; later versions rise
  faster, so these are legal everywhere); in lava the drag is 0.5, and holding
  jump rises at the hop's 0.3 a tick (``LAVA_RISE``: the lava escape's gain);
* on a ladder or vine: vy is at least -0.15; pushing into it or holding jump
  sets vy = 0.2 after moving (if still on it), which climbs 0.1176 a tick;
* touching a wall while swimming up with room above hops out with vy = 0.3.

Movement is resolved axis by axis (y, then x, then z) against the block boxes,
as vanilla does; walking into something at most 0.6 high steps up onto it.
Every ``onGround`` this module reports is "the box rests on a block top", the
same test the checker applies.
"""
from __future__ import annotations

import math

import attrs

from engine.motion import grid as g
from engine.motion.grid import Terrain

HALF_WIDTH = 0.3
HEIGHT = 1.8
EPS = 1e-7

GRAVITY = 0.08
DRAG = 0.98
JUMP_VELOCITY = 0.42
WATER_DRAG = 0.8
LAVA_DRAG = 0.5
FLUID_GRAVITY = 0.02
SWIM_UP = 0.04
FLUID_HOP = 0.3
CLIMB_VELOCITY = 0.2
CLIMB_FALL_LIMIT = 0.15
STEP_HEIGHT = 0.6

WALK_SPEED = 0.216            # blocks per tick, vanilla walking
SPRINT_SPEED = 0.281          # blocks per tick, vanilla sprinting
WATER_SPEED = 0.098           # 0.02 acceleration against 0.8 drag
# Vanilla's lava drag gives 0.039 blocks a tick, so two blocks of lava take ~50 ticks
# and most of the player's health. A vanilla server does not model fluid drag in its
# movement check (it bounds speed far above walking), so the lava escape walks.
LAVA_SPEED = WALK_SPEED
# Nor does it model the drag on the way up: holding jump in lava rises at the hop's speed, 0.3
# a tick (vanilla's swim-up there nets 0.04 a tick, so a player one block under
# a pool's rim needs 10 ticks to reach the hop's height, and takes a second hit at the 10th).
LAVA_RISE = FLUID_HOP
LADDER_AXIS_SPEED = 0.15      # vanilla clamps each horizontal axis on a ladder

Box = tuple[float, float, float, float, float, float]


def body_box(x: float, y: float, z: float) -> Box:
    return (x - HALF_WIDTH, y, z - HALF_WIDTH, x + HALF_WIDTH, y + HEIGHT, z + HALF_WIDTH)


def block_boxes(terrain: Terrain, box: Box, unknown_solid: bool = True) -> list[Box]:
    """Collision boxes of the cells that may touch ``box`` (tall blocks reach up a cell)."""
    x0, y0, z0, x1, y1, z1 = box
    out: list[Box] = []
    cell, top = terrain.cell, terrain.top
    for cx in range(math.floor(x0 - EPS), math.floor(x1 + EPS) + 1):
        for cz in range(math.floor(z0 - EPS), math.floor(z1 + EPS) + 1):
            for cy in range(math.floor(y0 - EPS) - 1, math.floor(y1 + EPS) + 1):
                c = cell(cx, cy, cz)
                if c & g.UNKNOWN:
                    if unknown_solid:
                        out.append((cx, cy, cz, cx + 1, cy + 1, cz + 1))
                    continue
                if c & g.SHAPE:
                    out.append((cx, cy, cz, cx + 1, cy + top(cx, cy, cz), cz + 1))
    return out


def _overlap(a: Box, b: Box) -> bool:
    return (a[0] < b[3] - EPS and a[3] > b[0] + EPS and a[1] < b[4] - EPS and a[4] > b[1] + EPS
            and a[2] < b[5] - EPS and a[5] > b[2] + EPS)


def collides(terrain: Terrain, x: float, y: float, z: float, unknown_solid: bool = True) -> bool:
    box = body_box(x, y, z)
    return any(_overlap(box, b) for b in block_boxes(terrain, box, unknown_solid))


def supported(terrain: Terrain, x: float, y: float, z: float) -> bool:
    """The box rests on a block top: some block under its footprint ends exactly at ``y``."""
    x0, _, z0, x1, _, z1 = body_box(x, y, z)
    probe = (x0, y - 0.5, z0, x1, y, z1)
    for b in block_boxes(terrain, probe, unknown_solid=False):
        if abs(b[4] - y) < 1e-6 and b[0] < x1 - EPS and b[3] > x0 + EPS and b[2] < z1 - EPS and b[5] > z0 + EPS:
            return True
    return False


def support_unknown(terrain: Terrain, x: float, y: float, z: float) -> bool:
    """Some cell under the footprint is unknown, so ``supported`` cannot say no for sure."""
    x0, _, z0, x1, _, z1 = body_box(x, y, z)
    cy = math.floor(y - 1e-6)
    return any(terrain.cell(cx, cy, cz) & g.UNKNOWN
               for cx in range(math.floor(x0 + EPS), math.floor(x1 - EPS) + 1)
               for cz in range(math.floor(z0 + EPS), math.floor(z1 - EPS) + 1))


def touching(terrain: Terrain, x: float, y: float, z: float, mask: int, grow: float = 0.0) -> bool:
    """Some cell overlapping the box (grown by ``grow``) has one of the ``mask`` class bits."""
    x0, y0, z0, x1, y1, z1 = body_box(x, y, z)
    floor = math.floor
    return terrain.any_cell(floor(x0 - grow + EPS), floor(x1 + grow - EPS), floor(y0 - grow + EPS),
                            floor(y1 + grow - EPS), floor(z0 - grow + EPS), floor(z1 + grow - EPS), mask)


def in_water(terrain: Terrain, x: float, y: float, z: float) -> bool:
    return touching(terrain, x, y, z, g.WATER)


def in_lava(terrain: Terrain, x: float, y: float, z: float) -> bool:
    return touching(terrain, x, y, z, g.LAVA)


def on_climbable(terrain: Terrain, x: float, y: float, z: float) -> bool:
    # Vanilla looks at the block holding the feet.
    return bool(terrain.cell(math.floor(x), math.floor(y), math.floor(z)) & g.CLIMB)


@attrs.frozen
class Body:
    x: float
    y: float
    z: float
    vy: float = 0.0
    on_ground: bool = False
    airborne_ticks: int = 0         # consecutive ticks off the ground, out of water and off ladders


@attrs.frozen
class Controls:
    """One tick of input: horizontal displacement wanted, and the jump key."""

    dx: float = 0.0
    dz: float = 0.0
    jump: bool = False              # on land: jump if on the ground; in fluid: swim up; on a ladder: climb


@attrs.frozen
class TickResult:
    body: Body
    collided_horizontally: bool
    medium: str                     # "ground", "air", "water", "lava", "ladder"


def _clip(boxes: list[Box], box: Box, axis: int, d: float) -> float:
    """Largest move along ``axis`` (0 x, 1 y, 2 z) up to ``d`` before touching a box."""
    if d == 0.0:
        return 0.0
    a, b = (1, 2) if axis == 0 else (0, 2) if axis == 1 else (0, 1)
    for other in boxes:
        if not (box[a] < other[a + 3] - EPS and box[a + 3] > other[a] + EPS
                and box[b] < other[b + 3] - EPS and box[b + 3] > other[b] + EPS):
            continue
        if d > 0 and box[axis + 3] <= other[axis] + EPS:
            d = min(d, other[axis] - box[axis + 3])
        elif d < 0 and box[axis] >= other[axis + 3] - EPS:
            d = max(d, other[axis + 3] - box[axis])
    return d


def _shift(box: Box, axis: int, d: float) -> Box:
    out = list(box)
    out[axis] += d
    out[axis + 3] += d
    return (out[0], out[1], out[2], out[3], out[4], out[5])


def _sweep(boxes: list[Box], box: Box, dx: float, dy: float, dz: float) -> tuple[Box, float, float, float]:
    dy = _clip(boxes, box, 1, dy)
    box = _shift(box, 1, dy)
    dx = _clip(boxes, box, 0, dx)
    box = _shift(box, 0, dx)
    dz = _clip(boxes, box, 2, dz)
    box = _shift(box, 2, dz)
    return box, dx, dy, dz


def move(terrain: Terrain, body: Body, dx: float, dy: float, dz: float, may_step: bool) -> tuple[Body, bool, bool]:
    """Move the box, clipped by blocks; returns (body, collided horizontally, collided vertically)."""
    box = body_box(body.x, body.y, body.z)
    # Everything the sweep (and a step-up of 0.6) can reach; block_boxes adds the cell below.
    region = (box[0] - abs(dx), box[1] - abs(dy), box[2] - abs(dz),
              box[3] + abs(dx), box[4] + abs(dy) + STEP_HEIGHT, box[5] + abs(dz))
    boxes = block_boxes(terrain, region)
    moved, mx, my, mz = _sweep(boxes, box, dx, dy, dz)
    hit_h = abs(mx - dx) > EPS or abs(mz - dz) > EPS
    hit_v = abs(my - dy) > EPS
    landed = hit_v and dy < 0
    if hit_h and may_step and (body.on_ground or landed):
        # Vanilla step-up: lift up to 0.6, move across, settle back down on the top.
        up = _clip(boxes, box, 1, STEP_HEIGHT)
        lifted = _shift(box, 1, up)
        across, sx, _, sz = _sweep(boxes, lifted, dx, 0.0, dz)
        down = _clip(boxes, across, 1, -up - max(0.0, -dy))
        settled = _shift(across, 1, down)
        if sx * sx + sz * sz > mx * mx + mz * mz + EPS and settled[1] - box[1] <= STEP_HEIGHT + EPS:
            moved, mx, mz = settled, sx, sz
            hit_h = abs(mx - dx) > EPS or abs(mz - dz) > EPS
            hit_v = True
    x, y, z = moved[0] + HALF_WIDTH, moved[1], moved[2] + HALF_WIDTH
    return Body(x, y, z, body.vy, body.on_ground, body.airborne_ticks), hit_h, hit_v


def medium(terrain: Terrain, body: Body) -> str:
    if in_lava(terrain, body.x, body.y, body.z):
        return "lava"
    if in_water(terrain, body.x, body.y, body.z):
        return "water"
    if on_climbable(terrain, body.x, body.y, body.z):
        return "ladder"
    return "ground" if body.on_ground else "air"


def max_speed(where: str, sprint: bool = False) -> float:
    """Horizontal speed, blocks per tick, that vanilla reaches in a medium."""
    if where == "water":
        return WATER_SPEED
    if where == "lava":
        return LAVA_SPEED
    if where == "ladder":
        return LADDER_AXIS_SPEED
    return SPRINT_SPEED if sprint else WALK_SPEED


def advance(terrain: Terrain, body: Body, controls: Controls) -> TickResult:
    where = medium(terrain, body)
    dx, dz, vy = controls.dx, controls.dz, body.vy
    if where == "lava":
        if controls.jump:
            vy = max(vy, LAVA_RISE)
    elif where == "water":
        if controls.jump:
            vy += SWIM_UP
    elif where == "ladder":
        dx = max(-LADDER_AXIS_SPEED, min(LADDER_AXIS_SPEED, dx))
        dz = max(-LADDER_AXIS_SPEED, min(LADDER_AXIS_SPEED, dz))
        vy = max(vy, -CLIMB_FALL_LIMIT)
    elif controls.jump and body.on_ground:
        vy = JUMP_VELOCITY
    moved, hit_h, hit_v = move(terrain, body, dx, vy, dz, may_step=where != "ladder")
    on_ground = supported(terrain, moved.x, moved.y, moved.z)
    if hit_v:
        vy = 0.0
    if where in ("water", "lava"):
        drag = WATER_DRAG if where == "water" else LAVA_DRAG
        vy = vy * drag - FLUID_GRAVITY
        if hit_h and controls.jump and not collides(terrain, moved.x + dx, moved.y + STEP_HEIGHT, moved.z + dz):
            vy = FLUID_HOP
    else:
        # Vanilla tests the ladder again after moving: leaving its top keeps no climb speed.
        if (hit_h or controls.jump) and on_climbable(terrain, moved.x, moved.y, moved.z):
            vy = CLIMB_VELOCITY
        vy = (vy - GRAVITY) * DRAG
    after = medium(terrain, Body(moved.x, moved.y, moved.z, vy, on_ground))
    airborne = 0 if on_ground or after in ("water", "lava", "ladder") else body.airborne_ticks + 1
    return TickResult(Body(moved.x, moved.y, moved.z, vy, on_ground, airborne), hit_h, after)
