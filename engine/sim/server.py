"""The simulated server's own side: the world's state, what it tells a joining player, and its tick.

How this works: ``ServerWorld.tick(t)`` is the server's tick in vanilla's order (time of day,
sleeping, a hazard episode's push, the body's fire, lava and air, the item in use, picking up,
then FoodData's hunger and regeneration, and the zombies and cows); each part appends the
events a proxy would decode from the server's packets. ``SimWorld`` (``engine.sim.world``)
adds what the client sends.
"""
from __future__ import annotations

import math

import numpy as np

from engine import events as ev
from engine.events import SlotItem
from engine.motion import grid as g
from engine.motion import physics as ph
from engine.motion.checker import MovementChecker
from engine.motion.grid import Terrain
from engine.world.blocks import BlockFlag, BlockStore, BlockTable
from engine.world.food import EAT_TICKS, FOODS
from engine.sim.farming import Crops
from engine.sim.generation import Generation, walkable
from engine.sim.hazards import push_target
from engine.sim.surface import spawn_sheep
from engine.sim.strata import min_y
from engine.sim.underground import Underground
from engine.sim.rules import (AIR_REFILL, REGROW_CHANCE, COW_SPEED, COW_STROLL_CHANCE, COW_STROLL_RANGE, DAMAGE_EXHAUSTION, DAY,
                              DROWN_AT, DROWN_DAMAGE, EXHAUSTION_CAP, EXHAUSTION_STEP, EYE, FAST_HEAL_SATURATION, MOB_EYE,
                              FAST_HEAL_TICKS, FIRE_DAMAGE, HEIGHT, INVULNERABLE_TICKS, LAVA_DAMAGE, LAVA_FIRE_TICKS,
                              MAX_AIR, MAX_FOOD, MAX_HEALTH, MOB_DAMAGE_SCALE, NIGHT, PLAYER_ID, REACH, SLEEP_TICKS,
                              SLOW_HEAL_EXHAUSTION, SLOW_HEAL_FOOD, SLOW_HEAL_TICKS, STACK, STARVE_DAMAGE,
                              STARVE_FLOOR, STARVE_TICKS, TOOLS, VERSION, ZOMBIE_DAMAGE)
from engine.sim.records import Animal, Drop, Mob, PlayerBody, SimOptions, SmeltJob


