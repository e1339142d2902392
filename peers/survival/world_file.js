'use strict'
// A `mcagent-world/1` file (docs/world-file.md): the simulator's world for one seed, so the
// test server plays the same terrain, cows, spawn, clock and starting inventory.
//
// The blocks are run-length runs of palette indices over the box, y slowest, then z, then x.
// They are expanded once into one byte per cell (the box is small: 96 x 80 x 96 is 737,280
// cells), and a chunk column is filled from it when a player first needs it. Every column
// outside the box is `outside` from y = 0 up to the box's height: a wall, as the simulator has
// nothing there.

const fs = require('fs')

const FORMAT = 'mcagent-world/1'
const MAX_CELLS = 64 * 1024 * 1024 // a bound on what a file may ask this process to hold

// Reads and checks the file; a bad file throws with the file's name and the field.
function loadWorldFile (path, stateIdOf) {
  let doc
  try {
    doc = JSON.parse(fs.readFileSync(path, 'utf8'))
  } catch (err) {
    throw new Error(`${path}: ${err.message}`)
  }
  const fail = (field, why) => { throw new Error(`${path}: ${field}: ${why}`) }
  if (doc.format !== FORMAT) fail('format', `expected "${FORMAT}", got ${JSON.stringify(doc.format)}`)
  const { size, height } = doc
  if (!Number.isInteger(size) || size <= 0) fail('size', 'a positive integer')
  if (!Number.isInteger(height) || height <= 0 || height > 320) fail('height', 'an integer in 1..320')
  if (size * size * height > MAX_CELLS) fail('size', `too big (${size} x ${height} x ${size})`)
  if (!Array.isArray(doc.palette) || doc.palette.length === 0 || doc.palette.length > 255) {
    fail('palette', 'a list of 1..255 block specs')
  }
  const states = doc.palette.map((spec, i) => {
    try {
      return stateIdOf(spec)
    } catch (err) {
      return fail(`palette[${i}]`, err.message)
    }
  })
  const cells = new Uint8Array(size * size * height)
  let at = 0
  if (!Array.isArray(doc.blocks)) fail('blocks', 'a list of [palette index, run length]')
  for (const [i, run] of doc.blocks.entries()) {
    const [index, length] = Array.isArray(run) ? run : []
    if (!Number.isInteger(index) || index < 0 || index >= states.length) fail(`blocks[${i}]`, 'bad palette index')
    if (!Number.isInteger(length) || length <= 0 || at + length > cells.length) fail(`blocks[${i}]`, 'bad run length')
    cells.fill(index, at, at + length)
    at += length
  }
  if (at !== cells.length) fail('blocks', `the runs cover ${at} of ${cells.length} cells`)
  let outside
  try {
    outside = stateIdOf(doc.outside ?? 'bedrock')
  } catch (err) {
    fail('outside', err.message)
  }
  const spawn = doc.spawn
  if (!Array.isArray(spawn) || spawn.length !== 3 || !spawn.every(Number.isFinite)) fail('spawn', 'an [x, y, z] list')
  const time = doc.time ?? 0
  if (!Number.isInteger(time) || time < 0) fail('time', 'a tick count')
  const difficulty = doc.difficulty ?? 'normal'
  if (!['peaceful', 'easy', 'normal', 'hard'].includes(difficulty)) fail('difficulty', 'peaceful, easy, normal or hard')
  const animals = doc.animals ?? []
  for (const [i, a] of animals.entries()) {
    if (!a || typeof a.kind !== 'string' || ![a.x, a.y, a.z].every(Number.isFinite)) fail(`animals[${i}]`, 'kind, x, y, z')
  }
  const inventory = doc.start_inventory ?? []
  for (const [i, s] of inventory.entries()) {
    if (!s || !Number.isInteger(s.slot) || s.slot < 1 || s.slot > 45 || typeof s.name !== 'string' ||
        !Number.isInteger(s.count) || s.count <= 0) fail(`start_inventory[${i}]`, 'slot 1..45, name, count')
  }

  // The state of a cell of the box, or `outside` beyond it (below y 0 and above the box: air).
  function stateAt (x, y, z) {
    if (y < 0 || y >= height) return null
    if (x < 0 || z < 0 || x >= size || z >= size) return outside
    return states[cells[(y * size + z) * size + x]]
  }

  return {
    size,
    height,
    stateAt,
    spawn: { x: spawn[0], y: spawn[1], z: spawn[2] },
    time,
    difficulty,
    animals,
    inventory
  }
}

module.exports = { loadWorldFile }
