#!/usr/bin/env node
'use strict'
// A mineflayer bot for end-to-end tests, driven by JSON lines.
//
//   node peers/bot.js --host 127.0.0.1 --port P --username NAME --version 1.18.2
//
// stdout events (one JSON object per line):
//   {"event":"login","username":N,"version":V}          logged in (play state)
//   {"event":"spawn","x","y","z"}                        spawned (again after a respawn)
//   {"event":"chat","text":T,"json":J,"position":P}      every chat/system message received;
//                                                         T plain text, J the component as JSON,
//                                                         P "chat" | "system" | "game_info"
//   {"event":"forced_move","x","y","z"}                  the server moved the bot (position packet)
//   {"event":"kicked","reason":T,"json":J,"loggedIn":B}  T plain text of the reason
//   {"event":"end","reason":R}                           connection closed; the process then exits
//   {"event":"error","message":M[,"id":K,"cmd":C]}
// stdin commands (answers carry the command's id; commands run concurrently):
//   {"cmd":"chat","text":T[,"raw":true][,"id":K]}  -> {"event":"sent","id":K} (only when id given)
//        bot.chat() splits long text and lines; "raw" sends one packet with the text as is
//   {"cmd":"walk","direction":"forward","blocks":N,"id":K[,"timeout":S][,"sprint":B]}
//        -> {"event":"walked","id":K,"x","y","z","moved":D,"ok":B}  (ok=false on timeout)
//   {"cmd":"position","id":K}   -> {"event":"position","id":K,"x","y","z","yaw","pitch","onGround"}
//   {"cmd":"look","yaw":Y,"pitch":P,"id":K}  -> {"event":"looked","id":K}   (radians, mineflayer convention)
//   {"cmd":"sneak_twice","id":K} -> {"event":"sneaked","id":K}  (sneak on/off twice within 0.4 s)
//   {"cmd":"control","control":C,"state":B[,"id":K]} -> {"event":"controlled","id":K}
//   {"cmd":"players_seen","id":K} -> {"event":"players_seen","id":K,"players":{N:{"x","y","z"}}}
//        the other players whose entities the bot sees
//   {"cmd":"status","id":K}     -> {"event":"status","id":K,"health","food","gameMode","alive","timeOfDay"}
//   {"cmd":"items","id":K}      -> {"event":"items","id":K,"items":{NAME:COUNT}}  (what the client holds)
//   {"cmd":"block_at","x","y","z","id":K} -> {"event":"block_at","id":K,"name":N|null}  (null: not loaded)
//   {"cmd":"dig","x","y","z","id":K} -> {"event":"dug","id":K,"name":N}  (mineflayer's bot.dig)
//   {"cmd":"activate","x","y","z","id":K} -> {"event":"activated","id":K}  (right-click the block: mineflayer's bot.activateBlock)
//   {"cmd":"sleep","x","y","z","id":K} -> {"event":"slept","id":K}  (mineflayer's bot.sleep: lies down
//        in the bed once the server's metadata says so); {"event":"woke"} when the server wakes the bot
//   {"cmd":"quit"}              -> leaves the server, then the process exits

const { emit, log, parseArgs, requirePeer, readCommands, chatText } = require('./common')

const WALK_SPEED = 4.3 // blocks per second, vanilla walking
const STOP_WAIT_MS = 1000
const EXIT_GRACE_MS = 1000
const SNEAK_STEP_MS = 80 // on, off, on, off: 0.32 s in all
const DIRECTIONS = new Set(['forward', 'back', 'left', 'right'])

let args
try {
  args = parseArgs(process.argv.slice(2), {
    host: '127.0.0.1',
    port: '25565',
    username: 'bot',
    version: '1.18.2',
    respawn: 'true',
    locale: '' // the client's language setting (en_us when empty, as mineflayer sends)
  })
} catch (err) {
  emit({ event: 'error', fatal: true, message: err.message })
  process.exit(2)
}

const mineflayer = requirePeer('mineflayer')

let ChatMessage = null
let exiting = false

