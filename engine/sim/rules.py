"""The figures the simulated server plays by: vanilla's, with the class or field they come from."""
from __future__ import annotations

from collections.abc import Callable
from engine.world.vanilla import EYE_HEIGHT, REGEN_FOOD

VERSION = "1.18.2"
HEIGHT = 80
REACH = 6.0                 # server-side reach check (eye to block centre)
EYE = EYE_HEIGHT
DAY = 24000
NIGHT = (13000, 23000)
BED_NIGHT = (12542, 23459)  # when a bed can be slept in (clear weather)
SLEEP_TICKS = 100           # asleep this long (every player), the server skips to the morning
STACK = 64
TOOLS = frozenset({"wooden_pickaxe", "stone_pickaxe", "iron_pickaxe", "diamond_pickaxe"})
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
SLOW_HEAL_FOOD = REGEN_FOOD        # else food 18 or more, hurt: every 80 ticks heal 1 and add 6 exhaustion
SLOW_HEAL_TICKS = 80
SLOW_HEAL_EXHAUSTION = 6.0
STARVE_TICKS = 80           # food 0: every 80 ticks 1 damage while health is above the difficulty's floor
STARVE_DAMAGE = 1.0
STARVE_FLOOR = {"easy": 10.0, "normal": 1.0, "hard": 0.0}     # hard: starving kills
MOB_EYE = 1.74             # a zombie's eye height (its line of sight to the player starts there)
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
# Shearing, vanilla 1.18.2 Sheep.shear: 1 + nextInt(3) wool. A sheared adult's EatBlockGoal
# starts with chance 1/1000 a tick and regrows the wool; the 40-tick eating animation is left out.
SHEAR_WOOL = (1, 3)
REGROW_CHANCE = 1 / 1000
