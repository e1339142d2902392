#!/usr/bin/env node
'use strict'
// mineflayer on its own, living by the survival test server's rules: the evidence that its
// digging, drops, eating and fighting behave as a vanilla server's (peers/survival/), since
// mineflayer's digging and eating are what vanilla servers accept. Nothing of mcagent's runs.
//
//   node peers/survival_bot.js --host 127.0.0.1 --port P --username NAME --version V
//
// The test builds the scene first (tests/e2e/test_survival_rules.py): an oak log, a stone
// block and an iron ore east of the spawn, a stone pickaxe and a wooden pickaxe and a bread
// in the hotbar, the food bar at 10, a cow to the west. Then, each a step:
//   log        bot.dig the log by hand, walk into its drop: an oak log in the inventory
//   stone      bot.dig the stone with the wooden pickaxe: a cobblestone
//   iron_wood  bot.dig the iron ore with the wooden pickaxe: no raw iron (it needs a stone one)
//   eat        bot.consume the bread: the food bar up by 5
//   cow        bot.attack the cow until it dies, walk into its drops: raw beef
// --scenario fast: a dig no vanilla client sends, with mineflayer's own connection: "start"
// and "finish" on the stone in the same tick (the server delays the break until the dig
// time has passed). --scenario shear: with shears in the hotbar and a sheep near (the test
// summons it), bot.activateEntity the sheep (mineflayer's own right click), walk into the wool
// (1-3 white wool), then once more on the shorn sheep: step "shorn", no wool.
// --scenario farm: with a wooden hoe and wheat seeds, till the grass east of the feet, plant a seed,
// watch it grow (the test speeds random ticks up) and dig the ripe crop: steps till, plant, grow,
// harvest. --scenario idle: stands still (the test hurts it: a fall, lava, a zombie)
// and reports its health as it changes: {"event":"health","health":H,"food":F}.
// stdout: {"event":"spawn"}, {"event":"step","name":S,"ok":B[,"error":E][,...]} per step,
// {"event":"done","ok":B,"inventory":{item: count},"food":F} at the end; the process then exits.

const { emit, log, parseArgs, requirePeer } = require('./common')
const { startBot, sleep, counts: countsOf, step, nameFor } = require('./bot_steps')

const args = parseArgs(process.argv.slice(2), {
  host: '127.0.0.1', port: '25565', username: 'survivor', version: '1.21.11', scenario: 'live', seconds: '60'
})
const bot = startBot(args)
const counts = () => countsOf(bot)

async function until (what, test, ms) {
  const deadline = Date.now() + ms
  while (!test()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for ' + what)
    await sleep(50)
  }
}

async function hold (name) {
  if (name === null) return bot.unequip('hand')
  const item = bot.inventory.items().find((i) => i.name === name)
  if (!item) throw new Error('no ' + name)
  await bot.equip(item, 'hand')
}

// Walk into every dropped item within 6 blocks until `name` is in the inventory.
async function pickUp (name, before) {
  const deadline = Date.now() + 8000
  try {
    while ((counts()[name] || 0) <= before) {
      if (Date.now() > deadline) throw new Error(`${name} never picked up (${JSON.stringify(counts())})`)
      const drop = bot.nearestEntity((e) => e.name === 'item' && e.position.distanceTo(bot.entity.position) < 6)
      if (drop) {
        await bot.lookAt(drop.position.offset(0, bot.entity.height * 0.5, 0), true)
        bot.setControlState('forward', drop.position.xzDistanceTo(bot.entity.position) > 0.3)
      } else {
        bot.setControlState('forward', false)
      }
      await sleep(50)
    }
  } finally {
    bot.setControlState('forward', false)
  }
}

async function dig (modernBlock, tool, drop) {
  const blockName = nameFor(bot, modernBlock)
  const block = bot.findBlock({ matching: bot.registry.blocksByName[blockName].id, maxDistance: 6 })
  if (!block) throw new Error('no ' + blockName + ' in reach')
  await hold(tool)
  const before = counts()[drop] || 0
  const started = Date.now()
  await bot.dig(block, true)
  const took = Date.now() - started
  await until(`${blockName} gone`, () => bot.blockAt(block.position).name === 'air', 3000)
  return { took, before }
}

async function run () {
  await until('the scene', () => counts().bread && counts().stone_pickaxe && counts().wooden_pickaxe &&
    bot.food === 10 && bot.nearestEntity((e) => e.name === 'cow'), 20000)
  await step('log', async () => {
    const { took, before } = await dig('oak_log', null, nameFor(bot, 'oak_log'))
    await pickUp(nameFor(bot, 'oak_log'), before)
    return { took }
  })
  await step('stone', async () => {
    const { took, before } = await dig('stone', 'wooden_pickaxe', 'cobblestone')
    await pickUp('cobblestone', before)
    return { took }
  })
  await step('iron_wood', async () => {
    const rawIron = nameFor(bot, 'raw_iron') // iron ore drops itself before 1.17
    const { took } = await dig('iron_ore', 'wooden_pickaxe', rawIron)
    await sleep(1500) // time for a drop to be picked up, if there were one
    if (counts()[rawIron]) throw new Error('iron ore dug by hand dropped ' + rawIron)
    const drops = Object.values(bot.entities).filter((e) => e.name === 'item' && e.position.distanceTo(bot.entity.position) < 6)
    return { took, drops: drops.length }
  })
  await step('eat', async () => {
    const food = bot.food
    await hold('bread')
    await bot.consume()
    await until('the food bar', () => bot.food === food + 5, 3000)
    return { food: bot.food }
  })
  await step('cow', async () => {
    const cow = bot.nearestEntity((e) => e.name === 'cow')
    const before = counts().beef || 0
    await hold('stone_pickaxe')
    const deadline = Date.now() + 20000
    while (bot.entities[cow.id]) {
      if (Date.now() > deadline) throw new Error('the cow never died')
      if (cow.position.distanceTo(bot.entity.position) > 3) {
        await bot.lookAt(cow.position, true)
        bot.setControlState('forward', true)
      } else {
        bot.setControlState('forward', false)
        bot.attack(cow)
      }
      await sleep(650) // a pickaxe's cooldown (1.2 attacks a second)
    }
    bot.setControlState('forward', false)
    await pickUp('beef', before)
  })
}

