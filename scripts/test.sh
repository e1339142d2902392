#!/usr/bin/env bash
# Install everything (Python packages, pinned npm peers) and run every test, e2e included.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scripts/bootstrap.sh --with-nginx
.venv/bin/python -m mypy engine
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
