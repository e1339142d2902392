#!/usr/bin/env node
'use strict'
// A small world server for end-to-end tests on the versions flying-squid lacks
// (1.21.5 -> 26.1; 1.20.1 and 1.12.2 work too), driven by JSON lines like peers/server.js.
// 1.12.2 is before the flattening: blocks are id << 4 | metadata, modern names in world files,
// /setblock and /give are read as 1.12's (legacy_names.js), and the packets that differ are
// built by layouts.js's named functions.
//
//   node peers/world.js --port 0 --version 1.21.8 [--gamemode creative|survival] [--view-distance 2]
//        [--online-mode true --session-server URL [--services-key PEMFILE] [--enforce-secure-profile true]]
//        [--record-chat true] [--rules basic|survival [--world FILE] [--seed N] [--mobs true|false]
//        [--difficulty peaceful|easy|normal|hard] [--random-tick-speed N]]
//
// Online mode verifies every player with the session server at URL (hasJoined), as a
// vanilla server does with Mojang's; --services-key is the public key profile keys must be
// signed with (Mojang's by default), --enforce-secure-profile checks every signed chat
// message as vanilla does (minecraft-protocol kicks with chat_validation_failed).
// --record-chat emits {"event":"chat_packet","player":N,"name":P,"hex":H} with the exact
// bytes (packet id and body) of every chat, command, acknowledgement and chat-session
// packet a player sends, so a test can compare them with what its client sent.
//
// How it works: minecraft-protocol's createServer does login and configuration; this
// script does play. The world is superflat (bedrock y=0, dirt 1-3, grass 4: players
// stand at y=5), one prismarine-chunk column per chunk, made on first use. Players see
// each other (player info + a player entity; every accepted move is relayed as a
// teleport); chat is broadcast as system chat "<name> text". A 20 Hz tick applies lava
// damage; fall damage is counted from the moves a client reports. Health 0 is death;
// client_command perform_respawn brings the player back at the spawn. Breaking a block
// (instantly in creative, on "finish digging" in survival) puts its drop in the
// breaker's inventory (survival only, as vanilla). After a teleport the server ignores
// moves until the client confirms it (as vanilla does), so a move sent before the
// teleport arrived cannot undo it. A day clock runs at 20 ticks a second from the
// morning (time 0) and reaches the clients as vanilla sends it (update_time at login,
// every second and when it jumps); beds (`/setblock x y z red_bed[part=head,facing=east]`,
// one block per part) work as vanilla's: used at night (12542..23459) within reach, the
// player lies down (pose SLEEPING and the bed's position in the entity metadata, to
// everyone); by day the answer is vanilla's "only at night" on the action bar. Once every
// player has slept 100 ticks the clock skips to the morning and everyone stands up
// where they lay down from. No hunger, mobs, weather, crafting or block physics.
//
// --rules survival adds vanilla's survival rules from peers/survival/ (docs/survival-server.md):
// the player's 2x2 crafting grid, crafting tables and furnaces with vanilla's window clicks
// (windows.js); digging with dig times, a too-early finish delayed (digging.js); drops as item
// entities the player walks into (items.js); hurt with invulnerable time, lava, fire and
// drowning (body.js); hunger and eating (hunger.js); cows and, with --mobs true (the default),
// zombies at night (mobs.js); tilling, planting and crops growing on random ticks (farming.js,
// --random-tick-speed: vanilla's gamerule, 3). --world FILE plays a `mcagent-world/1` file (docs/world-file.md:
// the simulator's world for a seed) instead of the superflat world; --seed seeds drops and
// spawns; --difficulty overrides the file's (normal without a file). Its stdin commands: window
// (the open window's slots, cursor and state id), furnace (a furnace's slots, burn time and
// progress), entities (every item, cow and zombie), spawn_item (name, count, x, y, z), food
// (set a player's food and saturation); commands /summon <cow|sheep|zombie> [x y z], /difficulty D;
// its events: window_opened, window_closed, crafted, smelted, dropped, click_resync,
// window_sync, dug, dig_refused, dig_delayed, item_dropped, picked_up, ate, eat_refused,
// mob_spawned, mob_hurt, mob_died, attack_refused.
//
// stdout events: ready, login, chat, command, left, error, stopping (as server.js), and
//   {"event":"died","player":N,"cause":C}   {"event":"respawn_requested","player":N}
//   {"event":"hurt","player":N,"amount":A,"cause":C,"health":H}
//   {"event":"slept","player":N,"x":X,"y":Y,"z":Z}  (the bed's head)   {"event":"woke","player":N}
//   {"event":"bed_refused","player":N,"reason":"no_sleep"|"too_far_away"|"occupied"}
//   {"event":"morning","time":T}  (the night was slept through)
// stdin commands (answers carry the id; as server.js): position (with health, food,
// gamemode, sleeping: the bed or null), run ("/setblock", "/fill", "/tp", "/gamemode",
// "/kill", "/give", "/time"), say, players, teleport, block, inventory, time, kick, stop,
// transfer (1.20.5+: a Transfer packet to host:port, as vanilla's /transfer sends; answered "transferred").

const fs = require('fs')
const { emit, log, parseArgs, requirePeer, readCommands, useAccountServices } = require('./common')
const { layouts, GAME_MODES } = require('./layouts')
const { harvestDrop } = require('./block_drops')
const { legacyName } = require('./legacy_names')

const SHUTDOWN_GRACE_MS = 1000
const TICK_MS = 50
const MAX_FILL_VOLUME = 65536
const SPAWN = { x: 0.5, y: 5, z: 0.5 }
const GROUND = [['bedrock', 0], ['dirt', 1], ['dirt', 2], ['dirt', 3], ['grass_block', 4]]
const LAVA_DAMAGE = 4 // vanilla: 4 per half second in lava
const LAVA_INTERVAL_TICKS = 10
const SAFE_FALL = 3 // blocks fallen without damage
const TELEPORT_CONFIRM_MS = 3000 // moves are accepted again if a confirmation never comes
const HOTBAR = [36, 44] // inventory window slots
const MAIN = [9, 35]
const DAY = 24000 // ticks
const TIME_SYNC_TICKS = 20 // vanilla sends the time once a second
const NIGHT = [12542, 23459] // the times of day a bed may be used (vanilla, clear weather)
const SLEEP_TICKS = 100 // everyone asleep this long: the night is skipped
const BED_REACH = { across: 3, up: 2 } // vanilla: from the bed's bottom centre
const POSE_STANDING = 0
const POSE_SLEEPING = 2
const ANIMATION_WAKE_UP = 2
// Where each facing points (a bed's head is one step from its foot that way).
const FACING = { north: [0, -1], south: [0, 1], west: [-1, 0], east: [1, 0] }

