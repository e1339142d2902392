'use strict'
// Packets built from minecraft-data's layouts, so one server script serves every
// version: where a field's type changed between versions (a JSON string or an NBT
// component, an i8 or bitflags), the layout says which form to write. Protodef writes
// only the fields a layout names, so a packet may carry a superset of every version's
// fields. Used by mcp_server.js (no world) and world.js (a flat world).

const { requirePeer } = require('./common')

// Everything here is bound to one version's minecraft-data (``mcData``).
function layouts (mcData) {
  const nbt = requirePeer('prismarine-nbt')
  const toClient = mcData.protocol.play.toClient.types
  const toServer = mcData.protocol.play.toServer.types
  const types = mcData.protocol.types

  // The type of `field` in `packet` (toClient unless told), or undefined.
  function fieldType (packet, field, side = toClient) {
    const layout = side['packet_' + packet]
    if (!Array.isArray(layout) || layout[0] !== 'container') return undefined
    const found = layout[1].find((f) => f.name === field)
    return found ? found.type : undefined
  }

  // The type of `field` in the serverbound `packet`, or undefined.
  function serverFieldType (packet, field) {
    return fieldType(packet, field, toServer)
  }

  function isNbtType (type) {
    return type === 'anonymousNbt' || type === 'nbt' || type === 'anonOptionalNbt' || type === 'optionalNbt'
  }

  // A JSON text component as NBT (1.20.3+ chat fields): strings, numbers, booleans,
  // objects and lists of objects or strings, which is all a text component holds.
  function jsonToNbt (value) {
    if (typeof value === 'string') return nbt.string(value)
    if (typeof value === 'boolean') return nbt.byte(value ? 1 : 0)
    if (typeof value === 'number') return Number.isInteger(value) ? nbt.int(value) : nbt.double(value)
    if (Array.isArray(value)) {
      if (value.every((v) => typeof v === 'string')) return nbt.list(nbt.string(value))
      return nbt.list(nbt.comp(value.map((v) => typeof v === 'string' ? { text: nbt.string(v) } : jsonToNbtFields(v))))
    }
    return nbt.comp(jsonToNbtFields(value))
  }

  function jsonToNbtFields (obj) {
    const out = {}
    for (const [k, v] of Object.entries(obj)) out[k] = jsonToNbt(v)
    return out
  }

  // A text component (a string or a JSON component object) in the wire form of this
  // packet field: NBT on 1.20.3+, a JSON string before.
  function component (packet, field, value) {
    const json = typeof value === 'string' ? { text: value } : value
    if (isNbtType(fieldType(packet, field))) return jsonToNbt(json)
    return JSON.stringify(json)
  }

  // A system message, in the chat or (`actionBar`) above the hotbar.
  function systemChatPacket (value, actionBar = false) {
    if (toClient.packet_system_chat) {
      const fields = { content: component('system_chat', 'content', value), isActionBar: actionBar }
      if (fieldType('system_chat', 'type') !== undefined) fields.type = 1 // 1.19-1.19.2
      return ['system_chat', fields]
    }
    const json = typeof value === 'string' ? { text: value } : value
    return ['chat', { message: JSON.stringify(json), position: actionBar ? 2 : 1, sender: '00000000-0000-0000-0000-000000000000' }]
  }

  // Absolute teleport flags: an i8 until 1.21.1, bitflags (an object) since 1.21.2.
  function absoluteFlags (packet) {
    const type = fieldType(packet, 'flags')
    return type === 'i8' || type === 'u8' ? 0 : { _value: 0 }
  }

  function positionPacket (pos, teleportId) {
    return {
      x: pos.x, y: pos.y, z: pos.z, dx: 0, dy: 0, dz: 0, yaw: pos.yaw || 0, pitch: pos.pitch || 0,
      flags: absoluteFlags('position'), teleportId, dismountVehicle: false
    }
  }

  // The names of a bitfield's parts for this version (26.1 added allows_restricted).
  function commandFlagNames () {
    const node = toClient.command_node || types.command_node
    if (!Array.isArray(node)) return null
    const flags = node[1].find((f) => f.name === 'flags')
    return flags && Array.isArray(flags.type) && flags.type[0] === 'bitfield' ? flags.type[1].map((p) => p.name) : null
  }

  // root -> each name -> one greedy string argument, or null before 1.13.
  function commandTreePacket (commandNames) {
    const names = commandFlagNames()
    if (!names || !toClient.packet_declare_commands) return null
    const flags = (type, executable) => {
      const out = {}
      for (const n of names) out[n] = 0
      out.command_node_type = type
      out.has_command = executable ? 1 : 0
      return out
    }
    const nodes = [{ flags: flags(0, false), children: [], extraNodeData: undefined }]
    for (const name of commandNames) {
      const argIndex = nodes.length
      nodes.push({
        flags: flags(2, true),
        children: [],
        extraNodeData: { name: 'args', parser: 'brigadier:string', properties: 'GREEDY_PHRASE' }
      })
      nodes.push({ flags: flags(1, true), children: [argIndex], extraNodeData: { name } })
      nodes[0].children.push(nodes.length - 1)
    }
    return { nodes, rootIndex: 0 }
  }

  // minecraft-data's sample 'login' packet for this version, as a given player in a
  // given game mode (0 survival .. 3 spectator). minecraft-data has no sample before 1.13:
  // there the packet's fields are few and fixed (the overworld, normal difficulty).
  function loginPacket (entityId, gameMode, extra = {}) {
    const sample = mcData.loginPacket || { gameMode, dimension: 0, difficulty: 2, maxPlayers: 20, levelType: 'default', reducedDebugInfo: false }
    const packet = Object.assign({}, sample, { entityId }, extra)
    if (packet.worldState && typeof packet.worldState === 'object') {
      packet.worldState = Object.assign({}, packet.worldState, { gamemode: GAME_MODES[gameMode] })
    } else if ('gameMode' in packet) {
      packet.gameMode = gameMode
    }
    if ('enforcesSecureChat' in packet) packet.enforcesSecureChat = false
    return packet
  }

  // 'respawn' into the login's world: SpawnInfo from 1.20.2, flat fields before.
  function respawnPacket (gameMode) {
    const login = loginPacket(0, gameMode)
    if (login.worldState) return { worldState: login.worldState, copyMetadata: 0 }
    return {
      dimension: login.dimension ?? login.worldType, // 1.19-1.20.1 call it worldType in 'login'
      worldName: login.worldName,
      hashedSeed: login.hashedSeed,
      gamemode: gameMode,
      previousGamemode: 255,
      isDebug: login.isDebug,
      isFlat: login.isFlat,
      copyMetadata: false,
      death: login.death,
      portalCooldown: login.portalCooldown ?? 0
    }
  }

  // An absolute entity position (sync_entity_position from 1.21.2, entity_teleport before, whose
  // yaw and pitch are angles).
  function entityPositionPacket (entityId, pos, onGround) {
    if (toClient.packet_sync_entity_position) {
      return ['sync_entity_position', {
        entityId, x: pos.x, y: pos.y, z: pos.z, dx: 0, dy: 0, dz: 0, yaw: pos.yaw || 0, pitch: pos.pitch || 0, onGround
      }]
    }
    return ['entity_teleport', { entityId, x: pos.x, y: pos.y, z: pos.z, yaw: angle(pos.yaw || 0), pitch: angle(pos.pitch || 0), onGround }]
  }

  // spawn_entity for an entity of registry type `type` at rest (the fields every version's
  // layout names; protodef writes only those of this one).
  function spawnEntityPacket (entityId, uuid, type, pos) {
    return {
      entityId, objectUUID: uuid, type, x: pos.x, y: pos.y, z: pos.z, pitch: angle(pos.pitch || 0), yaw: angle(pos.yaw || 0),
      headPitch: angle(pos.pitch || 0), objectData: 0, velocity: { x: 0, y: 0, z: 0 }
    }
  }

  // A player added to the tab list: bitflags actions from 1.19.3, one numbered action
  // (0 add_player) with the fields of an add before.
  function playerInfoAddPacket (uuid, name, gameMode) {
    if (isMapper(fieldType('player_info', 'action'))) {
      return { action: 'add_player', data: [{ uuid, name, properties: [], gamemode: gameMode, ping: 0 }] }
    }
    return {
      action: { add_player: true, update_game_mode: true, update_listed: true, update_latency: true },
      data: [{ uuid, player: { name, properties: [] }, gamemode: gameMode, listed: 1, latency: 0 }]
    }
  }

  function playerInfoGameModePacket (uuid, gameMode) {
    if (isMapper(fieldType('player_info', 'action'))) return { action: 'update_game_mode', data: [{ uuid, gamemode: gameMode }] }
    return { action: { update_game_mode: true }, data: [{ uuid, gamemode: gameMode }] }
  }

  function isMapper (type) {
    return Array.isArray(type) && type[0] === 'mapper'
  }

  // A chunk column: until 1.13 (the 1.9-1.12 layout) a section bitmap, a groundUp flag and the
  // light inside the chunk data; from 1.14 heightmaps and (1.18+) the light beside it.
  function mapChunkPacket (cx, cz, chunk, heightmaps) {
    if (fieldType('map_chunk', 'groundUp') !== undefined) {
      return { x: cx, z: cz, groundUp: true, bitMap: chunk.getMask(), chunkData: chunk.dump(), blockEntities: [] }
    }
    return { x: cx, z: cz, heightmaps, chunkData: chunk.dump(), blockEntities: [], trustEdges: true, ...chunk.dumpLight() }
  }

  // The spawn packet of a non-player entity (`entity`: minecraft-data's entry) at rest: until
  // 1.18 mobs have their own (spawn_entity_living, with metadata) and spawn_entity is for
  // objects, whose type is the object id; since, spawn_entity for everything.
  function spawnPacket (entity, entityId, uuid, pos) {
    if (toClient.packet_spawn_entity_living && entity.type === 'mob') {
      return ['spawn_entity_living', {
        entityId, entityUUID: uuid, type: entity.id, x: pos.x, y: pos.y, z: pos.z, yaw: angle(pos.yaw || 0),
        pitch: angle(pos.pitch || 0), headPitch: angle(pos.pitch || 0), velocity: { x: 0, y: 0, z: 0 }, metadata: []
      }]
    }
    return ['spawn_entity', spawnEntityPacket(entityId, uuid, entity.id, pos)]
  }

  // One entity metadata entry: `field` of entity `entityName` (an entry of minecraft-data's
  // metadataKeys) holding `value`. minecraft-data names the keys only from 1.13 on; before,
  // the keys and the numbered types are vanilla 1.12's (Entity: 0 flags byte, 1 air varint;
  // EntityItem: 6 item stack).
  // Index and type id where minecraft-data has no metadataKeys (before 1.19.4): the sheep's wool
  // byte is 13 on 1.10-1.13 (the survival server's legacy version is 1.12.2).
  const LEGACY_METADATA = { shared_flags: [0, 0], air_supply: [1, 1], item: [6, 5], wool: [13, 0] }
  const METADATA_TYPES = { shared_flags: 'byte', air_supply: 'int', item: 'item_stack', wool: 'byte' }
  function metadataEntry (entityName, field, value) {
    const entity = mcData.entitiesByName[entityName]
    const keys = entity && entity.metadataKeys
    if (!keys) {
      const [key, type] = LEGACY_METADATA[field]
      return { key, type, value }
    }
    return { key: keys.indexOf(field), type: METADATA_TYPES[field], value }
  }

  // Death: death_combat_event from 1.17, combat_event's "entity dead" (2) before.
  function deathPacket (entityId, message) {
    if (toClient.packet_death_combat_event) {
      return ['death_combat_event', { playerId: entityId, entityId, message: component('death_combat_event', 'message', message) }]
    }
    return ['combat_event', { event: 2, playerId: entityId, entityId, message: component('combat_event', 'message', message) }]
  }

  return {
    playerInfoAddPacket,
    playerInfoGameModePacket,
    mapChunkPacket,
    spawnPacket,
    metadataEntry,
    deathPacket,
    angle,
    entityPositionPacket,
    spawnEntityPacket,
    fieldType,
    serverFieldType,
    component,
    systemChatPacket,
    absoluteFlags,
    positionPacket,
    commandTreePacket,
    loginPacket,
    respawnPacket
  }
}

// Degrees as the protocol's one-byte angle.
function angle (degrees) {
  return Math.round((degrees % 360) / 360 * 256) << 24 >> 24
}

const GAME_MODES = ['survival', 'creative', 'adventure', 'spectator']

module.exports = { layouts, GAME_MODES }
