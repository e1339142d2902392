#!/usr/bin/env node
'use strict'
// A flying-squid server for end-to-end tests, driven by JSON lines.
//
//   node peers/server.js --port 0 --version 1.18.2 [--motd TEXT] [--gamemode creative|survival]
//        [--online-mode true --session-server URL]
//
// Online mode verifies every player with the session server at URL (hasJoined), as a
// vanilla server does with Mojang's (see useAccountServices in common.js).
//
// stdout events (one JSON object per line):
//   {"event":"ready","port":P,"version":V}             accepting logins
//   {"event":"login","player":N,"uuid":U}             player spawned in the world
//   {"event":"chat","player":N,"message":TEXT}         chat text exactly as the server received it
//   {"event":"command","player":N,"command":TEXT}      a command the player sent (no leading '/')
//   {"event":"left","player":N}
//   {"event":"error","message":M[,"id":K][,"fatal":true]}
//   {"event":"stopping"}
// stdin commands, handled one at a time in order; every answer carries the command's
// id, and a failed command is answered with {"event":"error","id":K,"cmd":C,"message":M}:
//   {"cmd":"position","player":N,"id":K}   -> {"event":"position","id":K,"player":N,"x","y","z","onGround"}
//   {"cmd":"run","command":"/fill ...","id":K[,"player":N]}
//                                           -> {"event":"ran","id":K,"ok":bool,"result":str|null[,"error":str]}
//   {"cmd":"say","text":T[,"to":N][,"id":K]} -> {"event":"said","id":K}  (only when id given)
//   {"cmd":"players","id":K}               -> {"event":"players","id":K,"players":[N...]}
//   {"cmd":"teleport","player":N,"x","y","z","id":K} -> {"event":"teleported","id":K}
//   {"cmd":"block","x","y","z","id":K}     -> {"event":"block","id":K,"x","y","z","name":S,"stateId":I}
//   {"cmd":"kick","player":N[,"reason":R],"id":K} -> {"event":"kicked","id":K,"player":N}
//   {"cmd":"stop"}                          same as closing stdin
// Exits on stdin EOF, SIGTERM or SIGINT (hard exit after a short grace period).

const { emit, log, parseArgs, requirePeer, readCommands, useAccountServices } = require('./common')

const GAMEMODES = { survival: 0, creative: 1, adventure: 2, spectator: 3 }
const SHUTDOWN_GRACE_MS = 1500
const MAX_FILL_VOLUME = 65536

let args
try {
  args = parseArgs(process.argv.slice(2), {
    port: '0',
    version: '1.18.2',
    motd: 'mcagent test server',
    gamemode: 'creative',
    'view-distance': '2',
    'max-players': '20',
    generation: 'superflat',
    seed: '1',
    'online-mode': 'false',
    'session-server': ''
  })
} catch (err) {
  emit({ event: 'error', fatal: true, message: err.message })
  process.exit(2)
}

const gameMode = args.gamemode in GAMEMODES ? GAMEMODES[args.gamemode] : Number(args.gamemode)
if (!Number.isInteger(gameMode) || gameMode < 0 || gameMode > 3) {
  emit({ event: 'error', fatal: true, message: 'bad --gamemode: ' + args.gamemode })
  process.exit(2)
}

useAccountServices({ sessionServer: args['session-server'] })
const mcServer = requirePeer('flying-squid')
const { Vec3 } = requirePeer('vec3')

let ready = false
let stopping = false

process.on('uncaughtException', (err) => {
  // flying-squid rethrows command errors from a timer; report and keep serving.
  log('uncaught:', (err && err.stack) || err)
  emit({ event: 'error', message: String((err && err.message) || err) })
})
process.on('unhandledRejection', (err) => {
  log('unhandled rejection:', (err && err.stack) || err)
  emit({ event: 'error', message: String((err && err.message) || err) })
})