let args
try {
  args = parseArgs(process.argv.slice(2), {
    port: '0',
    version: '1.21.8',
    motd: 'mcagent world server',
    gamemode: 'creative',
    'view-distance': '2',
    'max-players': '20',
    'online-mode': 'false',
    'session-server': '',
    'services-key': '',
    'enforce-secure-profile': 'false',
    'record-chat': 'false',
    rules: 'basic',
    world: '',
    seed: '0',
    mobs: 'true',
    difficulty: '',
    'random-tick-speed': '3' // vanilla's gamerule: random ticks a 16^3 section gets each tick (crops grow on them)
  })
} catch (err) {
  emit({ event: 'error', fatal: true, message: err.message })
  process.exit(2)
}
const onlineMode = args['online-mode'] === 'true'
useAccountServices({
  sessionServer: args['session-server'],
  servicesKeyPem: args['services-key'] ? fs.readFileSync(args['services-key'], 'utf8') : ''
})
const CHAT_PACKETS = new Set(['chat', 'chat_message', 'chat_command', 'chat_command_signed',
  'message_acknowledgement', 'chat_session_update'])

const defaultMode = gameModeOf(args.gamemode)
if (defaultMode === null) {
  emit({ event: 'error', fatal: true, message: 'bad --gamemode: ' + args.gamemode })
  process.exit(2)
}
const viewDistance = Number(args['view-distance'])
if (args.rules !== 'basic' && args.rules !== 'survival') {
  emit({ event: 'error', fatal: true, message: 'bad --rules: ' + args.rules + ' (basic or survival)' })
  process.exit(2)
}

const mc = requirePeer('minecraft-protocol')
const mcData = requirePeer('minecraft-data')(args.version)
if (!mcData || (!mcData.loginPacket && mcData.supportFeature('theFlattening'))) {
  emit({ event: 'error', fatal: true, message: 'minecraft-data has no login sample for ' + args.version })
  process.exit(2)
}
const registry = requirePeer('prismarine-registry')(args.version)
const Chunk = requirePeer('prismarine-chunk')(registry)
const Item = requirePeer('prismarine-item')(registry)
const { Vec3 } = requirePeer('vec3')
const packets = layouts(mcData)
const flattened = mcData.supportFeature('theFlattening') // 1.13+: blocks are states, not id + metadata
const hasConfiguration = mcData.supportFeature('hasConfigurationState')
if (args.rules !== 'survival' && (args.world || args.difficulty)) {
  emit({ event: 'error', fatal: true, message: '--world and --difficulty need --rules survival' })
  process.exit(2)
}
// --rules survival: digging, drops, the body, hunger and mobs (rules, made once the world's
// functions below exist) and crafting grids, crafting tables and furnaces (windows).
let rules = null
const windows = args.rules === 'survival' ? require('./survival/windows')({
  registry,
  Item,
  stacks: require('./survival/stacks')(registry, Item),
  crafting: require('./survival/crafting')(registry),
  packets,
  emit,
  drop: (player, stack) => rules.dropFrom(player, stack)
}) : null

process.on('uncaughtException', (err) => {
  log('uncaught:', (err && err.stack) || err)
  emit({ event: 'error', message: String((err && err.message) || err) })
})

// -- the world ------------------------------------------------------------------------

const AIR = registry.blocksByName.air.defaultState
const columns = new Map() // "cx,cz" -> Chunk
let worldFile = null
if (args.world) {
  try {
    worldFile = require('./survival/world_file').loadWorldFile(args.world, stateIdOf)
  } catch (err) {
    emit({ event: 'error', fatal: true, message: 'bad --world: ' + err.message })
    process.exit(2)
  }
}
const spawnPoint = worldFile ? worldFile.spawn : SPAWN

// A column of the world file's box (or of the wall round it).
function fileColumn (cx, cz) {
  const chunk = new Chunk({ minY: -64, worldHeight: 384 })
  for (let x = 0; x < 16; x++) {
    for (let z = 0; z < 16; z++) {
      for (let y = 0; y < worldFile.height; y++) {
        const state = worldFile.stateAt(cx * 16 + x, y, cz * 16 + z)
        if (state !== null && state !== AIR) chunk.setBlockStateId(new Vec3(x, y, z), state)
      }
    }
  }
  return chunk
}

// A superflat column (prismarine-chunk's toJson/fromJson does not round-trip on
// 1.21.5+, so each column is built, not copied).
function flatColumn () {
  const chunk = new Chunk({ minY: -64, worldHeight: 384 })
  for (let x = 0; x < 16; x++) {
    for (let z = 0; z < 16; z++) {
      for (const [name, y] of GROUND) chunk.setBlockStateId(new Vec3(x, y, z), stateIdOf(name))
    }
  }
  return chunk
}

// A block state as /setblock writes it, "name" or "name[key=value,...]": the block's
// default state with the given properties changed. minecraft-data lists each block's
// properties in order; a state id is minStateId plus the value indices in mixed radix
// (the first property most significant), and a bool's values are true, false.
function stateIdOf (spec) {
  const match = /^(?:minecraft:)?([a-z0-9_]+)(?:\[([^\]]*)\])?$/.exec(String(spec))
  if (match && !flattened) return legacyStateId(match[1])
  const block = match && registry.blocksByName[match[1]]
  if (!block) throw new Error('unknown block: ' + spec)
  if (!match[2]) return block.defaultState
  const states = block.states || []
  const index = {}
  let rest = block.defaultState - block.minStateId
  for (let i = states.length - 1; i >= 0; i--) {
    index[states[i].name] = rest % states[i].num_values
    rest = Math.floor(rest / states[i].num_values)
  }
  for (const pair of match[2].split(',').filter((p) => p.trim())) {
    const [key, value] = pair.split('=').map((t) => String(t).trim())
    const state = states.find((st) => st.name === key)
    if (!state) throw new Error(`${block.name} has no property ${key}`)
    // minecraft-data leaves out an int property's values on some versions (wheat's age on
    // 1.18.2): they count from 0 there (age, moisture), which is what the world files use.
    const ints = state.type === 'int' ? Array.from({ length: state.num_values }, (_, i) => String(i)) : []
    const found = (state.values || (state.type === 'bool' ? ['true', 'false'] : ints)).indexOf(value)
    if (found < 0) throw new Error(`bad value for ${block.name}'s ${key}: ${value}`)
    index[key] = found
  }
  return block.minStateId + states.reduce((id, st) => id * st.num_values + index[st.name], 0)
}

