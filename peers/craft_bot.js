#!/usr/bin/env node
'use strict'
// mineflayer on its own, crafting and smelting up to an iron pickaxe: the evidence that the
// survival test server's windows (peers/survival/windows.js) behave as a vanilla server's,
// since mineflayer's window code is what vanilla servers accept. Nothing of mcagent's runs.
//
//   node peers/craft_bot.js --host 127.0.0.1 --port P --username NAME --version V
//
// It waits until it holds the materials the test gives it (4 oak logs, 11 cobblestone,
// 1 raw iron, 1 coal, 2 iron ingots), then: planks and sticks in its own 2x2 grid
// (bot.recipesFor + bot.craft), a crafting table (2x2) placed beside it, a wooden pickaxe,
// a stone pickaxe and a furnace at the table, the furnace placed, the raw iron smelted with
// the coal (bot.openFurnace), and the iron pickaxe from the three ingots. Names are modern
// ones, spelt as the version spells them (1.12.2: log, planks, iron ore; bot_steps.nameFor).
// stdout: {"event":"spawn"}, {"event":"step","name":S,"ok":true|false[,"error":E]} per step,
// {"event":"done","ok":B,"inventory":{item: count}} at the end; the process then exits.
//
// --scenario stale: clicks the way no vanilla client would, with mineflayer's own connection:
// a pick-up of the first hotbar stack with a state id the server never sent (vanilla applies
// it and answers with the whole window), then a put-back whose claim is false (the slot
// claimed to hold 64 diamonds: the server corrects that slot). Events: {"event":"window_items",
// "stateId":N,"cursor":C} and {"event":"set_slot","slot":S,"item":I} as they arrive.
//
// --scenario refused (1.12.2, clicks with an action number): see `refused` below.

const { emit, log, parseArgs, requirePeer } = require('./common')
const { startBot, sleep, counts: countsOf, step, nameFor } = require('./bot_steps')

const NEEDS = { oak_log: 4, cobblestone: 11, raw_iron: 1, coal: 1, iron_ingot: 2 }
const SMELT_TIMEOUT_MS = 30000 // one smelt is 200 ticks (10 s)

const args = parseArgs(process.argv.slice(2), {
  host: '127.0.0.1', port: '25565', username: 'crafter', version: '1.21.11', scenario: 'ladder'
})
const { Vec3 } = requirePeer('vec3')
const bot = startBot(args)
const counts = () => countsOf(bot)
const once = (emitter, name) => new Promise((resolve) => emitter.once(name, (...a) => resolve(a)))

async function craft (modern, times, table) {
  const name = nameFor(bot, modern)
  const item = bot.registry.itemsByName[name]
  const recipes = bot.recipesFor(item.id, null, 1, table)
  if (recipes.length === 0) throw new Error(`no recipe for ${name} with ${JSON.stringify(counts())}`)
  const before = counts()[name] || 0
  await bot.craft(recipes[0], times, table)
  const after = counts()[name] || 0
  if (after <= before) throw new Error(`crafting ${name} left ${after} (had ${before})`)
}

// Place the held `name` on the ground one block east (+x) of the bot; returns the block.
async function place (name, dx) {
  const item = bot.inventory.items().find((i) => i.name === name)
  if (!item) throw new Error('no ' + name + ' to place')
  await bot.equip(item, 'hand')
  const feet = bot.entity.position.floored()
  const ground = bot.blockAt(feet.offset(dx, -1, 0))
  await bot.placeBlock(ground, new Vec3(0, 1, 0))
  const block = bot.blockAt(feet.offset(dx, 0, 0))
  if (!block || block.name !== name) throw new Error(`${name} not placed: ${block && block.name}`)
  return block
}

async function smelt (furnaceBlock) {
  const furnace = await bot.openFurnace(furnaceBlock)
  try {
    await furnace.putFuel(bot.registry.itemsByName.coal.id, null, 1)
    await furnace.putInput(bot.registry.itemsByName[nameFor(bot, 'raw_iron')].id, null, 1)
    const deadline = Date.now() + SMELT_TIMEOUT_MS
    while (!furnace.outputItem() && Date.now() < deadline) await sleep(250)
    if (!furnace.outputItem()) throw new Error('nothing smelted')
    await furnace.takeOutput()
  } finally {
    furnace.close()
  }
}

