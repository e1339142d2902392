'use strict'
// Cows, sheep and zombies, and players hitting them; sheep shorn.
//
// How it works. Cows and sheep stroll (RandomStrollGoal: about once in 120 ticks a new spot up to 5
// blocks away, at about 0.1 block a tick), never stepping off more than a block, into a
// wall, water or lava; they never attack. Zombies (with --mobs true) spawn at night (13000
// to 23000), one every 300 ticks near each player while fewer than 2 are near it, 24 to 32
// blocks away (vanilla spawns no monster within 24 blocks of a player) on ground with two
// cells of air; they walk straight at the nearest player within 35 blocks (their follow
// range) at about 0.1 block a tick, stepping up one block, and attack when within reach
// (MeleeAttackGoal: the distance squared within (2 x width)^2 + the target's width, i.e.
// 1.43 blocks) once every 20 ticks for 3 (2.5 on easy, 4.5 on hard). By day a zombie
// burns (1 a second) until it dies.
//
// A player's attack (use_entity "attack"; its own packet on 26.1) lands within 3 blocks of
// the eye plus vanilla's 1-block allowance, for the held item's attack damage scaled by how
// far its cooldown has recharged (Player.attack: 0.2 + 0.8 x s^2); a hit mob is
// invulnerable for 10 ticks to anything but a bigger hit. Dead, a cow drops 1-3 raw beef and
// 0-2 leather, a sheep 1-2 raw mutton and its white wool unless shorn, a zombie 0-2 rotten
// flesh; the body goes after 20 ticks (entity event 3 first).
//
// Shearing (Sheep.mobInteract and Sheep.shear): a player's interaction (use_entity "interact"
// until 1.21.x, the one use_entity of 26.1; never "interact_at", which a vanilla client sends
// first and a sheep ignores) within reach, holding shears, on a sheep that is not shorn drops
// 1-3 white wool at the sheep; the sheep is shorn until it eats grass (EatBlockGoal: an adult
// tries once in 1000 ticks, on a grass block, which becomes dirt) and grows its wool back.
// The shorn flag goes to clients in the sheep's metadata (its wool byte, as vanilla's). Not
// modelled: knockback, panic, pathfinding round obstacles, light levels, the shears' wear.
//
// Events: {"event":"mob_spawned","entity":E,"kind":K,"x","y","z"}, {"event":"mob_hurt","entity":E,
// "kind":K,"damage":D,"health":H,"by":P}, {"event":"mob_died","entity":E,"kind":K},
// {"event":"attack_refused","player":P,"entity":E,"reason":"too_far"|"no_such_entity"},
// {"event":"sheared","player":P,"entity":E,"count":N}, {"event":"shear_refused","player":P,
// "entity":E,"reason":"too_far"|"no_such_entity"|"not_shears"|"shorn"}, {"event":"wool_grown","entity":E}.

const STROLL_CHANCE = 1 / 120
const STROLL_RANGE = 5
const SPEED = 0.1
const HEALTH = { cow: 10, sheep: 8, zombie: 20 }
const GRAZE_CHANCE = 1 / 1000 // EatBlockGoal.canUse for an adult
const NIGHT = [13000, 23000]
const SPAWN_EVERY = 300
const NEAR_LIMIT = 2
const SPAWN_DISTANCE = [24, 32]
const FOLLOW_RANGE = 35
const ATTACK_REACH_SQ = (2 * 0.6) ** 2 + 0.6
const ATTACK_COOLDOWN = 20
const ZOMBIE_DAMAGE = { peaceful: 0, easy: 2.5, normal: 3, hard: 4.5 }
const PLAYER_REACH = 3 + 1
const EYE = 1.62
const BODY_TICKS = 20
const DEATH = 3

// Vanilla's attack damage (with the fist's 1) and attack speed per weapon (items' attribute
// modifiers, 1.9+); anything else hits as a fist does.
const WEAPONS = {
  wooden_sword: [4, 1.6], stone_sword: [5, 1.6], iron_sword: [6, 1.6], golden_sword: [4, 1.6], diamond_sword: [7, 1.6], netherite_sword: [8, 1.6],
  wooden_axe: [7, 0.8], stone_axe: [9, 0.8], iron_axe: [9, 0.9], golden_axe: [7, 1.0], diamond_axe: [9, 1.0], netherite_axe: [10, 1.0],
  wooden_pickaxe: [2, 1.2], stone_pickaxe: [3, 1.2], iron_pickaxe: [4, 1.2], golden_pickaxe: [2, 1.2], diamond_pickaxe: [5, 1.2],
  wooden_shovel: [2.5, 1.0], stone_shovel: [3.5, 1.0], iron_shovel: [4.5, 1.0], diamond_shovel: [5.5, 1.0]
}
const FIST = [1, 4]
const LOOT = { cow: [['beef', 1, 3], ['leather', 0, 2]], sheep: [['mutton', 1, 2]], zombie: [['rotten_flesh', 0, 2]] }
const SHEAR_WOOL = [1, 3] // Sheep.shear: 1 + random.nextInt(3)

