#!/usr/bin/env python3
"""Generate proxy/data/protocol.json from minecraft-data.

The output holds, per supported version: the protocol number, packet ids for every
state and direction, the protodef layouts of the packets the proxy decodes or
encodes (plus the named types they use), and the item and entity registries.
Identical layouts, id maps and registries are stored once in pools and referenced
by key, and item registries are runs over one shared list of names, so dozens of
versions stay small.

Every row of proxy/data/versions.json is read from the pinned minecraft-data npm package,
except a row that names a ``commit``: that one is read from that commit of the
minecraft-data repository (scripts/minecraft_data.py), rebased onto the package's ``base``
when the row names one, and the output's ``sources`` says so.

Re-run after bumping minecraft-data in peers/package.json or editing versions.json:
    scripts/install-peers.sh && .venv/bin/python scripts/gen_protocol.py --minecraft-data-repo CLONE
(CLONE: a git clone of the minecraft-data repository holding the rows' commits; needed only
while a row names one). tests/proxy/test_protocol_data.py fails when the committed file is stale.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from minecraft_data import (NPM_PACKAGE, NpmPackage, Source, accepted_rows, repository_clone,  # noqa: E402
                            repository_rows, source_labels, sources)

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "proxy" / "data" / "protocol.json"

# Packets whose layouts we ship: (state, direction, name). Names that a version
# does not have are skipped for that version.
LAYOUTS = {
    ("handshaking", "toServer"): ["set_protocol"],
    ("login", "toServer"): ["login_start", "encryption_begin", "login_acknowledged"],
    ("login", "toClient"): ["disconnect", "encryption_begin", "success", "compress"],
    ("configuration", "toClient"): ["disconnect", "finish_configuration", "registry_data"],
    ("configuration", "toServer"): ["finish_configuration", "settings"],
    ("play", "toServer"): [
        "chat", "chat_message", "chat_command", "chat_command_signed", "message_acknowledgement",
        "chat_session_update", "settings",
        "position", "position_look", "look", "flying", "held_item_slot",
        "teleport_confirm", "entity_action", "player_input", "client_command", "keep_alive", "use_item", "block_place",
        "block_dig",
        # agent ops (proxy/codec/versioned.py, proxy/windows/sequencer.py): swing, attack, inventory clicks
        "arm_animation", "use_entity", "attack", "window_click", "close_window", "transaction",
    ],
    ("play", "toClient"): [
        "login", "respawn", "position", "update_health", "experience",
        "game_state_change", "player_info", "player_remove", "named_entity_spawn",
        "spawn_entity", "spawn_entity_living", "entity_teleport", "rel_entity_move",
        "entity_move_look", "entity_destroy", "window_items", "set_slot",
        "held_item_slot", "kick_disconnect", "chat", "system_chat", "player_chat",
        "declare_commands", "start_configuration", "keep_alive", "sync_entity_position", "entity_metadata",
        "update_time",  # day and night for the autopilot (sleep is legal only at night)
        # world model (proxy/codec/chunks/): chunk columns, block changes, unloads
        "map_chunk", "map_chunk_bulk", "block_change", "multi_block_change", "unload_chunk",
        # windows the agent opens (proxy/windows/sequencer.py)
        "open_window", "close_window", "transaction", "set_cursor_item", "set_player_inventory",
    ],
}

HOSTILE_TYPES = {"hostile"}
# minecraft-data's categories before 1.15 (the type was only "mob" or "object" then).
OLD_CATEGORIES = {"hostile mobs": "hostile", "passive mobs": "passive", "drops": "other", "blocks": "other",
                  "projectiles": "projectile", "immobile": "other", "vehicles": "other", "generic": "other"}


# Old entity and object names → the registry names the engine knows (minecraft-data spells
# objects as the protocol documentation did: "item_stack", "activated_tnt").
OLD_NAMES = {
    "item_stack": "item", "primed_tnt": "tnt", "activated_tnt": "tnt", "xp_orb": "experience_orb",
    "lava_slime": "magma_cube", "pig_zombie": "zombie_pigman", "villager_golem": "iron_golem",
    "snow_man": "snow_golem", "mushroom_cow": "mooshroom", "ozelot": "ocelot", "entity_horse": "horse",
    "wither_boss": "wither", "armorstand": "armor_stand", "endercrystal": "end_crystal",
    "ender_crystal": "end_crystal", "falling_sand": "falling_block", "falling_objects": "falling_block",
    "item_frames": "item_frame", "fishing_float": "fishing_bobber", "fishing_hook": "fishing_bobber",
    "thrown_egg": "egg", "thrown_enderpearl": "ender_pearl", "thrown_exp_bottle": "experience_bottle",
    "thrown_potion": "potion", "eye_of_ender_signal": "eye_of_ender", "fireworks_rocket_entity": "firework_rocket",
    "tipped_arrow": "arrow", "minecart_rideable": "minecart",
}


def entity_name(raw: str) -> str:
    """The registry spelling: 1.8-1.10 name entities in CamelCase ("PigZombie", "Item")."""
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", raw).lower().replace(" ", "_")
    name = re.sub(r"[^a-z0-9_]", "", name)       # minecraft-data 1.13 has "iron_golem}"
    return OLD_NAMES.get(name, name)


def entity_category(entity: dict[str, Any]) -> str:
    kind = str(entity.get("type", ""))
    if kind in ("mob", "object"):
        return OLD_CATEGORIES.get(str(entity.get("category", "")).lower(), "other")
    return kind


def spawns_objects(protocol: dict[str, Any]) -> bool:
    """Whether spawn_entity still carries an object id (a byte), as until 1.13."""
    try:
        fields = protocol["play"]["toClient"]["types"]["packet_spawn_entity"][1]
    except (KeyError, IndexError, TypeError):
        return False
    return any(f.get("name") == "type" and f.get("type") == "i8" for f in fields)


def data_root(arg: str | None) -> Path:
    candidates = [Path(arg)] if arg else []
    candidates.append(NPM_PACKAGE)
    for c in candidates:
        if (c / "minecraft-data" / "data" / "dataPaths.json").exists():
            return c
    sys.exit("minecraft-data not found: run scripts/install-peers.sh first (or pass --minecraft-data)")


def pool_key(obj: Any) -> str:
    return hashlib.sha1(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:12]


def pooled(pool: dict[str, Any], value: Any) -> str:
    k = pool_key(value)
    pool[k] = value
    return k


def name_runs(table: dict[int, str], names: dict[str, int]) -> list[list[int]]:
    """An id -> name table as runs over the shared name list (ids with no name are index 0).

    Names enter the shared list in first-seen order, so a version that adds a few items
    to its predecessor's list is a few runs: ``[first, length]`` covers ids whose names
    are ``length`` consecutive entries of the list from ``first``; ``[0, length]`` is
    ``length`` ids with no item.
    """
    runs: list[list[int]] = []
    for item_id in range(max(table, default=-1) + 1):
        index = names.setdefault(table[item_id], len(names)) if item_id in table else 0
        if runs and index and runs[-1][0] and runs[-1][0] + runs[-1][1] == index:
            runs[-1][1] += 1
        elif runs and not index and not runs[-1][0]:
            runs[-1][1] += 1
        else:
            runs.append([index, 1])
    return runs


def referenced_types(layout: Any, known: dict[str, Any], out: dict[str, Any]) -> None:
    """Collect the named (non-native) types a layout uses, transitively."""
    if isinstance(layout, str):
        if layout in known and known[layout] != "native" and layout not in out:
            out[layout] = known[layout]
            referenced_types(known[layout], known, out)
    elif isinstance(layout, list):
        for item in layout:
            referenced_types(item, known, out)
    elif isinstance(layout, dict):
        for value in layout.values():
            referenced_types(value, known, out)


def generate(npm: NpmPackage, chosen: dict[str, Source]) -> dict[str, Any]:
    """The document for the accepted rows ``chosen`` names (a row's source is where it is read)."""
    pools: dict[str, dict[str, Any]] = {"layouts": {}, "types": {}, "items": {}, "entities": {},
                                        "ids": {}, "layout_sets": {}, "type_sets": {}}
    item_names: dict[str, int] = {"": 0}
    versions: dict[str, Any] = {}
    last_objects: dict[str, list[str]] = {}
    for row in accepted_rows():
        version = row["name"]
        if version not in chosen:
            continue
        source = chosen[version]
        source.check_releases(row)
        protocol = source.file(row["data"], "protocol")
        ids: dict[str, dict[str, dict[str, int]]] = {}
        layouts: dict[str, dict[str, dict[str, str]]] = {}
        named: dict[str, Any] = {}
        for state in ("handshaking", "status", "login", "configuration", "play"):
            if state not in protocol:
                continue
            for direction in ("toClient", "toServer"):
                section = protocol[state][direction]["types"]
                mapping = section["packet"][1][0]["type"][1]["mappings"]
                # The packet switch names each packet's layout type; since 1.20.5 some
                # are shared top-level types ("packet_common_settings").
                params = section["packet"][1][1]["type"][1]["fields"]
                ids.setdefault(state, {})[direction] = {name: int(pid, 16) for pid, name in mapping.items()}
                known = dict(protocol["types"])
                known.update({k: v for k, v in section.items() if not k.startswith("packet")})
                for name in LAYOUTS.get((state, direction), []):
                    type_name = params.get(name)
                    layout = section.get(type_name) if isinstance(type_name, str) else None
                    if layout is None and isinstance(type_name, str):
                        layout = protocol["types"].get(type_name)
                    if layout is None:
                        continue
                    k = pool_key(layout)
                    pools["layouts"][k] = layout
                    layouts.setdefault(state, {}).setdefault(direction, {})[name] = k
                    referenced_types(layout, known, named)
        type_keys = {}
        for name, layout in sorted(named.items()):
            k = pool_key(layout)
            pools["types"][k] = layout
            type_keys[name] = k
        natives = sorted(k for k, v in protocol["types"].items() if v == "native")
        items = source.file(row["data"], "items")
        item_runs = name_runs({int(i["id"]): i["name"] for i in items}, item_names)
        ik = pool_key(item_runs)
        pools["items"][ik] = item_runs
        entities = source.file(row["data"], "entities")
        # Until 1.13 objects (items, arrows, TNT) and mobs have ids of their own (spawn_entity
        # vs spawn_entity_living), and minecraft-data lists both in one file: keep them apart.
        entity_table = {str(e["id"]): [entity_name(e["name"]), entity_category(e)]
                        for e in entities if "id" in e and e.get("type") != "object"}
        object_table = {str(e["id"]): [entity_name(e["name"]), entity_category(e)]
                        for e in entities if "id" in e and e.get("type") == "object"}
        if object_table:
            last_objects = object_table
        elif spawns_objects(protocol):
            object_table = last_objects      # 1.13: object ids unchanged, no longer in minecraft-data
        ek = pool_key(entity_table)
        pools["entities"][ek] = entity_table
        ok = pool_key(object_table)
        pools["entities"][ok] = object_table
        versions[version] = {
            "protocol": row["protocol"],
            "ids": pooled(pools["ids"], ids),
            "layouts": pooled(pools["layout_sets"], layouts),
            "types": pooled(pools["type_sets"], type_keys),
            "natives": natives,
            "items": ik,
            "entities": ek,
            "objects": ok,
        }
    labels = source_labels()
    return {
        "generator": "scripts/gen_protocol.py",
        "minecraft_data": npm.version,
        # Rows read from the minecraft-data repository instead of the npm package, and the commit.
        "sources": {name: label for name, label in labels.items() if name in versions},
        "versions": versions,
        "item_names": sorted(item_names, key=lambda n: item_names[n]),
        "pools": pools,
    }


def expand(document: dict[str, Any], version: str) -> dict[str, Any]:
    """One version's tables with the pools resolved: what two generations must agree on."""
    entry = document["versions"][version]
    pools = document["pools"]
    names = document["item_names"]
    items: list[str] = []
    for first, length in pools["items"][entry["items"]]:
        items += names[first:first + length] if first else [""] * length
    return {
        "protocol": entry["protocol"],
        "ids": pools["ids"][entry["ids"]],
        "layouts": {state: {direction: {name: pools["layouts"][k] for name, k in by_name.items()}
                            for direction, by_name in by_direction.items()}
                    for state, by_direction in pools["layout_sets"][entry["layouts"]].items()},
        "types": {name: pools["types"][k] for name, k in pools["type_sets"][entry["types"]].items()},
        "natives": entry["natives"],
        "items": items,
        "entities": pools["entities"][entry["entities"]],
        "objects": pools["entities"][entry["objects"]],
    }


def render(document: dict[str, Any]) -> str:
    return json.dumps(document, sort_keys=True, separators=(",", ":")) + "\n"


def check_partial(document: dict[str, Any], unavailable: list[str]) -> list[str]:
    """Without the repository's commits: the committed file against the rows we could generate.

    Every row read from the npm package must expand to the same tables, the committed file
    must hold the other rows under the commits (and bases) versions.json names, and nothing else."""
    committed: dict[str, Any] = json.loads(OUT.read_text()) if OUT.exists() else {"versions": {}}
    problems = []
    if committed.get("minecraft_data") != document["minecraft_data"]:
        problems.append(f"generated from minecraft-data {committed.get('minecraft_data')}, "
                        f"pinned {document['minecraft_data']}")
    expected = set(document["versions"]) | set(unavailable)
    if set(committed["versions"]) != expected:
        problems.append(f"versions {sorted(set(committed['versions']) ^ expected)} differ from versions.json")
    for version in document["versions"]:
        if version in committed["versions"] and expand(committed, version) != expand(document, version):
            problems.append(f"{version}: tables differ from a fresh generation")
    labels = source_labels()
    for version in unavailable:
        want = labels[version]
        if committed.get("sources", {}).get(version) != want:
            problems.append(f"{version}: not generated from {want}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--minecraft-data", help="path of the minecraft-data npm package")
    parser.add_argument("--minecraft-data-repo", help="a git clone of the minecraft-data repository holding "
                        "the commits versions.json names (default: $MCAGENT_MINECRAFT_DATA_REPO)")
    parser.add_argument("--check", action="store_true", help="exit 1 if the committed file is stale")
    args = parser.parse_args()
    npm = NpmPackage(data_root(args.minecraft_data))
    chosen, unavailable = sources(npm, repository_clone(args.minecraft_data_repo))
    document = generate(npm, chosen)
    text = render(document)
    if args.check:
        if unavailable:
            # A machine without the repository (CI has only the package registries) checks the
            # rows the npm package gives table for table, and the others by their commit.
            problems = check_partial(document, unavailable)
            for problem in problems:
                print(f"{OUT}: {problem}")
            print(f"{OUT}: checked {len(document['versions'])} versions against minecraft-data {npm.version}; "
                  f"{', '.join(unavailable)} only by commit (no clone of the minecraft-data repository given)")
            return 1 if problems else 0
        current = OUT.read_text() if OUT.exists() else ""
        if current != text:
            print(f"{OUT} is stale relative to its sources: re-run scripts/gen_protocol.py")
            return 1
        print(f"{OUT} is up to date (minecraft-data {npm.version})")
        return 0
    if unavailable:
        commits = repository_rows()
        sys.exit(f"{', '.join(unavailable)} come from the minecraft-data repository "
                 f"({', '.join(sorted({commits[v] for v in unavailable}))}): pass --minecraft-data-repo CLONE")
    OUT.write_text(text)
    print(f"wrote {OUT} ({len(text) // 1024} KiB, {len(document['versions'])} versions, minecraft-data {npm.version})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
