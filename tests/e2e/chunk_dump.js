#!/usr/bin/env node
'use strict'
// Builds one chunk column with prismarine-chunk (the chunk code flying-squid and
// mineflayer use) and prints its network dump and the state of sample blocks, for
// tests/e2e/test_chunks.py to decode independently. It reaches versions no server
// peer serves (26.1), and random block mixes a superflat world never has.
//
//   node tests/e2e/chunk_dump.js --version 26.1 [--seed N] [--blocks N]
//
// stdout: one JSON line {"hex":H,"mask":M,"minY":Y,"height":H,"samples":[[x,y,z,state],...]}
// (mask: the section bitmask before 1.18, as a number; null from 1.18 on).

const path = require('path')
const { emit, parseArgs, requirePeer } = require(path.join(__dirname, '..', '..', 'peers', 'common'))

const args = parseArgs(process.argv.slice(2), { version: '1.18.2', seed: '1', blocks: '3000' })
const registry = requirePeer('prismarine-registry')(args.version)
const Chunk = requirePeer('prismarine-chunk')(registry)
const { Vec3 } = requirePeer('vec3')

// A small deterministic generator (mulberry32), so a seed names one column.
let state = Number(args.seed) >>> 0
function random () {
  state = (state + 0x6D2B79F5) >>> 0
  let t = state
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const pick = (n) => Math.floor(random() * n)

const tall = registry.supportFeature('tallWorld')
const minY = tall ? -64 : 0
const height = tall ? 384 : 256
const column = tall ? new Chunk({ minY, worldHeight: height }) : new Chunk()

// States to draw from: a few common ones (indirect palettes) and, in some sections,
// many (direct palettes).
const flat = registry.supportFeature('theFlattening')
const states = []
for (const block of registry.blocksArray) {
  if (flat) {
    for (let s = block.minStateId; s <= block.maxStateId; s++) states.push(s)
  } else {
    states.push(block.id << 4)
  }
}
const common = Array.from({ length: 12 }, () => states[pick(states.length)])
const sectionCount = height / 16
const busy = new Set(Array.from({ length: 5 }, () => pick(sectionCount)))
const wide = pick(sectionCount)
const samples = []
for (let i = 0; i < Number(args.blocks); i++) {
  const sy = [...busy][pick(busy.size)]
  const pos = new Vec3(pick(16), minY + sy * 16 + pick(16), pick(16))
  const id = sy === wide ? states[pick(states.length)] : common[pick(common.length)]
  if (flat) column.setBlockStateId(pos, id)
  else {
    column.setBlockType(pos, id >> 4)
    column.setBlockData(pos, id & 15)
  }
}
for (let i = 0; i < 400; i++) {
  const pos = new Vec3(pick(16), minY + pick(height), pick(16))
  samples.push([pos.x, pos.y, pos.z, column.getBlockStateId(pos)])
}
for (const sy of busy) {
  for (let i = 0; i < 200; i++) {
    const pos = new Vec3(pick(16), minY + sy * 16 + pick(16), pick(16))
    samples.push([pos.x, pos.y, pos.z, column.getBlockStateId(pos)])
  }
}
emit({
  hex: column.dump().toString('hex'),
  mask: tall ? null : column.getMask(),
  minY,
  height,
  samples
})