const { landedDamage } = require('./body')

module.exports = function createMobs ({ entities, items, blockAt, setBlock, wool, hurtPlayer, exhaust, heldItem, emit, random, difficulty, dayTime, mobsOn }) {
  const solid = (x, y, z) => blockAt({ x, y, z }).boundingBox === 'block'
  const open = (x, y, z) => !solid(x, y, z) && !solid(x, y + 1, z)
  const liquid = (x, y, z) => ['water', 'lava'].includes(blockAt({ x, y, z }).name)

  // The feet height of the ground under (x, z), looking down from y + 1.
  function groundAt (x, y, z) {
    const bx = Math.floor(x)
    const bz = Math.floor(z)
    for (let by = Math.floor(y) + 1; by > Math.floor(y) - 4; by--) {
      if (solid(bx, by - 1, bz) && open(bx, by, bz)) return by
    }
    return null
  }

  function spawn (kind, x, y, z) {
    const e = entities.add({ kind, x, y, z, health: HEALTH[kind], goal: null, nextAttack: 0, hurtTicks: 0, lastHurt: 0, deadFor: -1, shorn: false })
    emit({ event: 'mob_spawned', entity: e.id, kind, x, y, z })
    return e
  }

  const living = () => [...entities.all.values()].filter((e) => HEALTH[e.kind] && e.deadFor < 0)

  // One step of at most SPEED towards (gx, gz); false if the step is not walkable.
  function step (e, gx, gz, limit = SPEED) {
    const dist = Math.hypot(gx - e.x, gz - e.z)
    if (dist < 0.05) return false
    const s = Math.min(limit, dist)
    const nx = e.x + (gx - e.x) / dist * s
    const nz = e.z + (gz - e.z) / dist * s
    const ny = groundAt(nx, e.y + 1, nz)
    if (ny === null || Math.abs(ny - e.y) > 1 || liquid(Math.floor(nx), ny, Math.floor(nz))) return false
    e.yaw = Math.atan2(-(gx - e.x), gz - e.z) * 180 / Math.PI
    Object.assign(e, { x: nx, y: ny, z: nz })
    entities.moved(e)
    return true
  }

  function stroll (cow) {
    if (cow.goal === null) {
      if (random() < STROLL_CHANCE) {
        const r = () => Math.floor(random() * (2 * STROLL_RANGE + 1)) - STROLL_RANGE
        cow.goal = [Math.floor(cow.x) + r() + 0.5, Math.floor(cow.z) + r() + 0.5]
      }
      return
    }
    if (!step(cow, cow.goal[0], cow.goal[1])) cow.goal = null
  }

  function nearest (e, players, range) {
    let best = null
    let bestD = range
    for (const p of players) {
      if (p.dead || p.gameMode === 1 || p.gameMode === 3) continue
      const d = Math.hypot(p.pos.x - e.x, p.pos.y - e.y, p.pos.z - e.z)
      if (d < bestD) [best, bestD] = [p, d]
    }
    return best
  }

  function zombie (z, players, tick, night) {
    if (!night && tick % 20 === 0) hurtMob(z, 1, null)
    if (z.deadFor >= 0) return
    const target = nearest(z, players, FOLLOW_RANGE)
    if (!target) return
    const dx = target.pos.x - z.x
    const dz = target.pos.z - z.z
    if (dx * dx + dz * dz > ATTACK_REACH_SQ * 0.8) step(z, target.pos.x, target.pos.z)
    const dy = target.pos.y - z.y
    if (dx * dx + dy * dy + dz * dz <= ATTACK_REACH_SQ && tick >= z.nextAttack) {
      z.nextAttack = tick + ATTACK_COOLDOWN
      hurtPlayer(target, ZOMBIE_DAMAGE[difficulty()], 'zombie')
    }
  }

  function spawnZombies (players) {
    const zombies = living().filter((e) => e.kind === 'zombie')
    for (const p of players) {
      if (p.dead || p.gameMode !== 0) continue
      const near = zombies.filter((z) => Math.hypot(z.x - p.pos.x, z.z - p.pos.z) < 48).length
      if (near >= NEAR_LIMIT) continue
      const angle = random() * 2 * Math.PI
      const r = SPAWN_DISTANCE[0] + random() * (SPAWN_DISTANCE[1] - SPAWN_DISTANCE[0])
      const x = Math.floor(p.pos.x + r * Math.cos(angle)) + 0.5
      const z = Math.floor(p.pos.z + r * Math.sin(angle)) + 0.5
      for (let y = 120; y > -64; y--) {
        if (solid(Math.floor(x), y - 1, Math.floor(z)) && open(Math.floor(x), y, Math.floor(z))) {
          if (!liquid(Math.floor(x), y, Math.floor(z))) spawn('zombie', x, y, z)
          break
        }
      }
    }
  }

  function hurtMob (e, amount, by) {
    const dealt = landedDamage(e, amount)
    if (dealt === 0) return false
    e.health -= dealt
    entities.hurt(e)
    emit({ event: 'mob_hurt', entity: e.id, kind: e.kind, damage: amount, health: Math.max(0, e.health), by: by ? by.username : null })
    if (e.health <= 0) {
      e.deadFor = 0
      entities.status(e, DEATH)
      emit({ event: 'mob_died', entity: e.id, kind: e.kind })
      for (const [item, lo, hi] of LOOT[e.kind] || []) {
        const n = lo + Math.floor(random() * (hi - lo + 1))
        if (n > 0) items.spawn(item, n, e.x, e.y + 0.5, e.z, 10)
      }
      if (e.kind === 'sheep' && !e.shorn) items.spawn(wool, 1, e.x, e.y + 0.5, e.z, 10)
    }
    return true
  }

  // Within reach of the eye, as an attack: the entity, or null after a refusal event named `refused`.
  function reached (player, id, refused) {
    const e = entities.get(id)
    if (!e || !HEALTH[e.kind] || e.deadFor >= 0) {
      emit({ event: refused, player: player.username, entity: id, reason: 'no_such_entity' })
      return null
    }
    const dx = e.x - player.pos.x
    const dy = e.y + 0.7 - (player.pos.y + EYE)
    const dz = e.z - player.pos.z
    if (Math.hypot(dx, dy, dz) > PLAYER_REACH + 0.5) {
      emit({ event: refused, player: player.username, entity: id, reason: 'too_far' })
      return null
    }
    return e
  }

  // A player's interaction with entity `id`: shears on a woolly sheep shear it.
  function interact (player, id) {
    const e = reached(player, id, 'shear_refused')
    if (!e) return
    const held = heldItem(player)
    const reason = e.kind !== 'sheep' || !held || held.name !== 'shears' ? 'not_shears' : e.shorn ? 'shorn' : null
    if (reason) {
      emit({ event: 'shear_refused', player: player.username, entity: id, reason })
      return
    }
    e.shorn = true
    entities.wool(e)
    const n = SHEAR_WOOL[0] + Math.floor(random() * (SHEAR_WOOL[1] - SHEAR_WOOL[0] + 1))
    for (let i = 0; i < n; i++) items.spawn(wool, 1, e.x, e.y + 1, e.z, 10)
    emit({ event: 'sheared', player: player.username, entity: id, count: n })
  }

  // A shorn sheep on a grass block now and then eats it (grass to dirt) and grows its wool back.
  function graze (sheep) {
    if (!sheep.shorn || random() >= GRAZE_CHANCE) return
    const under = { x: Math.floor(sheep.x), y: Math.floor(sheep.y) - 1, z: Math.floor(sheep.z) }
    if (blockAt(under).name !== 'grass_block' && blockAt(under).name !== 'grass') return
    setBlock(under, 'dirt')
    sheep.shorn = false
    entities.wool(sheep)
    emit({ event: 'wool_grown', entity: sheep.id })
  }

  // A player's attack on entity `id`.
  function attack (player, id, tick) {
    const e = reached(player, id, 'attack_refused')
    if (!e) return
    const held = heldItem(player)
    const [damage, speed] = (held && WEAPONS[held.name]) || FIST
    const period = 20 / speed
    const s = Math.min(1, (tick - (player.lastAttack ?? -1000) + 0.5) / period)
    player.lastAttack = tick
    exhaust(player, 0.1)
    hurtMob(e, damage * (0.2 + s * s * 0.8), player)
  }

  function tick (players, now) {
    const time = dayTime() % 24000
    const night = time >= NIGHT[0] && time < NIGHT[1]
    if (mobsOn() && night && now % SPAWN_EVERY === SPAWN_EVERY / 2 && difficulty() !== 'peaceful') spawnZombies(players)
    const gone = []
    for (const e of [...entities.all.values()]) {
      if (!HEALTH[e.kind]) continue
      if (e.deadFor >= 0) {
        if (++e.deadFor >= BODY_TICKS) gone.push(e.id)
        continue
      }
      if (e.hurtTicks > 0) e.hurtTicks--
      if (e.kind === 'cow') stroll(e)
      else if (e.kind === 'sheep') { stroll(e); graze(e) }
      else if (e.kind === 'zombie') zombie(e, players, now, night)
    }
    entities.remove(gone)
  }

  function describe () {
    return living().map((e) => ({ id: e.id, kind: e.kind, x: e.x, y: e.y, z: e.z, health: e.health, ...(e.kind === 'sheep' ? { shorn: e.shorn } : {}) }))
  }

  return { spawn, attack, interact, tick, describe, KINDS: Object.keys(HEALTH) }
}
