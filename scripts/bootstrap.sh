#!/usr/bin/env bash
# Create .venv with mcagent and its test tools, and install the pinned npm peers.
# Idempotent: a second run only checks that everything is in place.
#   scripts/bootstrap.sh               what the demo needs (scripts/dev.sh)
#   scripts/bootstrap.sh --with-nginx  also nginx with its stream module, for the scale-out test
#                                      (scripts/test.sh); only as root on Debian, never fatal
#   scripts/bootstrap.sh --with-browser  also Debian's chromium and chromium-driver, for the
#                                      dashboard's browser tests; only as root on Debian, never fatal
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
with_nginx=0
with_browser=0
for arg in "$@"; do
  case "$arg" in
    --with-nginx) with_nginx=1 ;;
    --with-browser) with_browser=1 ;;
    *) echo "bootstrap: unknown option $arg" >&2; exit 2 ;;
  esac
done
python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
# The npm peers (network-bound, a minute on a fresh machine) install while pip does; every
# exit below waits for them and fails if they failed, their output shown after.
peers_log=".venv/install-peers.log"
scripts/install-peers.sh >"$peers_log" 2>&1 &
peers_pid=$!
finish() {
  local rc=$?
  if ! wait "$peers_pid"; then
    cat "$peers_log" >&2
    echo "bootstrap: scripts/install-peers.sh failed" >&2
    exit 1
  fi
  cat "$peers_log"
  exit "$rc"
}
trap finish EXIT
stamp=".venv/.mcagent-installed"
# setup.py builds the fast path's C frame scanner (optional: without a compiler the
# pure-Python one is used); a change to its source reinstalls, which rebuilds it. The checkout's
# path is in the stamp too: the editable install points at one checkout, and a .venv shared with
# another one (a git worktree) must not keep running that one's code.
want="$( (echo "$root"; cat setup.cfg pyproject.toml setup.py proxy/protocol/_framescan.c) | sha256sum | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".[test]"
  echo "$want" > "$stamp"
fi
.venv/bin/python -c 'from proxy.protocol import frame_scan as f; print("bootstrap: frame scanner:", "native" if f.NATIVE else "pure Python (the C extension was not built)")' || true
# Debian packages the tests need, as root only and never fatal. Another process (unattended
# upgrades, a second bootstrap) may hold apt's lock: wait for it instead of failing. If they
# cannot be had, the reason goes to NOTE and the tests that need them skip with it.
#   debian_packages NAME NOTE WHAT PACKAGE...   (NAME: what the messages call it; WHAT: for which tests)
debian_packages() {
  local name="$1" note="$2" what="$3"
  shift 3
  local log="${note%-unavailable}-install.log"
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "not root or no apt-get: install $* yourself" > "$note"
    echo "bootstrap: $name not installed ($(cat "$note")); the $what will skip"
    return 0
  fi
  echo "bootstrap: installing $* (Debian packages) for the $what"
  local wait_lock=(-o DPkg::Lock::Timeout="${APT_LOCK_TIMEOUT:-600}")
  if ! { apt-get "${wait_lock[@]}" update -qq >/dev/null \
         && DEBIAN_FRONTEND=noninteractive apt-get "${wait_lock[@]}" install -y -qq --no-install-recommends \
            "$@" >/dev/null; } 2>"$log"; then
    echo "apt-get failed: $(tail -n 1 "$log")" > "$note"
    echo "bootstrap: $name not installed ($(cat "$note")); the $what will skip"
  fi
}
# The dashboard's browser tests: Debian's chromium + chromium-driver.
if [ "$with_browser" = 1 ]; then
  rm -f .venv/browser-unavailable
  if ! { [ -x "${MCAGENT_CHROMIUM:-/usr/bin/chromium}" ] \
         && command -v "${MCAGENT_CHROMEDRIVER:-chromedriver}" >/dev/null; }; then
    debian_packages chromium .venv/browser-unavailable "browser tests" chromium chromium-driver || true
  fi
fi
# The scale-out test puts a real nginx stream proxy in front of two instances.
if [ "$with_nginx" = 1 ]; then
  rm -f .venv/nginx-unavailable
  if [ ! -e "${NGINX_STREAM_MODULE:-/usr/lib/nginx/modules/ngx_stream_module.so}" ]; then
    debian_packages nginx .venv/nginx-unavailable "scale-out test" nginx-light libnginx-mod-stream || true
  fi
fi
exit 0
