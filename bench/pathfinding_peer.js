// mineflayer-pathfinder on the same worlds as bench/pathfinding.py, without a server.
//
// Usage: node bench/pathfinding_peer.js CASES.json  (NODE_PATH or MCAGENT_PEERS_DIR points at node_modules)
//
// CASES.json: {"version": "1.18.2", "repeat": 3, "cases": [{"world": "w.bin", "origin": [x0, y0, z0],
//   "size": [sx, sy, sz], "start": [x, y, z], "goal": [x, y, z]}, ...]}
// w.bin holds uint16 little-endian block-state ids, index ((x * sy) + y) * sz + z relative to origin.
// Prints one JSON line per case: best time over `repeat` runs (ms) after `warmup` passes over all
// cases, visited nodes, status, path length.
//
// The pathfinder gets a stand-in bot with only what its A* reads: the registry, blockAt (a new
// prismarine-block per call, as mineflayer's world does), an empty inventory, no entities.
// Movements are set to what our planner does: no digging, no block placing, no parkour,
// drops of at most 3 blocks.
'use strict'
const fs = require('fs')
const path = require('path')
const { createRequire } = require('module')

const peers = process.env.MCAGENT_PEERS_DIR ||
  path.join(__dirname, '..', '.peers')
const req = createRequire(path.join(peers, 'node_modules', 'noop.js'))
const { Vec3 } = req('vec3')
const AStar = req('mineflayer-pathfinder/lib/astar')
const Move = req('mineflayer-pathfinder/lib/move')
const Movements = req('mineflayer-pathfinder/lib/movements')
const { goals } = req('mineflayer-pathfinder')

const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))
const registry = req('prismarine-registry')(spec.version)
const Block = req('prismarine-block')(registry)

function makeBot (world, origin, size) {
  const [x0, y0, z0] = origin
  const [sx, sy, sz] = size
  return {
    registry,
    version: spec.version,
    entity: { position: new Vec3(0, 0, 0), effects: {} },
    entities: {},
    game: { minY: -64 },
    inventory: { items: () => [], slots: [] },
    pathfinder: { bestHarvestTool: () => null },
    blockAt (pos) {
      const x = Math.floor(pos.x) - x0
      const y = Math.floor(pos.y) - y0
      const z = Math.floor(pos.z) - z0
      if (x < 0 || y < 0 || z < 0 || x >= sx || y >= sy || z >= sz) return null
      const block = Block.fromStateId(world[(x * sy + y) * sz + z], 0)
      block.position = new Vec3(Math.floor(pos.x), Math.floor(pos.y), Math.floor(pos.z))
      return block
    }
  }
}

const worlds = new Map()

function run (c) {
  if (!worlds.has(c.world)) {
    const buf = fs.readFileSync(c.world)
    worlds.set(c.world, new Uint16Array(buf.buffer, buf.byteOffset, buf.length / 2))
  }
  const bot = makeBot(worlds.get(c.world), c.origin, c.size)
  const movements = new Movements(bot)
  movements.canDig = false
  movements.allow1by1towers = false
  movements.allowParkour = false
  movements.allowEntityDetection = false
  movements.maxDropDown = 3
  movements.scafoldingBlocks = []
  const start = new Move(c.start[0], c.start[1], c.start[2], 0, 0)
  const goal = new goals.GoalBlock(c.goal[0], c.goal[1], c.goal[2])
  return new AStar(start, movements, goal, 60000, 60000, -1).compute()
}

// Warm the JIT in this process on every case first, then measure best of `repeat`.
for (let i = 0; i < (spec.warmup ?? 2); i++) spec.cases.forEach(run)
for (const c of spec.cases) {
  let best = null
  for (let i = 0; i < (spec.repeat || 3); i++) {
    const result = run(c)
    if (best === null || result.time < best.time) best = result
  }
  console.log(JSON.stringify({
    ms: best.time, visited: best.visitedNodes, status: best.status, steps: best.path.length, cost: best.cost
  }))
}
