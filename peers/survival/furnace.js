'use strict'
// Furnaces as vanilla's AbstractFurnaceBlockEntity.serverTick runs them, one per block,
// ticking whether or not anyone looks in: slot 0 the input, 1 the fuel, 2 the output.
//
// How it works, per tick: a lit furnace burns down one tick. An unlit furnace with fuel and
// something it can smelt (a smelting recipe, and room in the output) takes one fuel item and
// burns for that fuel's time. While lit and able to smelt, progress counts up; at COOK_TIME
// one input item becomes one output item. Unlit, progress falls back two a tick; unable to
// smelt, it resets. The window shows four properties (vanilla's data slots): the burn time
// left, the fuel's whole burn time, the progress and COOK_TIME.

const COOK_TIME = 200 // ticks a smelting recipe takes in a furnace (vanilla's "cookingtime")

// Smelting recipes: vanilla 1.21's data/minecraft/recipe/*.json of type "minecraft:smelting"
// (the ones a survival player meets first; minecraft-data carries no smelting recipes).
const SMELTING = {
  raw_iron: 'iron_ingot',
  iron_ore: 'iron_ingot',
  deepslate_iron_ore: 'iron_ingot',
  raw_gold: 'gold_ingot',
  gold_ore: 'gold_ingot',
  deepslate_gold_ore: 'gold_ingot',
  raw_copper: 'copper_ingot',
  copper_ore: 'copper_ingot',
  cobblestone: 'stone',
  stone: 'smooth_stone',
  sand: 'glass',
  red_sand: 'glass',
  clay_ball: 'brick',
  beef: 'cooked_beef',
  porkchop: 'cooked_porkchop',
  chicken: 'cooked_chicken',
  mutton: 'cooked_mutton',
  rabbit: 'cooked_rabbit',
  cod: 'cooked_cod',
  salmon: 'cooked_salmon',
  potato: 'baked_potato',
  kelp: 'dried_kelp',
  cactus: 'green_dye',
  netherrack: 'nether_brick',
  wet_sponge: 'sponge',
  ancient_debris: 'netherite_scrap'
}
const CHARCOAL_FROM = /_(log|wood)$/ // vanilla: the #logs_that_burn tag smelts to charcoal

// Burn times in ticks: vanilla's fuel table (FuelValues, 1.21.2+; AbstractFurnaceBlockEntity
// before), named items first, then the wooden families by their name.
const FUEL = {
  lava_bucket: 20000,
  coal_block: 16000,
  dried_kelp_block: 4001,
  blaze_rod: 2400,
  coal: 1600,
  charcoal: 1600,
  crafting_table: 300,
  bookshelf: 300,
  chest: 300,
  stick: 100,
  bowl: 100,
  bamboo: 50,
  scaffolding: 50
}
const WOOD_FUEL = [
  [/_(log|wood|planks|fence|fence_gate|stairs|trapdoor|pressure_plate)$/, 300],
  [/^(log|log2|planks|wooden_slab|fence|fence_gate|trapdoor|wooden_pressure_plate)$/, 300], // 1.8-1.12's names
  [/^wooden_(pickaxe|axe|shovel|hoe|sword)$/, 200],
  [/_(slab)$/, 150],
  [/_(door|sign)$/, 200],
  [/_(sapling|wool|button)$/, 100],
  [/_carpet$/, 67]
]
const NON_WOOD = /^(stone|cobblestone|brick|sandstone|red_sandstone|nether_brick|quartz|prismarine|purpur|blackstone|deepslate|tuff|mud_brick|copper|cut_copper|iron|andesite|diorite|granite|polished_|smooth_|mossy_|end_stone|bamboo_mosaic)/

function burnTime (name) {
  if (FUEL[name] !== undefined) return FUEL[name]
  if (NON_WOOD.test(name) || name.startsWith('crimson_') || name.startsWith('warped_')) return 0
  for (const [pattern, ticks] of WOOD_FUEL) if (pattern.test(name)) return ticks
  return 0
}

function smeltsTo (name) {
  if (SMELTING[name]) return SMELTING[name]
  if (CHARCOAL_FROM.test(name) && !name.startsWith('crimson_') && !name.startsWith('warped_')) return 'charcoal'
  return null
}

class Furnace {
  constructor (pos) {
    this.pos = pos
    this.slots = [null, null, null] // input, fuel, output: {name, count} or null
    this.litTime = 0
    this.litDuration = 0
    this.progress = 0
  }

  get lit () { return this.litTime > 0 }

  properties () {
    return [this.litTime, this.litDuration, this.progress, COOK_TIME]
  }

  // One game tick. `stackSize(name)` from the registry. Returns {changed, smelted}:
  // whether a slot changed, and the item made this tick (or null).
  tick (stackSize) {
    let changed = false
    let smelted = null
    if (this.lit) this.litTime--
    const [input, fuel, output] = this.slots
    if (this.lit || (fuel && input)) {
      const product = input ? smeltsTo(input.name) : null
      const room = product && (!output || (output.name === product && output.count < stackSize(product)))
      if (!this.lit && room && fuel) {
        this.litTime = this.litDuration = burnTime(fuel.name)
        if (this.lit) {
          fuel.count--
          if (fuel.count === 0) this.slots[1] = fuel.name === 'lava_bucket' ? { name: 'bucket', count: 1 } : null
          changed = true
        }
      }
      if (this.lit && room) {
        this.progress++
        if (this.progress === COOK_TIME) {
          this.progress = 0
          this.slots[2] = output ? { name: output.name, count: output.count + 1 } : { name: product, count: 1 }
          input.count--
          if (input.count === 0) this.slots[0] = null
          smelted = product
          changed = true
        }
      } else {
        this.progress = 0
      }
    } else if (this.progress > 0) {
      this.progress = Math.max(0, this.progress - 2)
    }
    return { changed, smelted }
  }
}

module.exports = { Furnace, burnTime, smeltsTo, COOK_TIME }
