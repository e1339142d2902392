'use strict'
// What a broken block drops: minecraft-data's first drop for it, if the held item may harvest
// it (stone needs a pickaxe, iron ore a stone one). Shared by world.js's basic rules and the
// survival rules' item entities (peers/survival/items.js), which add vanilla's chances and counts.

// Whether `held` ({name} or null) may harvest the block: any item if the block names no tools.
function mayHarvest (registry, block, held) {
  const tools = registry.blocks[block.type].harvestTools
  if (!tools) return true
  const tool = held ? registry.itemsByName[held.name] : null
  return Boolean(tool && tools[tool.id])
}

// The name of the first item minecraft-data lists as the block's drop, or null.
function firstDrop (registry, block) {
  for (const d of registry.blocks[block.type].drops || []) {
    const id = typeof d === 'object' ? (d.drop && typeof d.drop === 'object' ? d.drop.id : d.drop) : d
    if (registry.items[id]) return registry.items[id].name
  }
  return null
}

// What the block drops broken holding `held`, or null.
function harvestDrop (registry, block, held) {
  return mayHarvest(registry, block, held) ? firstDrop(registry, block) : null
}

module.exports = { mayHarvest, firstDrop, harvestDrop }
