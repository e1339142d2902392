"""Regenerate every per-version table from proxy/data/versions.json: the one command after editing it.

Usage: python scripts/gen_versions.py [--minecraft-data-repo CLONE]

Runs, in order, each generator that reads the one list of versions, then writes the version
table of docs/versions.md (``mcagent versions --markdown``) between its markers:

* scripts/gen_protocol.py   -> proxy/data/protocol.json (packet ids, layouts, registries)
* scripts/gen_blocks.py     -> engine/world/data/blocks.json (block states, shapes)
* scripts/gen_item_names.py -> engine/modules/data/item_names.json.gz (en and zh item names)

A row that names a ``commit`` is read from that commit of the minecraft-data repository: CLONE,
else ``$MCAGENT_MINECRAFT_DATA_REPO``, else the ``fetch`` tool's copy in /work/.mirror
(scripts/minecraft_data.py). Each generated file names that commit in its header (``sources``).
The outputs are committed; CI never regenerates them, it only checks them (tests/proxy/
test_protocol_data.py, tests/proxy/test_versions.py, tests/engine/world/test_gen_blocks.py).
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "versions.md"
GENERATORS = ("gen_protocol.py", "gen_blocks.py", "gen_item_names.py")
TABLE = re.compile(r"(<!-- versions table:[^\n]*-->\n)(.*?)(<!-- end of versions table -->)", re.S)


def write_docs_table(markdown: str) -> bool:
    """Put ``markdown`` between docs/versions.md's markers; True when the file changed."""
    text = DOC.read_text(encoding="utf-8")
    if not TABLE.search(text):
        raise SystemExit(f"{DOC}: the versions table markers are missing")
    new = TABLE.sub(lambda m: m.group(1) + markdown + m.group(3), text, count=1)
    if new == text:
        return False
    DOC.write_text(new, encoding="utf-8")
    return True


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--minecraft-data-repo", help="a git clone of the minecraft-data repository holding "
                        "the commits versions.json names (default: $MCAGENT_MINECRAFT_DATA_REPO, then the "
                        "fetch tool's copy)")
    args = parser.parse_args(argv)
    repo = ["--minecraft-data-repo", args.minecraft_data_repo] if args.minecraft_data_repo else []
    for script in GENERATORS:
        done = subprocess.run([sys.executable, str(ROOT / "scripts" / script), *repo], cwd=ROOT, check=False)
        if done.returncode != 0:
            print(f"scripts/{script} failed (exit {done.returncode})", file=sys.stderr)
            return done.returncode
    # A fresh interpreter reads the list as the proxy will (proxy/protocol/versions.py caches it).
    table = subprocess.run([sys.executable, "-m", "proxy.operations.cli", "versions", "--markdown"],
                           cwd=ROOT, check=True, capture_output=True, text=True).stdout
    changed = write_docs_table(table)
    print(f"{DOC.relative_to(ROOT)}: version table {'rewritten' if changed else 'unchanged'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
