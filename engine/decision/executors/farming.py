"""Planting: ``Farm`` (farm(crop)) tills moist ground beside water and plants every seed carried.

How this works: a crop grows only on farmland, fastest on moist farmland (vanilla's
``FarmBlock.isNearWater``: water within 4 blocks across, level with it or one up), so the executor
looks for water within 32 blocks of the player and for ground it can till beside it: grass or
dirt with air above (or farmland already, with nothing planted on it), the nearest to the player
first, never a cell it failed on or planted. It walks within
reach, holds a hoe and uses it on the block's top (the server turns it into farmland), holds the
seeds and uses them on the farmland's top (the server puts a crop of age 0 above), and goes on to
the next cell until no seed is left. Each change is confirmed by the block the server sends back.

    choose ──► walk ──► till ──► plant ──► beside (till north and south) ──► choose ... ──► ok
      └─ no water seen with such ground beside it ──► "no ground by water" (ok if some were planted)

The crops then grow on the server's random ticks (about 7 x 4,096 ticks from seed to ripe at best);
the heuristic waits for them and ``mine_block(wheat)`` harvests the ripe ones.
"""
from __future__ import annotations

import math

from engine import actions as acts
from engine.actions import Action
from engine.decision.catalog import Choice
from engine.decision.knowledge import FARMED, HOES, TILLABLE
from engine.decision.perception import GoalReach
from engine.motion.navigator import NavState
from engine.decision.executors.base import ExecContext, Executor, Pos, hold

SEARCH = 32            # blocks round the player (across) looked at for water
WATER_REACH = 4        # FarmBlock.isNearWater
CONFIRM_WAIT = 10      # ticks for the server's block change after a use
# Rows, not a field: a crop beside another north or south, or on a diagonal, grows at half the speed
# (CropBlock.getGrowthSpeed), so crops go east-west in rows with bare farmland tilled north and south
# (farmland round a crop adds to its speed): a chance of 1/3 a random tick, not a crowded field's 1/6.
CROWDED = ((0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))
BESIDE = ((0, -1), (0, 1))


class Farm(Executor):
    def __init__(self, choice: Choice, timeout: int, tick: int, crop: str) -> None:
        super().__init__(choice, timeout, tick)
        self.crop = crop
        self.seed = FARMED.get(crop, "")
        self.phase = "choose"
        self.planted = 0
        self.failed: set[Pos] = set()
        self.beside: list[Pos] = []
        self.wait_until = 0

    def _name(self, ctx: ExecContext, x: int, y: int, z: int) -> str | None:
        state = ctx.terrain.store.get(x, y, z)
        return None if state is None else ctx.terrain.table.name(state)

    def _ground(self, ctx: ExecContext) -> Pos | None:
        """The nearest cell to till and plant: tillable or bare farmland, air above, within
        WATER_REACH of water seen within SEARCH blocks (level with it or one below)."""
        px, py, pz = math.floor(ctx.position.x), math.floor(ctx.position.y), math.floor(ctx.position.z)
        water = [(x, y, z) for x in range(px - SEARCH, px + SEARCH + 1) for z in range(pz - SEARCH, pz + SEARCH + 1)
                 for y in range(py - 5, py + 3) if ctx.terrain.is_water(x, y, z)]
        cells = {(wx + dx, wy - dy, wz + dz) for wx, wy, wz in water
                 for dx in range(-WATER_REACH, WATER_REACH + 1) for dz in range(-WATER_REACH, WATER_REACH + 1)
                 for dy in (0, 1)}
        best: tuple[float, Pos] | None = None
        for x, y, z in cells:
            if (x, y, z) in self.failed or any(self._name(ctx, x + dx, y + 1, z + dz) == self.crop for dx, dz in CROWDED):
                continue
            name = self._name(ctx, x, y, z)
            if (name not in TILLABLE and name != "farmland") or self._name(ctx, x, y + 1, z) != "air":
                continue
            d = math.dist((x + 0.5, y + 1.0, z + 0.5), (ctx.position.x, ctx.position.y, ctx.position.z))
            if best is None or d < best[0]:
                best = (d, (x, y, z))
        return best[1] if best is not None else None

    def _done(self, why: str) -> None:
        self.status = "ok" if self.planted else why

    def run(self, ctx: ExecContext) -> list[Action]:
        if self.phase == "choose":
            if not ctx.counts().get(self.seed):
                self._done("no seeds")
                return []
            self.target = self._ground(ctx)
            if self.target is None:
                self._done("no ground by water")
                return []
            self.go(ctx, GoalReach(*self.target))
            self.phase = "walk"
        assert self.target is not None
        x, y, z = self.target
        if self.phase == "walk":
            out, state = self.move()
            if state is NavState.FAILED:
                self.failed.add(self.target)
                self.phase = "choose"
            elif state is NavState.ARRIVED:
                self.phase = "till"
            return out
        if self.phase == "till":
            if self._name(ctx, x, y, z) == "farmland":
                self.phase = "plant"
            else:
                hoe = next((h for h in HOES if ctx.counts().get(h)), None)
                ops = hold(ctx, hoe)
                if ops is None or hoe is None:
                    self._done("no hoe")
                    return []
                if ops:
                    return ops
                self.phase = "tilled"
                self.wait_until = ctx.tick + CONFIRM_WAIT
                return [acts.UseBlock(x, y, z, 1)]
        if self.phase == "tilled":
            if self._name(ctx, x, y, z) == "farmland":
                self.phase = "plant"
            elif ctx.tick >= self.wait_until:
                self.failed.add(self.target)          # the server left it as it was
                self.phase = "choose"
                return []
            else:
                return []
        if self.phase == "plant":
            ops = hold(ctx, self.seed)
            if ops is None:
                self._done("no seeds")
                return []
            if ops:
                return ops
            self.phase = "planted"
            self.wait_until = ctx.tick + CONFIRM_WAIT
            return [acts.PlaceBlock(x, y + 1, z, (x, y, z), 1, self.seed)]
        if self.phase == "beside":
            # Till the bare ground north and south of the new crop (in reach: it is one block on).
            while self.beside:
                bx, by, bz = self.beside.pop()
                if self._name(ctx, bx, by, bz) in TILLABLE and self._name(ctx, bx, by + 1, bz) == "air":
                    ops = hold(ctx, next((h for h in HOES if ctx.counts().get(h)), None))
                    if ops is None:
                        break
                    if ops:
                        self.beside.append((bx, by, bz))
                        return ops
                    return [acts.UseBlock(bx, by, bz, 1)]
            self.phase = "choose"
            return []
        # planted: the crop shows above the farmland, or the cell is given up
        if self._name(ctx, x, y + 1, z) == self.crop:
            self.planted += 1
            self.failed.add(self.target)                # planted: not chosen again
            self.beside = [(x + dx, y, z + dz) for dx, dz in BESIDE]
            self.failed.update(self.beside)             # left bare for the row's speed
            self.phase = "beside"
        elif ctx.tick >= self.wait_until:
            self.failed.add(self.target)
            self.phase = "choose"
        return []
