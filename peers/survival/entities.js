'use strict'
// The survival server's non-player entities (dropped items, cows, zombies): one table, and the
// packets that show them to players in each version's layout.
//
// Every entity is shown to every player in play (the test worlds are a few chunks wide): when
// it appears, when a player joins or respawns (a respawn gives the client a fresh level), as it
// moves (an absolute position: sync_entity_position from 1.21.2, entity_teleport before) and
// when it goes; a sheep's shorn flag as its metadata's wool byte.

const crypto = require('crypto')

module.exports = function createEntities ({ registry, packets, Item, newEntityId, viewers }) {
  const all = new Map() // entity id -> {id, uuid, kind, x, y, z, yaw, ...}
  const hasDamageEvent = packets.fieldType('damage_event', 'entityId') !== undefined

  function show (player, e) {
    player.client.write(...packets.spawnPacket(registry.entitiesByName[e.kind], e.id, e.uuid, e))
    if (e.kind === 'item') {
      const stack = Item.toNotch(new Item(registry.itemsByName[e.item].id, e.count))
      player.client.write('entity_metadata', { entityId: e.id, metadata: [packets.metadataEntry('item', 'item', stack)] })
    }
    if (e.kind === 'sheep' && e.shorn) woolTo(player, e)
  }

  // A sheep's wool byte (Sheep.DATA_WOOL_ID: 0x10 sheared, the low bits its colour, white 0).
  function woolTo (player, e) {
    player.client.write('entity_metadata', { entityId: e.id, metadata: [packets.metadataEntry('sheep', 'wool', e.shorn ? 0x10 : 0)] })
  }

  function wool (e) {
    for (const p of viewers()) woolTo(p, e)
  }

  function add (fields) {
    const e = { id: newEntityId(), uuid: crypto.randomUUID(), yaw: 0, ...fields }
    all.set(e.id, e)
    for (const p of viewers()) show(p, e)
    return e
  }

  function moved (e, onGround = true) {
    const [name, fields] = packets.entityPositionPacket(e.id, e, onGround)
    for (const p of viewers()) p.client.write(name, fields)
  }

  function remove (ids) {
    const gone = ids.filter((id) => all.delete(id))
    if (gone.length === 0) return
    for (const p of viewers()) p.client.write('entity_destroy', { entityIds: gone })
  }

  // The whole table, to a player who has just joined or respawned.
  function showAll (player) {
    for (const e of all.values()) show(player, e)
  }

  // Vanilla's entity events: 2 hurt (before 1.19.4), 3 death, 9 "finished using an item".
  function status (e, code, to = viewers()) {
    for (const p of to) p.client.write('entity_status', { entityId: e.id, entityStatus: code })
  }

  // The red flash of a hit (1.19.4+ damage_event; entity event 2 before).
  function hurt (e) {
    if (hasDamageEvent) {
      for (const p of viewers()) {
        p.client.write('damage_event', { entityId: e.id, sourceTypeId: 0, sourceCauseId: 0, sourceDirectId: 0, sourcePosition: undefined })
      }
    } else {
      status(e, 2)
    }
  }

  return { all, add, moved, remove, showAll, status, hurt, wool, get: (id) => all.get(id) }
}
