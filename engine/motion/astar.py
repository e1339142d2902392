"""A* over the terrain grid: walk, step up, jump one block, drop up to three, swim, climb.

How this works: nodes are the cells holding the player's feet (see
``engine.motion.grid``). ``_Search.node`` decides once per cell whether the
player can be there (standing, swimming or climbing, body clear) and what being
there costs on top of the move (lava next to it, fire, cactus, magma); the
answer is memoised for the search. Expanding a node tries, for each of the
eight horizontal directions, the cell at the same level, one level up (step or
jump) and the cells below (drop), then straight up and down in water or on a
ladder. Costs are in blocks walked, so distance heuristics stay admissible.

The search stops at the goal, or when a node budget or a time budget (read from
a clock the caller passes, so tests stay deterministic) runs out; it always
returns the path to the best node seen, nearest the goal by the heuristic, so
a caller can start moving while it plans the rest.

Node keys are ints packing (x, z, y) so that moving one block is adding a
constant; that keeps the inner loop free of tuple building.
"""
from __future__ import annotations

import enum
import heapq
import math
from collections.abc import Callable

import attrs

from engine.motion import grid as g
from engine.motion.goals import Goal
from engine.motion.grid import Terrain
from engine.world.snapshot import Vec3

# Node kinds (bits).
STAND = 1
SWIM = 2
CLIMB = 4

# Costs, in blocks of walking.
SQRT2 = math.sqrt(2)
SWIM_FACTOR = 2.0        # swimming is ~0.1 b/t against walking's 0.216
STEP_EXTRA = 0.2
JUMP_EXTRA = 1.0
DROP_PER_BLOCK = 0.5
CLIMB_COST = 1.5
LAVA_CELL = 60.0         # only with allow_lava (escaping from inside a lava pool)
FIRE_CELL = 20.0         # only with allow_fire
DAMAGE_COST = 8.0        # berry bush or campfire in the body, magma underfoot
LAVA_NEAR = 4.0          # per side: lava at the feet, head or floor level next to the node
FIRE_NEAR = 2.0
CACTUS_NEAR = 4.0

_OFF = 1 << 25
_YOFF = 1 << 13
_DX = 1 << 40
_DZ = 1 << 14
_HORIZONTAL = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
_CARDINAL = ((1, 0), (-1, 0), (0, 1), (0, -1))


def pack(x: int, y: int, z: int) -> int:
    return ((x + _OFF) << 40) | ((z + _OFF) << 14) | (y + _YOFF)


def unpack(key: int) -> tuple[int, int, int]:
    return (key >> 40) - _OFF, (key & 0x3FFF) - _YOFF, ((key >> 14) & 0x3FFFFFF) - _OFF


class Move(enum.Enum):
    START = "start"
    WALK = "walk"
    STEP = "step"          # up at most 0.6 without jumping (slabs, carpets)
    JUMP = "jump"          # up more than 0.6, at most 1.25
    DROP = "drop"          # walk off an edge, fall at most max_drop blocks
    SWIM = "swim"
    CLIMB = "climb"        # up a ladder or vine, or swimming up
    DESCEND = "descend"    # down a ladder, or sinking in water


@attrs.frozen
class PathStep:
    x: int
    y: int
    z: int
    move: Move
    feet_y: float

    @property
    def centre(self) -> Vec3:
        return Vec3(self.x + 0.5, self.feet_y, self.z + 0.5)


class PathStatus(enum.Enum):
    FOUND = "found"            # the last step reaches the goal
    PARTIAL = "partial"        # budget ran out; the last step is the best node seen
    NO_PATH = "no_path"        # everything reachable was searched; best node seen


@attrs.frozen
class Path:
    steps: tuple[PathStep, ...]
    status: PathStatus
    expanded: int
    cost: float

    @property
    def complete(self) -> bool:
        return self.status is PathStatus.FOUND

    @property
    def end(self) -> PathStep:
        return self.steps[-1]


@attrs.frozen
class SearchOptions:
    max_nodes: int = 20_000
    time_budget: float | None = None     # seconds, measured with the clock passed to find_path
    allow_lava: bool = False             # may the path cross lava (escaping from inside it)
    allow_fire: bool = False
    max_drop: float = 3.0                # falling more than 3 blocks hurts


NodeInfo = tuple[int, float, float]      # kind bits, feet height, penalty


def start_cell(position: Vec3) -> tuple[int, int, int]:
    """The node holding feet at ``position`` (feet on a slab top at y + 0.5 belong to y)."""
    return math.floor(position.x), math.floor(position.y + 0.5 - 1e-6), math.floor(position.z)


