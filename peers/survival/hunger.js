'use strict'
// Hunger and eating as vanilla's FoodData and LivingEntity's item use.
//
// How it works. Actions add exhaustion (sprinting 0.1 a metre, a jump 0.05 or 0.2 sprinting,
// an attack 0.1, a block broken 0.005, a hit taken 0.1); past 4 it costs a point of
// saturation, or of food when the saturation is gone. Each tick (FoodData.tick): with food 20
// and saturation left a hurt player heals every 10 ticks (min(saturation, 6) / 6, for as much
// exhaustion); with food 18 or more, 1 every 80 ticks (for 6 exhaustion); with food 0 the
// player starves 1 every 80 ticks down to 10 health on easy, 1 on normal, to death on hard.
// Eating: "use item" with a food in the main hand while hungry starts it; 32 ticks later (16
// for dried kelp, 40 for honey) the food is eaten (food + nutrition, saturation + nutrition x
// modifier x 2, neither above the food bar's 20 and the food), one taken from the stack, and
// the client told with entity event 9. Releasing the use, or another hotbar slot, stops it.
//
// Events: {"event":"ate","player":P,"item":I,"food":F,"saturation":S} and
// {"event":"eat_refused","player":P,"item":I,"reason":"not_hungry"}.

const MAX_FOOD = 20
const EXHAUSTION_STEP = 4
const EXHAUSTION_CAP = 40
const FAST_HEAL_TICKS = 10
const SLOW_HEAL_FOOD = 18
const SLOW_HEAL_TICKS = 80
const STARVE_TICKS = 80
const STARVE_FLOOR = { peaceful: 20, easy: 10, normal: 1, hard: 0 }
const EAT_TICKS = 32
const FINISHED_USING = 9 // entity event: the item in use is used up

// Vanilla's Foods.java: [nutrition, saturation modifier, ticks to eat]. minecraft-data's
// foods.json has the nutrition, but its saturation figures for 1.21.x are off (beef 10.8,
// bread 60 on 1.21.11), so the modifiers are listed here.
const FOODS = {
  apple: [4, 0.3], baked_potato: [5, 0.6], beef: [3, 0.3], beetroot: [1, 0.6], beetroot_soup: [6, 0.6],
  bread: [5, 0.6], carrot: [3, 0.6], chicken: [2, 0.3], cod: [2, 0.1], cooked_beef: [8, 0.8],
  cooked_chicken: [6, 0.6], cooked_cod: [5, 0.6], cooked_mutton: [6, 0.8], cooked_porkchop: [8, 0.8],
  cooked_rabbit: [5, 0.6], cooked_salmon: [6, 0.8], cookie: [2, 0.1], dried_kelp: [1, 0.3, 16],
  golden_apple: [4, 1.2], golden_carrot: [6, 1.2], honey_bottle: [6, 0.1, 40], melon_slice: [2, 0.3],
  mushroom_stew: [6, 0.6], mutton: [2, 0.3], porkchop: [3, 0.3], potato: [1, 0.3], pumpkin_pie: [8, 0.3],
  rabbit: [3, 0.3], rabbit_stew: [10, 0.6], rotten_flesh: [4, 0.1], salmon: [2, 0.1], sweet_berries: [2, 0.1]
}
const ALWAYS_EDIBLE = new Set(['golden_apple', 'enchanted_golden_apple', 'chorus_fruit', 'honey_bottle'])

module.exports = function createHunger ({ heldItem, heldSlot, take, heal, sendHealth, hurt, emit, difficulty }) {
  function fresh (player, food = MAX_FOOD, saturation = 5) {
    Object.assign(player, { food, saturation, exhaustion: 0, foodTimer: 0, eating: null })
  }

  function exhaust (player, amount) {
    player.exhaustion = Math.min(player.exhaustion + amount, EXHAUSTION_CAP)
  }

  function tick (player) {
    if (player.dead) return
    const before = [player.food, player.saturation]
    if (player.exhaustion > EXHAUSTION_STEP) {
      player.exhaustion -= EXHAUSTION_STEP
      if (player.saturation > 0) player.saturation = Math.max(player.saturation - 1, 0)
      else if (difficulty() !== 'peaceful') player.food = Math.max(player.food - 1, 0)
    }
    const hurtNow = player.health < 20
    if (player.saturation > 0 && hurtNow && player.food >= MAX_FOOD) {
      if (++player.foodTimer >= FAST_HEAL_TICKS) {
        const f = Math.min(player.saturation, 6)
        heal(player, f / 6)
        exhaust(player, f)
        player.foodTimer = 0
      }
    } else if (player.food >= SLOW_HEAL_FOOD && hurtNow) {
      if (++player.foodTimer >= SLOW_HEAL_TICKS) {
        heal(player, 1)
        exhaust(player, 6)
        player.foodTimer = 0
      }
    } else if (player.food <= 0) {
      if (++player.foodTimer >= STARVE_TICKS) {
        if (player.health > STARVE_FLOOR[difficulty()]) hurt(player, 1, 'starvation')
        player.foodTimer = 0
      }
    } else {
      player.foodTimer = 0
    }
    if (player.dead) return
    eatingTick(player)
    if (before[0] !== player.food || before[1] !== player.saturation) sendHealth(player)
  }

  // "use item" with the main hand.
  function use (player) {
    const held = heldItem(player)
    if (!held || !FOODS[held.name] || player.eating) return false
    if (player.food >= MAX_FOOD && !ALWAYS_EDIBLE.has(held.name)) {
      emit({ event: 'eat_refused', player: player.username, item: held.name, reason: 'not_hungry' })
      return true
    }
    player.eating = { slot: heldSlot(player), item: held.name, left: FOODS[held.name][2] || EAT_TICKS }
    return true
  }

  function stop (player) {
    player.eating = null
  }

  function eatingTick (player) {
    const e = player.eating
    if (!e) return
    const held = heldItem(player)
    if (heldSlot(player) !== e.slot || !held || held.name !== e.item) {
      player.eating = null
      return
    }
    if (--e.left > 0) return
    player.eating = null
    const [nutrition, modifier] = FOODS[e.item]
    player.food = Math.min(player.food + nutrition, MAX_FOOD)
    player.saturation = Math.min(player.saturation + nutrition * modifier * 2, player.food)
    take(player, e.slot, 1)
    player.client.write('entity_status', { entityId: player.entityId, entityStatus: FINISHED_USING })
    sendHealth(player)
    emit({ event: 'ate', player: player.username, item: e.item, food: player.food, saturation: Math.round(player.saturation * 100) / 100 })
  }

  return { fresh, exhaust, tick, use, stop, FOODS }
}
