"""The simulated server's plain records: its options, the player's body, drops, mobs, animals, furnace jobs."""
from __future__ import annotations

import attrs

from engine.events import SlotItem
from engine.world.model import INVENTORY_SLOTS
from engine.sim.rules import INVULNERABLE_TICKS, STACK, STARVE_FLOOR


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
    # The world below the surface (``engine.sim.strata``): None, the old 80 blocks over bedrock at y 0;
    # "1.18" from y -64 (deepslate, 1.18+ ore heights); "1.17" stone from y 0 (the older ore heights).
    underground: str | None = attrs.field(default=None, validator=attrs.validators.in_((None, "1.18", "1.17")))
    # Paper's anti-xray (engine-mode 2): this share of the rock no air touches is sent as ore.
    anti_xray: float = 0.0
    start_items: tuple[tuple[str, int], ...] = ()     # more of the body's kit at spawn and respawn (hotbar)
    dark_mobs: bool = True              # zombies spawn in the dark underground (the underground worlds)
    farm: bool = True                   # the village-like wheat farm, grown (without: only what is planted)


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
    sheared: bool = False                          # a sheep without its wool until it eats grass


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