// Before 1.13 a block state is the block's id and a metadata (id << 4 | metadata): a modern
// name is read as its 1.12 block and variant (legacy_names.js); properties are not modelled.
function legacyStateId (name) {
  const [legacy, metadata] = legacyName(name, (n) => Boolean(registry.blocksByName[n]))
  const block = registry.blocksByName[legacy]
  if (!block) throw new Error('unknown block: ' + name)
  return block.minStateId + metadata
}

// An item name as this version's registry spells it (1.12: `log` for oak_log, ...).
function itemName (name) {
  return flattened ? name : legacyName(name, (n) => Boolean(registry.itemsByName[n]))[0]
}

function column (cx, cz) {
  const key = cx + ',' + cz
  let chunk = columns.get(key)
  if (!chunk) {
    chunk = worldFile ? fileColumn(cx, cz) : flatColumn()
    columns.set(key, chunk)
  }
  return chunk
}

function inChunk (pos) {
  return new Vec3(pos.x & 15, pos.y, pos.z & 15)
}

function blockAt (pos) {
  const p = new Vec3(Math.floor(pos.x), Math.floor(pos.y), Math.floor(pos.z))
  return column(p.x >> 4, p.z >> 4).getBlock(inChunk(p))
}

function setBlock (pos, stateId) {
  const p = new Vec3(Math.floor(pos.x), Math.floor(pos.y), Math.floor(pos.z))
  column(p.x >> 4, p.z >> 4).setBlockStateId(inChunk(p), stateId)
  for (const player of players.values()) {
    if (player.sentChunks.has((p.x >> 4) + ',' + (p.z >> 4))) {
      player.client.write('block_change', { location: p, type: stateId })
    }
  }
}

// 1.21.5 sends heightmaps as a list, earlier versions as NBT; the client needs neither.
const emptyHeightmaps = Array.isArray(packets.fieldType('map_chunk', 'heightmaps'))
  ? []
  : requirePeer('prismarine-nbt').comp({})

function sendChunk (player, cx, cz) {
  player.client.write('map_chunk', packets.mapChunkPacket(cx, cz, column(cx, cz), emptyHeightmaps))
  player.sentChunks.add(cx + ',' + cz)
}

// Every chunk within the view distance of the player that it has not had yet.
function sendChunksAround (player) {
  const cx = Math.floor(player.pos.x) >> 4
  const cz = Math.floor(player.pos.z) >> 4
  if (player.centre === cx + ',' + cz) return
  player.centre = cx + ',' + cz
  if (mcData.protocol.play.toClient.types.packet_update_view_position) {
    player.client.write('update_view_position', { chunkX: cx, chunkZ: cz })
  }
  for (let dx = -viewDistance; dx <= viewDistance; dx++) {
    for (let dz = -viewDistance; dz <= viewDistance; dz++) {
      if (!player.sentChunks.has((cx + dx) + ',' + (cz + dz))) sendChunk(player, cx + dx, cz + dz)
    }
  }
}

// -- players ----------------------------------------------------------------------------

const players = new Map() // username -> player
let nextEntityId = 1
// 1.8-1.12's minecraft-data lists no player entity: players have their own spawn packet there.
const playerType = registry.entitiesByName.player?.id

function gameModeOf (value) {
  const text = String(value).toLowerCase()
  const aliases = { s: 0, c: 1, a: 2, sp: 3 }
  if (GAME_MODES.includes(text)) return GAME_MODES.indexOf(text)
  if (text in aliases) return aliases[text]
  const n = Number(text)
  return Number.isInteger(n) && n >= 0 && n <= 3 ? n : null
}

function hurtable (player) {
  return !player.dead && (player.gameMode === 0 || player.gameMode === 2)
}

function others (player) {
  return [...players.values()].filter((p) => p !== player && p.inPlay)
}

function playerInfoAdd (player) {
  return packets.playerInfoAddPacket(player.uuid, player.username, player.gameMode)
}

function spawnPlayerEntity (viewer, player) {
  const p = player.pos
  if (mcData.protocol.play.toClient.types.packet_named_entity_spawn) {
    viewer.client.write('named_entity_spawn', {
      entityId: player.entityId, playerUUID: player.uuid, x: p.x, y: p.y, z: p.z, yaw: packets.angle(p.yaw), pitch: packets.angle(p.pitch),
      metadata: [] // until 1.14
    })
  } else {
    viewer.client.write('spawn_entity', packets.spawnEntityPacket(player.entityId, player.uuid, playerType, p))
  }
}

// Where `player` is now, told to every other player.
function relayMove (player) {
  const [name, fields] = packets.entityPositionPacket(player.entityId, player.pos, player.onGround)
  for (const viewer of others(player)) {
    viewer.client.write(name, fields)
    viewer.client.write('entity_head_rotation', { entityId: player.entityId, headYaw: packets.angle(player.pos.yaw) })
  }
}

function say (targets, value) {
  const [name, fields] = packets.systemChatPacket(value)
  for (const p of targets) if (p.inPlay) p.client.write(name, fields)
}

function sendHealth (player) {
  player.client.write('update_health', { health: player.health, food: player.food, foodSaturation: player.saturation ?? 5 })
}

function sendAbilities (player) {
  // creative: invulnerable | may fly | instant break
  const flags = player.gameMode === 1 ? 0x01 | 0x04 | 0x08 : player.gameMode === 3 ? 0x01 | 0x02 | 0x04 : 0
  player.client.write('abilities', { flags, flyingSpeed: 0.05, walkingSpeed: 0.1 })
}

function teleport (player, pos) {
  Object.assign(player.pos, pos)
  player.fallDistance = 0
  player.pendingTeleport = { id: player.nextTeleportId++, at: Date.now() }
  player.client.write('position', packets.positionPacket(player.pos, player.pendingTeleport.id))
  sendChunksAround(player)
  relayMove(player)
}

