#!/usr/bin/env node
'use strict'
// A scripted Minecraft server without a world (minecraft-protocol createServer), for
// protocol-level end-to-end tests on versions flying-squid cannot speak (e.g. 26.1).
//
//   node peers/mcp_server.js --port 0 --version 26.1 [--motd TEXT] [--commands somecommand,other]
//                            [--command-tree yes|no]
//
// What it does for each player: login (offline mode), configuration (minecraft-protocol
// sends registry_data + finish_configuration on 1.20.2+ itself; it sends no
// select_known_packs, feature_flags or tags), then in play: the 'login' packet (from
// minecraft-data's loginPacket sample), a command tree (root -> each --commands name
// -> greedy string argument; none with --command-tree no), and a position. Keep-alives every 4 s while in play
// (our own loop: minecraft-protocol's restarts itself on every return to play).
//
// stdout events (one JSON object per line):
//   {"event":"ready","port":P,"version":V}
//   {"event":"login","player":N,"uuid":U}                 play 'login' and position sent
//   {"event":"chat","player":N,"message":TEXT}             every chat_message / chat packet, text as received
//   {"event":"command","player":N,"command":TEXT}          chat_command(_signed), or pre-1.19 chat "/..." (no '/')
//   {"event":"teleport_confirm","player":N,"teleportId":I}
//   {"event":"reconfigured","player":N}                    back in play after a reconfigure
//   {"event":"left","player":N}
//   {"event":"error","message":M[,"id":K][,"fatal":true]}
//   {"event":"stopping"}
// stdin commands, handled one at a time in order (answers carry the command's id):
//   {"cmd":"say","text":T[,"id":K]}        system chat to every player in play -> {"event":"said","id":K,"count":n}
//   {"cmd":"reconfigure"[,"player":N][,"known_packs":bool][,"id":K]}
//        every player in play (or only N): start_configuration, wait for the client's
//        configuration_acknowledged, [select_known_packs and the client's answer],
//        registry_data, finish_configuration, wait for the client's
//        finish_configuration, then play 'login', command tree and position again.
//        Reports {"event":"reconfigured","player":N} per player, then
//        {"event":"reconfigure_done","id":K,"players":[N...]} (or an error event).
//   {"cmd":"players","id":K}               -> {"event":"players","id":K,"players":[N...]}
//   {"cmd":"kick","player":N[,"reason":R][,"id":K]}
//   {"cmd":"stop"}                          same as closing stdin

const { emit, log, parseArgs, requirePeer, readCommands } = require('./common')
const { layouts } = require('./layouts')

const SHUTDOWN_GRACE_MS = 1000
const KEEP_ALIVE_MS = 4000
const STEP_TIMEOUT_MS = 10000
const SPAWN = { x: 0.5, y: 64, z: 0.5 }

let args
try {
  args = parseArgs(process.argv.slice(2), {
    port: '0',
    version: '1.21.4',
    motd: 'mcagent scripted server',
    commands: 'somecommand',
    'command-tree': 'yes'
  })
} catch (err) {
  emit({ event: 'error', fatal: true, message: err.message })
  process.exit(2)
}

const mc = requirePeer('minecraft-protocol')
const mcData = requirePeer('minecraft-data')(args.version)
if (!mcData) {
  emit({ event: 'error', fatal: true, message: 'minecraft-data does not know version ' + args.version })
  process.exit(2)
}
if (!mcData.loginPacket) {
  emit({ event: 'error', fatal: true, message: 'minecraft-data has no login packet sample for ' + args.version })
  process.exit(2)
}

const hasConfiguration = mcData.supportFeature('hasConfigurationState')
const segmentedRegistry = mcData.supportFeature('segmentedRegistryCodecData')
const playToServer = mcData.protocol.play.toServer.types
const commandNames = String(args.commands).split(',').map((s) => s.trim()).filter(Boolean)
const sendCommandTree = args['command-tree'] !== 'no'

