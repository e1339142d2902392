"""Generate engine/modules/data/item_names.json.gz: every item and block name of every accepted version.

Usage: python scripts/gen_item_names.py [--minecraft-data-repo CLONE] [MINECRAFT_DATA_DIR] [MC_LANG_GIT_DIR]

Sources (facts only, no code):

* minecraft-data 3.119.0 (npm, MIT): ``data/pc/<version>/items.json`` and ``blocks.json`` of the
  data version of every row of proxy/data/versions.json that the proxy accepts, and
  ``data/pc/common/legacy.json`` (pre-flattening ``id:meta`` → flattened id). Default:
  .peers/next/node_modules/minecraft-data/minecraft-data/data. A row whose data the npm package
  lacks (26.2) is read, as by the protocol and block generators, from the commit of the
  minecraft-data repository that versions.json names (scripts/minecraft_data.py: the clone from
  ``--minecraft-data-repo``, ``$MCAGENT_MINECRAFT_DATA_REPO`` or the ``fetch`` tool's mirror), so
  its new items (26.2's sulfur blocks) have names; the header's ``sources`` names the commit.
* zh_cn names: the vanilla language file ``full/zh_cn.json`` of github.com/SkyEye-FAST/mc_lang
  at commit ``MC_LANG_COMMIT`` (26.3-snapshot-5), keys ``item.minecraft.<id>`` then
  ``block.minecraft.<id>``. An id that file no longer has (renamed or removed before 26.3) takes
  its name from the newest earlier commit of the same file that has it (the history starts at
  1.21-pre3); older removed ids have no zh name. Pre-flattening ids get the zh name of the id
  legacy.json flattens them to. Default: the ``fetch`` tool's mirror in /work/.mirror.

Output (gzip of one JSON object; ``columns`` name the row fields):

* ``versions``: versions.json names, oldest first; a row's ``mask`` has bit i set when the
  entry exists in ``versions[i]``.
* ``items``: flattened ids (1.13 on): id, English name (newest), older English names, zh name,
  mask, whether it is a block without an item form.
* ``legacy``: pre-flattening entries (1.8–1.12.2): id, metadata (null for the id itself), English
  name, mask, the flattened id legacy.json maps it to (null if none), block without item form.
"""
from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from minecraft_data import (NpmPackage, Source, repo_option, repository_clone, repository_rows,  # noqa: E402
                            source_labels, sources)

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "engine" / "modules" / "data" / "item_names.json.gz"
MINECRAFT_DATA_VERSION = "3.119.0"
DEFAULT_DATA = ROOT / ".peers" / "next" / "node_modules" / "minecraft-data" / "minecraft-data" / "data"
MC_LANG_REPO = "github.com/SkyEye-FAST/mc_lang"
MC_LANG_COMMIT = "079e3c7252519479c017bf85e80429ef01dacecf"
DEFAULT_MC_LANG = Path("/work/.mirror/SkyEye-FAST+mc_lang/repo")
ZH_FILE = "full/zh_cn.json"
FLATTENING = (1, 13)  # the first release with flattened ids


def _release(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in name.split("."))


def accepted_versions() -> list[tuple[str, str]]:
    """(versions.json name, minecraft-data version whose items/blocks describe it), oldest first."""
    rows = json.loads((ROOT / "proxy" / "data" / "versions.json").read_text(encoding="utf-8"))["protocols"]
    return [(row["name"], row["data"]) for row in rows if "missing" not in row]


def _read(source: Source, version: str, kind: str) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = source.file(version, kind)
    return entries


def zh_names(mc_lang: Path) -> dict[str, str]:
    """Flattened id → zh_cn name, newest commit first, older commits only for ids it lacks."""
    commits = subprocess.run(["git", "-C", str(mc_lang), "log", "--format=%H", MC_LANG_COMMIT, "--", ZH_FILE],
                             check=True, capture_output=True, text=True).stdout.split()
    names: dict[str, str] = {}
    for commit in commits:
        text = subprocess.run(["git", "-C", str(mc_lang), "show", f"{commit}:{ZH_FILE}"],
                              check=True, capture_output=True, text=True).stdout
        lang: dict[str, str] = json.loads(text)
        found: dict[str, str] = {}
        for prefix in ("block.minecraft.", "item.minecraft."):  # an item's own key wins over its block's
            for key, value in lang.items():
                path = key[len(prefix):]
                if key.startswith(prefix) and "." not in path:
                    found[f"minecraft:{path}"] = value
        for item_id, value in found.items():
            names.setdefault(item_id, value)
    return names