class _Search:
    def __init__(self, terrain: Terrain, options: SearchOptions) -> None:
        self.cell = terrain.cell
        self.top = terrain.top
        self.options = options
        self.memo: dict[int, NodeInfo | None] = {}
        self.clear_memo: dict[int, bool] = {}

    def node(self, x: int, y: int, z: int) -> NodeInfo | None:
        key = pack(x, y, z)
        if key in self.memo:
            return self.memo[key]
        info = self._compute(x, y, z)
        self.memo[key] = info
        return info

    def _compute(self, x: int, y: int, z: int) -> NodeInfo | None:
        cell = self.cell
        here = cell(x, y, z)
        if here & (g.UNKNOWN | g.AVOID):
            return None
        shape = here & g.SHAPE
        below = cell(x, y - 1, z)
        kind = 0
        if shape == g.LOW:
            feet = y + self.top(x, y, z)
            kind = STAND
            first = y + 1
        elif shape == g.EMPTY:
            if below & g.SHAPE == g.TALL:
                return None
            first = y
            if below & g.SHAPE == g.FLOOR and not below & g.UNKNOWN:
                feet = y - 1 + self.top(x, y - 1, z)
                kind = STAND
            else:
                feet = float(y)
            if here & g.WATER or (here & g.LAVA and self.options.allow_lava):
                kind |= SWIM
            if here & g.CLIMB:
                kind |= CLIMB
            if not kind:
                return None
        else:
            return None
        touched = here
        for cy in range(first, g.body_top_cell(feet) + 1):
            c = cell(x, cy, z)
            if c & (g.SHAPE | g.UNKNOWN | g.AVOID):
                return None
            touched |= c
        penalty = 0.0
        if touched & g.LAVA:
            if not self.options.allow_lava:
                return None
            penalty += LAVA_CELL
        if touched & g.FIRE:
            if not self.options.allow_fire:
                return None
            penalty += FIRE_CELL
        if touched & g.DAMAGE or (kind & STAND and shape == g.EMPTY and below & g.DAMAGE):
            penalty += DAMAGE_COST
        for dx, dz in _CARDINAL:
            around = cell(x + dx, y, z + dz) | cell(x + dx, y + 1, z + dz)
            if (around | cell(x + dx, y - 1, z + dz)) & g.LAVA:
                penalty += LAVA_NEAR
            if around & g.FIRE:
                penalty += FIRE_NEAR
            if around & g.DAMAGE and around & g.SHAPE:
                penalty += CACTUS_NEAR
        return kind, feet, penalty

    def clear(self, x: int, y: int, z: int) -> bool:
        """The body may pass through this cell: no collision, nothing burning."""
        key = pack(x, y, z)
        found = self.clear_memo.get(key)
        if found is None:
            c = self.cell(x, y, z)
            found = not c & (g.SHAPE | g.UNKNOWN | g.AVOID | g.LAVA | g.FIRE) and \
                self.cell(x, y - 1, z) & g.SHAPE != g.TALL
            self.clear_memo[key] = found
        return found

    def headroom(self, x: int, z: int, feet: float, rise: float) -> bool:
        """Room above the body to jump ``rise`` blocks."""
        return all(self.clear(x, cy, z) for cy in range(g.body_top_cell(feet) + 1, g.body_top_cell(feet + rise) + 1))


