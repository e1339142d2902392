#!/usr/bin/env bash
# Install everything, then start an embedded flying-squid server (1.18.2 by default)
# with mcagent in front of it. Connect your Minecraft client to the address printed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scripts/bootstrap.sh
exec .venv/bin/mcagent dev "$@"