let serv
try {
  serv = mcServer.createMCServer({
    host: '127.0.0.1',
    port: Number(args.port),
    'online-mode': args['online-mode'] === 'true',
    version: args.version,
    worldFolder: undefined,
    // superflat by default; diamond_square gives hills, water and caves (bench/memory.py --terrain).
    generation: { name: args.generation, options: { seed: Number(args.seed) } },
    'view-distance': Number(args['view-distance']),
    'everybody-op': true,
    logging: false,
    'max-players': Number(args['max-players']),
    motd: args.motd,
    gameMode,
    difficulty: 1,
    kickTimeout: 10000,
    plugins: {},
    modpe: false,
    'max-entities': 100,
    'player-list-text': { header: { text: 'mcagent e2e' }, footer: { text: 'flying-squid' } },
    // minecraft-protocol (under flying-squid) builds a plugin-channel codec per client at
    // login and, by default, validates its schemas with ajv: ~400 ms of this single thread
    // per login, stalling every other player's packets (bench/probes.py's login rows).
    validateChannelProtocol: false
  })
} catch (err) {
  emit({ event: 'error', fatal: true, message: String((err && err.message) || err) })
  process.exit(2)
}

serv.on('error', (err) => {
  const message = String((err && err.message) || err)
  if (!ready) {
    emit({ event: 'error', fatal: true, message })
    process.exit(1)
  }
  emit({ event: 'error', message })
})

serv.on('clientError', (client, err) => {
  log('client error', client && client.username, (err && err.stack) || err)
})

serv.on('ready', () => {
  ready = true
  emit({ event: 'ready', port: serv.listeningPort, version: args.version })
})

serv.on('newPlayer', (player) => {
  player.on('spawned', () => emit({ event: 'login', player: player.username, uuid: player.uuid }))
  // flying-squid finishes a login only at the client's first 'flying' or 'look' packet, and then
  // sends the player back to where it logged in. mineflayer from 1.12 sends neither until it turns
  // its head, so a player moved before that is later pulled back: say when it has happened.
  const waitPlayerLogin = player.waitPlayerLogin
  player.waitPlayerLogin = () => waitPlayerLogin().then(() => {
    setImmediate(() => emit({ event: 'login_settled', player: player.username }))
  })
  // 'chat' is flying-squid's chat behaviour event; data.message is the text of the
  // chat packet (legacy `chat` or 1.19+ `chat_message`) before any formatting.
  player.on('chat', (data) => {
    emit({ event: 'chat', player: player.username, message: data.message })
  })
  player.on('command', (data) => {
    emit({ event: 'command', player: player.username, command: data.command })
  })
  player.on('disconnected', () => emit({ event: 'left', player: player.username }))
  // flying-squid 1.12.0 respawns on client_command only when the action equals 0, but
  // minecraft-data 3.x decodes it as the name 'perform_respawn': nobody could respawn. Do
  // what its own handler would (respawn.js), for the dead only.
  player._client.on('client_command', (data) => {
    const action = data.actionId ?? data.payload
    if (action !== 'perform_respawn' || player.health > 0) return
    emit({ event: 'respawn_requested', player: player.username })
    player._sendRespawn()
    player.sendSelfPosition()
    player.updateHealth(20)
    player.nearbyEntities = []
    player.updateAndSpawn()
  })
})

// flying-squid has no /fill; tests need terrain (walls, water, lava), so add one.
serv.commands.add({
  base: 'fill',
  info: 'fill a box with a block',
  usage: '/fill <x1> <y1> <z1> <x2> <y2> <z2> <block>',
  op: true,
  parse (str) {
    const parts = str.trim().split(/\s+/)
    if (parts.length !== 7) return false
    return parts
  },
  async action (parts, ctx) {
    const base = ctx.player ? ctx.player.position : new Vec3(0, 0, 0)
    const axes = ['x', 'y', 'z']
    const coords = parts.slice(0, 6).map((s, i) => Math.floor(serv.posFromString(s, base[axes[i % 3]])))
    if (coords.some((n) => !Number.isFinite(n))) throw new mcServer.UserError('bad coordinates')
    const stateId = stateIdOf(parts[6])
    const [x1, x2] = [Math.min(coords[0], coords[3]), Math.max(coords[0], coords[3])]
    const [y1, y2] = [Math.min(coords[1], coords[4]), Math.max(coords[1], coords[4])]
    const [z1, z2] = [Math.min(coords[2], coords[5]), Math.max(coords[2], coords[5])]
    const volume = (x2 - x1 + 1) * (y2 - y1 + 1) * (z2 - z1 + 1)
    if (volume > MAX_FILL_VOLUME) throw new mcServer.UserError(`too many blocks (${volume} > ${MAX_FILL_VOLUME})`)
    const world = ctx.player ? ctx.player.world : serv.overworld
    for (let x = x1; x <= x2; x++) {
      for (let y = y1; y <= y2; y++) {
        for (let z = z1; z <= z2; z++) {
          await serv.setBlock(world, new Vec3(x, y, z), stateId)
        }
      }
    }
    return `filled ${volume} blocks`
  }
})

