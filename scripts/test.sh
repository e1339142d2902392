#!/usr/bin/env bash
# Install everything (Python packages, pinned npm peers) and run every test, e2e included.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scripts/bootstrap.sh --with-nginx --with-browser
.venv/bin/python -m mypy
.venv/bin/python -m ruff check .
# Two workers: the end-to-end tests spend most of their time waiting on the Node peers, so
# two at once finish sooner even on two cores (MCAGENT_TEST_JOBS=0 runs them in one process).
.venv/bin/python -m pytest -q -p no:cacheprovider -n "${MCAGENT_TEST_JOBS:-2}" "$@"