process.on('uncaughtException', (err) => {
  log('uncaught:', (err && err.stack) || err)
  emit({ event: 'error', message: String((err && err.message) || err) })
})
process.on('unhandledRejection', (err) => {
  log('unhandled rejection:', (err && err.stack) || err)
  emit({ event: 'error', message: String((err && err.message) || err) })
})

// Packets from minecraft-data's layouts (peers/layouts.js), so one script serves every version.
const packets = layouts(mcData)

function positionPacket (teleportId) {
  return packets.positionPacket(SPAWN, teleportId)
}

// -- server ----------------------------------------------------------------------------

let server
try {
  server = mc.createServer({
    'online-mode': false,
    host: '127.0.0.1',
    port: Number(args.port),
    version: args.version,
    motd: args.motd,
    keepAlive: false,
    hideErrors: true,
    enforceSecureProfile: false,
    errorHandler: (client, err) => {
      log('client error', client.username, (err && err.stack) || err)
      emit({ event: 'error', message: `client ${client.username}: ${(err && err.message) || err}` })
      client.end(String((err && err.message) || err))
    }
  })
} catch (err) {
  emit({ event: 'error', fatal: true, message: String((err && err.message) || err) })
  process.exit(2)
}

const players = new Map() // username -> client
let nextEntityId = 1
let ready = false
let stopping = false

server.on('error', (err) => {
  const message = String((err && err.message) || err)
  if (!ready) {
    emit({ event: 'error', fatal: true, message })
    process.exit(1)
  }
  emit({ event: 'error', message })
})

server.on('listening', () => {
  ready = true
  emit({ event: 'ready', port: server.socketServer.address().port, version: args.version })
})

server.on('login', (client) => {
  client.entityId = nextEntityId++
  client.inPlay = false
  client.reconfiguring = false
  client.nextTeleportId = 1
  players.set(client.username, client)

  client.on('end', () => {
    clearInterval(client.keepAliveTimer)
    if (players.get(client.username) === client) players.delete(client.username)
    emit({ event: 'left', player: client.username })
  })

  client.on('chat_message', (packet) => emit({ event: 'chat', player: client.username, message: packet.message }))
  client.on('chat_command', (packet) => emit({ event: 'command', player: client.username, command: packet.command }))
  client.on('chat_command_signed', (packet) => emit({ event: 'command', player: client.username, command: packet.command }))
  client.on('chat', (packet) => {
    // Before 1.19 a command is chat starting with '/'.
    if (playToServer.packet_chat_command === undefined && String(packet.message).startsWith('/')) {
      emit({ event: 'command', player: client.username, command: String(packet.message).slice(1) })
    } else {
      emit({ event: 'chat', player: client.username, message: packet.message })
    }
  })
  client.on('teleport_confirm', (packet) => {
    emit({ event: 'teleport_confirm', player: client.username, teleportId: packet.teleportId })
  })

  client.keepAliveTimer = setInterval(() => {
    if (client.state === 'play' && client.inPlay && !client.reconfiguring) {
      client.write('keep_alive', { keepAliveId: Math.floor(Math.random() * 2147483647) })
    }
  }, KEEP_ALIVE_MS)

  // Without a configuration state, minecraft-protocol puts the client in play at once.
  if (!hasConfiguration) enterPlay(client)
})

// With a configuration state, minecraft-protocol emits playerJoin after the client's
// finish_configuration.
server.on('playerJoin', (client) => {
  if (hasConfiguration) enterPlay(client)
})

function enterPlay (client) {
  sendPlay(client)
  emit({ event: 'login', player: client.username, uuid: client.uuid })
}

function sendPlay (client) {
  client.write('login', packets.loginPacket(client.entityId, 1))
  const tree = sendCommandTree ? packets.commandTreePacket(commandNames) : null
  if (tree) client.write('declare_commands', tree)
  client.write('position', positionPacket(client.nextTeleportId++))
  client.inPlay = true
}