function stateIdOf (blockName) {
  const name = String(blockName).replace(/^minecraft:/, '')
  const block = serv.registry.blocksByName[name]
  if (!block) throw new mcServer.UserError('unknown block: ' + blockName)
  if (serv.supportFeature('theFlattening')) return block.defaultState ?? block.minStateId
  return block.id << 4
}

function findPlayer (name) {
  const player = serv.players.find((p) => p.username === name)
  if (!player) throw new Error('no such player: ' + name)
  return player
}

function num (value, what) {
  const n = Number(value)
  if (value === undefined || value === null || !Number.isFinite(n)) throw new Error('bad ' + what + ': ' + value)
  return n
}

const handlers = {
  position (cmd) {
    const p = findPlayer(cmd.player)
    emit({ event: 'position', id: cmd.id, player: p.username, x: p.position.x, y: p.position.y, z: p.position.z, onGround: p.onGround, health: p.health })
  },

  async run (cmd) {
    let text = String(cmd.command || '').trim()
    if (text.startsWith('/')) text = text.slice(1)
    const ctx = cmd.player ? { player: findPlayer(cmd.player) } : {}
    try {
      const result = await serv.commands.use(text, ctx, true)
      emit({ event: 'ran', id: cmd.id, ok: true, result: result ?? null })
    } catch (err) {
      emit({ event: 'ran', id: cmd.id, ok: false, result: null, error: String((err && err.message) || err) })
    }
  },

  say (cmd) {
    // An object component is passed through untouched; a plain string would go
    // through flying-squid's '&' colour-code parser and lose characters.
    const component = cmd.json !== undefined ? cmd.json : { text: String(cmd.text ?? '') }
    const whitelist = cmd.to !== undefined ? [findPlayer(cmd.to)] : serv.players
    serv.broadcast(component, { whitelist })
    if (cmd.id !== undefined) emit({ event: 'said', id: cmd.id })
  },

  players (cmd) {
    emit({ event: 'players', id: cmd.id, players: serv.players.map((p) => p.username) })
  },

  async teleport (cmd) {
    const p = findPlayer(cmd.player)
    await p.teleport(new Vec3(num(cmd.x, 'x'), num(cmd.y, 'y'), num(cmd.z, 'z')))
    emit({ event: 'teleported', id: cmd.id, player: p.username })
  },

  async block (cmd) {
    const pos = new Vec3(num(cmd.x, 'x'), num(cmd.y, 'y'), num(cmd.z, 'z')).floored()
    const block = await serv.overworld.getBlock(pos)
    emit({ event: 'block', id: cmd.id, x: pos.x, y: pos.y, z: pos.z, name: block ? block.name : null, stateId: block ? block.stateId : null })
  },

  inventory (cmd) {
    // The server's own record of the player's inventory: item name -> total count.
    const p = findPlayer(cmd.player)
    const items = {}
    for (const item of p.inventory.slots) {
      if (item && item.type !== -1 && item.count > 0) items[item.name] = (items[item.name] || 0) + item.count
    }
    emit({ event: 'inventory', id: cmd.id, player: p.username, items })
  },

  kick (cmd) {
    const p = findPlayer(cmd.player)
    p.kick(cmd.reason !== undefined ? String(cmd.reason) : 'Kicked by test')
    emit({ event: 'kicked', id: cmd.id, player: p.username })
  },

  stop () {
    shutdown('stop command')
  }
}

readCommands(handlers, () => shutdown('stdin closed'), { serial: true })

function shutdown (why) {
  if (stopping) return
  stopping = true
  log('shutting down:', why)
  emit({ event: 'stopping' })
  // serv.quit() waits for every player to disconnect and can hang; never wait long.
  setTimeout(() => process.exit(0), SHUTDOWN_GRACE_MS)
  Promise.resolve()
    .then(() => serv.quit('Server closed'))
    .catch((err) => log('quit failed:', (err && err.stack) || err))
    .then(() => process.exit(0))
}

process.on('SIGTERM', () => shutdown('SIGTERM'))
process.on('SIGINT', () => shutdown('SIGINT'))
