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
want="$(cat setup.cfg pyproject.toml | sha256sum | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".[test]"
  echo "$want" > "$stamp"
fi
# --- browser (dashboard tests): Debian's chromium + chromium-driver; a subshell, so its exits end
# only this block. If they cannot be had, the reason is written down and the browser tests skip with it.
if [ "$with_browser" = 1 ]; then (
  browser_note=".venv/browser-unavailable"
  rm -f "$browser_note"
  if [ -x "${MCAGENT_CHROMIUM:-/usr/bin/chromium}" ] && command -v "${MCAGENT_CHROMEDRIVER:-chromedriver}" >/dev/null
  then exit 0; fi
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "not root or no apt-get: install chromium and chromium-driver yourself" > "$browser_note"
    echo "bootstrap: chromium not installed ($(cat "$browser_note")); the browser tests will skip"
    exit 0
  fi
  echo "bootstrap: installing chromium and chromium-driver (Debian packages) for the dashboard's browser tests"
  wait_lock=(-o DPkg::Lock::Timeout="${APT_LOCK_TIMEOUT:-600}")
  if ! { apt-get "${wait_lock[@]}" update -qq >/dev/null \
         && DEBIAN_FRONTEND=noninteractive apt-get "${wait_lock[@]}" install -y -qq --no-install-recommends \
            chromium chromium-driver >/dev/null; } 2>.venv/browser-install.log; then
    echo "apt-get failed: $(tail -n 1 .venv/browser-install.log)" > "$browser_note"
    echo "bootstrap: chromium not installed ($(cat "$browser_note")); the browser tests will skip"
  fi
) || true; fi
# --- end of the browser block
[ "$with_nginx" = 1 ] || exit 0
# The scale-out test puts a real nginx stream proxy in front of two instances. Another process
# (unattended upgrades, a second bootstrap) may hold apt's lock: wait for it instead of failing,
# and if nginx still cannot be had, say why and go on; the test then skips with that reason.
nginx_note=".venv/nginx-unavailable"
rm -f "$nginx_note"
if [ -e "${NGINX_STREAM_MODULE:-/usr/lib/nginx/modules/ngx_stream_module.so}" ]; then
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "not root or no apt-get: install nginx-light and libnginx-mod-stream yourself" > "$nginx_note"
  echo "bootstrap: nginx not installed ($(cat "$nginx_note")); the scale-out test will skip"
  exit 0
fi
echo "bootstrap: installing nginx-light and its stream module (Debian packages) for the scale-out test"
wait_lock=(-o DPkg::Lock::Timeout="${APT_LOCK_TIMEOUT:-600}")
if ! { apt-get "${wait_lock[@]}" update -qq >/dev/null \
       && DEBIAN_FRONTEND=noninteractive apt-get "${wait_lock[@]}" install -y -qq nginx-light libnginx-mod-stream \
          >/dev/null; } 2>.venv/nginx-install.log; then
  echo "apt-get failed: $(tail -n 1 .venv/nginx-install.log)" > "$nginx_note"
  echo "bootstrap: nginx not installed ($(cat "$nginx_note")); the scale-out test will skip"
fi
exit 0