const bot = mineflayer.createBot({
  host: args.host,
  port: Number(args.port),
  username: args.username,
  version: args.version,
  auth: 'offline',
  respawn: args.respawn !== 'false', // false: the death screen stays until someone else (the proxy) respawns
  hideErrors: true,
  logErrors: false,
  checkTimeoutInterval: 30000
})
// Sent in the client settings at login, as a player's game language is. The settings
// plugin exists once mineflayer has loaded its plugins ('inject_allowed', before login).
if (args.locale) bot.once('inject_allowed', () => { bot.settings.locale = args.locale })

function chatMessage () {
  if (!ChatMessage && bot.registry) ChatMessage = requirePeer('prismarine-chat')(bot.registry)
  return ChatMessage
}

function text (value) {
  const CM = chatMessage()
  if (!CM) return typeof value === 'string' ? value : JSON.stringify(value)
  return chatText(CM, value)
}

function jsonOf (value) {
  if (value === undefined || value === null) return null
  if (typeof value === 'string') {
    try {
      return JSON.parse(value)
    } catch (err) {
      return value
    }
  }
  if (value.type === 'compound') {
    try {
      return JSON.parse(requirePeer('prismarine-chat').processNbtMessage(value))
    } catch (err) {
      return null
    }
  }
  return value
}

function where () {
  const p = bot.entity.position
  return { x: p.x, y: p.y, z: p.z }
}

function exitSoon (code) {
  if (exiting) return
  exiting = true
  setTimeout(() => process.exit(code), 50)
}

bot.once('login', () => emit({ event: 'login', username: bot.username, version: bot.version }))
bot.on('spawn', () => emit({ event: 'spawn', ...where() }))
bot.on('forcedMove', () => emit({ event: 'forced_move', ...where() }))
bot.on('wake', () => emit({ event: 'woke' }))

bot.on('message', (msg, position) => {
  emit({ event: 'chat', text: msg.toString(), json: msg.json ?? null, position: position ?? null })
})

bot.on('kicked', (reason, loggedIn) => {
  emit({ event: 'kicked', reason: text(reason), json: jsonOf(reason), loggedIn: !!loggedIn })
})

bot.on('error', (err) => {
  emit({ event: 'error', message: String((err && err.message) || err) })
})

bot.on('end', (reason) => {
  emit({ event: 'end', reason: reason === undefined ? null : String(reason) })
  exitSoon(0)
})

process.on('uncaughtException', (err) => {
  log('uncaught:', (err && err.stack) || err)
  emit({ event: 'error', message: String((err && err.message) || err) })
})