def find_path(
    terrain: Terrain,
    start: Vec3,
    goal: Goal,
    options: SearchOptions = SearchOptions(),
    clock: Callable[[], float] | None = None,
) -> Path:
    terrain.sync()
    search = _Search(terrain, options)
    node = search.node
    cell = terrain.cell
    sx, sy, sz = start_cell(start)
    start_key = pack(sx, sy, sz)
    start_info = node(sx, sy, sz)
    if start_info is None:
        # Mid-air, inside lava without allow_lava, or wedged in a block: expand from
        # here anyway, as if standing, so there is a way out.
        swim = SWIM if cell(sx, sy, sz) & (g.WATER | g.LAVA) else 0
        start_info = (STAND | swim, start.y, 0.0)
        search.memo[start_key] = start_info
    deadline = None
    if options.time_budget is not None and clock is not None:
        deadline = clock() + options.time_budget

    gscore: dict[int, float] = {start_key: 0.0}
    parent: dict[int, tuple[int, Move]] = {}
    closed: set[int] = set()
    h0 = goal.heuristic(sx, sy, sz)
    heap: list[tuple[float, float, int, int]] = [(h0, h0, 0, start_key)]
    counter = 0
    expanded = 0
    best_key, best_h, best_g = start_key, h0, 0.0
    status = PathStatus.NO_PATH
    max_drop = options.max_drop

    def relax(key: int, nx: int, ny: int, nz: int, cost: float, move: Move) -> None:
        nonlocal counter
        nk = pack(nx, ny, nz)
        ng = g0 + cost
        if ng < gscore.get(nk, math.inf):
            gscore[nk] = ng
            parent[nk] = (key, move)
            h = goal.heuristic(nx, ny, nz)
            counter += 1
            heapq.heappush(heap, (ng + h, h, counter, nk))

    while heap:
        _, h, _, key = heapq.heappop(heap)
        if key in closed:
            continue
        closed.add(key)
        x, y, z = unpack(key)
        g0 = gscore[key]
        if goal.reached(x, y, z):
            best_key, status = key, PathStatus.FOUND
            break
        if h < best_h or (h == best_h and g0 < best_g):
            best_key, best_h, best_g = key, h, g0
        expanded += 1
        if expanded >= options.max_nodes or (deadline is not None and expanded % 16 == 0 and clock is not None
                                             and clock() >= deadline):
            status = PathStatus.PARTIAL
            break
        info = node(x, y, z)
        assert info is not None
        kind, feet, _ = info
        # Jumps from the ground, hops out of water, and climbing off a ladder's top.
        can_jump = kind & (STAND | SWIM | CLIMB)
        for dx, dz in _HORIZONTAL:
            nx, nz = x + dx, z + dz
            diagonal = dx != 0 and dz != 0
            target = node(nx, y, nz)
            if target is not None:
                tkind, tfeet, tpen = target
                rise = tfeet - feet
                swim = (kind | tkind) & SWIM and not (kind & tkind & STAND)
                if diagonal:
                    # Corners cut only on flat full floors or in open water; both corner
                    # columns must be clear or the box would clip them.
                    if not ((feet == y == tfeet and kind & tkind & STAND) or (kind & tkind & SWIM and rise == 0)):
                        continue
                    if not (search.clear(nx, y, z) and search.clear(nx, y + 1, z)
                            and search.clear(x, y, nz) and search.clear(x, y + 1, nz)):
                        continue
                    relax(key, nx, y, nz, SQRT2 * (SWIM_FACTOR if swim else 1.0) + tpen, Move.SWIM if swim else Move.WALK)
                elif rise <= g.STEP_HEIGHT + 1e-9:
                    move = Move.SWIM if swim else (Move.STEP if rise > 1e-9 else Move.WALK)
                    relax(key, nx, y, nz, (SWIM_FACTOR if swim else 1.0) + (STEP_EXTRA if rise > 1e-9 else 0.0) + tpen, move)
                elif rise <= g.JUMP_HEIGHT and can_jump and search.headroom(x, z, feet, rise):
                    relax(key, nx, y, nz, 1.0 + JUMP_EXTRA + tpen, Move.JUMP)
                continue
            if diagonal:
                continue
            up = node(nx, y + 1, nz)
            if up is not None:
                rise = up[1] - feet
                if rise <= g.STEP_HEIGHT + 1e-9:
                    relax(key, nx, y + 1, nz, 1.0 + STEP_EXTRA + up[2], Move.STEP)
                elif rise <= g.JUMP_HEIGHT and can_jump and search.headroom(x, z, feet, rise):
                    relax(key, nx, y + 1, nz, 1.0 + JUMP_EXTRA + up[2], Move.JUMP)
            # Walking off an edge: the body has to fit through the next column at its
            # current height, then it falls until something holds it.
            if not all(search.clear(nx, cy, nz) for cy in range(math.floor(feet), g.body_top_cell(feet) + 1)):
                continue
            for k in range(1, int(max_drop) + 2):
                landing = node(nx, y - k, nz)
                if landing is not None:
                    fall = feet - landing[1]
                    if 0 < fall <= max_drop + 1e-9:
                        relax(key, nx, y - k, nz, 1.0 + DROP_PER_BLOCK * fall + landing[2], Move.DROP)
                    break
                if not search.clear(nx, y - k, nz):
                    break
        if kind & (SWIM | CLIMB):
            up = node(x, y + 1, z)
            if up is not None and up[1] > feet:
                relax(key, x, y + 1, z, (CLIMB_COST if kind & CLIMB else SWIM_FACTOR) + up[2], Move.CLIMB)
        if not cell(x, y - 1, z) & (g.SHAPE | g.UNKNOWN):
            down = node(x, y - 1, z)
            if down is not None and down[0] & (SWIM | CLIMB):
                relax(key, x, y - 1, z, (CLIMB_COST if down[0] & CLIMB else SWIM_FACTOR) + down[2], Move.DESCEND)

    steps: list[PathStep] = []
    key = best_key
    while True:
        x, y, z = unpack(key)
        info = node(x, y, z)
        feet = info[1] if info is not None else start.y
        link = parent.get(key)
        steps.append(PathStep(x, y, z, link[1] if link else Move.START, feet))
        if link is None:
            break
        key = link[0]
    steps.reverse()
    return Path(tuple(steps), status, expanded, gscore[best_key])
