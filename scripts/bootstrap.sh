#!/usr/bin/env bash
# Create .venv with mcagent and its test tools, and install the pinned npm peers.
# Idempotent: a second run only checks that everything is in place.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
stamp=".venv/.mcagent-installed"
want="$(cat setup.cfg pyproject.toml | sha256sum | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".[test]"
  echo "$want" > "$stamp"
fi
scripts/install-peers.sh
# The scale-out test puts a real nginx stream proxy in front of two instances.
if [ ! -e /usr/lib/nginx/modules/ngx_stream_module.so ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "bootstrap: installing nginx-light and its stream module (Debian packages) for the scale-out test"
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light libnginx-mod-stream >/dev/null
fi
