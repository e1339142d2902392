'use strict'
// Cross-check of the relay benchmark's scripted peers with a real protocol library.
//
// How this works: minecraft-protocol (the library flying-squid and mineflayer use)
// plays the other side of bench/relay_peers/peer.py. As a client it logs in to the
// scripted server, sends the sync chat, parses every flood or echo packet with the
// version's schema and checks the fields; as a server it accepts the scripted
// client, answers the sync and parses its chat flood. A packet the library cannot
// parse is an error. Prints one JSON line: {"event": "validated", ...} or an error.
//
// node validate.js client --connect 127.0.0.1:PORT --version 1.18.2 --workload small|big|echo [--count N]
// node validate.js server --port PORT --version 1.18.2 --workload chat [--count N]
// minecraft-protocol is found through NODE_PATH (bench/relay.py sets it).

const mc = require('minecraft-protocol')

function parseArgs (argv) {
  const out = { role: argv[0], count: 2000, version: '1.18.2', workload: 'small', port: 0, connect: '127.0.0.1:25565' }
  for (let i = 1; i < argv.length; i += 2) out[argv[i].replace(/^--/, '')] = argv[i + 1]
  out.count = Number(out.count)
  out.port = Number(out.port)
  return out
}

const args = parseArgs(process.argv.slice(2))
const mcData = require('minecraft-data')(args.version)
let finished = false
function finish (fields) {
  if (finished) return
  finished = true
  process.stdout.write(JSON.stringify(fields) + '\n', () => process.exit(fields.event === 'validated' ? 0 : 1))
}
setTimeout(() => finish({ event: 'error', error: 'validation timed out' }), 30000).unref()

function textOf (content) {
  // chat content as JSON text (until 1.20.2) or NBT (1.20.3+)
  if (typeof content === 'string') {
    try { return JSON.parse(content).text } catch (e) { return content }
  }
  if (content && content.value && content.value.text) return content.value.text.value
  return undefined
}

function sendChat (client, text) {
  if (client.chat) client.chat(text) // set up by minecraft-protocol once play starts
  else client.write('chat', { message: text })
}

function writeChat (client, text) {
  if (mcData.supportFeature('signedChat')) {
    const nbt = require('prismarine-nbt')
    const content = mcData.supportFeature('chatPacketsUseNbtComponents')
      ? nbt.comp({ text: nbt.string(text) })
      : JSON.stringify({ text })
    client.write('system_chat', { content, isActionBar: false, type: 1 })
  } else {
    client.write('chat', { message: JSON.stringify({ text }), position: 1, sender: '00000000-0000-0000-0000-000000000000' })
  }
}

if (args.role === 'client') {
  const [host, port] = args.connect.split(':')
  const client = mc.createClient({ host, port: Number(port), username: 'validator', version: args.version, auth: 'offline', keepAlive: false })
  const counts = {}
  const bad = []
  let synced = false
  let pings = 0
  client.on('error', (err) => finish({ event: 'error', error: `minecraft-protocol: ${err.message}`, counts }))
  client.on('end', () => finish({ event: 'error', error: 'connection ended', counts }))
  client.on('state', (state) => {
    if (state === 'play') setImmediate(() => sendChat(client, 'sync'))
  })
  client.on('packet', (data, meta) => {
    if (meta.state !== 'play') return
    counts[meta.name] = (counts[meta.name] || 0) + 1
    if (meta.name === 'chat' || meta.name === 'system_chat') {
      const text = textOf(data.message !== undefined ? data.message : data.content)
      if (!synced) {
        if (text !== 'sync') bad.push(`unexpected chat before sync: ${text}`)
        synced = true
        if (args.workload === 'echo') sendChat(client, `ping ${pings}`)
        return
      }
      if (args.workload === 'echo') {
        if (text !== `ping ${pings}`) bad.push(`echo ${pings} came back as ${text}`)
        pings += 1
        if (pings >= Math.min(args.count, 200)) return done()
        sendChat(client, `ping ${pings}`)
      }
      return
    }
    if (!synced) return
    if (args.workload === 'small') {
      if (meta.name !== 'entity_velocity') bad.push(`expected entity_velocity, got ${meta.name}`)
      else if (!(data.entityId >= 1 && data.entityId <= 5000) || Math.abs(data.velocityX) > 800) bad.push(`odd entity_velocity ${JSON.stringify(data)}`)
    } else if (args.workload === 'big') {
      if (meta.name !== 'custom_payload') bad.push(`expected custom_payload, got ${meta.name}`)
      else if (data.channel !== 'bench:load' || data.data.length !== 1000) bad.push(`odd custom_payload ${data.channel} ${data.data.length}`)
    }
    const seen = (counts.entity_velocity || 0) + (counts.custom_payload || 0)
    if (seen >= args.count) done()
  })
  function done () {
    finish({ event: bad.length ? 'error' : 'validated', role: 'client', workload: args.workload, counts, bad: bad.slice(0, 5), error: bad[0] })
    client.end()
  }
} else if (args.role === 'server') {
  const server = mc.createServer({ host: '127.0.0.1', port: args.port, 'online-mode': false, version: args.version, keepAlive: false, compressionThreshold: 256 })
  server.on('listening', () => process.stdout.write(JSON.stringify({ event: 'listening', port: server.socketServer.address().port }) + '\n'))
  server.on('error', (err) => finish({ event: 'error', error: `minecraft-protocol server: ${err.message}` }))
  server.on('playerJoin', (client) => {
    const bad = []
    let chats = 0
    let synced = false
    client.on('error', (err) => finish({ event: 'error', error: `minecraft-protocol: ${err.message}`, chats }))
    const onChat = (data) => {
      const text = data.message
      if (!synced) {
        if (text === 'sync') { synced = true; writeChat(client, 'sync') }
        return
      }
      if (text === 'sync') return // a retried sync
      chats += 1
      if (typeof text !== 'string' || !/ \d{4}$/.test(text) || text.startsWith('!') || text.startsWith('@ai')) bad.push(`odd chat ${text}`)
      if (chats >= args.count) {
        finish({ event: bad.length ? 'error' : 'validated', role: 'server', workload: args.workload, counts: { chat: chats }, bad: bad.slice(0, 5), error: bad[0] })
        client.end('validated')
        server.close()
      }
    }
    client.on('chat', onChat)
    client.on('chat_message', onChat)
  })
} else {
  finish({ event: 'error', error: `unknown role ${args.role}` })
}