async function fast () {
  await until('the stone', () => bot.findBlock({ matching: bot.registry.blocksByName.stone.id, maxDistance: 6 }), 20000)
  const block = bot.findBlock({ matching: bot.registry.blocksByName.stone.id, maxDistance: 6 })
  await step('fast_dig', async () => {
    const dig = (status) => bot._client.write('block_dig', { status, location: block.position, face: 1, sequence: bot._client.sequence = (bot._client.sequence || 100) + 1 })
    dig(0)
    dig(2)
    await until('the stone broken', () => bot.blockAt(block.position).name === 'air', 15000)
  })
}

async function shear () {
  const wool = nameFor(bot, 'white_wool') // wool before 1.13
  await until('the shears and a sheep', () => counts().shears && bot.nearestEntity((e) => e.name === 'sheep'), 20000)
  const sheep = bot.nearestEntity((e) => e.name === 'sheep')
  await hold('shears')
  // Up to the sheep (it strolls), facing it, then mineflayer's own right click.
  async function rightClick () {
    const deadline = Date.now() + 8000
    try {
      while (sheep.position.distanceTo(bot.entity.position) > 2.5) {
        if (Date.now() > deadline) throw new Error('the sheep kept out of reach')
        await bot.lookAt(sheep.position.offset(0, 0.7, 0), true)
        bot.setControlState('forward', true)
        await sleep(50)
      }
    } finally {
      bot.setControlState('forward', false)
    }
    await bot.lookAt(sheep.position.offset(0, 0.7, 0), true)
    await bot.activateEntity(sheep)
  }
  await step('shear', async () => {
    await rightClick()
    await pickUp(wool, 0)
    await sleep(1500) // the other pieces of the shearing, if any
    await pickUp(wool, counts()[wool] - 1)
    // mineflayer's own reading of the sheep's metadata: the wool byte's 0x10 (index 13 on 1.12.2).
    const keys = bot.registry.entitiesByName.sheep.metadataKeys
    const index = keys ? keys.indexOf('wool') : 13
    return { wool: counts()[wool], shornFlag: Boolean((sheep.metadata[index] || 0) & 0x10) }
  })
  await step('shorn', async () => {
    const before = counts()[wool]
    await rightClick()
    await sleep(1500)
    if (counts()[wool] !== before) throw new Error('a shorn sheep gave wool')
    return { wool: counts()[wool] }
  })
}

// Farming: the hoe on the grass east of the feet, the seeds on the farmland (mineflayer's own
// bot.activateBlock, its right click on the top face), the crop watched as mineflayer reads the
// server's block changes until ripe (the test speeds random ticks up), then dug and its drops
// walked into.
async function farm () {
  await until('a hoe and seeds', () => counts().wooden_hoe && counts().wheat_seeds, 20000)
  const ground = bot.entity.position.offset(1, -1, 0).floored()
  const above = ground.offset(0, 1, 0)
  await hold('wooden_hoe')
  await step('till', async () => {
    await bot.activateBlock(bot.blockAt(ground))
    await until('farmland', () => bot.blockAt(ground).name === 'farmland', 5000)
    return { block: bot.blockAt(ground).name }
  })
  await hold('wheat_seeds')
  await step('plant', async () => {
    const before = counts().wheat_seeds
    await bot.activateBlock(bot.blockAt(ground))
    await until('wheat', () => bot.blockAt(above).name === 'wheat', 5000)
    await until('a seed spent', () => (counts().wheat_seeds || 0) === before - 1, 5000)
    return { age: Number(bot.blockAt(above).getProperties().age), seeds: counts().wheat_seeds || 0 }
  })
  await step('grow', async () => {
    await until('ripe wheat', () => Number(bot.blockAt(above).getProperties().age) === 7, 30000)
    return { age: Number(bot.blockAt(above).getProperties().age) }
  })
  await step('harvest', async () => {
    const seeds = counts().wheat_seeds || 0
    await hold(null)
    await bot.dig(bot.blockAt(above))
    await pickUp('wheat', 0)
    await pickUp('wheat_seeds', seeds)
    return { wheat: counts().wheat, seeds: counts().wheat_seeds }
  })
}

async function idle () {
  bot.on('health', () => emit({ event: 'health', health: bot.health, food: bot.food }))
  await step('idle', () => sleep(Number(args.seconds) * 1000))
}

bot.once('spawn', () => {
  emit({ event: 'spawn', x: bot.entity.position.x, y: bot.entity.position.y, z: bot.entity.position.z })
  const scenario = { live: run, fast, shear, farm, idle }[args.scenario]
  scenario().then(
    () => emit({ event: 'done', ok: true, inventory: counts(), food: bot.food, health: bot.health }),
    (err) => { log('failed:', err && err.stack); emit({ event: 'done', ok: false, error: String(err && err.message), inventory: counts(), food: bot.food }) }
  ).finally(() => setTimeout(() => bot.quit(), 500))
})
