#!/usr/bin/env node
'use strict'
// A bare minecraft-protocol client (no world, no physics) driven by JSON lines, for
// protocol-level end-to-end tests on versions mineflayer cannot speak (e.g. 26.1).
//
//   node peers/mcp_client.js --host 127.0.0.1 --port P --username alice --version 26.1
//        [--certificates URL --access-token T] [--session-server URL --uuid U]
//
// With --certificates (1.19.3+), the client signs its chat as a vanilla client logged in
// with that account does: it fetches the account's chat key from Minecraft services'
// player certificates at URL (POST, the access token as Bearer), sends the server its
// chat session once in play, and signs every chat line (client.chat) with it. The bytes of
// every chat packet it writes are reported ({"event":"sent_packet","name":P,"hex":H}), so a
// test can compare them with what the server received.
// With --session-server (and --access-token, --uuid), it logs in as that account straight
// to an online-mode server, joining through the session server at URL as a vanilla client
// does (without a proxy in between).
//
// minecraft-protocol's client does login, configuration (settings, select_known_packs
// and code_of_conduct answers, finish_configuration) and keep-alives itself, and answers
// a start_configuration in play (configuration_acknowledged, settings, then
// finish_configuration when the server finishes). This script adds teleport
// confirmations and reports what a test needs.
//
// stdout events (one JSON object per line):
//   {"event":"play","username":N,"version":V}       the play 'login' packet arrived
//   {"event":"position","x","y","z","teleportId":I}  a server position (confirmed at once)
//   {"event":"commands","names":[...]}              root command names of a declare_commands
//   {"event":"chat","text":T,"kind":K}               plain text of system_chat / player_chat /
//                                                    profileless_chat / chat (K = packet name)
//   {"event":"configuration"}                        the server sent start_configuration in play
//   {"event":"reconfigured"}                         back in play after it (play 'login' again)
//   {"event":"bad_packet","state":S,"id":I}           a packet id this state does not have (a
//                                                    vanilla client disconnects; minecraft-protocol
//                                                    silently emits it under its number)
//   {"event":"kicked","reason":R}
//   {"event":"end","reason":R}
//   {"event":"error","message":M[,"id":K][,"fatal":true]}
// stdin commands (answers carry the command's id):
//   {"cmd":"chat","text":T,"id":K}   -> {"event":"sent","id":K}  text starting with "/" is sent
//        as the version's command packet (chat_command on 1.19+, unsigned in offline mode),
//        anything else as chat_message (1.19+) or chat
//   {"cmd":"chat_on_configuration","text":T,"id":K} -> {"event":"armed","id":K}
//        when the next start_configuration arrives, send T as play chat before the
//        configuration_acknowledged (as a client does that typed it just before the
//        server's start_configuration reached it); reports {"event":"sent_before_ack","text":T}.
//        Several arm commands queue several lines, sent in order.
//   {"cmd":"state","id":K}           -> {"event":"state","id":K,"state":S}
//   {"cmd":"quit"}                    leave and exit

const { emit, log, parseArgs, requirePeer, readCommands, chatText } = require('./common')

let args
try {
  args = parseArgs(process.argv.slice(2), {
    host: '127.0.0.1',
    port: '25565',
    username: 'client',
    version: '1.21.4',
    certificates: '',
    'access-token': '',
    'session-server': '',
    uuid: ''
  })
} catch (err) {
  emit({ event: 'error', fatal: true, message: err.message })
  process.exit(2)
}

const mc = requirePeer('minecraft-protocol')
const ChatMessage = requirePeer('prismarine-chat')(args.version)
const mcData = requirePeer('minecraft-data')(args.version)

// Client-bound packet names per state, to spot a packet sent in the wrong state.
const knownNames = {}
for (const state of ['login', 'configuration', 'play']) {
  const section = mcData.protocol[state] && mcData.protocol[state].toClient
  const packet = section && section.types.packet
  const mapper = packet && packet[1] && packet[1][0] && packet[1][0].type
  if (Array.isArray(mapper) && mapper[0] === 'mapper') knownNames[state] = new Set(Object.values(mapper[1].mappings))
}

