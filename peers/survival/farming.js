'use strict'
// Farming on the survival test server: a hoe tills, seeds plant, wheat grows on random ticks and
// drops by its age, as vanilla 1.18+ (the simulator's engine/sim/farming.py, by the same classes).
//
// How it works. A use of an item on a block (block_place / use_item_on) comes here first
// (`useOn`): a hoe on the top or a side of grass, a dirt path or dirt with air above makes
// farmland (HoeItem.useOn); wheat seeds on farmland's top put wheat of age 0 above it
// (CropBlock.mayPlaceOn). Crops planted here grow: each gets a random tick with chance
// randomTickSpeed / 4096 a tick (ServerLevel.tickChunk; --random-tick-speed, vanilla's gamerule,
// 3 by default) and then grows an age with chance 1 / (floor(25 / f) + 1), f from
// CropBlock.getGrowthSpeed (farmland under and round it, 3 if moist: water within 4 across, level
// or one up; the eight round it a quarter; halved when crowded). Broken, ripe wheat (age 7)
// drops a wheat and 1 + binomial(3, 4/7) seeds, a younger one a seed (vanilla's loot table).
// Flattened versions only (1.13+): 1.8-1.12 keep the age in metadata, which is not modelled.
//
// Events: {"event":"tilled","player":P,"x","y","z"}, {"event":"planted","player":P,"crop":C,"x","y","z"},
// {"event":"crop_grew","x","y","z","age":A}.

const WATER_REACH = 4
const MAX_AGE = 7
const TILLABLE = new Set(['grass_block', 'dirt', 'dirt_path', 'grass_path'])
const SEEDS = { wheat_seeds: 'wheat' }
const HOE = /_hoe$/

module.exports = function createFarming ({ registry, blockAt, setBlock, emit, random, tickSpeed }) {
  const flattened = registry.supportFeature('theFlattening')
  const crops = new Map() // "x,y,z" -> {x, y, z, crop, age}
  const name = (x, y, z) => blockAt({ x, y, z }).name

  // A use of `held` on the block at `pos`, clicked on face `direction` (0 bottom, 1 top, ...):
  // true when it tilled or planted (the caller acknowledges it), false when it is not farming.
  function useOn (player, pos, direction, held, take) {
    if (!flattened || !held) return false
    const { x, y, z } = pos
    if (HOE.test(held.name)) {
      if (direction === 0 || !TILLABLE.has(name(x, y, z)) || name(x, y + 1, z) !== 'air') return false
      setBlock(pos, 'farmland')
      emit({ event: 'tilled', player: player.username, x, y, z })
      return true
    }
    const crop = SEEDS[held.name]
    if (!crop) return false
    if (direction !== 1 || name(x, y, z) !== 'farmland' || name(x, y + 1, z) !== 'air') return true // nothing happens
    setBlock({ x, y: y + 1, z }, `${crop}[age=0]`)
    take()
    crops.set(`${x},${y + 1},${z}`, { x, y: y + 1, z, crop, age: 0 })
    emit({ event: 'planted', player: player.username, crop, x, y: y + 1, z })
    return true
  }

  function moist (x, y, z) {
    for (let dx = -WATER_REACH; dx <= WATER_REACH; dx++) {
      for (let dz = -WATER_REACH; dz <= WATER_REACH; dz++) {
        for (const dy of [0, 1]) if (name(x + dx, y + dy, z + dz) === 'water') return true
      }
    }
    return false
  }

  // CropBlock.getGrowthSpeed.
  function growthSpeed (c) {
    let f = 1
    for (let dx = -1; dx <= 1; dx++) {
      for (let dz = -1; dz <= 1; dz++) {
        let g = 0
        if (name(c.x + dx, c.y - 1, c.z + dz) === 'farmland') g = moist(c.x + dx, c.y - 1, c.z + dz) ? 3 : 1
        if (dx || dz) g /= 4
        f += g
      }
    }
    const same = (dx, dz) => name(c.x + dx, c.y, c.z + dz) === c.crop
    const eastWest = same(-1, 0) || same(1, 0)
    const northSouth = same(0, -1) || same(0, 1)
    if (eastWest && northSouth) f /= 2
    else if (same(-1, -1) || same(-1, 1) || same(1, -1) || same(1, 1)) f /= 2
    return f
  }

  function tick () {
    for (const [key, c] of crops) {
      if (name(c.x, c.y, c.z) !== c.crop) { crops.delete(key); continue } // picked
      if (random() >= tickSpeed / 4096) continue
      if (random() * (Math.floor(25 / growthSpeed(c)) + 1) >= 1) continue
      c.age++
      setBlock(c, `${c.crop}[age=${c.age}]`)
      emit({ event: 'crop_grew', x: c.x, y: c.y, z: c.z, age: c.age })
      if (c.age >= MAX_AGE) crops.delete(key)
    }
  }

  // What a broken crop drops (null: not a crop of ours to judge; the caller's drops apply).
  function dropsOf (block) {
    if (!flattened || block.name !== 'wheat') return null
    const age = block.getProperties().age
    if (Number(age) !== MAX_AGE) return [{ name: 'wheat_seeds', count: 1 }]
    let seeds = 1
    for (let i = 0; i < 3; i++) if (random() < 4 / 7) seeds++
    return [{ name: 'wheat', count: 1 }, { name: 'wheat_seeds', count: seeds }]
  }

  return { useOn, tick, dropsOf }
}