def main(argv: list[str]) -> int:
    repo, args = repo_option(argv)
    data = Path(args[0]) if args else DEFAULT_DATA
    mc_lang = Path(args[1]) if len(args) > 1 else DEFAULT_MC_LANG
    npm = NpmPackage(data.parents[1])
    if npm.version != MINECRAFT_DATA_VERSION:
        raise SystemExit(f"minecraft-data is {npm.version}, this script reads {MINECRAFT_DATA_VERSION}")
    chosen, unavailable = sources(npm, repository_clone(repo))
    if unavailable:
        commits = repository_rows()
        raise SystemExit(f"{', '.join(unavailable)} come from the minecraft-data repository "
                         f"({', '.join(sorted({commits[v] for v in unavailable}))}): pass --minecraft-data-repo CLONE")
    legacy_json = npm.read("pc/common/legacy.json")
    # "17:2" → "minecraft:birch_log". An item's metadata values are its variants; a block's also
    # encode its state (facing, half), so a block without an item form keeps only its id (meta 0).
    legacy_items: dict[str, str] = {key: flat.split("[", 1)[0] for key, flat in legacy_json["items"].items()}
    legacy_blocks: dict[str, str] = {key: flat.split("[", 1)[0] for key, flat in legacy_json["blocks"].items()}
    versions = accepted_versions()
    zh = zh_names(mc_lang)

    # Flattened ids: one row per id over every version it exists in.
    flat_names: dict[str, list[str]] = {}  # id → English names, newest last
    flat_mask: dict[str, int] = {}
    has_item: set[str] = set()
    # Pre-flattening: (id, meta) → names, mask, flattened id, item form.
    old_names: dict[tuple[str, int | None], list[str]] = {}
    old_mask: dict[tuple[str, int | None], int] = {}
    old_flat: dict[tuple[str, int | None], str | None] = {}
    old_item: set[tuple[str, int | None]] = set()
    for bit, (name, version) in enumerate(versions):
        items = _read(chosen[name], version, "items")
        blocks = _read(chosen[name], version, "blocks")
        if _release(name.split("-")[0]) >= FLATTENING:
            for entry, is_item in [(e, True) for e in items] + [(e, False) for e in blocks]:
                if entry["name"] == "air":
                    continue
                item_id = f"minecraft:{entry['name']}"
                names = flat_names.setdefault(item_id, [])
                display = str(entry["displayName"])
                if display in names:
                    names.remove(display)
                names.append(display)
                flat_mask[item_id] = flat_mask.get(item_id, 0) | 1 << bit
                if is_item:
                    has_item.add(item_id)
            continue
        numeric: dict[int, tuple[dict[str, Any], bool]] = {}
        for entry in blocks:
            numeric[int(str(entry["id"]))] = (entry, False)
        for entry in items:
            numeric[int(str(entry["id"]))] = (entry, True)
        block_variations = {int(str(e["id"])): e.get("variations") or [] for e in blocks}
        for number, (entry, is_item) in numeric.items():
            if entry["name"] == "air":
                continue
            item_id = f"minecraft:{entry['name']}"
            legacy_map = legacy_items if is_item else {k: v for k, v in legacy_blocks.items() if k.endswith(":0")}
            metas = sorted(int(k.split(":")[1]) for k in legacy_map if k.split(":")[0] == str(number))
            rows: list[tuple[int | None, str, str | None]] = [
                (None, str(entry["displayName"]), legacy_map.get(f"{number}:0") if len(metas) <= 1 else None)]
            if len(metas) > 1:
                named: dict[int, str] = {}
                for source in (block_variations.get(number, []), entry.get("variations") or []):
                    for variation in source:
                        named[int(variation["metadata"])] = str(variation["displayName"])
                for value in metas:
                    display = named.get(value) or ""
                    # Block variations of old data describe a state ("Oak wood facing up/down"): not a name.
                    if " facing " in display or " with only " in display:
                        display = ""
                    if value == 0 and display == rows[0][1]:  # golden_apple: meta 0 is the id's own name
                        rows[0] = (None, rows[0][1], legacy_map[f"{number}:0"])
                        continue
                    rows.append((value, display, legacy_map[f"{number}:{value}"]))
            for meta, display, flat in rows:
                key = (item_id, meta)
                names = old_names.setdefault(key, [])
                if display and display not in names:
                    names.append(display)
                old_mask[key] = old_mask.get(key, 0) | 1 << bit
                old_flat[key] = flat
                if is_item:
                    old_item.add(key)
    item_rows = []
    for item_id in sorted(flat_names):
        names = flat_names[item_id]
        item_rows.append([item_id, names[-1], names[:-1][::-1], zh.get(item_id), flat_mask[item_id],
                          item_id not in has_item])
    legacy_rows = []
    for key in sorted(old_names, key=lambda k: (k[0], -1 if k[1] is None else k[1])):
        names = old_names[key]
        flat = old_flat[key]
        if not names:  # a variation minecraft-data does not name: the flattened id's name stands in
            names = [flat_names[flat][-1]] if flat in flat_names else []
        if not names:
            continue
        legacy_rows.append([key[0], key[1], names[-1], old_mask[key], flat, key not in old_item])
    missing_zh = sum(1 for row in item_rows if row[3] is None)
    document = {
        "header": {
            "generator": "scripts/gen_item_names.py",
            "minecraft_data": f"minecraft-data {MINECRAFT_DATA_VERSION} (npm, MIT): pc/<version>/items.json, "
                              "blocks.json, pc/common/legacy.json",
            "zh_cn": f"{MC_LANG_REPO} {ZH_FILE} at {MC_LANG_COMMIT} (26.3-snapshot-5); ids it lacks from "
                     "earlier commits of that file (from 1.21-pre3)",
            "versions_source": "proxy/data/versions.json (accepted rows)",
            # Rows read from the minecraft-data repository instead of the npm package, and the commit.
            "sources": source_labels(),
        },
        "versions": [name for name, _ in versions],
        "item_columns": ["id", "en", "older_en", "zh", "mask", "block_only"],
        "items": item_rows,
        "legacy_columns": ["id", "meta", "en", "mask", "flattened", "block_only"],
        "legacy": legacy_rows,
    }
    raw = json.dumps(document, ensure_ascii=False, separators=(",", ":"), sort_keys=False).encode("utf-8")
    # mtime=0: the same input gives the same bytes, so a regeneration shows no diff.
    OUT.write_bytes(gzip.compress(raw, compresslevel=9, mtime=0))
    print(f"wrote {len(item_rows)} flattened ids ({missing_zh} without zh) and {len(legacy_rows)} "
          f"pre-flattening entries over {len(versions)} versions to {OUT} ({OUT.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
