'use strict'
// Dropped items as vanilla's ItemEntity: what a broken block drops with the held tool, lying
// where it fell until a player walks into it.
//
// How it works. A block's drop appears near the block's centre (Block.popResource: up to a
// quarter block off centre each way) and falls (gravity 0.04 a tick, drag 0.98) until it
// rests on a block that is not passable; its position is sent when it comes to rest and every
// 20 ticks while it moves (vanilla's item update interval). After its pickup delay (10 ticks
// for a block's drop, 40 for an item a player threw) a player whose box, grown by 1 across
// and 0.5 up and down (Player.aiStep's touch area), meets the item's takes as much of it as
// the inventory holds: the `collect` packet to everyone, then the entity goes (or shrinks).
// An item left 6000 ticks (5 minutes) despawns. Not modelled: items merging, items pushed by
// water, items burning in lava.
//
// Events: {"event":"item_dropped","entity":E,"item":I,"count":N,"x","y","z"} and
// {"event":"picked_up","player":P,"item":I,"count":N}.

const GRAVITY = 0.04
const DRAG = 0.98
const POP_OFFSET = 0.25
const BLOCK_PICKUP_DELAY = 10
const THROW_PICKUP_DELAY = 40
const LIFETIME = 6000
const UPDATE_INTERVAL = 20
const REACH_ACROSS = 0.3 + 1.0 + 0.125 // the player's half width + the touch area + the item's half width
const REACH_BELOW = 0.5 + 0.25 // the touch area below the feet, and the item's height
const REACH_ABOVE = 1.8 + 0.5 // the player's height and the touch area above

// Block drops that are chances, not certainties (vanilla's loot tables, no fortune): leaves
// drop a sapling 1 in 20, gravel flint 1 in 10 (else itself), short grass seeds 1 in 8.
const CHANCES = {
  leaves: [['sapling', 0.05]],
  gravel: [['flint', 0.1], ['gravel', 1]],
  short_grass: [['wheat_seeds', 0.125]],
  grass: [['wheat_seeds', 0.125]], // short grass until 1.20.3 (1.12: grass is the grass block)
  tallgrass: [['wheat_seeds', 0.125]] // 1.8-1.12
}
// 1.8-1.12's leaves: one block per four species (metadata); their sapling is `sapling`.
const LEGACY_LEAVES = new Set(['leaves', 'leaves2'])
// Ores that drop more than one item (vanilla's loot tables: uniform counts, no fortune).
const COUNTS = { redstone_ore: [4, 5], lapis_ore: [4, 9], copper_ore: [2, 5], deepslate_redstone_ore: [4, 5], deepslate_lapis_ore: [4, 9], deepslate_copper_ore: [2, 5] }

const { mayHarvest, firstDrop } = require('../block_drops')

module.exports = function createItems ({ registry, entities, blockAt, give, emit, random }) {
  const flattened = registry.supportFeature('theFlattening')
  // What `block` drops when broken with `held`: nothing without the right tool, else
  // minecraft-data's drop with vanilla's chances and counts.
  function dropsOf (block, held) {
    if (!mayHarvest(registry, block, held)) return []
    const chances = chancesOf(block.name)
    if (chances) {
      for (const [what, p] of chances) {
        if (random() < p) {
          const name = what !== 'sapling' ? what : LEGACY_LEAVES.has(block.name) ? 'sapling' : block.name.replace(/_leaves$/, '_sapling')
          return registry.itemsByName[name] ? [{ name, count: 1 }] : []
        }
      }
      return []
    }
    const first = firstDrop(registry, block)
    if (!first) return []
    const [lo, hi] = COUNTS[block.name] || [1, 1]
    return [{ name: first, count: lo + Math.floor(random() * (hi - lo + 1)) }]
  }

  function chancesOf (name) {
    if (name.endsWith('_leaves') || LEGACY_LEAVES.has(name)) return CHANCES.leaves
    if (name === 'grass' && !flattened) return null // 1.8-1.12's grass is the grass block
    return CHANCES[name] || null
  }

  function passable (x, y, z) {
    const b = blockAt({ x, y, z })
    return b.boundingBox !== 'block'
  }

  function spawn (name, count, x, y, z, delay) {
    const e = entities.add({ kind: 'item', item: name, count, x, y, z, vy: 0, age: 0, delay, resting: false })
    emit({ event: 'item_dropped', entity: e.id, item: name, count, x, y, z })
    return e
  }

  // A block's drop, near the block's centre.
  function dropBlock (pos, stack) {
    const off = () => (random() * 2 - 1) * POP_OFFSET
    return spawn(stack.name, stack.count, pos.x + 0.5 + off(), pos.y + 0.375 + off(), pos.z + 0.5 + off(), BLOCK_PICKUP_DELAY)
  }

  // An item a player threw (or lost when dying), in front of the feet.
  function dropFrom (player, stack) {
    return spawn(stack.name, stack.count, player.pos.x, player.pos.y + 1.32, player.pos.z, THROW_PICKUP_DELAY)
  }

  function fall (e) {
    if (e.resting) {
      if (passable(Math.floor(e.x), Math.floor(e.y - 0.01), Math.floor(e.z))) e.resting = false
      else return false
    }
    e.vy = (e.vy - GRAVITY) * DRAG
    const ny = e.y + e.vy
    const below = Math.floor(ny)
    if (!passable(Math.floor(e.x), below, Math.floor(e.z)) && ny < below + 1) {
      e.y = below + 1
      e.vy = 0
      e.resting = true
    } else {
      e.y = ny
    }
    return true
  }

  function touches (player, e) {
    const p = player.pos
    return Math.abs(e.x - p.x) <= REACH_ACROSS && Math.abs(e.z - p.z) <= REACH_ACROSS &&
      e.y >= p.y - REACH_BELOW && e.y <= p.y + REACH_ABOVE
  }

  function tick (players) {
    const gone = []
    for (const e of entities.all.values()) {
      if (e.kind !== 'item') continue
      e.age++
      if (e.age >= LIFETIME) {
        gone.push(e.id)
        continue
      }
      const moving = fall(e)
      if (moving && (e.resting || e.age % UPDATE_INTERVAL === 0)) entities.moved(e, e.resting)
      if (e.age < e.delay) continue
      for (const player of players) {
        if (player.dead || player.gameMode === 3 || !touches(player, e)) continue
        const left = give(player, e.item, e.count)
        const taken = e.count - left
        if (taken === 0) continue
        for (const viewer of players) {
          viewer.client.write('collect', { collectedEntityId: e.id, collectorEntityId: player.entityId, pickupItemCount: taken })
        }
        emit({ event: 'picked_up', player: player.username, item: e.item, count: taken })
        e.count = left
        if (left === 0) {
          gone.push(e.id)
          break
        }
      }
    }
    entities.remove(gone)
  }

  function describe () {
    return [...entities.all.values()].filter((e) => e.kind === 'item')
      .map((e) => ({ id: e.id, kind: 'item', item: e.item, count: e.count, x: e.x, y: e.y, z: e.z }))
  }

  return { dropsOf, dropBlock, dropFrom, spawn, tick, describe }
}
