'use strict'
// The player's body under survival rules: being hurt (with vanilla's invulnerable time), lava,
// fire and drowning, and the air and fire the client is shown.
//
// How it works. Every hurt goes through `hurt`: for 10 ticks after a hit only a bigger hit
// lands, and then only its excess (LivingEntity.hurt). Each tick (Entity.baseTick,
// LivingEntity.baseTick): lava hurts 4 and sets the player on fire for 15 s, kept topped up
// while in it; water puts the fire out; burning hurts 1 whenever the fire's ticks left are a
// multiple of 20; with the eyes in water the air falls by one a tick from 300 to -20, then
// drowning hurts 2 and the air starts again at 0; out of water the air comes back 4 a tick.
// The air and the on-fire flag reach the client as its own entity metadata.

const INVULNERABLE_TICKS = 20 // set on a hit; while above 10, only a bigger hit lands
const LAVA_DAMAGE = 4
const LAVA_FIRE_TICKS = 300
const FIRE_DAMAGE = 1
const MAX_AIR = 300
const DROWN_AT = -20
const DROWN_DAMAGE = 2
const AIR_REFILL = 4
const EYE = 1.62
const ON_FIRE = 0x01 // the shared flags' first bit

// The part of a hit of `amount` that lands on `target` (a player or a mob), vanilla's
// LivingEntity.hurt: within 10 ticks of the last hit only the excess of a bigger one, else all
// of it; 0 when it is absorbed. Keeps the target's hurtTicks and lastHurt.
function landedDamage (target, amount) {
  if (target.hurtTicks > INVULNERABLE_TICKS / 2) {
    if (amount <= target.lastHurt) return 0
    const excess = amount - target.lastHurt
    target.lastHurt = amount
    return excess
  }
  target.hurtTicks = INVULNERABLE_TICKS
  target.lastHurt = amount
  return amount
}

function createBody ({ packets, blockAt, touching, damage, exhaust }) {
  // Hits that bypass armour add no exhaustion; the others 0.1 (DamageSource's exhaustion).
  const EXHAUSTING = new Set(['lava', 'zombie', 'player', 'cow'])

  function fresh (player) {
    Object.assign(player, { air: MAX_AIR, fire: 0, hurtTicks: 0, lastHurt: 0 })
  }

  function hurt (player, amount, cause) {
    if (player.dead || amount <= 0) return
    const dealt = landedDamage(player, amount)
    if (dealt === 0) return
    if (EXHAUSTING.has(cause)) exhaust(player, 0.1)
    damage(player, dealt, cause)
  }

  function metadata (player) {
    player.client.write('entity_metadata', {
      entityId: player.entityId,
      metadata: [
        packets.metadataEntry('player', 'shared_flags', player.fire > 0 ? ON_FIRE : 0),
        packets.metadataEntry('player', 'air_supply', Math.max(0, player.air))
      ]
    })
  }

  function tick (player) {
    if (player.hurtTicks > 0) player.hurtTicks--
    const inLava = touching(player, 'lava')
    const inWater = touching(player, 'water')
    const wasBurning = player.fire > 0
    const air = player.air
    if (inWater && !inLava) player.fire = 0
    if (player.fire > 0) {
      if (player.fire % 20 === 0 && !inLava) hurt(player, FIRE_DAMAGE, 'fire')
      player.fire--
    }
    if (player.dead) return
    if (inLava) {
      player.fire = Math.max(player.fire, LAVA_FIRE_TICKS)
      hurt(player, LAVA_DAMAGE, 'lava')
      if (player.dead) return
    }
    if (eyesInWater(player)) {
      player.air--
      if (player.air <= DROWN_AT) {
        player.air = 0
        hurt(player, DROWN_DAMAGE, 'drowning')
      }
    } else {
      player.air = Math.min(MAX_AIR, player.air + AIR_REFILL)
    }
    if (!player.dead && (air !== player.air || wasBurning !== (player.fire > 0))) metadata(player)
  }

  function eyesInWater (player) {
    const { x, y, z } = player.pos
    return blockAt({ x, y: y + EYE, z }).name === 'water'
  }

  return { fresh, hurt, tick, eyesInWater }
}

module.exports = createBody
module.exports.landedDamage = landedDamage
