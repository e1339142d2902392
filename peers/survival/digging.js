'use strict'
// Digging as vanilla's ServerPlayerGameMode (1.19+) judges it, with prismarine-block's dig
// times (tool tier and material, the 5x slow-down in water and off the ground).
//
// How it works. "Start digging" remembers the block and the tick; a block the held tool
// breaks within one tick breaks at once ("insta mine"). "Finish digging" on the same block
// breaks it if the progress made since the start, counting the finishing tick, is at least
// 0.7 (vanilla's leeway for the client's lag); a finish that comes too early is not refused
// but delayed: the server breaks the block itself once the progress reaches 1, and the
// client waits with the block still there. A finish for a block that was never started, a
// block out of reach, or a "start" while another dig is under way are answered by sending
// the block as it is (the client's predicted break is undone).
//
// Events: {"event":"dig_refused","player":P,"x","y","z","reason":"too_far"|"not_started"|
// "unbreakable"} and {"event":"dig_delayed","player":P,"x","y","z","progress":F} (the
// progress at the finish), and {"event":"dug","player":P,"block":B,"x","y","z"}.

const FINISH_LEEWAY = 0.7 // ServerPlayerGameMode: STOP_DESTROY_BLOCK accepts progress x (ticks + 1) >= 0.7
const REACH = 6 // the eye within 6 blocks of the block's centre (MAX_INTERACTION_DISTANCE, 1.19-1.20.4)
const EYE = 1.62

module.exports = function createDigging ({ registry, Block, blockAt, heldItem, inWater, emit, breakBlock, resend }) {
  // Progress a tick of digging makes: 1 / prismarine-block's dig time in ticks.
  function progressPerTick (player, pos) {
    const block = blockAt(pos)
    if (block.name === 'air') return 0
    const held = heldItem(player)
    const heldType = held ? registry.itemsByName[held.name].id : null
    const b = Block.fromStateId(block.stateId, 0)
    // minecraft-data's 26.1 blocks.json gives blocks that need a better tool than wood (iron
    // ore, ...) the material "incorrect_for_wooden_tool", a tool's tag, where vanilla has them
    // in mineable/pickaxe too: every such block is a pickaxe's (vanilla's block tags).
    if (String(b.material).startsWith('incorrect_for_')) b.material = 'mineable/pickaxe'
    const ms = b.digTime(heldType, false, inWater(player), !player.onGround, [], {})
    return Number.isFinite(ms) ? (ms === 0 ? 1 : 50 / ms) : 0
  }

  function reaches (player, pos) {
    const p = player.pos
    const dx = p.x - (pos.x + 0.5)
    const dy = p.y + EYE - (pos.y + 0.5)
    const dz = p.z - (pos.z + 0.5)
    return dx * dx + dy * dy + dz * dz <= REACH * REACH
  }

  function refuse (player, pos, reason) {
    emit({ event: 'dig_refused', player: player.username, x: pos.x, y: pos.y, z: pos.z, reason })
    resend(player, pos)
  }

  function breaks (player, pos) {
    const name = blockAt(pos).name
    breakBlock(player, pos)
    emit({ event: 'dug', player: player.username, block: name, x: pos.x, y: pos.y, z: pos.z })
  }

  const same = (a, b) => a && b && a.x === b.x && a.y === b.y && a.z === b.z

  // status 0 start, 1 cancel, 2 finish (the other statuses are not digs).
  function action (player, status, pos, tick) {
    if (status === 1) {
      player.dig = null
      return
    }
    if (status !== 0 && status !== 2) return
    if (!reaches(player, pos)) return refuse(player, pos, 'too_far')
    if (status === 0) {
      if (blockAt(pos).name === 'air') return
      const progress = progressPerTick(player, pos)
      if (progress === 0) return refuse(player, pos, 'unbreakable')
      if (progress >= 1) {
        player.dig = null
        return breaks(player, pos)
      }
      player.dig = { pos, start: tick }
      return
    }
    if (!same(player.dig && player.dig.pos, pos)) {
      if (blockAt(pos).name !== 'air') refuse(player, pos, 'not_started')
      return
    }
    const { start } = player.dig
    player.dig = null
    const progress = progressPerTick(player, pos) * (tick - start + 1)
    if (progress >= FINISH_LEEWAY) return breaks(player, pos)
    if (!player.delayedDig) {
      player.delayedDig = { pos, start }
      emit({ event: 'dig_delayed', player: player.username, x: pos.x, y: pos.y, z: pos.z, progress: Math.round(progress * 1000) / 1000 })
    }
  }

  // Vanilla's tick: a delayed dig goes on at the current rate until the block breaks.
  function tick (player, now) {
    const delayed = player.delayedDig
    if (!delayed) return
    if (blockAt(delayed.pos).name === 'air') {
      player.delayedDig = null
    } else if (progressPerTick(player, delayed.pos) * (now - delayed.start + 1) >= 1) {
      player.delayedDig = null
      breaks(player, delayed.pos)
    }
  }

  return { action, tick }
}
