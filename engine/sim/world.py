"""SimWorld: a small deterministic survival world that answers actions with events.

How this works: the world is a ``BlockStore`` of a few chunk columns (1.18.2
block states) generated from a seed: rolling grass and dirt over stone, oak
trees, rocky outcrops with iron ore showing, a pond and a lava pool. The
player, dropped items, zombies and cows are plain records here. Each tick the host
calls ``tick(t)`` (the server's own tick: time of day, air, lava and fire,
hunger and natural regeneration, mobs, item pickup, smelting, death) and
``apply(actions, t)`` (what the client sent: movement, digging, placing,
crafting, ...). Both return the engine events a proxy would decode from the
server's packets. Nothing reads a
clock or a global random source: the seed and the tick number are the only
inputs, so an episode replays exactly.

Hunger is vanilla's FoodData (see the constants below): what the player does
adds exhaustion, every 4 of it costs a point of saturation, or of food once
saturation is gone, and the food bar decides regeneration and starvation on
the food's own timer. Standing still costs nothing, as in vanilla.

The server checks what vanilla checks (reach, dig time with a 0.7 tolerance,
held item, ingredients, a crafting table or furnace within reach) and, like
vanilla, ignores what fails. Ingredients are vanilla's tags (``Recipe.needs``):
planks of any species make sticks, tables and pickaxes, a log makes its own
species' planks, cobbled deepslate does what cobblestone does, and any iron
ore or raw iron smelts. Movement is taken as sent and replayed through
the vanilla-movement checker, which is the test of the engine's legality.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

import attrs
import numpy as np

from engine import events as ev
from engine import actions as acts
from engine.actions import InjectMovement, ReleaseHeldItem, SelectHotbar, UseHeldItem
from engine.decision.knowledge import ATTACK_DAMAGE, BLOCKS, FUEL, GAME, GAME_HEALTH, RECIPES, SMELT_TICKS, SMELTS, \
    dig_ticks, harvestable, members, spend
from engine.decision.knowledge import count as family_count
from engine.events import SlotItem
from engine.motion import grid as g
from engine.motion import physics as ph
from engine.motion.checker import Movement, MovementChecker
from engine.motion.grid import Terrain
from engine.world.blocks import BlockFlag, BlockStore, BlockTable
from engine.world.food import EAT_TICKS, FOODS
from engine.world.model import INVENTORY_SLOTS

VERSION = "1.18.2"
HEIGHT = 80
REACH = 6.0                 # server-side reach check (eye to block centre)
EYE = 1.62
DAY = 24000
NIGHT = (13000, 23000)
BED_NIGHT = (12542, 23459)  # when a bed can be slept in (clear weather)
SLEEP_TICKS = 100           # asleep this long (every player), the server skips to the morning
STACK = 64
TOOLS = frozenset({"wooden_pickaxe", "stone_pickaxe", "iron_pickaxe"})
PLAYER_ID = 1
# Vanilla damage rules (LivingEntity.hurt, Entity.baseTick, LivingEntity.baseTick):
INVULNERABLE_TICKS = 10     # after a hit, only a bigger hit lands (its excess) for 10 ticks
LAVA_DAMAGE = 4.0           # tried every tick in lava: with the above, 4 per half second
LAVA_FIRE_TICKS = 300       # lava sets the player on fire for 15 s (kept topped up while in it)
FIRE_DAMAGE = 1.0           # burning: 1 whenever the fire ticks left are a multiple of 20
MAX_AIR = 300
DROWN_AT = -20              # air runs 300 → -20 (one tick each), then 2 damage and back to 0
DROWN_DAMAGE = 2.0
AIR_REFILL = 4              # per tick with the eyes out of water
MAX_HEALTH = 20.0

# Vanilla hunger (FoodData.tick, once a tick after the body's own tick; normal difficulty unless
# SimOptions.difficulty says otherwise). The food timer is the player's, not the world's clock.
MAX_FOOD = 20
EXHAUSTION_STEP = 4.0       # exhaustion above 4: minus 4, then 1 saturation off (1 food when saturation is 0)
EXHAUSTION_CAP = 40.0       # addExhaustion never lets it pass 40
FAST_HEAL_TICKS = 10        # food 20 and saturation left, hurt: every 10 ticks heal min(saturation, 6) / 6
FAST_HEAL_SATURATION = 6.0  # ... and add that min(saturation, 6) as exhaustion (6 per point healed)
SLOW_HEAL_FOOD = 18         # else food 18 or more, hurt: every 80 ticks heal 1 and add 6 exhaustion
SLOW_HEAL_TICKS = 80
SLOW_HEAL_EXHAUSTION = 6.0
STARVE_TICKS = 80           # food 0: every 80 ticks 1 damage while health is above the difficulty's floor
STARVE_DAMAGE = 1.0
STARVE_FLOOR = {"easy": 10.0, "normal": 1.0, "hard": 0.0}     # hard: starving kills
ZOMBIE_DAMAGE = 3.0         # the zombie's attack damage attribute, as dealt on normal
# Player.hurt scales damage from mobs by difficulty: easy min(d / 2 + 1, d), normal d, hard d x 1.5.
MOB_DAMAGE_SCALE: dict[str, Callable[[float], float]] = {
    "easy": lambda d: min(d / 2.0 + 1.0, d), "normal": lambda d: d, "hard": lambda d: d * 1.5}
# Exhaustion per action (Player, ServerGamePacketListenerImpl, ServerPlayerGameMode):
SPRINT_EXHAUSTION = 0.1         # per metre sprinted with onGround (walking and sneaking: 0 since 1.11)
WATER_EXHAUSTION = 0.01         # per metre in water: 3D with the eyes under (or swimming), else horizontal
JUMP_EXHAUSTION = 0.05          # the server's jumpFromGround: onGround, then a packet off the ground rising
SPRINT_JUMP_EXHAUSTION = 0.2
ATTACK_EXHAUSTION = 0.1         # per attack that lands
MINE_EXHAUSTION = 0.005         # per block broken with the right tool for its drop (playerDestroy)
# Per hit that lands (actuallyHurt adds the source's exhaustion): 0.1, except sources that bypass
# armour, which have 0 (fire, drowning, falling, starving).
DAMAGE_EXHAUSTION = {"lava": 0.1, "zombie": 0.1}
# Eating (FoodData.eat): food + nutrition (at most 20), saturation + nutrition x modifier x 2 (at most
# the food). Nutrition and saturation modifiers are the food table's (``engine.world.food``, vanilla's Foods.java).
# Cows: a herd's worth spawned with the world on grass (vanilla spawns passive animals at chunk
# generation and hardly ever after), wandering slowly (RandomStrollGoal: a new spot within 10 blocks
# about every 120 ticks, at 0.2 x 1.0 speed, about 0.1 block a tick walking), never attacking.
COWS = 8
COW_STROLL_CHANCE = 1.0 / 120.0
COW_STROLL_RANGE = 5
COW_SPEED = 0.1
COW_DROPS = (1, 3)          # raw beef per cow (vanilla's loot table, no looting)
ANIMAL_IDS = 50_000


@attrs.frozen
class SimOptions:
    size: int = 96
    start_time: int = 1000              # time of day at tick 0
    hazard: str | None = None           # "lava", "water", "mobs": an episode seeded with that hazard
    push_every: int = 600               # hazard episodes: how often the player is put into the hazard
    mobs: bool = True                   # zombies at night
    # Starvation's floor (easy 10, normal 1, hard none). Hunger itself follows what the player
    # does (exhaustion); the old fixed drain, ``hunger_every``, is gone with it.
    difficulty: str = attrs.field(default="normal", validator=attrs.validators.in_(tuple(STARVE_FLOOR)))
    start_food: int = 20                # the body at spawn and at every respawn
    start_saturation: float = 5.0
    # Loaves in the last hotbar slot at spawn and respawn. Under vanilla hunger a loaf eaten at food 17
    # heals about 6 (regeneration costs 6 exhaustion a point): the five loaves and a full bar heal ~35.
    start_bread: int = attrs.field(default=5, validator=attrs.validators.in_(range(STACK + 1)))
    bed: bool = False                   # a red bed on the ground near spawn (sleeping through the night)


@attrs.define
class Drop:
    entity_id: int
    item: str
    count: int
    x: float
    y: float
    z: float
    born: int


@attrs.define
class Mob:
    entity_id: int
    kind: str
    x: float
    y: float
    z: float
    health: float = 20.0
    next_attack: int = 0
    born: int = 0


@attrs.define
class Animal:
    entity_id: int
    kind: str
    x: float
    y: float
    z: float
    health: float
    goal: tuple[float, float] | None = None        # where it strolls to


@attrs.define
class SmeltJob:
    output: str
    count: int
    started: int
    collected: int = 0


@attrs.define
class PlayerBody:
    x: float
    y: float
    z: float
    on_ground: bool = True
    health: float = 20.0
    food: int = 20
    saturation: float = 5.0
    exhaustion: float = 0.0
    food_timer: int = 0                             # FoodData's tickTimer: regeneration and starvation
    sprinting: bool = False                         # as the server knows it: the client's sprint command
    air: int = 300
    fire: int = 0
    held: int = 0
    slots: list[SlotItem | None] = attrs.field(factory=lambda: [None] * INVENTORY_SLOTS)
    peak_y: float = 0.0
    dead: bool = False
    dig: tuple[int, int, int, int] | None = None    # x, y, z, start tick
    eating: int | None = None                       # tick eating started
    sleeping: int | None = None                     # tick the player lay down in a bed
    last_damage: str = "unknown"
    hurt_tick: int = -INVULNERABLE_TICKS            # tick of the last hit that started invulnerability
    last_hurt: float = 0.0                          # the biggest hit since then


class SimWorld:
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
        self.heights = np.zeros((options.size, options.size), dtype=int)
        self.features: dict[str, list[tuple[int, int, int]]] = {}
        self._generate()
        s = options.size // 2
        self.spawn = (s + 0.5, float(self.heights[s, s]), s + 0.5)
        self.time_skipped = 0                # ticks of night skipped by sleeping (the clock jumps ahead)
        self.bed: tuple[int, int, int] | None = self._place_bed() if options.bed else None
        self.player = self._new_player()
        self.drops: dict[int, Drop] = {}
        self.mobs: dict[int, Mob] = {}
        self.animals: dict[int, Animal] = {}
        # The animals draw from their own generator, so the terrain, the zombies and every other
        # draw of ``rng`` are what they were before there were animals.
        self.animal_rng = np.random.default_rng((seed, 1))
        self.smelting: dict[tuple[int, int, int], SmeltJob] = {}
        self._next_id = 100
        self._spawn_animals()
        self.tick_no = 0
        self.deaths: list[tuple[int, str]] = []
        self.damage_taken: dict[str, float] = {}
        self.rejected: dict[str, int] = {}
        self._sent_health: tuple[float, int, bool] | None = None     # what the last health packet said

    def _new_player(self) -> PlayerBody:
        p = PlayerBody(*self.spawn, food=self.options.start_food, saturation=self.options.start_saturation)
        p.peak_y = p.y
        if self.options.start_bread:
            p.slots[44] = SlotItem("bread", self.options.start_bread)
        return p

    # -- generation ----------------------------------------------------------------------------
    def _generate(self) -> None:
        o, rng = self.options, self.rng
        size = o.size
        xs, zs = np.meshgrid(np.arange(size), np.arange(size), indexing="ij")
        height = np.zeros((size, size))
        for _ in range(6):
            cx, cz = rng.uniform(0, size, 2)
            radius = rng.uniform(10, 28)
            height += rng.uniform(-2.5, 3.0) * np.exp(-((xs - cx) ** 2 + (zs - cz) ** 2) / (2 * radius ** 2))
        ground = (40 + np.round(height)).astype(int)       # first air cell of each column
        st = self.table.state_for
        blocks = np.full((HEIGHT, size, size), self.air, dtype=np.uint16)    # [y, z, x]
        ys = np.arange(HEIGHT)[:, None, None]
        top = ground.T[None, :, :]
        blocks[ys < top - 4] = st("stone")
        blocks[(ys >= top - 4) & (ys < top - 1)] = st("dirt")
        blocks[ys == top - 1] = st("grass_block")
        blocks[0] = st("bedrock")
        rocky = np.zeros((size, size), dtype=bool)
        centre = size // 2
        for i in range(4):
            # Rocky outcrops with iron showing, 12 to 36 blocks from spawn.
            angle = rng.uniform(0, 2 * math.pi)
            dist = rng.uniform(12, 30)
            cx, cz = centre + dist * math.cos(angle), centre + dist * math.sin(angle)
            radius = rng.uniform(3.5, 6.0)
            patch = (xs - cx) ** 2 + (zs - cz) ** 2 <= radius ** 2
            rocky |= patch
        for x, z in zip(*np.nonzero(rocky)):
            t = ground[x, z]
            blocks[t - 5:t, z, x] = st("stone")
            if rng.random() < 0.18:
                blocks[t - 1, z, x] = st("iron_ore")
            if rng.random() < 0.12:
                blocks[t - 2, z, x] = st("iron_ore")
        self._pools(blocks, ground, rocky)
        self._trees(blocks, ground, rocky)
        self.heights = ground
        for cx in range(size // 16):
            for cz in range(size // 16):
                for sy in range(HEIGHT // 16):
                    part = blocks[sy * 16:sy * 16 + 16, cz * 16:cz * 16 + 16, cx * 16:cx * 16 + 16]
                    self.store.set_section(cx, sy, cz, part.reshape(4096))

    def _pools(self, blocks: np.ndarray, ground: np.ndarray, rocky: np.ndarray) -> None:
        size = self.options.size
        centre = size // 2
        st = self.table.state_for
        hazard = self.options.hazard
        # A pond (4 deep when water is the hazard) and a lava pool (next to spawn when lava is).
        # With lava as the hazard the pond lies two blocks past the lava pool: within the
        # fire reflex's short search for water, as a player would keep a bucket's worth near.
        for name, near, depth in (("water", hazard in ("water", "lava"), 4 if hazard == "water" else 2),
                                  ("lava", hazard == "lava", 2)):
            for _ in range(50):
                if near:
                    x, z = (centre + 4, centre - 1) if hazard == name else (centre + 9, centre - 1)
                else:
                    angle = self.rng.uniform(0, 2 * math.pi)
                    dist = self.rng.uniform(16, 36)
                    x, z = int(centre + dist * math.cos(angle)), int(centre + dist * math.sin(angle))
                w = 4 if name == "water" else 3
                if not (2 <= x < size - w - 2 and 2 <= z < size - w - 2) or (rocky[x:x + w, z:z + w].any() and not near):
                    continue
                level = int(ground[x:x + w, z:z + w].min())
                for px in range(x, x + w):
                    for pz in range(z, z + w):
                        blocks[level - depth:ground[px, pz], pz, px] = self.air
                        blocks[level - depth:level, pz, px] = st(name)
                        blocks[level - depth - 1, pz, px] = st("stone")
                        ground[px, pz] = level
                # Where a hazard episode puts the player: the bottom of the pond (drowning), the
                # top layer of the lava (a misstep into it).
                self.features.setdefault(name, []).append((x + w // 2, level - (depth if name == "water" else 1),
                                                           z + w // 2))
                break

    def _spawn_animals(self) -> None:
        """Cows on open grass 8 to 40 blocks from spawn, away from trees, water and lava."""
        size, rng = self.options.size, self.animal_rng
        centre = size // 2
        for _ in range(COWS * 20):
            if len(self.animals) >= COWS:
                break
            angle = rng.uniform(0, 2 * math.pi)
            dist = rng.uniform(8, 40)
            x, z = int(centre + dist * math.cos(angle)), int(centre + dist * math.sin(angle))
            if not (3 <= x < size - 3 and 3 <= z < size - 3):
                continue
            y = int(self.heights[x, z])
            if self._walkable(x, y, z):
                # Ids of their own, so the items' and zombies' ids are what they were without animals.
                eid = ANIMAL_IDS + len(self.animals)
                cow = Animal(eid, "cow", x + 0.5, float(y), z + 0.5, GAME_HEALTH["cow"])
                self.animals[cow.entity_id] = cow

    def _walkable(self, x: int, y: int, z: int) -> bool:
        """Grass underfoot and two cells of air: where a cow stands and strolls."""
        return self.block(x, y - 1, z) == "grass_block" and self.block(x, y, z) == "air" \
            and self.block(x, y + 1, z) == "air"

    def _trees(self, blocks: np.ndarray, ground: np.ndarray, rocky: np.ndarray) -> None:
        size = self.options.size
        st = self.table.state_for
        log, leaves, grass = st("oak_log"), st("oak_leaves"), st("grass_block")
        placed: list[tuple[int, int]] = []
        for _ in range(size * size // 160):
            x, z = (int(v) for v in self.rng.integers(3, size - 3, 2))
            t = int(ground[x, z])
            if blocks[t - 1, z, x] != grass or any(abs(x - a) < 4 and abs(z - b) < 4 for a, b in placed):
                continue
            if x == z == size // 2:
                # Not on the spawn point: vanilla spawns a player on open ground, never inside a
                # trunk (seed 1119 did, and every first step was inside a block).
                continue
            placed.append((x, z))
            trunk = int(self.rng.integers(4, 6))
            for dy in (trunk - 2, trunk - 1):
                for dx in range(-2, 3):
                    for dz in range(-2, 3):
                        if abs(dx) + abs(dz) < 4 and blocks[t + dy, z + dz, x + dx] == self.air:
                            blocks[t + dy, z + dz, x + dx] = leaves
            for dx, dz in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                blocks[t + trunk, z + dz, x + dx] = leaves
            blocks[t:t + trunk, z, x] = log
            self.features.setdefault("tree", []).append((x, t, z))

    def _place_bed(self) -> tuple[int, int, int] | None:
        """A bed (foot and head) on open grass a few blocks from spawn, as a player would put one."""
        c = self.options.size // 2
        for dx, dz in ((3, 3), (-3, 3), (3, -3), (-3, -3), (5, 0), (0, 5), (-5, 0), (0, -5)):
            x, z = c + dx, c + dz
            y = int(self.heights[x, z])
            if all(self._walkable(x + i, y, z) and int(self.heights[x + i, z]) == y for i in (0, 1)):
                state = self.table.state_for("red_bed")
                for i in (0, 1):
                    self.store.set_block(x + i, y, z, state)
                return (x, y, z)
        return None

    # -- the session's first view --------------------------------------------------------------
    def join_events(self) -> list[ev.Event]:
        out: list[ev.Event] = [ev.DimensionChanged("minecraft:overworld", 0, HEIGHT),
                               ev.JoinedGame(PLAYER_ID, 0, "minecraft:overworld")]
        size = self.options.size
        for cx in range(size // 16):
            for cz in range(size // 16):
                sections = []
                for sy in range(HEIGHT // 16):
                    array = self.store.section((cx, sy, cz))
                    assert array is not None
                    sections.append((sy, array.copy()))
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
        for yy in range(min(HEIGHT - 1, math.floor(y) + 2), 0, -1):
            if self.solid(bx, yy - 1, bz):
                return float(yy)
        return 1.0

    def fall_to(self, x: int, y: int, z: int) -> float:
        """Where an item released in cell (x, y, z) comes to rest."""
        for yy in range(y, 0, -1):
            if self.solid(x, yy - 1, z):
                return float(yy)
        return 1.0

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
        return out

    def _animals(self, t: int, out: list[ev.Event]) -> None:
        rng = self.animal_rng
        for a in self.animals.values():
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
            if abs(ny - a.y) > 1.0 or not self._walkable(math.floor(nx), int(ny), math.floor(nz)):
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
        hazard = self.options.hazard
        if hazard not in ("lava", "water") or t % self.options.push_every != 20:
            return
        sites = self.features.get(hazard, [])
        if not sites:
            return
        x, y, z = sites[0]
        p = self.player
        p.x, p.y, p.z = x + 0.5, float(y), z + 0.5
        p.peak_y = p.y
        p.dig = p.sleeping = None
        out.append(ev.PositionSet(p.x, p.y, p.z, 0.0, 0.0, from_server=True))
        self.checker.teleport(p.x, p.y, p.z, t)

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
        gone = []
        for mob in self.mobs.values():
            dx, dz = p.x - mob.x, p.z - mob.z
            dist = math.hypot(dx, dz)
            if (not spawning and t - mob.born > 200) or dist > 48 or t - mob.born > 2400:
                gone.append(mob.entity_id)
                continue
            if dist > 1.0 and dist < 32:
                step = min(0.1, dist - 1.0)
                nx, nz = mob.x + dx / dist * step, mob.z + dz / dist * step
                ny = self.ground_at(nx, mob.y + 1, nz)
                if abs(ny - mob.y) <= 1.0:
                    mob.x, mob.y, mob.z = nx, ny, nz
                    out.append(ev.EntityMoved(mob.entity_id, mob.x, mob.y, mob.z))
            if dist <= 1.5 and abs(p.y - mob.y) < 2.0 and t >= mob.next_attack:
                mob.next_attack = t + 20
                self._hurt(MOB_DAMAGE_SCALE[self.options.difficulty](ZOMBIE_DAMAGE), "zombie", out)
        if gone:
            for eid in gone:
                del self.mobs[eid]
            out.append(ev.EntitiesRemoved(tuple(gone)))

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

    # -- what the client sent --------------------------------------------------------------------
    def apply(self, actions: Iterable[object], t: int) -> list[ev.Event]:
        out: list[ev.Event] = []
        for action in actions:
            handler = _HANDLERS.get(type(action))
            if handler is None:
                raise TypeError(f"no handler for {type(action).__name__} in engine.sim.world._HANDLERS")
            handler(self, action, t, out)
        return out

    def _not_the_servers(self, a: object, t: int, out: list[ev.Event]) -> None:
        """Between the player and the proxy (replies, chat, control, pings, model calls): no server sees it."""

    def _swing(self, a: acts.SwingArm, t: int, out: list[ev.Event]) -> None:
        """An arm swing is only shown to others; nothing changes in the world."""

    def _reject(self, why: str) -> None:
        self.rejected[why] = self.rejected.get(why, 0) + 1

    def _move(self, a: InjectMovement, t: int, out: list[ev.Event]) -> None:
        p = self.player
        if p.dead or p.sleeping is not None:
            return              # a body in bed stays in bed (it leaves it at the morning)
        # The server knows of a sprint from the client's sprint command (the proxy sends it with
        # the step's flag); a sprint-speed step without it is a checker violation.
        self.checker.feed(Movement(t, a.x, a.y, a.z, a.on_ground, a.sprinting))
        dx, dy, dz = a.x - p.x, a.y - p.y, a.z - p.z
        p.sprinting = a.sprinting
        if p.on_ground and not a.on_ground and dy > 0:
            # As the server does: onGround before, a packet off the ground going up is a jump.
            self._exhaust(SPRINT_JUMP_EXHAUSTION if p.sprinting else JUMP_EXHAUSTION)
        p.x, p.y, p.z, p.on_ground = a.x, a.y, a.z, a.on_ground
        self._movement_exhaustion(dx, dy, dz, a.on_ground)
        if ph.touching(self.terrain, p.x, p.y, p.z, g.WATER | g.LAVA):
            p.peak_y = p.y
        elif a.on_ground:
            fall = p.peak_y - p.y
            if fall > 3.0:
                self._hurt(math.ceil(fall - 3.0), "fall", out)
            p.peak_y = p.y
        else:
            p.peak_y = max(p.peak_y, p.y)

    def _movement_exhaustion(self, dx: float, dy: float, dz: float, on_ground: bool) -> None:
        """Player.checkMovementStatistics: distance counted in whole centimetres, as vanilla rounds it."""
        p = self.player
        eyes = self.terrain.cell(math.floor(p.x), math.floor(p.y + EYE), math.floor(p.z)) & g.WATER
        if eyes:
            self._exhaust(WATER_EXHAUSTION * _centimetres(math.sqrt(dx * dx + dy * dy + dz * dz)) * 0.01)
        elif ph.touching(self.terrain, p.x, p.y, p.z, g.WATER):
            self._exhaust(WATER_EXHAUSTION * _centimetres(math.hypot(dx, dz)) * 0.01)
        elif on_ground and p.sprinting:
            self._exhaust(SPRINT_EXHAUSTION * _centimetres(math.hypot(dx, dz)) * 0.01)

    def _select(self, a: SelectHotbar, t: int, out: list[ev.Event]) -> None:
        if 0 <= a.slot <= 8:
            self.player.held = a.slot
            self.player.eating = None

    def _use(self, a: UseHeldItem, t: int, out: list[ev.Event]) -> None:
        # Vanilla (Player.canEat): none of these foods can be started on a full food bar.
        p = self.player
        if self.held_item() in FOODS and not p.dead and p.food < MAX_FOOD:
            p.eating = t

    def _release(self, a: ReleaseHeldItem, t: int, out: list[ev.Event]) -> None:
        self.player.eating = None

    def _start_dig(self, a: acts.StartDigging, t: int, out: list[ev.Event]) -> None:
        name = self.block(a.x, a.y, a.z)
        if self.player.dead or name in (None, "air") or not self._reach(a.x + 0.5, a.y + 0.5, a.z + 0.5):
            self._reject("dig out of reach")
            return
        self.player.dig = (a.x, a.y, a.z, t)

    def _finish_dig(self, a: acts.FinishDigging, t: int, out: list[ev.Event]) -> None:
        p = self.player
        dig, p.dig = p.dig, None
        name = self.block(a.x, a.y, a.z)
        state = self.store.get(a.x, a.y, a.z)
        if dig is None or dig[:3] != (a.x, a.y, a.z) or name is None or state is None:
            self._reject("finish without start")
            if state is not None:     # as a vanilla server does: the client's predicted break is undone
                out.append(ev.BlocksChanged(((a.x, a.y, a.z, state),)))
            return
        held = self.held_item()
        need = dig_ticks(name, held)
        if need is None or t - dig[3] < 0.7 * need or not self._reach(a.x + 0.5, a.y + 0.5, a.z + 0.5):
            self._reject("dug too fast" if need is not None else "unbreakable")
            out.append(ev.BlocksChanged(((a.x, a.y, a.z, state),)))
            return
        self.store.set_block(a.x, a.y, a.z, self.air)
        out.append(ev.BlocksChanged(((a.x, a.y, a.z, self.air),)))
        if harvestable(name, held):
            self._exhaust(MINE_EXHAUSTION)
        rule = BLOCKS.get(name)
        if rule is not None and rule.drop is not None and harvestable(name, held):
            y = self.fall_to(a.x, a.y, a.z)
            drop = Drop(self._new_id(), rule.drop, 1, a.x + 0.5, y, a.z + 0.5, t)
            self.drops[drop.entity_id] = drop
            out.append(ev.EntitySpawned(drop.entity_id, "item", drop.x, drop.y, drop.z))

    def _place(self, a: acts.PlaceBlock, t: int, out: list[ev.Event]) -> None:
        p = self.player
        if self.held_item() != a.item or self.block(a.x, a.y, a.z) != "air" or not self.solid(*a.against) \
                or not self._reach(a.x + 0.5, a.y + 0.5, a.z + 0.5):
            self._reject("place refused")
            return
        overlap = (a.x - 0.3 < p.x < a.x + 1.3 and a.z - 0.3 < p.z < a.z + 1.3 and a.y - 1.8 < p.y < a.y + 1)
        if overlap or not self.take(a.item, 1):
            self._reject("place refused")
            return
        state = self.table.state_for(a.item)
        self.store.set_block(a.x, a.y, a.z, state)
        out += [ev.BlocksChanged(((a.x, a.y, a.z, state),)), self._inventory()]

    def _use_block(self, a: acts.UseBlock, t: int, out: list[ev.Event]) -> None:
        """Vanilla's BedBlock.use / ServerPlayer.startSleepInBed: only at night, within 3 blocks
        across and 2 up or down, with no monster within 8 across and 5 up or down; the refusals
        are the action-bar messages vanilla shows."""
        p = self.player
        name = self.block(a.x, a.y, a.z) or ""
        if p.dead or not name.endswith("bed"):
            self._reject("use refused")
            return
        why = None
        if not BED_NIGHT[0] <= self.day_time <= BED_NIGHT[1]:
            why = "You can only sleep at night"
        elif not (abs(p.x - (a.x + 0.5)) <= 3.0 and abs(p.y - a.y) <= 2.0 and abs(p.z - (a.z + 0.5)) <= 3.0):
            why = "You may not rest now; the bed is too far away"
        elif any(abs(m.x - p.x) <= 8.0 and abs(m.y - p.y) <= 5.0 and abs(m.z - p.z) <= 8.0
                 for m in self.mobs.values()):
            why = "You may not rest now; there are monsters nearby"
        if why is not None:
            self._reject("bed: " + why)
            out.append(ev.ServerChatSeen(why))
            return
        p.sleeping = t
        p.eating = p.dig = None

    def _sleep(self, t: int, out: list[ev.Event]) -> None:
        """Everyone (the one player) asleep for 100 ticks: the night is skipped to the morning."""
        p = self.player
        if p.sleeping is None or t - p.sleeping < SLEEP_TICKS:
            return
        self.time_skipped += DAY - self.day_time
        p.sleeping = None
        out.append(ev.TimeUpdated(t, self.day_time))

    def _swap(self, a: acts.SwapToHotbar, t: int, out: list[ev.Event]) -> None:
        slots = self.player.slots
        if 9 <= a.slot < 45 and 0 <= a.hotbar <= 8:
            h = 36 + a.hotbar
            slots[a.slot], slots[h] = slots[h], slots[a.slot]
            out.append(self._inventory())

    def _near(self, pos: tuple[int, int, int] | None, name: str) -> bool:
        return pos is not None and self.block(*pos) == name and self._reach(pos[0] + 0.5, pos[1] + 0.5, pos[2] + 0.5)

    def _craft(self, a: acts.CraftItem, t: int, out: list[ev.Event]) -> None:
        recipe = RECIPES.get(a.item)
        if recipe is None or a.times < 1 or (recipe.needs_table and not self._near(a.table, "crafting_table")):
            self._reject("craft refused")
            return
        have = self.counts()
        left = dict(have)
        for name, n in recipe.needs:
            # Any member of a tag fills its slots (species may mix); an item fills one slot only.
            if family_count(name, left) < n * a.times:
                self._reject("craft refused")
                return
            spend(name, n * a.times, left)
        for item, n in have.items():
            if left[item] < n:
                self.take(item, n - left[item])
        self.give(a.item, recipe.count * a.times)
        out.append(self._inventory())

    def _smelt(self, a: acts.SmeltStart, t: int, out: list[ev.Event]) -> None:
        output = next((o for o, raw in SMELTS.items() if a.item in members(raw)), None)
        if output is None or not self._near(a.furnace, "furnace") or a.furnace in self.smelting \
                or a.fuel_count * FUEL.get(a.fuel, 0.0) < a.count \
                or self.count(a.item) < a.count or self.count(a.fuel) < a.fuel_count:
            self._reject("smelt refused")
            return
        self.take(a.item, a.count)
        self.take(a.fuel, a.fuel_count)
        self.smelting[a.furnace] = SmeltJob(output, a.count, t)
        out.append(self._inventory())

    def _collect(self, a: acts.SmeltCollect, t: int, out: list[ev.Event]) -> None:
        job = self.smelting.get(a.furnace)
        if job is None or not self._near(a.furnace, "furnace"):
            self._reject("collect refused")
            return
        done = min(job.count, (t - job.started) // SMELT_TICKS) - job.collected
        if done > 0:
            self.give(job.output, done)
            job.collected += done
            out.append(self._inventory())
        if job.collected >= job.count:
            del self.smelting[a.furnace]

    def _attack(self, a: acts.AttackEntity, t: int, out: list[ev.Event]) -> None:
        target = self.mobs.get(a.entity_id) or self.animals.get(a.entity_id)
        if target is None or self.player.dead or not self._reach(target.x, target.y + 1.0, target.z, 4.0):
            self._reject("attack refused")
            return
        target.health -= ATTACK_DAMAGE.get(self.held_item() or "", 1.0)
        self._exhaust(ATTACK_EXHAUSTION)
        if target.health > 0:
            return
        out.append(ev.EntitiesRemoved((target.entity_id,)))
        if isinstance(target, Mob):
            del self.mobs[target.entity_id]
            return
        del self.animals[target.entity_id]
        lo, hi = COW_DROPS
        n = int(self.animal_rng.integers(lo, hi + 1))
        drop = Drop(self._new_id(), GAME[target.kind], n, target.x, target.y, target.z, t)
        self.drops[drop.entity_id] = drop
        out.append(ev.EntitySpawned(drop.entity_id, "item", drop.x, drop.y, drop.z))

    def _respawn(self, a: acts.Respawn, t: int, out: list[ev.Event]) -> None:
        if not self.player.dead:
            return
        # Vanilla drops the inventory where the player died; here it is simply lost.
        self.player = self._new_player()
        self.checker.teleport(self.player.x, self.player.y, self.player.z, t)
        out.append(ev.Respawned(0, "minecraft:overworld"))
        out += self._respawn_events()


def _centimetres(distance: float) -> int:
    return math.floor(distance * 100.0 + 0.5)     # Java's Math.round


# Every type of ``engine.actions.ACTIONS`` has an entry (a test checks it), so an action the
# simulator does not know is an error, never silently dropped.
_HANDLERS: dict[type, Callable[[SimWorld, Any, int, list[ev.Event]], None]] = {
    acts.ReplyToPlayer: SimWorld._not_the_servers,
    acts.ForwardChat: SimWorld._not_the_servers,
    acts.MeasurePing: SimWorld._not_the_servers,
    acts.Kick: SimWorld._not_the_servers,
    acts.AdminCommand: SimWorld._not_the_servers,
    acts.SetControl: SimWorld._not_the_servers,
    acts.SwingArm: SimWorld._swing,
    InjectMovement: SimWorld._move,
    SelectHotbar: SimWorld._select,
    UseHeldItem: SimWorld._use,
    ReleaseHeldItem: SimWorld._release,
    acts.StartDigging: SimWorld._start_dig,
    acts.FinishDigging: SimWorld._finish_dig,
    acts.PlaceBlock: SimWorld._place,
    acts.SwapToHotbar: SimWorld._swap,
    acts.CraftItem: SimWorld._craft,
    acts.SmeltStart: SimWorld._smelt,
    acts.SmeltCollect: SimWorld._collect,
    acts.AttackEntity: SimWorld._attack,
    acts.UseBlock: SimWorld._use_block,
    acts.Respawn: SimWorld._respawn,
}