function join (client) {
  const player = {
    client,
    username: client.username,
    uuid: client.uuid,
    entityId: nextEntityId++,
    pos: { x: spawnPoint.x, y: spawnPoint.y, z: spawnPoint.z, yaw: 0, pitch: 0 },
    onGround: true,
    gameMode: defaultMode,
    health: 20,
    food: 20,
    dead: false,
    fallDistance: 0,
    lavaTicks: 0,
    slots: new Array(46).fill(null), // inventory window 0: {name, count} or null
    heldSlot: 0,
    stateId: 1,
    sentChunks: new Set(),
    centre: null,
    nextTeleportId: 1,
    pendingTeleport: null,
    sleeping: null, // {bed: the head's Vec3, since: world age, from: where the player lay down from}
    inPlay: false
  }
  players.set(player.username, player)
  client.on('end', () => leave(player))
  // minecraft-protocol 1.68's secure-chat check reads the session's id as `sessionUuid`, while
  // minecraft-data names the field `sessionUUID`: without this, every signed line after a chat
  // session fails its check with a TypeError. Runs before that check (prepended).
  client.prependListener('chat_session_update', (packet) => {
    if (packet.sessionUuid === undefined) packet.sessionUuid = packet.sessionUUID
  })
  if (args['record-chat'] === 'true') {
    client.on('raw', (buffer, meta) => {
      if (meta.state === 'play' && CHAT_PACKETS.has(meta.name)) {
        emit({ event: 'chat_packet', player: player.username, name: meta.name, hex: buffer.toString('hex') })
      }
    })
  }

  client.write('login', packets.loginPacket(player.entityId, player.gameMode, {
    maxPlayers: Number(args['max-players']), viewDistance, simulationDistance: viewDistance
  }))
  sendAbilities(player)
  sendChunksAround(player)
  const tree = packets.commandTreePacket(Object.keys(COMMANDS))
  if (tree) client.write('declare_commands', tree)
  if (worldFile) for (const s of worldFile.inventory) player.slots[s.slot] = { name: itemName(s.name), count: s.count }
  if (rules) rules.join(player, { food: 20, saturation: 5 })
  teleport(player, spawnPoint)
  if (hasConfiguration) client.write('game_state_change', { reason: 'level_chunks_load_start', gameMode: 0 })
  sendHealth(player)
  sendInventory(player)
  client.write('update_time', timePacket())
  player.inPlay = true

  for (const other of others(player)) {
    other.client.write('player_info', playerInfoAdd(player))
    client.write('player_info', playerInfoAdd(other))
    spawnPlayerEntity(other, player)
    spawnPlayerEntity(player, other)
    if (other.sleeping) client.write('entity_metadata', poseMetadata(other))
  }
  client.write('player_info', playerInfoAdd(player))

  client.on('chat_message', (packet) => onChat(player, packet.message))
  // Until 1.19 one chat packet carries lines and commands ("/" first).
  client.on('chat', (packet) => {
    const text = String(packet.message)
    if (text.startsWith('/')) onCommand(player, text.slice(1))
    else onChat(player, text)
  })
  client.on('chat_command', (packet) => onCommand(player, packet.command))
  client.on('chat_command_signed', (packet) => onCommand(player, packet.command))
  client.on('teleport_confirm', (packet) => {
    if (player.pendingTeleport && packet.teleportId === player.pendingTeleport.id) player.pendingTeleport = null
  })
  for (const name of ['position', 'position_look', 'look', 'flying']) client.on(name, (packet) => onMove(player, packet))
  client.on('client_command', (packet) => {
    const action = packet.actionId ?? packet.payload
    if ((action === 'perform_respawn' || action === 0) && player.dead) respawn(player)
  })
  client.on('block_dig', (packet) => onDig(player, packet))
  client.on('held_item_slot', (packet) => { player.heldSlot = packet.slotId })
  if (rules) {
    client.on('use_item', () => { if (!player.dead) rules.useItem(player) })
    // Attacks: use_entity with mouse 1 until 1.21.x, their own packet on 26.1.
    // Interactions (shears on a sheep): mouse 0 until 1.21.x (the "interact_at" a client sends
    // first is for armour stands), the only use_entity there is on 26.1; the main hand's.
    client.on('use_entity', (packet) => {
      if (player.dead) return
      if (packet.mouse === 1 || packet.mouse === 'attack') rules.attack(player, packet.target)
      const interact = packet.mouse === undefined || packet.mouse === 0 || packet.mouse === 'interact'
      const hand = packet.hand === undefined || packet.hand === 0 || packet.hand === 'main_hand'
      if (interact && hand) rules.interact(player, packet.target)
    })
    client.on('attack', (packet) => { if (!player.dead) rules.attack(player, packet.entityId) })
  }
  client.on('block_place', (packet) => onPlace(player, packet))
  if (windows) {
    client.on('window_click', (packet) => windows.click(player, packet))
    client.on('close_window', (packet) => windows.close(player, false, packet.windowId))
    client.on('transaction', (packet) => windows.confirm(player, packet)) // until 1.16
  }
  client.on('entity_action', (packet) => {
    // "Leave Bed": a name where the layout maps the ids, 2 where it does not (1.20.1)
    if ((packet.actionId === 'stop_sleeping' || packet.actionId === 2) && player.sleeping) wake(player, true)
    if (packet.actionId === 'start_sprinting' || packet.actionId === 3) player.sprinting = true
    if (packet.actionId === 'stop_sprinting' || packet.actionId === 4) player.sprinting = false
  })
  client.on('set_creative_slot', (packet) => {
    if (player.gameMode !== 1 || packet.slot < 0 || packet.slot >= player.slots.length) return
    const item = Item.fromNotch(packet.item)
    player.slots[packet.slot] = item ? { name: item.name, count: item.count } : null
  })
  emit({ event: 'login', player: player.username, uuid: player.uuid })
}

function leave (player) {
  if (players.get(player.username) !== player) return
  players.delete(player.username)
  if (windows) windows.leave(player)
  if (player.sleeping) wake(player, false)
  for (const other of others(player)) {
    other.client.write('entity_destroy', { entityIds: [player.entityId] })
    if (mcData.protocol.play.toClient.types.packet_player_remove) {
      other.client.write('player_remove', { players: [player.uuid] })
    }
  }
  emit({ event: 'left', player: player.username })
}

function onChat (player, message) {
  message = String(message)
  emit({ event: 'chat', player: player.username, message })
  say(players.values(), `<${player.username}> ${message}`)
}

function onCommand (player, command) {
  emit({ event: 'command', player: player.username, command })
  try {
    const result = runCommand(command, player)
    if (result) say([player], result)
  } catch (err) {
    say([player], { text: String(err.message), color: 'red' })
  }
}

// A move the client reports: x/y/z and/or yaw/pitch, and onGround (a bool, or a flags
// object from 1.21.2).
function onMove (player, packet) {
  if (player.dead) return
  if (player.pendingTeleport) {
    if (Date.now() - player.pendingTeleport.at < TELEPORT_CONFIRM_MS) return
    player.pendingTeleport = null
  }
  const onGround = packet.flags && typeof packet.flags === 'object' ? !!packet.flags.onGround : !!packet.onGround
  const from = { x: player.pos.x, y: player.pos.y, z: player.pos.z }
  const wasOnGround = player.onGround
  if (packet.x !== undefined && !player.sleeping) { // a sleeper stays in the bed
    const dy = packet.y - player.pos.y
    Object.assign(player.pos, { x: packet.x, y: packet.y, z: packet.z })
    if (dy < 0) player.fallDistance -= dy
  }
  if (packet.yaw !== undefined) Object.assign(player.pos, { yaw: packet.yaw, pitch: packet.pitch })
  if (touching(player, 'lava') || touching(player, 'water')) player.fallDistance = 0
  if (onGround && !player.onGround && player.fallDistance > SAFE_FALL && hurtable(player)) {
    hurt(player, Math.ceil(player.fallDistance - SAFE_FALL), 'fall')
  }
  if (onGround) player.fallDistance = 0
  player.onGround = onGround
  if (rules && hurtable(player)) rules.moved(player, from, wasOnGround)
  sendChunksAround(player)
  relayMove(player)
}

