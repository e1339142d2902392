"""The simulated server's underground rules: darkness and the monsters it spawns, torches, anti-xray.

How this works: with ``SimOptions.underground`` the world reaches below the surface
(``engine.sim.strata``). A cell is dark when the sky cannot reach it (below its column's
ground) and no torch is within ``TORCH_LIGHT`` blocks (a torch's light 14 falls by one a
block, vanilla's Manhattan spread; 1.18+ spawns monsters only at block light 0). While the
player is underground, every ``SPAWN_EVERY`` ticks a zombie may spawn on a dark floor cell
(two cells of air over a solid block) ``SPAWN_NEAR`` to ``SPAWN_FAR`` blocks off (vanilla
keeps 24 blocks clear; a 96-block world needs them nearer to find the player). Monsters
walk its tunnels by ``floor``: the cell a step lands in (up one, level, or down).

Anti-xray (``SimOptions.anti_xray``, Paper's engine-mode 2): the sections a player is sent
show a share of the rock no air touches as ore (``strata.disguise``); a dig reveals the
true blocks within ``REVEAL`` of it (Paper's update-radius), as ``BlocksChanged``.
Everything here draws from a generator of its own and does nothing without the option, so
the surface episodes play as they always did.
"""
from __future__ import annotations

import math
from typing import Protocol

import numpy as np
import numpy.typing as npt

from engine import events as ev
from engine.sim.records import Mob, PlayerBody, SimOptions
from engine.sim.rules import HEIGHT
from engine.sim.strata import disguise, enclosed
from engine.world.blocks import BlockFlag, BlockStore, BlockTable


class Host(Protocol):
    """What of the simulated server this needs (``engine.sim.server.ServerWorld``)."""

    options: SimOptions
    table: BlockTable
    store: BlockStore
    min_y: int
    heights: npt.NDArray[np.int_]
    player: PlayerBody
    mobs: dict[int, Mob]

    def solid(self, x: int, y: int, z: int) -> bool: ...

    def block(self, x: int, y: int, z: int) -> str | None: ...

    def fall_to(self, x: int, y: int, z: int) -> float: ...

    def _new_id(self) -> int: ...

TORCH_LIGHT = 14            # Manhattan blocks a torch lights to level >= 1
SPAWN_EVERY = 200
SPAWN_NEAR, SPAWN_FAR = 12, 24
REVEAL = 2                  # Paper anti-xray's update-radius
TORCHES = ("torch", "wall_torch")
Pos = tuple[int, int, int]


