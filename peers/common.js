'use strict'
// Shared plumbing for the peer scripts (server.js, bot.js).
//
// Protocol: one JSON object per line. Events go to the real stdout, commands come
// from the real stdin. Anything a library prints with console.log / process.stdout
// is redirected to stderr so stdout stays machine-readable.

const path = require('path')
const { createRequire } = require('module')
const readline = require('readline')
const { PassThrough } = require('stream')

// Capture the real streams before any library gets a chance to grab them.
const realStdout = process.stdout
const realStdoutWrite = realStdout.write.bind(realStdout)
const realStdin = process.stdin

const END_WAIT_MS = 2000

// Writes that are only a readline prompt or cursor movement are dropped; everything
// else a library prints on stdout goes to stderr.
const NOISE = /^(?:\x1b\[[0-9;]*[A-Za-z]|> )*$/ // eslint-disable-line no-control-regex
realStdout.write = function (chunk, encoding, cb) {
  const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')
  if (NOISE.test(text)) {
    if (typeof encoding === 'function') encoding()
    else if (typeof cb === 'function') cb()
    return true
  }
  return process.stderr.write(chunk, encoding, cb)
}

// Hide the real stdin from libraries (flying-squid opens a readline console on
// process.stdin and would run every line as a server command).
Object.defineProperty(process, 'stdin', {
  value: new PassThrough(),
  configurable: true,
  writable: true
})

function emit (obj) {
  realStdoutWrite(JSON.stringify(obj) + '\n')
}

function log (...parts) {
  process.stderr.write('[' + path.basename(process.argv[1] || 'peer') + '] ' + parts.join(' ') + '\n')
}

// Parse `--name value` and `--name=value`; unknown names are rejected so a typo in
// a test shows up immediately.
function parseArgs (argv, defaults) {
  const out = Object.assign({}, defaults)
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (!arg.startsWith('--')) throw new Error('unexpected argument: ' + arg)
    let name = arg.slice(2)
    let value
    const eq = name.indexOf('=')
    if (eq >= 0) {
      value = name.slice(eq + 1)
      name = name.slice(0, eq)
    } else {
      if (i + 1 >= argv.length) throw new Error('missing value for --' + name)
      value = argv[++i]
    }
    if (!(name in defaults)) throw new Error('unknown option --' + name)
    out[name] = value
  }
  return out
}

// Require a package from the installed peers (<repo>/.peers, or MCAGENT_PEERS_DIR).
function peersDir () {
  return process.env.MCAGENT_PEERS_DIR || path.join(__dirname, '..', '.peers')
}

const peerRequire = createRequire(path.join(peersDir(), 'package.json'))

function requirePeer (name) {
  try {
    return peerRequire(name)
  } catch (err) {
    if (err && err.code === 'MODULE_NOT_FOUND' && String(err.message).includes(`'${name}'`)) {
      throw new Error(`cannot find '${name}' in ${peersDir()}/node_modules: run scripts/install-peers.sh`)
    }
    throw err
  }
}

// Call handler(obj) for every JSON line on the real stdin; onEnd() at EOF.
// ``handler`` may also be a table of functions keyed by the command's ``cmd``.
// With serial=true each command finishes before the next one starts, so answers
// come back in the order the commands were sent. A failing handler or a line that
// is not a JSON object is answered with {"event":"error",...} (with the id if any).
function readCommands (handler, onEnd, { serial = false } = {}) {
  if (typeof handler !== 'function') handler = dispatcher(handler)
  const rl = readline.createInterface({ input: realStdin, crlfDelay: Infinity, terminal: false })
  let queue = Promise.resolve()
  const run = (cmd) => Promise.resolve()
    .then(() => handler(cmd))
    .catch((err) => {
      log('command failed:', JSON.stringify(cmd), (err && err.stack) || err)
      emit({ event: 'error', id: cmd.id, cmd: cmd.cmd, message: String((err && err.message) || err) })
    })
  rl.on('line', (line) => {
    line = line.trim()
    if (!line) return
    let cmd
    try {
      cmd = JSON.parse(line)
    } catch (err) {
      emit({ event: 'error', message: 'bad command line (not JSON): ' + line.slice(0, 200) })
      return
    }
    if (cmd === null || typeof cmd !== 'object' || Array.isArray(cmd)) {
      emit({ event: 'error', message: 'bad command (not an object): ' + line.slice(0, 200) })
      return
    }
    if (serial) queue = queue.then(() => run(cmd))
    else run(cmd)
  })
  rl.on('close', () => {
    // Let queued commands finish, but never let a stuck one block shutdown.
    if (!onEnd) return
    let done = false
    const end = () => { if (!done) { done = true; onEnd() } }
    queue.then(end)
    setTimeout(end, END_WAIT_MS).unref()
  })
}

// Plain text of a chat component in any of its wire forms: JSON string (up to
// 1.20.2), NBT compound (1.20.3+), prismarine-chat ChatMessage, or plain string.
function chatText (ChatMessage, value) {
  if (value === undefined || value === null) return ''
  if (typeof value === 'object' && value.json !== undefined && typeof value.toString === 'function') {
    return value.toString()
  }
  try {
    return ChatMessage.fromNotch(value).toString()
  } catch (err) {
    return typeof value === 'string' ? value : JSON.stringify(value)
  }
}

// Online mode against local account services, before the server is created:
// minecraft-protocol 1.68 asks `require('yggdrasil').server(...)` for its session checks
// when a server is created and has no option for the host, so the factory is wrapped to
// point it at `sessionServer`; and the key that profile keys must be signed with (Mojang's
// public key in production) is replaced by `servicesKeyPem` when given, so a test's own
// "Mojang" can certify a test player's chat key. Both must run before minecraft-protocol
// (or flying-squid, which loads it) is required.
function useAccountServices ({ sessionServer, servicesKeyPem }) {
  if (sessionServer) {
    const yggdrasil = requirePeer('yggdrasil')
    const original = yggdrasil.server
    yggdrasil.server = (options) => original(Object.assign({}, options, { host: sessionServer }))
  }
  if (servicesKeyPem) {
    requirePeer('minecraft-protocol/src/server/constants').mojangPublicKeyPem = servicesKeyPem
  }
}

function dispatcher (handlers) {
  return async (cmd) => {
    const handler = Object.prototype.hasOwnProperty.call(handlers, cmd.cmd) ? handlers[cmd.cmd] : null
    if (!handler) throw new Error('unknown cmd: ' + cmd.cmd)
    await handler(cmd)
  }
}

module.exports = {
  useAccountServices,
  emit,
  log,
  parseArgs,
  peersDir,
  requirePeer,
  readCommands,
  chatText
}