function touching (player, name) {
  const { x, y, z } = player.pos
  return blockAt({ x, y, z }).name === name || blockAt({ x, y: y + 1, z }).name === name
}

function tick () {
  tickClock()
  if (windows) windows.tick([...players.values()].filter((p) => p.inPlay))
  if (rules) return rules.tick([...players.values()].filter((p) => p.inPlay))
  for (const player of players.values()) {
    if (!player.inPlay || !hurtable(player)) continue
    if (touching(player, 'lava')) {
      if (player.lavaTicks++ % LAVA_INTERVAL_TICKS === 0) damage(player, LAVA_DAMAGE, 'lava')
    } else {
      player.lavaTicks = 0
    }
  }
}

// A hurt: through the survival rules' invulnerable time when they are on.
function hurt (player, amount, cause) {
  if (rules) rules.hurt(player, amount, cause)
  else damage(player, amount, cause)
}

function heal (player, amount) {
  if (player.dead) return
  player.health = Math.min(20, player.health + amount)
  sendHealth(player)
}

function damage (player, amount, cause) {
  player.health = Math.max(0, player.health - amount)
  sendHealth(player)
  emit({ event: 'hurt', player: player.username, amount, cause, health: player.health })
  if (player.health === 0) die(player, cause)
}

function die (player, cause) {
  if (player.sleeping) wake(player, false)
  player.dead = true
  player.health = 0
  sendHealth(player)
  if (rules) {
    rules.died(player)
    sendInventory(player)
  }
  const message = `${player.username} died (${cause})`
  player.client.write(...packets.deathPacket(player.entityId, message))
  emit({ event: 'died', player: player.username, cause })
}

function respawn (player) {
  emit({ event: 'respawn_requested', player: player.username })
  player.client.write('respawn', packets.respawnPacket(player.gameMode))
  player.dead = false
  player.health = 20
  player.food = 20
  player.lavaTicks = 0
  player.sentChunks.clear() // a respawn gives the client a fresh level
  player.centre = null
  sendAbilities(player)
  if (rules) rules.respawned(player)
  teleport(player, spawnPoint)
  sendHealth(player)
  sendInventory(player)
}

function setGameMode (player, mode) {
  player.gameMode = mode
  player.client.write('game_state_change', { reason: 'change_game_mode', gameMode: mode })
  sendAbilities(player)
  for (const p of players.values()) {
    if (p.inPlay) {
      p.client.write('player_info', packets.playerInfoGameModePacket(player.uuid, mode))
    }
  }
}

// -- blocks and items -------------------------------------------------------------------

function onDig (player, packet) {
  if (player.dead) return
  if (rules && player.gameMode !== 1 && player.gameMode !== 3) {
    rules.dig(player, { status: packet.status, location: new Vec3(packet.location.x, packet.location.y, packet.location.z) })
    return acknowledge(player, packet)
  }
  const pos = new Vec3(packet.location.x, packet.location.y, packet.location.z)
  const block = blockAt(pos)
  const instant = player.gameMode === 1 || block.hardness === 0
  const breaks = (packet.status === 0 && instant) || (packet.status === 2 && player.gameMode !== 1)
  if (breaks && block.name !== 'air' && block.name !== 'bedrock') {
    removeBlock(pos)
    const drop = harvestDrop(registry, block, heldItem(player))
    if (hurtable(player) && drop) give(player, drop, 1)
  }
  if (packet.sequence !== undefined && mcData.protocol.play.toClient.types.packet_acknowledge_player_digging) {
    player.client.write('acknowledge_player_digging', { sequenceId: packet.sequence })
  }
}

// A block broken: its window closes, a furnace's contents drop (`dropAt`, or are lost).
function removeBlock (pos, dropAt) {
  setBlock(pos, AIR)
  if (windows) windows.blockRemoved(pos, players.values(), dropAt)
}

// The block as the server has it, to a client whose prediction it refused.
function resendBlock (player, pos) {
  player.client.write('block_change', { location: pos, type: blockAt(pos).stateId })
}

function heldItem (player) {
  return player.slots[HOTBAR[0] + player.heldSlot]
}


function onPlace (player, packet) {
  if (!player.dead && packet.location !== undefined && isBed(blockAt(packet.location))) {
    useBed(player, new Vec3(packet.location.x, packet.location.y, packet.location.z))
    acknowledge(player, packet)
    return
  }
  if (windows && packet.location !== undefined && windows.use(player, packet.location, blockAt(packet.location))) {
    acknowledge(player, packet)
    return
  }
  const held = heldItem(player)
  if (rules && !player.dead && packet.location !== undefined &&
      rules.useOn(player, packet.location, packet.direction, held, () => take(player, HOTBAR[0] + player.heldSlot, 1))) {
    acknowledge(player, packet)
    return
  }
  if (player.dead || !held || !registry.blocksByName[held.name] || packet.location === undefined) return
  const face = [[0, -1, 0], [0, 1, 0], [0, 0, -1], [0, 0, 1], [-1, 0, 0], [1, 0, 0]][packet.direction]
  if (!face) return
  const at = new Vec3(packet.location.x + face[0], packet.location.y + face[1], packet.location.z + face[2])
  if (blockAt(at).name !== 'air') return
  setBlock(at, stateIdOf(held.name))
  if (player.gameMode !== 1) take(player, HOTBAR[0] + player.heldSlot, 1)
  acknowledge(player, packet)
}

// The answer to a use of the block (1.19+): the client's predicted changes may go.
function acknowledge (player, packet) {
  if (packet.sequence !== undefined && mcData.protocol.play.toClient.types.packet_acknowledge_player_digging) {
    player.client.write('acknowledge_player_digging', { sequenceId: packet.sequence })
  }
}

function slotItem (slot) {
  return slot ? Item.toNotch(new Item(registry.itemsByName[slot.name].id, slot.count)) : Item.toNotch(null)
}

function sendSlot (player, index) {
  if (windows) return windows.sync(player) // what changed, in the window the player has open
  player.client.write('set_slot', { windowId: 0, stateId: player.stateId++, slot: index, item: slotItem(player.slots[index]) })
}

function sendInventory (player) {
  if (windows) return windows.sendAll(player)
  player.client.write('window_items', {
    windowId: 0, stateId: player.stateId++, items: player.slots.map(slotItem), carriedItem: Item.toNotch(null)
  })
}

