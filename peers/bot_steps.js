'use strict'
// What the scripted mineflayer bots (craft_bot.js, survival_bot.js) share: the bot, started
// with its lifecycle reported as JSON lines, its inventory as counts, and named steps.

const { emit, requirePeer } = require('./common')
const { legacyName } = require('./legacy_names')

// A mineflayer bot for `args` (host, port, username, version), offline; the process exits
// when it is disconnected.
function startBot (args) {
  const bot = requirePeer('mineflayer').createBot({
    host: args.host, port: Number(args.port), username: args.username, version: args.version, auth: 'offline'
  })
  bot.on('kicked', (reason) => emit({ event: 'kicked', reason: String(reason) }))
  bot.on('error', (err) => emit({ event: 'error', message: String(err && err.message) }))
  bot.on('end', (reason) => { emit({ event: 'end', reason: String(reason) }); process.exit(0) })
  return bot
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// item name -> count over the whole inventory.
function counts (bot) {
  const out = {}
  for (const item of bot.inventory.items()) out[item.name] = (out[item.name] || 0) + item.count
  return out
}

// An item or block name as the bot's version spells it: the modern name, or on 1.8-1.12 the
// old one (oak_log is log there; legacy_names.js).
function nameFor (bot, name) {
  if (bot.supportFeature('theFlattening')) return name
  return legacyName(name, (n) => Boolean(bot.registry.itemsByName[n] || bot.registry.blocksByName[n]))[0]
}

// Runs `fn`, reporting {"event":"step","name":N,"ok":B,...} with what it returns, or its error.
async function step (name, fn) {
  try {
    const extra = await fn()
    emit({ event: 'step', name, ok: true, ...(extra || {}) })
  } catch (err) {
    emit({ event: 'step', name, ok: false, error: String((err && err.message) || err) })
    throw err
  }
}

module.exports = { startBot, sleep, counts, step, nameFor }
