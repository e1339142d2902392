'use strict'
// The survival rules world.js plays by with --rules survival, put together: digging, dropped
// items, the body (hurt, lava, fire, drowning), hunger and eating, cows, sheep (shorn too) and zombies,
// farming (tilling, planting, wheat growing on random ticks). Windows
// (crafting and furnaces) are windows.js, wired by world.js itself.
//
// `world` is world.js's narrow face: players (in play), newEntityId, blockAt, touching,
// removeBlock, setBlock, resendBlock, give, take, heldItem, hurtable, damage, heal, sendHealth, dayTime
// and emit.

const createEntities = require('./entities')
const createItems = require('./items')
const createDigging = require('./digging')
const createBody = require('./body')
const createHunger = require('./hunger')
const createMobs = require('./mobs')
const createFarming = require('./farming')

// A small seeded generator (mulberry32), so a --seed gives the same drops and spawns.
function seeded (seed) {
  let a = seed >>> 0
  return function random () {
    a = (a + 0x6D2B79F5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SPRINT_EXHAUSTION = 0.1 // per metre sprinted on the ground
const JUMP_EXHAUSTION = 0.05
const SPRINT_JUMP_EXHAUSTION = 0.2
const MINE_EXHAUSTION = 0.005

module.exports = function createRules ({ registry, packets, Item, Block, world, options }) {
  const random = seeded(options.seed)
  let difficulty = options.difficulty
  let age = 0
  const entities = createEntities({ registry, packets, Item, newEntityId: world.newEntityId, viewers: world.players })
  const items = createItems({ registry, entities, blockAt: world.blockAt, give: world.give, emit: world.emit, random })
  const hunger = createHunger({
    heldItem: world.heldItem,
    heldSlot: (p) => p.heldSlot,
    take: (p, slot, n) => world.take(p, 36 + slot, n),
    heal: world.heal,
    sendHealth: world.sendHealth,
    hurt: (p, n, cause) => body.hurt(p, n, cause),
    emit: world.emit,
    difficulty: () => difficulty
  })
  const body = createBody({ packets, blockAt: world.blockAt, touching: world.touching, damage: world.damage, exhaust: hunger.exhaust })
  const digging = createDigging({
    registry,
    Block,
    blockAt: world.blockAt,
    heldItem: world.heldItem,
    inWater: (p) => body.eyesInWater(p),
    emit: world.emit,
    breakBlock,
    resend: world.resendBlock
  })
  const mobs = createMobs({
    entities,
    items,
    blockAt: world.blockAt,
    setBlock: world.setBlock,
    wool: registry.itemsByName.white_wool ? 'white_wool' : 'wool', // 1.8-1.12: wool, white by metadata 0
    hurtPlayer: (p, n, cause) => body.hurt(p, n, cause),
    exhaust: hunger.exhaust,
    heldItem: world.heldItem,
    emit: world.emit,
    random,
    difficulty: () => difficulty,
    dayTime: world.dayTime,
    mobsOn: () => options.mobs
  })

  const farming = createFarming({
    registry,
    blockAt: world.blockAt,
    setBlock: world.setBlock,
    emit: world.emit,
    random,
    tickSpeed: options.randomTickSpeed
  })

  function breakBlock (player, pos) {
    const block = world.blockAt(pos)
    world.removeBlock(pos, (at, stack) => items.dropBlock(at, stack))
    hunger.exhaust(player, MINE_EXHAUSTION)
    const drops = farming.dropsOf(block) || items.dropsOf(block, world.heldItem(player))
    for (const stack of drops) items.dropBlock(pos, stack)
  }

  function join (player, start) {
    body.fresh(player)
    hunger.fresh(player, start.food, start.saturation)
    player.dig = null
    player.delayedDig = null
    player.sprinting = false
    entities.showAll(player)
  }

  function respawned (player) {
    join(player, { food: 20, saturation: 5 })
  }

  // Vanilla drops everything a dying player carries (no keepInventory).
  function died (player) {
    player.eating = null
    player.dig = null
    player.delayedDig = null
    for (let i = 1; i < player.slots.length; i++) {
      if (player.slots[i]) items.dropFrom(player, player.slots[i])
      player.slots[i] = null
    }
    if (player.cursor) {
      items.dropFrom(player, player.cursor)
      player.cursor = null
    }
  }

  // block_dig: 0 start, 1 cancel, 2 finish, 5 release the item in use.
  function dig (player, packet) {
    if (packet.status === 5) return hunger.stop(player)
    digging.action(player, packet.status, packet.location, age)
  }

  // A move the client reported: sprinting and jumping cost food.
  function moved (player, from, wasOnGround) {
    const dx = player.pos.x - from.x
    const dz = player.pos.z - from.z
    if (player.sprinting && player.onGround) hunger.exhaust(player, SPRINT_EXHAUSTION * Math.hypot(dx, dz))
    if (wasOnGround && !player.onGround && player.pos.y > from.y) {
      hunger.exhaust(player, player.sprinting ? SPRINT_JUMP_EXHAUSTION : JUMP_EXHAUSTION)
    }
  }

  function tick (players) {
    age++
    for (const player of players) {
      if (!world.hurtable(player)) continue
      digging.tick(player, age)
      body.tick(player)
      hunger.tick(player)
    }
    items.tick(players)
    mobs.tick(players, age)
    farming.tick()
  }

  return {
    join,
    respawned,
    died,
    dig,
    moved,
    tick,
    hurt: (p, n, cause) => body.hurt(p, n, cause),
    useItem: (p) => hunger.use(p),
    attack: (p, id) => mobs.attack(p, id, age),
    interact: (p, id) => mobs.interact(p, id),
    // A hoe or seeds used on a block: true when it tilled or planted (or seeds did nothing).
    useOn: (p, pos, direction, held, take) => farming.useOn(p, pos, direction, held, take),
    summon: (kind, x, y, z) => mobs.spawn(kind, x, y, z),
    spawnItem: (name, count, x, y, z) => items.spawn(name, count, x, y, z, 0),
    dropFrom: (p, stack) => items.dropFrom(p, stack),
    dropBlock: (pos, stack) => items.dropBlock(pos, stack),
    entities: () => [...items.describe(), ...mobs.describe()],
    setDifficulty (d) {
      if (!['peaceful', 'easy', 'normal', 'hard'].includes(d)) throw new Error('usage: /difficulty <peaceful|easy|normal|hard>')
      difficulty = d
    },
    difficulty: () => difficulty,
    mobKinds: mobs.KINDS
  }
}