// Stack on a matching slot first, then the first empty one (hotbar before main); the count
// that did not fit is returned.
function give (player, name, count) {
  name = itemName(name)
  const item = registry.itemsByName[name]
  if (!item) throw new Error('unknown item: ' + name)
  const order = []
  for (const [a, b] of [HOTBAR, MAIN]) for (let i = a; i <= b; i++) order.push(i)
  while (count > 0) {
    const index = order.find((i) => player.slots[i] && player.slots[i].name === name && player.slots[i].count < item.stackSize) ??
      order.find((i) => !player.slots[i])
    if (index === undefined) return count
    const slot = player.slots[index] || { name, count: 0 }
    const added = Math.min(count, item.stackSize - slot.count)
    slot.count += added
    count -= added
    player.slots[index] = slot
    sendSlot(player, index)
  }
  return 0
}

function take (player, index, count) {
  const slot = player.slots[index]
  if (!slot) return
  slot.count -= count
  if (slot.count <= 0) player.slots[index] = null
  sendSlot(player, index)
}

// -- the clock and beds -----------------------------------------------------------------

// World age and day time in ticks; the day time counts the days too (time of day is
// time % DAY), as vanilla's does.
const clock = { age: 0, time: worldFile ? worldFile.time : 0 }
const metadataKeys = registry.entitiesByName.player?.metadataKeys ?? [] // beds' poses: 1.14+

function timePacket () {
  // 26.1 sends one clock per entry of the world_clock registry; the overworld's is entry
  // 0 (the configuration's registry data lists it first, as minecraft-data's sample has it).
  if (packets.fieldType('update_time', 'clockUpdates') !== undefined) {
    return { age: BigInt(clock.age), clockUpdates: [{ id: 0, totalTicks: clock.time, partialTick: 0, rate: 1 }] }
  }
  return { age: BigInt(clock.age), time: BigInt(clock.time), tickDayTime: true }
}

function sendTime () {
  const packet = timePacket()
  for (const p of players.values()) if (p.inPlay) p.client.write('update_time', packet)
}

function isNight () {
  const t = clock.time % DAY
  return t >= NIGHT[0] && t <= NIGHT[1]
}

// One tick of the clock; everyone asleep long enough skips the night (vanilla's
// ServerLevel.tick: the day time goes on to the next multiple of a day, all wake up).
function tickClock () {
  clock.age++
  clock.time++
  const online = [...players.values()].filter((p) => p.inPlay)
  if (online.length > 0 && online.every((p) => p.sleeping && clock.age - p.sleeping.since >= SLEEP_TICKS)) {
    clock.time += DAY - clock.time % DAY
    for (const p of online) wake(p, true)
    emit({ event: 'morning', time: clock.time })
    sendTime()
  } else if (clock.age % TIME_SYNC_TICKS === 0) {
    sendTime()
  }
}

function isBed (block) {
  return block.name.endsWith('_bed')
}

// The same bed block, occupied or not.
function bedState (block, occupied) {
  const { facing, part } = block.getProperties()
  return stateIdOf(`${block.name}[facing=${facing},part=${part},occupied=${occupied}]`)
}

// Vanilla's Player.isReachableBedBlock: 3 across and 2 up or down from the bottom centre.
function reaches (player, pos) {
  const p = player.pos
  return Math.abs(p.x - (pos.x + 0.5)) <= BED_REACH.across && Math.abs(p.y - pos.y) <= BED_REACH.up &&
    Math.abs(p.z - (pos.z + 0.5)) <= BED_REACH.across
}

// Vanilla's BedBlock.use + ServerPlayer.startSleepInBed, less monsters, weather, other
// dimensions and the respawn point: the head part is the bed (the foot points to it);
// occupied, too far (from both parts) and by day are refused, in vanilla's order, with
// its action-bar message.
function useBed (player, pos) {
  const block = blockAt(pos)
  const { facing, part } = block.getProperties()
  const [dx, dz] = FACING[facing]
  const head = part === 'head' ? pos : pos.offset(dx, 0, dz)
  const foot = head.offset(-dx, 0, -dz)
  if (!isBed(blockAt(head)) || player.sleeping) return
  let refusal = null
  if (blockAt(head).getProperties().occupied) refusal = 'occupied'
  else if (!reaches(player, head) && !reaches(player, foot)) refusal = 'too_far_away'
  else if (!isNight()) refusal = 'no_sleep'
  if (refusal) {
    const [name, fields] = packets.systemChatPacket({ translate: 'block.minecraft.bed.' + refusal }, true)
    player.client.write(name, fields)
    emit({ event: 'bed_refused', player: player.username, reason: refusal })
    return
  }
  player.sleeping = { bed: head, since: clock.age, from: { ...player.pos } }
  Object.assign(player.pos, { x: head.x + 0.5, y: head.y + 0.6875, z: head.z + 0.5 }) // vanilla's setPosToBed
  setBlock(head, bedState(blockAt(head), true))
  sendPose(player)
  relayMove(player)
  emit({ event: 'slept', player: player.username, x: head.x, y: head.y, z: head.z })
}

// Out of the bed: the bed is free again and the player stands (`standUp`: back where it
// lay down from, with a teleport as vanilla's stopSleepInBed sends; vanilla looks for a
// free block around the bed, and that one is free).
function wake (player, standUp) {
  const { bed, from } = player.sleeping
  player.sleeping = null
  const block = blockAt(bed)
  if (isBed(block)) setBlock(bed, bedState(block, false))
  sendPose(player)
  for (const p of players.values()) { // the wake-up animation, to everyone as vanilla does
    if (p.inPlay) p.client.write('animation', { entityId: player.entityId, animation: ANIMATION_WAKE_UP })
  }
  if (standUp) teleport(player, from)
  emit({ event: 'woke', player: player.username })
}

// The pose and the bed's position, the two entries of the entity metadata that say
// "asleep" (minecraft-data names every entry a player has, in index order).
function poseMetadata (player) {
  const bed = player.sleeping ? player.sleeping.bed : undefined
  return {
    entityId: player.entityId,
    metadata: [
      { key: metadataKeys.indexOf('pose'), type: 'pose', value: bed ? POSE_SLEEPING : POSE_STANDING },
      { key: metadataKeys.indexOf('sleeping_pos'), type: 'optional_block_pos', value: bed }
    ]
  }
}

function sendPose (player) {
  const packet = poseMetadata(player)
  for (const p of players.values()) if (p.inPlay) p.client.write('entity_metadata', packet)
}

// -- commands (from players and from the test driver) -----------------------------------