class Underground:
    def __init__(self, world: Host, blocks: npt.NDArray[np.uint16], seed: int) -> None:
        self.world = world
        self.on = world.options.underground is not None
        self.rng = np.random.default_rng((seed, 3))
        self.torches: set[Pos] = set()
        self.fakes: set[Pos] = set()            # cells a player was shown as ore that are not
        self._shown: dict[tuple[int, int, int], npt.NDArray[np.uint16]] = {}
        share = world.options.anti_xray
        if share > 0:
            table = world.table
            air_like = (table.flags_array & (BlockFlag.SOLID)) == 0
            hidden = enclosed(blocks, air_like)
            low = world.min_y
            size = world.options.size
            for cx in range(size // 16):
                for cz in range(size // 16):
                    for sy in range(low // 16, HEIGHT // 16):
                        r = sy * 16 - low
                        part = blocks[r:r + 16, cz * 16:cz * 16 + 16, cx * 16:cx * 16 + 16]
                        mask = hidden[r:r + 16, cz * 16:cz * 16 + 16, cx * 16:cx * 16 + 16]
                        shown = disguise(part, mask, table, share, self.rng)
                        for iy, iz, ix in zip(*np.nonzero(shown != part)):
                            self.fakes.add((cx * 16 + int(ix), sy * 16 + int(iy), cz * 16 + int(iz)))
                        self._shown[(cx, sy, cz)] = shown.reshape(4096)

    # -- what the player is sent -------------------------------------------------------------------
    def sent(self, key: tuple[int, int, int], array: npt.NDArray[np.uint16]) -> npt.NDArray[np.uint16]:
        shown = self._shown.get(key)
        return shown.copy() if shown is not None else array.copy()

    def dug(self, x: int, y: int, z: int) -> list[ev.Event]:
        """After a block broke at (x, y, z): the true blocks of disguised cells within REVEAL."""
        self.torches.discard((x, y, z))
        if not self.fakes:
            return []
        changes = []
        for dx in range(-REVEAL, REVEAL + 1):
            for dy in range(-REVEAL, REVEAL + 1):
                for dz in range(-REVEAL, REVEAL + 1):
                    p = (x + dx, y + dy, z + dz)
                    if p in self.fakes:
                        self.fakes.discard(p)
                        state = self.world.store.get(*p)
                        if state is not None:
                            changes.append((*p, state))
        return [ev.BlocksChanged(tuple(changes))] if changes else []

    def placed(self, x: int, y: int, z: int, item: str) -> None:
        if item in TORCHES:
            self.torches.add((x, y, z))

    # -- darkness and its monsters ----------------------------------------------------------------
    def sky(self, x: int, y: int, z: int) -> bool:
        size = self.world.options.size
        if not (0 <= x < size and 0 <= z < size):
            return True
        return y >= int(self.world.heights[x, z])

    def dark_at(self, x: float, y: float, z: float) -> bool:
        if not self.on:
            return False
        bx, by, bz = math.floor(x), math.floor(y), math.floor(z)
        if self.sky(bx, by, bz):
            return False
        return not any(abs(bx - tx) + abs(by - ty) + abs(bz - tz) < TORCH_LIGHT for tx, ty, tz in self.torches)

    def spawn(self, t: int, limit: int) -> Mob | None:
        w = self.world
        p = w.player
        o = w.options
        if not (self.on and o.dark_mobs) or t % SPAWN_EVERY != 100 or len(w.mobs) >= limit:
            return None
        if self.sky(math.floor(p.x), math.floor(p.y), math.floor(p.z)):
            return None
        for _ in range(24):
            dx, dy, dz = (int(v) for v in self.rng.integers(-SPAWN_FAR, SPAWN_FAR + 1, 3))
            dy = dy // 4
            x, y, z = math.floor(p.x) + dx, math.floor(p.y) + dy, math.floor(p.z) + dz
            if not SPAWN_NEAR <= math.sqrt(dx * dx + dy * dy + dz * dz) <= SPAWN_FAR:
                continue
            if not (2 <= x < o.size - 2 and 2 <= z < o.size - 2):
                continue
            if w.solid(x, y, z) or w.solid(x, y + 1, z) or not w.solid(x, y - 1, z) or self._liquid(x, y, z):
                continue
            if self.dark_at(x + 0.5, y, z + 0.5):
                return Mob(w._new_id(), "zombie", x + 0.5, float(y), z + 0.5, born=t)
        return None

    def _liquid(self, x: int, y: int, z: int) -> bool:
        return any(self.world.block(x, yy, z) in ("water", "lava") for yy in (y, y + 1))

    def floor(self, x: float, y: float, z: float) -> float:
        """Where a monster's step to (x, z) from height y lands: up one, level, or down (falling)."""
        w = self.world
        bx, bz, by = math.floor(x), math.floor(z), math.floor(y)
        for yy in (by, by + 1):
            if not w.solid(bx, yy, bz) and not w.solid(bx, yy + 1, bz) and w.solid(bx, yy - 1, bz) \
                    and not self._liquid(bx, yy, bz):
                return float(yy)
        if w.solid(bx, by, bz) or w.solid(bx, by + 1, bz):
            return y + 10.0            # a wall: no step
        return w.fall_to(bx, by, bz)
