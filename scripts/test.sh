#!/usr/bin/env bash
# Install everything (Python packages, pinned npm peers) and run every test, e2e included.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scripts/bootstrap.sh --with-nginx --with-browser
# mypy (20-100 s on a cold cache) and ruff run beside pytest, on the CPU the end-to-end tests
# leave idle while they wait on the peers; their output is shown after pytest's.
checks="$(mktemp -d)"
trap 'rm -rf "$checks"' EXIT
.venv/bin/python -m mypy >"$checks/mypy.log" 2>&1 &
mypy_pid=$!
# Four workers on two cores: an end-to-end test spends most of its time waiting on the Node
# peers and the game's clock (the e2e suite uses about a quarter of two cores with two workers),
# so four at once finish sooner (MCAGENT_TEST_JOBS=0 runs them in one process).
# tests/e2e/schedule.py orders the longest tests first, and an idle worker takes tests queued on
# another (worksteal), so no worker runs a tail alone.
status=0
.venv/bin/python -m pytest -q -p no:cacheprovider -n "${MCAGENT_TEST_JOBS:-4}" --dist worksteal "$@" || status=$?
wait "$mypy_pid" || { status=1; echo "mypy failed:"; }
cat "$checks/mypy.log"
.venv/bin/python -m ruff check . || status=1
exit "$status"
