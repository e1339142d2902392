#!/usr/bin/env node
'use strict'
// A bare minecraft-protocol client that records the world packets a server sends, for
// tests/e2e/test_chunks.py. It logs in, moves only when told, and appends each packet
// whose name is listed to the --out file as the exact bytes received (packet id
// included, after decompression), one JSON line {"state","name","hex"} per packet.
//
//   node tests/e2e/chunk_capture.js --port P --version 1.18.2 --out FILE [--username NAME] [--view-distance N]
//
// stdout events (one JSON object per line):
//   {"event":"packet","state":S,"name":N,"index":I,"size":B}   packet I was written to FILE
//   {"event":"login"}                                 reached the play state
//   {"event":"end","reason":R} / {"event":"error","message":M}
// stdin commands:
//   {"cmd":"move","x","y","z","id":K} -> {"event":"moved","id":K}  sends one position packet
//        (flying-squid does not check movement; it then sends and unloads columns)
//   {"cmd":"quit"} (or closing stdin) disconnects and exits.

const path = require('path')
const fs = require('fs')
const { emit, log, parseArgs, requirePeer, readCommands } = require(path.join(__dirname, '..', '..', 'peers', 'common'))

const CAPTURED = new Set([
  'login', 'respawn', 'registry_data',
  'map_chunk', 'map_chunk_bulk', 'block_change', 'multi_block_change', 'unload_chunk'
])

let args
try {
  args = parseArgs(process.argv.slice(2), {
    host: '127.0.0.1', port: '25565', version: '1.18.2', username: 'capture', 'view-distance': '2', out: ''
  })
  if (!args.out) throw new Error('--out FILE is required')
} catch (err) {
  emit({ event: 'error', fatal: true, message: err.message })
  process.exit(2)
}

const mc = requirePeer('minecraft-protocol')
const client = mc.createClient({
  host: args.host,
  port: Number(args.port),
  username: args.username,
  version: args.version,
  auth: 'offline',
  hideErrors: true
})

let index = 0
fs.writeFileSync(args.out, '')
client.on('packet', (data, meta, buffer, fullBuffer) => {
  if (!CAPTURED.has(meta.name)) return
  // Written before the event is printed, so a reader that saw the event finds the line.
  fs.appendFileSync(args.out, JSON.stringify({ state: meta.state, name: meta.name, hex: Buffer.from(fullBuffer).toString('hex') }) + '\n')
  emit({ event: 'packet', state: meta.state, name: meta.name, index: index++, size: fullBuffer.length })
})
client.on('login', () => {
  emit({ event: 'login' })
  // flying-squid sends the rest of the view, and follows movement, only once the client
  // has sent its settings (view distance) and a first look packet, as vanilla does.
  setTimeout(() => {
    try {
      client.write('settings', {
        locale: 'en_US',
        viewDistance: Number(args['view-distance']),
        chatFlags: 0,
        chatColors: true,
        skinParts: 127,
        mainHand: 1,
        enableTextFiltering: false,
        enableServerListing: true,
        particleStatus: 0
      })
      client.write('look', { yaw: 0, pitch: 0, onGround: true, flags: { onGround: true, hasHorizontalCollision: false } })
    } catch (err) { log('settings/look failed:', err.message) }
  }, 100)
})
// Keep a 1.20.2+ server sending chunks: acknowledge each batch as vanilla does.
client.on('chunk_batch_finished', () => {
  try { client.write('chunk_batch_received', { chunksPerTick: 20 }) } catch (err) { log('batch ack failed:', err.message) }
})
client.on('error', (err) => emit({ event: 'error', message: String((err && err.message) || err) }))
client.on('end', (reason) => {
  emit({ event: 'end', reason: String(reason || '') })
  process.exit(0)
})

function quit () {
  try { client.end('capture done') } catch (err) {}
  setTimeout(() => process.exit(0), 500)
}

readCommands((cmd) => {
  if (cmd.cmd === 'quit') return quit()
  if (cmd.cmd !== 'move') throw new Error('unknown cmd: ' + cmd.cmd)
  // onGround until 1.21.1, a flags bitfield from 1.21.2: give both, the layout picks.
  client.write('position', {
    x: Number(cmd.x),
    y: Number(cmd.y),
    z: Number(cmd.z),
    onGround: true,
    flags: { onGround: true, hasHorizontalCollision: false }
  })
  emit({ event: 'moved', id: cmd.id })
}, quit)