function sleep (ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function horizontalDistance (a, b) {
  return Math.hypot(a.x - b.x, a.z - b.z)
}

function requireSpawned () {
  if (!bot.entity || !bot.entity.position) throw new Error('bot has not spawned yet')
}

async function walk (cmd) {
  requireSpawned()
  const direction = cmd.direction || 'forward'
  if (!DIRECTIONS.has(direction)) throw new Error('bad direction: ' + direction)
  const blocks = Number(cmd.blocks ?? 1)
  if (!(blocks > 0)) throw new Error('bad blocks: ' + cmd.blocks)
  const timeoutMs = 1000 * Number(cmd.timeout ?? (2 * blocks / WALK_SPEED + 3))
  const start = bot.entity.position.clone()
  const deadline = Date.now() + timeoutMs

  let reached = false
  await new Promise((resolve) => {
    const onTick = () => {
      if (horizontalDistance(bot.entity.position, start) >= blocks) reached = true
      if (reached || Date.now() >= deadline) {
        bot.removeListener('physicsTick', onTick)
        resolve()
      }
    }
    bot.on('physicsTick', onTick)
    if (cmd.sprint) bot.setControlState('sprint', true)
    bot.setControlState(direction, true)
  })
  bot.setControlState(direction, false)
  if (cmd.sprint) bot.setControlState('sprint', false)

  // Let the bot come to rest so the position reported is where it stays (and what
  // the server has been told by the following position packets).
  const stopBy = Date.now() + STOP_WAIT_MS
  let last = bot.entity.position.clone()
  let stillTicks = 0
  while (Date.now() < stopBy && stillTicks < 3) {
    await new Promise((resolve) => bot.once('physicsTick', resolve))
    const now = bot.entity.position
    stillTicks = now.distanceTo(last) < 1e-4 ? stillTicks + 1 : 0
    last = now.clone()
  }
  emit({
    event: 'walked',
    id: cmd.id,
    ...where(),
    moved: horizontalDistance(bot.entity.position, start),
    ok: reached
  })
}

async function sneakTwice (cmd) {
  requireSpawned()
  for (const state of [true, false, true, false]) {
    bot.setControlState('sneak', state)
    await sleep(SNEAK_STEP_MS)
  }
  emit({ event: 'sneaked', id: cmd.id })
}

const handlers = {
  chat (cmd) {
    const message = String(cmd.text ?? '')
    if (cmd.raw) bot._client.chat(message)
    else bot.chat(message)
    if (cmd.id !== undefined) emit({ event: 'sent', id: cmd.id })
  },
  walk,
  position (cmd) {
    requireSpawned()
    emit({ event: 'position', id: cmd.id, ...where(), yaw: bot.entity.yaw, pitch: bot.entity.pitch, onGround: bot.entity.onGround })
  },
  async look (cmd) {
    requireSpawned()
    await bot.look(Number(cmd.yaw ?? bot.entity.yaw), Number(cmd.pitch ?? bot.entity.pitch), true)
    emit({ event: 'looked', id: cmd.id })
  },
  sneak_twice: sneakTwice,
  control (cmd) {
    requireSpawned()
    bot.setControlState(String(cmd.control), !!cmd.state)
    if (cmd.id !== undefined) emit({ event: 'controlled', id: cmd.id })
  },
  players_seen (cmd) {
    requireSpawned()
    const seen = {}
    for (const [name, player] of Object.entries(bot.players)) {
      if (name !== bot.username && player.entity) {
        const p = player.entity.position
        seen[name] = { x: p.x, y: p.y, z: p.z }
      }
    }
    emit({ event: 'players_seen', id: cmd.id, players: seen })
  },
  status (cmd) {
    emit({
      event: 'status', id: cmd.id, health: bot.health, food: bot.food, gameMode: bot.game && bot.game.gameMode, alive: bot.isAlive,
      timeOfDay: bot.time ? bot.time.timeOfDay : null
    })
  },
  items (cmd) {
    const items = {}
    for (const item of bot.inventory.items()) items[item.name] = (items[item.name] || 0) + item.count
    emit({ event: 'items', id: cmd.id, items })
  },
  block_at (cmd) {
    requireSpawned()
    const { Vec3 } = requirePeer('vec3')
    const block = bot.blockAt(new Vec3(Number(cmd.x), Number(cmd.y), Number(cmd.z)))
    emit({ event: 'block_at', id: cmd.id, name: block ? block.name : null })
  },
  async dig (cmd) {
    requireSpawned()
    const { Vec3 } = requirePeer('vec3')
    const block = bot.blockAt(new Vec3(Number(cmd.x), Number(cmd.y), Number(cmd.z)))
    if (!block) throw new Error('no block loaded at ' + [cmd.x, cmd.y, cmd.z])
    await bot.dig(block, true)
    emit({ event: 'dug', id: cmd.id, name: block.name })
  },
  async activate (cmd) {
    requireSpawned()
    const { Vec3 } = requirePeer('vec3')
    const block = bot.blockAt(new Vec3(Number(cmd.x), Number(cmd.y), Number(cmd.z)))
    if (!block) throw new Error('no block loaded at ' + [cmd.x, cmd.y, cmd.z])
    await bot.activateBlock(block)
    emit({ event: 'activated', id: cmd.id })
  },
  async sleep (cmd) {
    requireSpawned()
    const { Vec3 } = requirePeer('vec3')
    const block = bot.blockAt(new Vec3(Number(cmd.x), Number(cmd.y), Number(cmd.z)))
    if (!block) throw new Error('no block loaded at ' + [cmd.x, cmd.y, cmd.z])
    await bot.sleep(block)
    emit({ event: 'slept', id: cmd.id })
  },
  quit () {
    quit('quit command')
  }
}

function quit (why) {
  log('quitting:', why)
  setTimeout(() => process.exit(0), EXIT_GRACE_MS)
  try {
    bot.quit()
  } catch (err) {
    process.exit(0)
  }
}

readCommands(handlers, () => quit('stdin closed'))

process.on('SIGTERM', () => quit('SIGTERM'))
process.on('SIGINT', () => quit('SIGINT'))