let exiting = false
let inPlay = false // a play 'login' arrived and the state is play
let reconfiguring = false
let kicked = false
let chatOnConfiguration = [] // lines to send when the next start_configuration arrives

function text (value) {
  return chatText(ChatMessage, value)
}

function exitSoon (code) {
  if (exiting) return
  exiting = true
  setTimeout(() => process.exit(code), 50)
}

process.on('uncaughtException', (err) => {
  log('uncaught:', (err && err.stack) || err)
  emit({ event: 'error', message: String((err && err.message) || err) })
})

// As the account, joining through a session server: minecraft-protocol's encryption plugin
// joins when it has credentials, with the session's profile id.
function accountAuth (client, options) {
  client.username = args.username
  client.uuid = args.uuid
  client.session = { accessToken: args['access-token'], selectedProfile: { id: args.uuid.replace(/-/g, ''), name: args.username } }
  options.haveCredentials = true
  options.accessToken = args['access-token']
  options.sessionServer = args['session-server']
  options.connect(client)
}

const client = mc.createClient({
  host: args.host,
  port: Number(args.port),
  username: args.username,
  version: args.version,
  auth: args['session-server'] ? accountAuth : 'offline',
  hideErrors: true,
  checkTimeoutInterval: 30000
})

const CHAT_PACKETS = new Set(['chat', 'chat_message', 'chat_command', 'chat_command_signed',
  'message_acknowledgement', 'chat_session_update'])
const PLAY_TO_SERVER = mcData.protocol.play.toServer.types.packet[1][0].type[1].mappings // '0x06' -> name
client.on('state', (state) => {
  // Every packet the client writes passes the serializer whole (id and body, before
  // compression and framing): the bytes a server must receive unchanged. A new state
  // brings a new serializer.
  if (state !== 'play') return
  client.serializer.on('data', (buffer) => {
    const name = PLAY_TO_SERVER['0x' + buffer[0].toString(16).padStart(2, '0')] // chat ids are one VarInt byte
    if (name && CHAT_PACKETS.has(name)) emit({ event: 'sent_packet', name, hex: buffer.toString('hex') })
  })
})

let chatKeys = null // the account's chat key, as player certificates give it
if (args.certificates) {
  fetch(args.certificates, { method: 'POST', headers: { Authorization: 'Bearer ' + args['access-token'] } })
    .then((response) => response.json())
    .then((body) => {
      const crypto = require('crypto')
      chatKeys = {
        public: crypto.createPublicKey(body.keyPair.publicKey),
        private: crypto.createPrivateKey(body.keyPair.privateKey),
        signatureV2: Buffer.from(body.publicKeySignatureV2, 'base64'),
        expiresOn: new Date(body.expiresAt)
      }
      startChatSession()
    })
    .catch((err) => emit({ event: 'error', fatal: true, message: 'player certificates: ' + err.message }))
}

function startChatSession () {
  if (!chatKeys || !inPlay || client._session) return
  const crypto = require('crypto')
  client.profileKeys = chatKeys
  client._session = { index: 0, uuid: crypto.randomUUID() }
  client.write('chat_session_update', {
    sessionUUID: client._session.uuid,
    expireTime: BigInt(chatKeys.expiresOn.getTime()),
    publicKey: chatKeys.public.export({ type: 'spki', format: 'der' }),
    signature: chatKeys.signatureV2
  })
  emit({ event: 'chat_session', session: client._session.uuid })
}

client.on('error', (err) => {
  log('client error:', (err && err.stack) || err)
  emit({ event: 'error', message: String((err && err.message) || err) })
})

client.on('packet', (data, meta) => {
  const known = knownNames[meta.state]
  if (known && !known.has(meta.name)) emit({ event: 'bad_packet', state: meta.state, id: meta.name })
})

client.on('state', (state) => {
  if (state !== 'play') inPlay = false
})

client.on('login', () => {
  inPlay = true
  if (reconfiguring) {
    reconfiguring = false
    emit({ event: 'reconfigured' })
  } else {
    emit({ event: 'play', username: client.username, version: client.version, uuid: client.uuid })
  }
  startChatSession()
})