// A coordinate: a number, or ~ / ~n relative to `base`.
function coordinate (text, base) {
  const rel = String(text).startsWith('~')
  const n = Number(rel ? (String(text).slice(1) || 0) : text)
  if (!Number.isFinite(n)) throw new Error('bad coordinate: ' + text)
  return rel ? base + n : n
}

function coordinates (parts, player) {
  const base = player ? player.pos : { x: 0, y: 0, z: 0 }
  return [coordinate(parts[0], base.x), coordinate(parts[1], base.y), coordinate(parts[2], base.z)]
}

function target (name, player) {
  if (name === undefined || name === '@s' || name === '@p') {
    if (!player) throw new Error('no player given')
    return player
  }
  const found = players.get(name)
  if (!found) throw new Error('no such player: ' + name)
  return found
}

const COMMANDS = {
  setblock (parts, player) {
    if (parts.length !== 4) throw new Error('usage: /setblock <x> <y> <z> <block>')
    setBlock(new Vec3(...coordinates(parts, player)), stateIdOf(parts[3]))
    return 'Changed the block'
  },
  fill (parts, player) {
    if (parts.length !== 7) throw new Error('usage: /fill <x1> <y1> <z1> <x2> <y2> <z2> <block>')
    const a = coordinates(parts.slice(0, 3), player).map(Math.floor)
    const b = coordinates(parts.slice(3, 6), player).map(Math.floor)
    const stateId = stateIdOf(parts[6])
    const [lo, hi] = [a.map((v, i) => Math.min(v, b[i])), a.map((v, i) => Math.max(v, b[i]))]
    const volume = (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1)
    if (volume > MAX_FILL_VOLUME) throw new Error(`too many blocks (${volume} > ${MAX_FILL_VOLUME})`)
    for (let x = lo[0]; x <= hi[0]; x++) {
      for (let y = lo[1]; y <= hi[1]; y++) {
        for (let z = lo[2]; z <= hi[2]; z++) setBlock(new Vec3(x, y, z), stateId)
      }
    }
    return `Successfully filled ${volume} blocks`
  },
  tp (parts, player) {
    // /tp x y z | /tp <player> x y z | /tp <player> <other>
    let who = player
    if (parts.length === 4 || parts.length === 2) who = target(parts.shift(), player)
    else if (parts.length !== 3) throw new Error('usage: /tp [player] <x> <y> <z> | /tp <player> <player>')
    if (!who) throw new Error('no player given')
    const to = parts.length === 1 ? { ...target(parts[0]).pos } : (([x, y, z]) => ({ x, y, z }))(coordinates(parts, who))
    teleport(who, to)
    return `Teleported ${who.username} to ${to.x}, ${to.y}, ${to.z}`
  },
  gamemode (parts, player) {
    const mode = gameModeOf(parts[0])
    if (mode === null) throw new Error('usage: /gamemode <survival|creative|adventure|spectator> [player]')
    const who = target(parts[1], player)
    setGameMode(who, mode)
    return `Set ${who.username}'s game mode to ${GAME_MODES[mode]}`
  },
  kill (parts, player) {
    const who = target(parts[0], player)
    if (!who.dead) {
      who.health = 0
      die(who, 'kill')
    }
    return `Killed ${who.username}`
  },
  time (parts) {
    // /time set <day|noon|night|midnight|ticks> | /time add <ticks> | /time query <daytime|gametime|day>
    const usage = 'usage: /time set <day|noon|night|midnight|ticks> | /time add <ticks> | /time query <daytime|gametime|day>'
    if (parts[0] === 'query') {
      const answers = { daytime: clock.time % DAY, gametime: clock.age, day: Math.floor(clock.time / DAY) }
      if (!Object.hasOwn(answers, parts[1])) throw new Error(usage)
      return `The time is ${answers[parts[1]]}`
    }
    const named = { day: 1000, noon: 6000, night: 13000, midnight: 18000 }
    const ticks = Object.hasOwn(named, parts[1]) ? named[parts[1]] : Number(parts[1])
    if (parts.length !== 2 || !['set', 'add'].includes(parts[0]) || !Number.isInteger(ticks) || ticks < 0) {
      throw new Error(usage)
    }
    clock.time = parts[0] === 'set' ? ticks : clock.time + ticks
    sendTime() // vanilla synchronises the time at once after the command
    return `Set the time to ${clock.time % DAY}`
  },
  summon (parts, player) {
    // /summon <cow|sheep|zombie> [x y z]
    if (!rules) throw new Error('mobs need --rules survival')
    if (!rules.mobKinds.includes(parts[0]) || (parts.length !== 1 && parts.length !== 4)) {
      throw new Error('usage: /summon <' + rules.mobKinds.join('|') + '> [x y z]')
    }
    const [x, y, z] = parts.length === 4 ? coordinates(parts.slice(1), player) : (player ? [player.pos.x, player.pos.y, player.pos.z] : [0, 0, 0])
    const e = rules.summon(parts[0], x, y, z)
    return `Summoned new ${parts[0]} (${e.id})`
  },
  difficulty (parts) {
    if (!rules) throw new Error('difficulty needs --rules survival')
    if (parts.length === 0) return `The difficulty is ${rules.difficulty()}`
    rules.setDifficulty(parts[0])
    return `The difficulty has been set to ${parts[0]}`
  },
  give (parts, player) {
    const who = target(parts[0], player)
    const count = parts[2] === undefined ? 1 : Number(parts[2])
    if (!parts[1] || !(count > 0)) throw new Error('usage: /give <player> <item> [count]')
    give(who, String(parts[1]).replace(/^minecraft:/, ''), count)
    return `Gave ${count} ${parts[1]} to ${who.username}`
  }
}

