"""Generate engine/modules/data/items.json from a minecraft-data checkout.

Usage: python scripts/generate_item_table.py MINECRAFT_DATA_PC_DIR [VERSION]

MINECRAFT_DATA_PC_DIR is the ``data/pc`` folder of the npm package
``minecraft-data`` (MIT licensed). VERSION defaults to the newest version the
package's dataPaths.json lists for pc. Only the registry name and English
display name of each item are kept; the zh aliases live in items_zh.json and
are written by hand.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "engine" / "modules" / "data" / "items.json"


def main(argv: list[str]) -> int:
    pc = Path(argv[0])
    paths = json.loads((pc.parent / "dataPaths.json").read_text(encoding="utf-8"))["pc"]
    version = argv[1] if len(argv) > 1 else list(paths)[-1]
    items_dir = paths[version]["items"].split("/", 1)[1]
    raw = json.loads((pc / items_dir / "items.json").read_text(encoding="utf-8"))
    items = sorted(
        ({"id": f"minecraft:{entry['name']}", "name": entry["displayName"]} for entry in raw if entry["name"] != "air"),
        key=lambda item: item["id"],
    )
    # One item per line keeps diffs readable when the table is regenerated.
    head = json.dumps({"version": version, "source": f"minecraft-data pc/{items_dir}/items.json"})[:-1]
    rows = ",\n".join(json.dumps(item, ensure_ascii=False) for item in items)
    OUT.write_text(f'{head}, "items": [\n{rows}\n]}}\n', encoding="utf-8")
    print(f"wrote {len(items)} items for {version} to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
