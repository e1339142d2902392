'use strict'
// Modern (1.13+, "flattened") block and item names as 1.8-1.12 spell them: there a block is
// an id and a 4-bit metadata, and one name covers several variants (an oak log is log:0, a
// birch log log:2). The world files (docs/world-file.md) and the simulator speak modern
// names; a server on 1.12.2 reads them through `legacyName`. Only the blocks and items the
// test worlds and tests use are listed (vanilla 1.12's ids and metadata, as minecraft-data
// 1.12.2's blocks.json variations name them); a name not listed is taken as it is.

const LEGACY = {
  grass_block: ['grass', 0],
  short_grass: ['tallgrass', 1],
  oak_log: ['log', 0],
  spruce_log: ['log', 1],
  birch_log: ['log', 2],
  jungle_log: ['log', 3],
  acacia_log: ['log2', 0],
  dark_oak_log: ['log2', 1],
  oak_leaves: ['leaves', 0],
  spruce_leaves: ['leaves', 1],
  birch_leaves: ['leaves', 2],
  jungle_leaves: ['leaves', 3],
  oak_planks: ['planks', 0],
  oak_sapling: ['sapling', 0],
  white_wool: ['wool', 0],
  raw_iron: ['iron_ore', 0], // before 1.17 iron ore drops itself and is what is smelted
  granite: ['stone', 1],
  diorite: ['stone', 3],
  andesite: ['stone', 5]
}

// [name, metadata] of a modern name on 1.8-1.12 (`hasName`: whether the registry knows a name).
function legacyName (name, hasName) {
  if (hasName(name)) return [name, 0]
  return LEGACY[name] || [name, 0]
}

module.exports = { legacyName }