// Resolve with the next packet `name` from the client, or reject after a timeout or if
// the client leaves.
function nextPacket (client, name, timeoutMs = STEP_TIMEOUT_MS) {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer)
      client.removeListener(name, onPacket)
      client.removeListener('end', onEnd)
    }
    const onPacket = (packet) => { cleanup(); resolve(packet) }
    const onEnd = () => { cleanup(); reject(new Error(`${client.username} left while waiting for ${name}`)) }
    const timer = setTimeout(() => {
      cleanup()
      reject(new Error(`${client.username}: no ${name} within ${timeoutMs} ms (state ${client.state})`))
    }, timeoutMs)
    client.on(name, onPacket)
    client.once('end', onEnd)
  })
}

function sendRegistries (client) {
  const codec = server.options.registryCodec
  if (segmentedRegistry) {
    for (const key in codec) client.write('registry_data', codec[key])
  } else {
    client.write('registry_data', { codec: codec || {} })
  }
}

async function reconfigure (client, knownPacks) {
  client.reconfiguring = true
  try {
    // The client's answer is a play-state packet; after it both sides speak configuration.
    const acknowledged = nextPacket(client, 'configuration_acknowledged')
    client.write('start_configuration', {})
    await acknowledged
    client.inPlay = false
    client.state = 'configuration'
    if (knownPacks && mcData.protocol.configuration.toClient.types.packet_select_known_packs) {
      const answer = nextPacket(client, 'select_known_packs')
      client.write('select_known_packs', { packs: [{ namespace: 'minecraft', id: 'core', version: mcData.version.minecraftVersion }] })
      await answer
    }
    sendRegistries(client)
    const finished = nextPacket(client, 'finish_configuration')
    client.write('finish_configuration', {})
    await finished
    client.state = 'play'
    sendPlay(client)
    emit({ event: 'reconfigured', player: client.username })
  } finally {
    client.reconfiguring = false
  }
}

function findPlayer (name) {
  const client = players.get(name)
  if (!client) throw new Error('no such player: ' + name)
  return client
}

const handlers = {
  say (cmd) {
    const [name, fields] = packets.systemChatPacket(String(cmd.text ?? ''))
    let count = 0
    for (const client of players.values()) {
      if (client.state === 'play' && client.inPlay) {
        client.write(name, fields)
        count++
      }
    }
    if (cmd.id !== undefined) emit({ event: 'said', id: cmd.id, count })
  },

  async reconfigure (cmd) {
    if (!hasConfiguration) throw new Error(args.version + ' has no configuration state')
    const targets = cmd.player !== undefined
      ? [findPlayer(cmd.player)]
      : [...players.values()].filter((c) => c.state === 'play' && c.inPlay)
    await Promise.all(targets.map((c) => reconfigure(c, cmd.known_packs !== false)))
    emit({ event: 'reconfigure_done', id: cmd.id, players: targets.map((c) => c.username) })
  },

  players (cmd) {
    emit({ event: 'players', id: cmd.id, players: [...players.keys()] })
  },

  kick (cmd) {
    const client = findPlayer(cmd.player)
    client.end(cmd.reason !== undefined ? String(cmd.reason) : 'Kicked by test')
    if (cmd.id !== undefined) emit({ event: 'kicked', id: cmd.id, player: client.username })
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
  setTimeout(() => process.exit(0), SHUTDOWN_GRACE_MS).unref()
  for (const client of players.values()) {
    try {
      client.end('Server closed')
    } catch (err) {
      log('end failed:', (err && err.stack) || err)
    }
  }
  try {
    server.close()
  } catch (err) {
    log('close failed:', (err && err.stack) || err)
  }
  setTimeout(() => process.exit(0), 100)
}

process.on('SIGTERM', () => shutdown('SIGTERM'))
process.on('SIGINT', () => shutdown('SIGINT'))