// Registered before minecraft-protocol's own start_configuration listener (added at
// login success in src/client/play.js), so this runs before it writes
// configuration_acknowledged and switches the client to the configuration state.
client.on('start_configuration', () => {
  if (typeof client.chat === 'function') {
    const lines = chatOnConfiguration
    chatOnConfiguration = []
    for (const message of lines) {
      client.chat(message)
      emit({ event: 'sent_before_ack', text: message })
    }
  }
  reconfiguring = true
  inPlay = false
  emit({ event: 'configuration' })
})

client.on('position', (packet) => {
  if (packet.teleportId !== undefined && client.state === 'play') {
    client.write('teleport_confirm', { teleportId: packet.teleportId })
  }
  emit({ event: 'position', x: packet.x, y: packet.y, z: packet.z, teleportId: packet.teleportId })
})

client.on('declare_commands', (packet) => {
  const nodes = packet.nodes || []
  const root = nodes[packet.rootIndex]
  const names = root ? root.children.map((i) => nodes[i] && nodes[i].extraNodeData && nodes[i].extraNodeData.name) : []
  emit({ event: 'commands', names: names.filter((n) => typeof n === 'string') })
})

client.on('system_chat', (packet) => {
  if (packet.isActionBar || packet.type === 2) return
  emit({ event: 'chat', kind: 'system_chat', text: text(packet.content) })
})

client.on('player_chat', (packet) => {
  const value = packet.unsignedChatContent || packet.plainMessage || packet.signedChatContent || packet.formattedMessage
  emit({ event: 'chat', kind: 'player_chat', text: typeof value === 'string' && !value.startsWith('{') ? value : text(value) })
})

client.on('profileless_chat', (packet) => {
  emit({ event: 'chat', kind: 'profileless_chat', text: text(packet.message) })
})

client.on('chat', (packet) => {
  // The pre-1.19 chat packet (client-bound); 1.19+ clients never receive it.
  if (packet.position === 2) return
  emit({ event: 'chat', kind: 'chat', text: text(packet.message) })
})

function onKick (packet) {
  if (kicked) return
  kicked = true
  emit({ event: 'kicked', reason: text(packet.reason) })
}
client.on('kick_disconnect', onKick)
client.on('disconnect', onKick) // login and configuration states

client.on('end', (reason) => {
  emit({ event: 'end', reason: String(reason ?? '') })
  exitSoon(0)
})

const handlers = {
  chat (cmd) {
    const message = String(cmd.text ?? '')
    if (client.state !== 'play' || !inPlay || typeof client.chat !== 'function') {
      throw new Error(`not in play (state ${client.state}): cannot send ${JSON.stringify(message)}`)
    }
    // client.chat is minecraft-protocol's: on 1.19+ it sends a "/..." line as
    // chat_command (unsigned without profile keys) and the rest as chat_message
    // (no signature in offline mode); before 1.19 both go as the chat packet.
    client.chat(message)
    emit({ event: 'sent', id: cmd.id })
  },

  chat_on_configuration (cmd) {
    chatOnConfiguration.push(String(cmd.text ?? ''))
    emit({ event: 'armed', id: cmd.id })
  },

  skip_index (cmd) {
    // Sign the next line one link further on, as if a line had been lost on the way: a
    // vanilla server refuses it (chat_validation_failed).
    if (!client._session) throw new Error('no chat session')
    client._session.index++
    emit({ event: 'skipped', id: cmd.id })
  },

  state (cmd) {
    emit({ event: 'state', id: cmd.id, state: client.state, inPlay })
  },

  quit () {
    client.end('quit')
    setTimeout(() => exitSoon(0), 500)
  }
}

readCommands(handlers, () => {
  client.end('stdin closed')
  setTimeout(() => exitSoon(0), 500)
}, { serial: true })

process.on('SIGTERM', () => { client.end('SIGTERM'); exitSoon(0) })
process.on('SIGINT', () => { client.end('SIGINT'); exitSoon(0) })
