#!/usr/bin/env bash
# Install the pinned Node peers (flying-squid, mineflayer, minecraft-protocol,
# mineflayer-pathfinder) used by tests/e2e into <repo>/.peers.
#
# Idempotent: when <repo>/.peers/node_modules exists and the lock file (and
# package.json) are byte-identical to the ones it was installed from, nothing is
# done. Otherwise the two files are copied and `npm ci` installs exactly what
# peers/package-lock.json says.
#
# Needs only node (>= 20) and npm. Set MCAGENT_PEERS_DIR to install elsewhere
# (tests/e2e/peers.py honours the same variable).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
src="$repo/peers"
dest="${MCAGENT_PEERS_DIR:-$repo/.peers}"
stamp="$dest/.installed-lock.sha256"

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

have=""
if [ -f "$stamp" ]; then
    have="$(cat "$stamp")"
fi

if [ -d "$dest/node_modules" ] && [ "$have" = "$want" ]; then
    echo "install-peers: up to date in $dest (lock sha256 ${want:0:12})"
    exit 0
fi

mkdir -p "$dest"
cp "$src/package.json" "$src/package-lock.json" "$dest/"
rm -f "$stamp"
echo "install-peers: npm ci in $dest ..."
(cd "$dest" && npm ci --no-audit --no-fund)
printf '%s' "$want" > "$stamp"
echo "install-peers: installed in $dest (lock sha256 ${want:0:12})"
