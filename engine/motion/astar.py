"""A* over the terrain grid: walk, step up, jump one block, drop up to three, swim, climb.

How this works: nodes are the cells holding the player's feet (see
``engine.motion.grid``). Whether the player can be at a cell (standing,
swimming or climbing, body clear) and what being there costs on top of the
move (lava next to it, fire, cactus, magma) comes from the terrain's node
tables (``engine.motion.nodes``, built per section with numpy); the search
applies its options (may it cross lava or fire) and memoises the answer.
Expanding a node tries, for each of the eight horizontal directions, the cell
at the same level, one level up (step or jump) and the cells below (drop),
then straight up and down in water or on a ladder. Costs are in blocks walked,
so distance heuristics stay admissible.

The search stops at the goal, or when a node budget or a time budget runs out
(the clock is the caller's, read every 8 expansions, so tests stay
deterministic with a fake one); it always
returns the path to the best node seen, nearest the goal by the heuristic, so
a caller can start moving while it plans the rest. A ``Search`` can also run
in slices (``SearchOptions.slice_nodes``, and the time budget per call): the
path planner gives it one slice a tick, so a long search (a goal that turns
out unreachable) costs a bounded time on each tick instead of all on one.

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
from engine.motion import nodes
from engine.motion.goals import Goal
from engine.motion.grid import Terrain
from engine.world.snapshot import Vec3

# Node kinds (bits), as in the node tables.
STAND = nodes.STAND
SWIM = nodes.SWIM
CLIMB = nodes.CLIMB

# Costs, in blocks of walking.
SQRT2 = math.sqrt(2)
SWIM_FACTOR = 2.0        # swimming is ~0.1 b/t against walking's 0.216
STEP_EXTRA = 0.2
JUMP_EXTRA = 1.0
DROP_PER_BLOCK = 0.5
CLIMB_COST = 1.5
LAVA_CELL = 60.0         # only with allow_lava (escaping from inside a lava pool)
FIRE_CELL = 20.0         # only with allow_fire

_OFF = 1 << 25
_YOFF = 1 << 13
_DX = 1 << 40
_DZ = 1 << 14
_HORIZONTAL = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


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
    time_budget: float | None = None     # seconds per call, measured with the clock passed to find_path
    # Expansions per call of ``Search.run``: a search cut by this (or by the time budget) pauses
    # and goes on at the next call (``PathPlanner`` makes one a tick) instead of ending partial.
    slice_nodes: int | None = None
    allow_lava: bool = False             # may the path cross lava (escaping from inside it)
    allow_fire: bool = False
    max_drop: float = 3.0                # falling more than 3 blocks hurts


NodeInfo = tuple[int, float, float]      # kind bits, feet height, penalty


def start_cell(position: Vec3) -> tuple[int, int, int]:
    """The node holding feet at ``position`` (feet on a slab top at y + 0.5 belong to y)."""
    return math.floor(position.x), math.floor(position.y + 0.5 - 1e-6), math.floor(position.z)


def _node_reader(terrain: Terrain, options: SearchOptions) -> Callable[[int, int, int], NodeInfo | None]:
    """(kind, feet height, extra cost) of the node at a cell under these options, or None."""
    tables: dict[tuple[int, int, int], nodes.SectionNodes] = {}
    allow_lava, allow_fire = options.allow_lava, options.allow_fire

    def read(x: int, y: int, z: int) -> NodeInfo | None:
        key = (x >> 4, y >> 4, z >> 4)
        table = tables.get(key)
        if table is None:
            table = tables[key] = terrain.node_section(key)
        i = ((y & 15) << 8) | ((z & 15) << 4) | (x & 15)
        bits = table.kinds[i]
        kind = bits & (STAND | SWIM | CLIMB)
        penalty = float(table.penalties[i])
        if bits & nodes.TOUCH_LAVA:
            if not allow_lava:
                return None
            penalty += LAVA_CELL
            if bits & nodes.LAVA_SWIM:
                kind |= SWIM
        if bits & nodes.TOUCH_FIRE:
            if not allow_fire:
                return None
            penalty += FIRE_CELL
        if not kind:
            return None
        return kind, y + table.feet[i], penalty

    return read


def _clear_reader(terrain: Terrain, bit: int = nodes.CLEAR) -> Callable[[int, int, int], bool]:
    """May the body pass through this cell (CLEAR), or this and the one above (CLEAR2)?"""
    tables: dict[tuple[int, int, int], nodes.SectionNodes] = {}

    def clear(x: int, y: int, z: int) -> bool:
        key = (x >> 4, y >> 4, z >> 4)
        table = tables.get(key)
        if table is None:
            table = tables[key] = terrain.node_section(key)
        return bool(table.kinds[((y & 15) << 8) | ((z & 15) << 4) | (x & 15)] & bit)

    return clear


_MISSING = (-1, 0.0, 0.0)


def find_path(
    terrain: Terrain,
    start: Vec3,
    goal: Goal,
    options: SearchOptions = SearchOptions(),
    clock: Callable[[], float] | None = None,
) -> Path:
    """Search to the end (the node budget, or the time budget of one call) and return the path."""
    path = Search(terrain, start, goal, attrs.evolve(options, slice_nodes=None), clock).run()
    assert path is not None
    return path


class Search:
    """One A* search that may be run in slices: ``run()`` returns the path once the search has
    ended, or None when ``options.slice_nodes`` (or the time budget) cut this call short; the
    next call goes on where it stopped. Slicing never changes the result: the nodes are
    expanded in the same order as in one run (over the node tables of the first call)."""

    def __init__(self, terrain: Terrain, start: Vec3, goal: Goal, options: SearchOptions = SearchOptions(),
                 clock: Callable[[], float] | None = None) -> None:
        terrain.sync()
        self.terrain = terrain
        self.start = start
        self.goal = goal
        self.options = options
        self.clock = clock
        self.path: Path | None = None
        read = _node_reader(terrain, options)
        self._clear = _clear_reader(terrain)
        self._clear2 = _clear_reader(terrain, nodes.CLEAR2)
        memo: dict[int, NodeInfo | None] = {}

        def node(x: int, y: int, z: int) -> NodeInfo | None:
            key = ((x + _OFF) << 40) | ((z + _OFF) << 14) | (y + _YOFF)
            found = memo.get(key, _MISSING)
            if found is _MISSING:
                found = memo[key] = read(x, y, z)
            return found

        self._node = node
        sx, sy, sz = start_cell(start)
        start_key = pack(sx, sy, sz)
        if node(sx, sy, sz) is None:
            # Mid-air, inside lava without allow_lava, or wedged in a block: expand from
            # here anyway, as if standing, so there is a way out.
            swim = SWIM if terrain.cell(sx, sy, sz) & (g.WATER | g.LAVA) else 0
            memo[start_key] = (STAND | swim, start.y, 0.0)
        self.gscore: dict[int, float] = {start_key: 0.0}
        self.parent: dict[int, tuple[int, Move]] = {}
        self.closed: set[int] = set()
        h0 = goal.heuristic(sx, sy, sz)
        self.heap: list[tuple[float, float, int, int]] = [(h0, h0, 0, start_key)]
        self.counter = 0
        self.expanded = 0
        self.best: tuple[int, float, float] = (start_key, h0, 0.0)      # key, h, g of the best node seen
        self.calls = 0

    @property
    def done(self) -> bool:
        return self.path is not None

    def run(self) -> Path | None:
        if self.path is not None:
            return self.path
        self.calls += 1
        terrain, goal, options, clock = self.terrain, self.goal, self.options, self.clock
        node, clear, clear2 = self._node, self._clear, self._clear2

        def headroom(x: int, z: int, feet: float, rise: float) -> bool:
            return all(clear(x, cy, z) for cy in range(g.body_top_cell(feet) + 1, g.body_top_cell(feet + rise) + 1))

        resumable = options.slice_nodes is not None
        deadline = None
        if options.time_budget is not None and clock is not None:
            deadline = clock() + options.time_budget
        gscore, parent, closed, heap = self.gscore, self.parent, self.closed, self.heap
        heuristic = goal.heuristic
        push, pop = heapq.heappush, heapq.heappop
        counter = self.counter
        expanded = self.expanded
        best_key, best_h, best_g = self.best
        pause_at = expanded + options.slice_nodes if options.slice_nodes is not None else math.inf
        status = PathStatus.NO_PATH
        max_drop = options.max_drop
        max_nodes = options.max_nodes
        drops = range(1, int(max_drop) + 2)
        step_height = g.STEP_HEIGHT + 1e-9
        jump_height = g.JUMP_HEIGHT
        inf = math.inf
        # (dx, dz, diagonal, key offset)
        directions = [(dx, dz, dx != 0 and dz != 0, dx * _DX + dz * _DZ) for dx, dz in _HORIZONTAL]

        while heap:
            if expanded >= pause_at:
                self.counter, self.expanded, self.best = counter, expanded, (best_key, best_h, best_g)
                return None
            _, h, _, key = pop(heap)
            if key in closed:
                continue
            closed.add(key)
            x, y, z = (key >> 40) - _OFF, (key & 0x3FFF) - _YOFF, ((key >> 14) & 0x3FFFFFF) - _OFF
            g0 = gscore[key]
            if goal.reached(x, y, z):
                best_key, status = key, PathStatus.FOUND
                break
            if h < best_h or (h == best_h and g0 < best_g):
                best_key, best_h, best_g = key, h, g0
            expanded += 1
            if expanded >= max_nodes:
                status = PathStatus.PARTIAL
                break
            if deadline is not None and clock is not None and expanded % 8 == 0 and clock() >= deadline:
                if not resumable:
                    status = PathStatus.PARTIAL
                    break
                pause_at = expanded          # expand this node, then pause
            info = node(x, y, z)
            assert info is not None
            kind, feet, _ = info
            # Jumps from the ground, hops out of water, and climbing off a ladder's top.
            can_jump = kind & (STAND | SWIM | CLIMB)
            moves: list[tuple[int, int, int, float, Move]] = []
            for dx, dz, diagonal, offset in directions:
                nx, nz = x + dx, z + dz
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
                        if not (clear2(nx, y, z) and clear2(x, y, nz)):
                            continue
                        moves.append((nx, y, nz, SQRT2 * (SWIM_FACTOR if swim else 1.0) + tpen,
                                      Move.SWIM if swim else Move.WALK))
                    elif rise <= step_height:
                        if swim:
                            moves.append((nx, y, nz, SWIM_FACTOR + tpen, Move.SWIM))
                        elif rise > 1e-9:
                            moves.append((nx, y, nz, 1.0 + STEP_EXTRA + tpen, Move.STEP))
                        else:
                            moves.append((nx, y, nz, 1.0 + tpen, Move.WALK))
                    elif rise <= jump_height and can_jump and headroom(x, z, feet, rise):
                        moves.append((nx, y, nz, 1.0 + JUMP_EXTRA + tpen, Move.JUMP))
                    continue
                if diagonal:
                    continue
                up = node(nx, y + 1, nz)
                if up is not None:
                    rise = up[1] - feet
                    if rise <= step_height:
                        moves.append((nx, y + 1, nz, 1.0 + STEP_EXTRA + up[2], Move.STEP))
                    elif rise <= jump_height and can_jump and headroom(x, z, feet, rise):
                        moves.append((nx, y + 1, nz, 1.0 + JUMP_EXTRA + up[2], Move.JUMP))
                # Walking off an edge: the body has to fit through the next column at its
                # current height, then it falls until something holds it.
                if feet == y:
                    if not clear2(nx, y, nz):
                        continue
                elif not all(clear(nx, cy, nz) for cy in range(math.floor(feet), g.body_top_cell(feet) + 1)):
                    continue
                for k in drops:
                    landing = node(nx, y - k, nz)
                    if landing is not None:
                        fall = feet - landing[1]
                        if 0 < fall <= max_drop + 1e-9:
                            moves.append((nx, y - k, nz, 1.0 + DROP_PER_BLOCK * fall + landing[2], Move.DROP))
                        break
                    if not clear(nx, y - k, nz):
                        break
            if kind & (SWIM | CLIMB):
                up = node(x, y + 1, z)
                if up is not None and up[1] > feet:
                    moves.append((x, y + 1, z, (CLIMB_COST if kind & CLIMB else SWIM_FACTOR) + up[2], Move.CLIMB))
            if not terrain.cell(x, y - 1, z) & (g.SHAPE | g.UNKNOWN):
                down = node(x, y - 1, z)
                if down is not None and down[0] & (SWIM | CLIMB):
                    moves.append((x, y - 1, z, (CLIMB_COST if down[0] & CLIMB else SWIM_FACTOR) + down[2],
                                  Move.DESCEND))
            for nx, ny, nz, cost, move in moves:
                nk = ((nx + _OFF) << 40) | ((nz + _OFF) << 14) | (ny + _YOFF)
                ng = g0 + cost
                if ng < gscore.get(nk, inf):
                    gscore[nk] = ng
                    parent[nk] = (key, move)
                    nh = heuristic(nx, ny, nz)
                    counter += 1
                    push(heap, (ng + nh, nh, counter, nk))

        steps: list[PathStep] = []
        key = best_key
        while True:
            x, y, z = unpack(key)
            info = node(x, y, z)
            feet = info[1] if info is not None else self.start.y
            link = parent.get(key)
            steps.append(PathStep(x, y, z, link[1] if link else Move.START, feet))
            if link is None:
                break
            key = link[0]
        steps.reverse()
        self.counter, self.expanded, self.best = counter, expanded, (best_key, best_h, best_g)
        self.path = Path(tuple(steps), status, expanded, gscore[best_key])
        return self.path