function runCommand (text, player) {
  const parts = String(text).trim().replace(/^\//, '').split(/\s+/)
  const name = parts.shift()
  if (!Object.prototype.hasOwnProperty.call(COMMANDS, name)) throw new Error('unknown command: ' + name)
  return COMMANDS[name](parts, player)
}

// -- the test driver's commands (stdin) -------------------------------------------------

function findPlayer (name) {
  const player = players.get(name)
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
    emit({
      event: 'position', id: cmd.id, player: p.username, x: p.pos.x, y: p.pos.y, z: p.pos.z,
      onGround: p.onGround, health: p.health, food: p.food, gamemode: GAME_MODES[p.gameMode],
      sleeping: p.sleeping ? [p.sleeping.bed.x, p.sleeping.bed.y, p.sleeping.bed.z] : null
    })
  },
  time (cmd) {
    emit({ event: 'time', id: cmd.id, age: clock.age, time: clock.time, timeOfDay: clock.time % DAY })
  },
  run (cmd) {
    const player = cmd.player ? findPlayer(cmd.player) : null
    try {
      emit({ event: 'ran', id: cmd.id, ok: true, result: runCommand(cmd.command, player) ?? null })
    } catch (err) {
      emit({ event: 'ran', id: cmd.id, ok: false, result: null, error: String((err && err.message) || err) })
    }
  },
  say (cmd) {
    const value = cmd.json !== undefined ? cmd.json : String(cmd.text ?? '')
    say(cmd.to !== undefined ? [findPlayer(cmd.to)] : players.values(), value)
    if (cmd.id !== undefined) emit({ event: 'said', id: cmd.id })
  },
  players (cmd) {
    emit({ event: 'players', id: cmd.id, players: [...players.values()].filter((p) => p.inPlay).map((p) => p.username) })
  },
  teleport (cmd) {
    const p = findPlayer(cmd.player)
    teleport(p, { x: num(cmd.x, 'x'), y: num(cmd.y, 'y'), z: num(cmd.z, 'z') })
    emit({ event: 'teleported', id: cmd.id, player: p.username })
  },
  block (cmd) {
    const pos = new Vec3(num(cmd.x, 'x'), num(cmd.y, 'y'), num(cmd.z, 'z')).floored()
    const block = blockAt(pos)
    emit({ event: 'block', id: cmd.id, x: pos.x, y: pos.y, z: pos.z, name: block.name, stateId: block.stateId })
  },
  inventory (cmd) {
    const p = findPlayer(cmd.player)
    const items = {}
    // Slot 0 is the crafting result, not the player's until taken; the carried item is.
    for (const slot of [...p.slots.slice(1), p.cursor]) if (slot) items[slot.name] = (items[slot.name] || 0) + slot.count
    emit({ event: 'inventory', id: cmd.id, player: p.username, items })
  },
  window (cmd) {
    if (!windows) throw new Error('windows need --rules survival')
    emit({ event: 'window', id: cmd.id, player: cmd.player, ...windows.describe(findPlayer(cmd.player)) })
  },
  furnace (cmd) {
    if (!windows) throw new Error('furnaces need --rules survival')
    const pos = new Vec3(num(cmd.x, 'x'), num(cmd.y, 'y'), num(cmd.z, 'z')).floored()
    emit({ event: 'furnace', id: cmd.id, x: pos.x, y: pos.y, z: pos.z, state: windows.furnaceAt(pos) })
  },
  entities (cmd) {
    if (!rules) throw new Error('entities need --rules survival')
    emit({ event: 'entities', id: cmd.id, entities: rules.entities() })
  },
  spawn_item (cmd) {
    if (!rules) throw new Error('items need --rules survival')
    const count = cmd.count === undefined ? 1 : num(cmd.count, 'count')
    const name = itemName(String(cmd.name))
    if (!registry.itemsByName[name]) throw new Error('unknown item: ' + cmd.name)
    const e = rules.spawnItem(name, count, num(cmd.x, 'x'), num(cmd.y, 'y'), num(cmd.z, 'z'))
    emit({ event: 'item_spawned', id: cmd.id, entity: e.id })
  },
  food (cmd) {
    if (!rules) throw new Error('food needs --rules survival')
    const p = findPlayer(cmd.player)
    p.food = Math.max(0, Math.min(20, Math.round(num(cmd.food, 'food'))))
    p.saturation = Math.max(0, Math.min(p.food, cmd.saturation === undefined ? 0 : num(cmd.saturation, 'saturation')))
    sendHealth(p)
    emit({ event: 'food', id: cmd.id, player: p.username, food: p.food, saturation: p.saturation })
  },
  transfer (cmd) {
    const p = findPlayer(cmd.player)
    p.client.write('transfer', { host: String(cmd.host), port: num(cmd.port, 'port') })
    emit({ event: 'transferred', id: cmd.id, player: p.username })
  },
  kick (cmd) {
    const p = findPlayer(cmd.player)
    p.client.end(cmd.reason !== undefined ? String(cmd.reason) : 'Kicked by test')
    emit({ event: 'kicked', id: cmd.id, player: p.username })
  },
  stop () {
    shutdown('stop command')
  }
}

// -- server -----------------------------------------------------------------------------

let server
try {
  server = mc.createServer({
    'online-mode': onlineMode,
    host: '127.0.0.1',
    port: Number(args.port),
    version: args.version,
    motd: args.motd,
    maxPlayers: Number(args['max-players']),
    hideErrors: true,
    enforceSecureProfile: args['enforce-secure-profile'] === 'true',
    // minecraft-protocol builds a plugin-channel codec per client at login and, by default,
    // validates its schemas with ajv: ~400 ms of this single thread per login, stalling
    // every other player's packets (bench/probes.py's login rows). Our schemas are its own.
    validateChannelProtocol: false,
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

if (args.rules === 'survival') {
  const difficulty = args.difficulty || (worldFile ? worldFile.difficulty : 'normal')
  if (!['peaceful', 'easy', 'normal', 'hard'].includes(difficulty)) {
    emit({ event: 'error', fatal: true, message: 'bad --difficulty: ' + difficulty })
    process.exit(2)
  }
  rules = require('./survival/rules')({
    registry,
    packets,
    Item,
    Block: requirePeer('prismarine-block')(registry),
    options: { seed: Number(args.seed) || 0, mobs: args.mobs !== 'false', difficulty, randomTickSpeed: Number(args['random-tick-speed']) },
    world: {
      newEntityId: () => nextEntityId++,
      players: () => [...players.values()].filter((p) => p.inPlay),
      blockAt,
      touching,
      hurtable,
      removeBlock,
      setBlock: (pos, name) => setBlock(pos, stateIdOf(name)),
      resendBlock,
      give,
      take,
      heldItem,
      damage,
      heal,
      sendHealth,
      dayTime: () => clock.time,
      emit
    }
  })
  for (const a of worldFile ? worldFile.animals : []) {
    if (rules.mobKinds.includes(a.kind)) rules.summon(a.kind, a.x, a.y, a.z)
  }
}

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
// With a configuration state (1.20.2+) play starts at playerJoin, after the client's
// finish_configuration; before it, at login.
server.on('login', (client) => { if (!hasConfiguration) join(client) })
server.on('playerJoin', (client) => { if (hasConfiguration) join(client) })

const ticker = setInterval(tick, TICK_MS)

readCommands(handlers, () => shutdown('stdin closed'), { serial: true })

function shutdown (why) {
  if (stopping) return
  stopping = true
  log('shutting down:', why)
  emit({ event: 'stopping' })
  clearInterval(ticker)
  setTimeout(() => process.exit(0), SHUTDOWN_GRACE_MS).unref()
  for (const player of players.values()) {
    try {
      player.client.end('Server closed')
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