class ServerWorld:
    def __init__(self, seed: int, options: SimOptions = SimOptions()) -> None:
        self.seed = seed
        self.options = options
        self.rng = np.random.default_rng(seed)
        self.table = BlockTable.for_version(VERSION)
        self.store = BlockStore()
        self.terrain = Terrain(self.store, self.table)
        self.checker = MovementChecker(self.terrain)
        self.air = self.table.state_for("air")
        self._solid = self.table.flags_array & BlockFlag.SOLID
        generation = Generation(options, self.rng, self.table, self.store, seed)
        generation.run()
        self.min_y = min_y(options.underground)
        self.underground = Underground(self, generation.blocks, seed)
        self.heights = generation.heights
        self.features = generation.features
        s = options.size // 2
        self.spawn = (s + 0.5, float(self.heights[s, s]), s + 0.5)
        self.time_skipped = 0                # ticks of night skipped by sleeping (the clock jumps ahead)
        self.bed: tuple[int, int, int] | None = generation.place_bed() if options.bed else None
        self.player = self._new_player()
        self.drops: dict[int, Drop] = {}
        self.mobs: dict[int, Mob] = {}
        self.animals: dict[int, Animal] = {}
        # The animals draw from their own generator, so the terrain, the zombies and every other
        # draw of ``rng`` are what they were before there were animals.
        self.animal_rng = np.random.default_rng((seed, 1))
        self.smelting: dict[tuple[int, int, int], SmeltJob] = {}
        self._next_id = 100
        self.animals.update(generation.spawn_animals(self.animal_rng))
        # The sheep and every goal's loot (leather, wool, flint, seeds) draw from generators of their
        # own: the cows' strolls and beef are what they were before.
        self.flock_rng = np.random.default_rng((seed, 4))
        self.loot_rng = np.random.default_rng((seed, 5))
        self.shear_rng = np.random.default_rng((seed, 6))  # shearing's wool and the regrowth
        self.animals.update(spawn_sheep(lambda x, y, z: walkable(self.store, self.table, x, y, z), self.heights,
                                             self.flock_rng))
        self.crops = Crops(self.store, self.table, np.random.default_rng((seed, 7)))   # planted crops' growth
        self.tick_no = 0
        self.deaths: list[tuple[int, str]] = []
        self.damage_taken: dict[str, float] = {}
        self.rejected: dict[str, int] = {}
        self.pushes: list[tuple[int, str]] = []          # a hazard episode's pushes: tick, "surface" or "below"
        self._sent_health: tuple[float, int, bool] | None = None     # what the last health packet said

    def _new_player(self) -> PlayerBody:
        p = PlayerBody(*self.spawn, food=self.options.start_food, saturation=self.options.start_saturation)
        p.peak_y = p.y
        if self.options.start_bread:
            p.slots[44] = SlotItem("bread", self.options.start_bread)
        for i, (item, n) in enumerate(self.options.start_items[:8]):
            p.slots[36 + i] = SlotItem(item, n)
        return p

    # -- the session's first view --------------------------------------------------------------
    def join_events(self) -> list[ev.Event]:
        out: list[ev.Event] = [ev.DimensionChanged("minecraft:overworld", self.min_y, HEIGHT - self.min_y),
                               ev.JoinedGame(PLAYER_ID, 0, "minecraft:overworld")]
        size = self.options.size
        for cx in range(size // 16):
            for cz in range(size // 16):
                sections = []
                for sy in range(self.min_y // 16, HEIGHT // 16):
                    array = self.store.section((cx, sy, cz))
                    assert array is not None
                    sections.append((sy, self.underground.sent((cx, sy, cz), array)))
                out.append(ev.ChunkColumnLoaded(cx, cz, tuple(sections), True))
        out += self._respawn_events()
        for a in self.animals.values():
            out.append(ev.EntitySpawned(a.entity_id, a.kind, a.x, a.y, a.z, category="passive"))
        out.append(ev.TimeUpdated(0, self.day_time))
        self.checker.teleport(self.player.x, self.player.y, self.player.z, 0)
        return out

    def _respawn_events(self) -> list[ev.Event]:
        p = self.player
        return [ev.PositionSet(p.x, p.y, p.z, 0.0, 0.0, from_server=True), self._health(), self._inventory(),
                ev.HeldSlotChanged(p.held), ev.OwnMetadata(p.fire > 0, p.air)]

    def _health(self) -> ev.HealthChanged:
        p = self.player
        self._sent_health = (p.health, p.food, p.saturation == 0)
        return ev.HealthChanged(p.health, p.food, p.saturation)

    def _health_if_changed(self, out: list[ev.Event]) -> None:
        # Vanilla (ServerPlayer.doTick) sends the health packet when health or food changed, or
        # saturation reached or left 0; a change of saturation alone goes unsent.
        p = self.player
        if self._sent_health != (p.health, p.food, p.saturation == 0):
            out.append(self._health())

    def _inventory(self) -> ev.InventoryReplaced:
        return ev.InventoryReplaced(tuple(self.player.slots))

    # -- queries -------------------------------------------------------------------------------
    def block(self, x: int, y: int, z: int) -> str | None:
        state = self.store.get(x, y, z)
        return None if state is None else self.table.name(state)

    def solid(self, x: int, y: int, z: int) -> bool:
        state = self.store.get(x, y, z)
        return state is not None and bool(self._solid[state])

    def ground_at(self, x: float, y: float, z: float) -> float:
        bx, bz = math.floor(x), math.floor(z)
        for yy in range(min(HEIGHT - 1, math.floor(y) + 2), self.min_y, -1):
            if self.solid(bx, yy - 1, bz):
                return float(yy)
        return float(self.min_y + 1)

    def fall_to(self, x: int, y: int, z: int) -> float:
        """Where an item released in cell (x, y, z) comes to rest."""
        for yy in range(y, self.min_y, -1):
            if self.solid(x, yy - 1, z):
                return float(yy)
        return float(self.min_y + 1)

    @property
    def day_time(self) -> int:
        return (self.options.start_time + self.tick_no + self.time_skipped) % DAY

    @property
    def night(self) -> bool:
        return NIGHT[0] <= self.day_time < NIGHT[1]

    def count(self, item: str) -> int:
        return sum(s.count for s in self.player.slots if s is not None and s.item == item)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for s in self.player.slots:
            if s is not None:
                out[s.item] = out.get(s.item, 0) + s.count
        return out

    def held_item(self) -> str | None:
        s = self.player.slots[36 + self.player.held]
        return s.item if s is not None else None

    def _reach(self, x: float, y: float, z: float, limit: float = REACH) -> bool:
        p = self.player
        return math.dist((p.x, p.y + EYE, p.z), (x, y, z)) <= limit

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    # -- inventory -----------------------------------------------------------------------------
    def give(self, item: str, count: int) -> int:
        """Add to the inventory (hotbar first); returns how many did not fit."""
        slots = self.player.slots
        limit = 1 if item in TOOLS else STACK
        order = list(range(36, 45)) + list(range(9, 36))
        for i in order:
            s = slots[i]
            if count and s is not None and s.item == item and s.count < limit:
                add = min(limit - s.count, count)
                slots[i] = SlotItem(item, s.count + add)
                count -= add
        for i in order:
            if count and slots[i] is None:
                add = min(limit, count)
                slots[i] = SlotItem(item, add)
                count -= add
        return count

    def take(self, item: str, count: int) -> bool:
        if self.count(item) < count:
            return False
        slots = self.player.slots
        for i in list(range(9, 36)) + list(range(44, 35, -1)):
            s = slots[i]
            if count and s is not None and s.item == item:
                used = min(count, s.count)
                slots[i] = SlotItem(item, s.count - used) if s.count > used else None
                count -= used
        return True

    # -- damage --------------------------------------------------------------------------------
    def _hurt(self, amount: float, cause: str, out: list[ev.Event]) -> None:
        p = self.player
        if p.dead or amount <= 0:
            return
        if self.tick_no - p.hurt_tick < INVULNERABLE_TICKS:
            # Vanilla: while invulnerable only a bigger hit lands, and only by what it exceeds.
            if amount <= p.last_hurt:
                return
            amount, p.last_hurt = amount - p.last_hurt, amount
        else:
            p.hurt_tick, p.last_hurt = self.tick_no, amount
        p.health = max(0.0, p.health - amount)
        p.sleeping = None                  # a hit wakes a sleeper (vanilla's hurt stops sleeping)
        self._exhaust(DAMAGE_EXHAUSTION.get(cause, 0.0))
        p.last_damage = cause
        self.damage_taken[cause] = self.damage_taken.get(cause, 0.0) + amount
        if p.health <= 0:
            p.dead = True
            p.dig = p.eating = None
            self.deaths.append((self.tick_no, cause))
            out.append(self._health())
            # Vanilla's Player.die puts the fire out (clearFire, and the burning flag off).
            p.fire = 0
            out.append(ev.OwnMetadata(False, max(0, p.air)))
            return
        out.append(self._health())

    # -- hunger ----------------------------------------------------------------------------------
    def _exhaust(self, amount: float) -> None:
        p = self.player
        p.exhaustion = min(EXHAUSTION_CAP, p.exhaustion + amount)

    def _heal(self, amount: float) -> None:
        p = self.player
        if p.health > 0:
            p.health = min(MAX_HEALTH, p.health + amount)

    def _food(self, out: list[ev.Event]) -> None:
        """Vanilla FoodData.tick: spend exhaustion, then regenerate or starve on the food timer."""
        p = self.player
        if p.exhaustion > EXHAUSTION_STEP:
            p.exhaustion -= EXHAUSTION_STEP
            if p.saturation > 0:
                p.saturation = max(0.0, p.saturation - 1.0)
            else:
                p.food = max(0, p.food - 1)
        hurt = 0 < p.health < MAX_HEALTH
        if hurt and p.saturation > 0 and p.food >= MAX_FOOD:
            p.food_timer += 1
            if p.food_timer >= FAST_HEAL_TICKS:
                spent = min(p.saturation, FAST_HEAL_SATURATION)
                self._heal(spent / FAST_HEAL_SATURATION)
                self._exhaust(spent)
                p.food_timer = 0
        elif hurt and p.food >= SLOW_HEAL_FOOD:
            p.food_timer += 1
            if p.food_timer >= SLOW_HEAL_TICKS:
                self._heal(1.0)
                self._exhaust(SLOW_HEAL_EXHAUSTION)
                p.food_timer = 0
        elif p.food <= 0:
            p.food_timer += 1
            if p.food_timer >= STARVE_TICKS:
                if p.health > STARVE_FLOOR[self.options.difficulty]:
                    self._hurt(STARVE_DAMAGE, "starvation", out)
                p.food_timer = 0
        else:
            p.food_timer = 0
        self._health_if_changed(out)

    def _eat(self, food: str) -> None:
        p = self.player
        eaten = FOODS[food]
        p.food = min(MAX_FOOD, p.food + eaten.nutrition)
        p.saturation = min(float(p.food), p.saturation + eaten.nutrition * eaten.saturation * 2.0)

    # -- the server's tick -----------------------------------------------------------------------
    def tick(self, t: int) -> list[ev.Event]:
        self.tick_no = t
        out: list[ev.Event] = []
        if t % 20 == 0:                      # vanilla sends the time once a second
            out.append(ev.TimeUpdated(t, self.day_time))
        p = self.player
        if p.dead:
            return out
        self._sleep(t, out)
        self._hazard_push(t, out)
        # The player's tick in vanilla's order: the body (fire, lava, air), the item in use,
        # picking up, and last the food (Player.tick runs FoodData.tick after LivingEntity.tick).
        self._body(t, out)
        if not p.dead:        # a dead body neither eats, starves nor heals until it respawns
            self._finish_eating(t, out)
            self._pickup(t, out)
            self._food(out)
        self._mobs(t, out)
        self._animals(t, out)
        grown = self.crops.tick(t)
        if grown:
            out.append(ev.BlocksChanged(tuple(grown)))
        return out

    def _animals(self, t: int, out: list[ev.Event]) -> None:
        for a in self.animals.values():
            if a.sheared and self.shear_rng.random() < REGROW_CHANCE:
                a.sheared = False
                out.append(ev.EntitySheared(a.entity_id, False))     # the wool byte's metadata
            rng = self.animal_rng if a.kind == "cow" else self.flock_rng
            if a.goal is None:
                if rng.random() < COW_STROLL_CHANCE:
                    dx, dz = (int(v) for v in rng.integers(-COW_STROLL_RANGE, COW_STROLL_RANGE + 1, 2))
                    a.goal = (math.floor(a.x) + dx + 0.5, math.floor(a.z) + dz + 0.5)
                continue
            gx, gz = a.goal
            dist = math.hypot(gx - a.x, gz - a.z)
            if dist < 0.05:
                a.goal = None
                continue
            step = min(COW_SPEED, dist)
            nx, nz = a.x + (gx - a.x) / dist * step, a.z + (gz - a.z) / dist * step
            ny = self.ground_at(nx, a.y + 1, nz)
            if abs(ny - a.y) > 1.0 or not walkable(self.store, self.table, math.floor(nx), int(ny), math.floor(nz)):
                a.goal = None         # a drop, a wall, water or lava: stroll somewhere else later
                continue
            a.x, a.y, a.z = nx, ny, nz
            out.append(ev.EntityMoved(a.entity_id, a.x, a.y, a.z))

    def _finish_eating(self, t: int, out: list[ev.Event]) -> None:
        p = self.player
        food = self.held_item()
        if p.eating is not None and t - p.eating >= (FOODS[food].ticks if food in FOODS else EAT_TICKS):
            p.eating = None
            if food in FOODS and self.take(food, 1):
                self._eat(food)
                out += [self._inventory(), self._health()]

    def _hazard_push(self, t: int, out: list[ev.Event]) -> None:
        if self.options.hazard not in ("lava", "water") or t % self.options.push_every != 20:
            return
        p = self.player
        below = self.underground.on and not self.underground.sky(math.floor(p.x), math.floor(p.y), math.floor(p.z))
        site = push_target(self, below)
        if site is None:
            return
        x, y, z = site
        p.x, p.y, p.z = x + 0.5, float(y), z + 0.5
        p.peak_y = p.y
        p.dig = p.sleeping = None
        out.append(ev.PositionSet(p.x, p.y, p.z, 0.0, 0.0, from_server=True))
        self.checker.teleport(p.x, p.y, p.z, t)
        self.pushes.append((t, "below" if below else "surface"))

    def _body(self, t: int, out: list[ev.Event]) -> None:
        p, terrain = self.player, self.terrain
        in_lava = ph.touching(terrain, p.x, p.y, p.z, g.LAVA)
        in_water = ph.touching(terrain, p.x, p.y, p.z, g.WATER)
        was_burning = p.fire > 0
        if in_water and not in_lava:
            p.fire = 0
        if p.fire > 0:
            # Vanilla counts the burn on the fire's own clock, not the world's: the first
            # point lands as the player leaves the lava (unless still invulnerable from it).
            if p.fire % 20 == 0 and not in_lava:
                self._hurt(FIRE_DAMAGE, "fire", out)
                if p.dead:
                    return
            p.fire -= 1
        if in_lava:
            p.fire = max(p.fire, LAVA_FIRE_TICKS)
            self._hurt(LAVA_DAMAGE, "lava", out)
            if p.dead:
                return
        head = terrain.cell(math.floor(p.x), math.floor(p.y + EYE), math.floor(p.z))
        air = p.air
        if head & g.WATER:
            p.air -= 1
            if p.air <= DROWN_AT:
                p.air = 0
                self._hurt(DROWN_DAMAGE, "drowning", out)
        else:
            p.air = min(MAX_AIR, p.air + AIR_REFILL)
        if (air != p.air or was_burning != (p.fire > 0)) and not p.dead:
            out.append(ev.OwnMetadata(p.fire > 0, max(0, p.air)))

    def _mobs(self, t: int, out: list[ev.Event]) -> None:
        p = self.player
        o = self.options
        spawning = o.hazard == "mobs" or (o.mobs and self.night)
        limit = 3 if o.hazard == "mobs" else 2
        if spawning and t % 300 == 150 and len(self.mobs) < limit:
            angle = self.rng.uniform(0, 2 * math.pi)
            x = min(max(p.x + 18 * math.cos(angle), 2.0), o.size - 2.0)
            z = min(max(p.z + 18 * math.sin(angle), 2.0), o.size - 2.0)
            y = self.ground_at(x, HEIGHT - 2, z)
            mob = Mob(self._new_id(), "zombie", x, y, z, born=t)
            self.mobs[mob.entity_id] = mob
            out.append(ev.EntitySpawned(mob.entity_id, "zombie", x, y, z, category="hostile"))
        dark = self.underground.spawn(t, limit)
        if dark is not None:
            spawning = True
            self.mobs[dark.entity_id] = dark
            out.append(ev.EntitySpawned(dark.entity_id, "zombie", dark.x, dark.y, dark.z, category="hostile"))
        gone = []
        for mob in self.mobs.values():
            dx, dz = p.x - mob.x, p.z - mob.z
            dist = math.hypot(dx, dz)
            if (not spawning and not self.underground.dark_at(mob.x, mob.y, mob.z) and t - mob.born > 200) \
                    or dist > 48 or t - mob.born > 2400:
                gone.append(mob.entity_id)
                continue
            if dist > 1.0 and dist < 32:
                step = min(0.1, dist - 1.0)
                nx, nz = mob.x + dx / dist * step, mob.z + dz / dist * step
                ny = self.underground.floor(nx, mob.y, nz) if self.options.underground else \
                    self.ground_at(nx, mob.y + 1, nz)
                if abs(ny - mob.y) <= 1.0:
                    mob.x, mob.y, mob.z = nx, ny, nz
                    out.append(ev.EntityMoved(mob.entity_id, mob.x, mob.y, mob.z))
            if dist <= 1.5 and abs(p.y - mob.y) < 2.0 and t >= mob.next_attack and self.sees(mob):
                mob.next_attack = t + 20
                self._hurt(MOB_DAMAGE_SCALE[self.options.difficulty](ZOMBIE_DAMAGE), "zombie", out)
        if gone:
            for eid in gone:
                del self.mobs[eid]
            out.append(ev.EntitiesRemoved(tuple(gone)))

    def sees(self, mob: Mob) -> bool:
        """Vanilla's melee attack needs a line of sight (MeleeAttackGoal.canPerformAttack, 1.20.5+):
        from the mob's eyes to the player's through no solid block, so a zombie by the wall of a
        shelter does not hit through it. Sampled every tenth of a block."""
        p = self.player
        a = (mob.x, mob.y + MOB_EYE, mob.z)
        b = (p.x, p.y + EYE, p.z)
        n = max(1, math.ceil(math.dist(a, b) / 0.1))
        for i in range(1, n):
            f = i / n
            if self.solid(math.floor(a[0] + (b[0] - a[0]) * f), math.floor(a[1] + (b[1] - a[1]) * f),
                          math.floor(a[2] + (b[2] - a[2]) * f)):
                return False
        return True

    def _pickup(self, t: int, out: list[ev.Event]) -> None:
        p = self.player
        taken = []
        for drop in self.drops.values():
            if t - drop.born < 10:
                continue          # vanilla's pickup delay
            if abs(drop.x - p.x) <= 1.3 and abs(drop.z - p.z) <= 1.3 and -0.5 <= drop.y - p.y <= 2.3:
                if self.give(drop.item, drop.count) == 0:
                    taken.append(drop.entity_id)
            elif t - drop.born > 6000:
                taken.append(drop.entity_id)
        if taken:
            for eid in taken:
                del self.drops[eid]
            out += [ev.EntitiesRemoved(tuple(taken)), self._inventory()]


    def _sleep(self, t: int, out: list[ev.Event]) -> None:
        """Everyone (the one player) asleep for 100 ticks: the night is skipped to the morning."""
        p = self.player
        if p.sleeping is None or t - p.sleeping < SLEEP_TICKS:
            return
        self.time_skipped += DAY - self.day_time
        p.sleeping = None
        out.append(ev.TimeUpdated(t, self.day_time))