async function run () {
  const deadline = Date.now() + 20000
  while (Object.entries(NEEDS).some(([name, n]) => (counts()[nameFor(bot, name)] || 0) < n)) {
    if (Date.now() > deadline) throw new Error('the materials never came: ' + JSON.stringify(counts()))
    await sleep(100)
  }
  await step('planks', () => craft('oak_planks', 3, null))
  await step('sticks', () => craft('stick', 2, null))
  await step('crafting_table', () => craft('crafting_table', 1, null))
  let table
  await step('place_table', async () => { table = await place('crafting_table', 1) })
  await step('wooden_pickaxe', () => craft('wooden_pickaxe', 1, table))
  await step('stone_pickaxe', () => craft('stone_pickaxe', 1, table))
  await step('furnace', () => craft('furnace', 1, table))
  let furnace
  await step('place_furnace', async () => { furnace = await place('furnace', -1) })
  await step('smelt', () => smelt(furnace))
  await step('iron_pickaxe', () => craft('iron_pickaxe', 1, table))
}

// A slot claim as this version writes it: a whole Slot, or from 1.21.5 a HashedSlot.
function claim (name, count) {
  const Item = requirePeer('prismarine-item')(bot.registry)
  if (bot.registry.version['>=']('1.21.5')) return name ? { itemId: bot.registry.itemsByName[name].id, itemCount: count, components: [], removeComponents: [] } : undefined
  return Item.toNotch(name ? new Item(bot.registry.itemsByName[name].id, count) : null)
}

async function stale () {
  while (!bot.inventory.slots[36]) await sleep(100)
  const first = bot.inventory.slots[36]
  bot._client.on('window_items', (p) => emit({ event: 'window_items', windowId: p.windowId, stateId: p.stateId }))
  bot._client.on('set_slot', (p) => emit({ event: 'set_slot', windowId: p.windowId, slot: p.slot }))
  const write = (stateId, slot, changed, cursor) => bot._client.write('window_click', {
    windowId: 0, stateId, slot, mouseButton: 0, mode: 0, changedSlots: changed, cursorItem: cursor
  })
  write(12345, 36, [{ location: 36, item: claim(null) }], claim(first.name, first.count))
  const [items] = await once(bot._client, 'window_items')
  emit({ event: 'step', name: 'stale_pickup', ok: true })
  await sleep(200)
  write(items.stateId, 36, [{ location: 36, item: claim('diamond', 64) }], claim(null))
  await sleep(500)
  emit({ event: 'step', name: 'false_claim', ok: true })
}

// Until 1.16 a click carries an action number and the item it expects back, and the server
// answers with a transaction (tests/e2e/test_survival_windows.py). Pick up the logs in slot 36
// claiming 64 diamonds there (refused: vanilla applies the click, then sends the window and the
// cursor); put them back before confirming the refusal (ignored, unanswered); confirm; put them
// back again (accepted). mineflayer's own transaction handler is taken off so that the bot, not
// mineflayer, confirms. Events: {"event":"transaction","action":A,"accepted":B}, window_items.
async function refused () {
  while (!bot.inventory.slots[36]) await sleep(100)
  const Item = requirePeer('prismarine-item')(bot.registry)
  const notch = (name, count) => Item.toNotch(name ? new Item(bot.registry.itemsByName[name].id, count) : null)
  bot._client.removeAllListeners('transaction')
  bot._client.on('transaction', (p) => emit({ event: 'transaction', action: p.action, accepted: p.accepted }))
  bot._client.on('window_items', (p) => emit({ event: 'window_items', windowId: p.windowId }))
  const click = (action, item) => bot._client.write('window_click', { windowId: 0, slot: 36, mouseButton: 0, action, mode: 0, item })
  click(1, notch('diamond', 64))
  const [answer] = await once(bot._client, 'transaction')
  if (answer.accepted) throw new Error('a false claim was accepted')
  click(2, notch(null))
  bot._client.write('transaction', { windowId: 0, action: 1, accepted: true })
  click(3, notch(null))
  const [last] = await once(bot._client, 'transaction')
  emit({ event: 'step', name: 'refused', ok: last.action === 3 && last.accepted })
}

bot.once('spawn', () => {
  emit({ event: 'spawn', x: bot.entity.position.x, y: bot.entity.position.y, z: bot.entity.position.z })
  const scenario = { stale, refused, ladder: run }[args.scenario]
  scenario().then(
    () => emit({ event: 'done', ok: true, inventory: counts() }),
    (err) => { log('failed:', err && err.stack); emit({ event: 'done', ok: false, error: String(err && err.message), inventory: counts() }) }
  ).finally(() => setTimeout(() => bot.quit(), 500))
})
