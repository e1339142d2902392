"""Write engine/routing/data/game_words.txt.gz: the game's own words, left alone by the corrector.

SCOWL (``english_words.txt.gz``) knows "dungeon" but not "mineshaft", "piglin" or "opped", so
the corrector read "lost in a mineshaft" as "minecraft" and "preset" as "set". These are the
words of the game itself, from minecraft-data as the pinned peer install holds it
(``.peers/node_modules/minecraft-data``, npm 3.119.0, MIT licensed): every word of the entity
and biome names of every Java version, the biome categories, and the words the newest English
language file writes in lower case (capitalised-only words there are mostly people's names,
which must stay free to be players' names). Plus the structures players name that no file
lists (``_STRUCTURES``). Kept: ASCII words of at least four letters.

    python scripts/gen_game_words.py [MINECRAFT_DATA_PC_DIR]
"""
from __future__ import annotations

import argparse
import gzip
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "engine" / "routing" / "data" / "game_words.txt.gz"
DEFAULT_PC = ROOT / ".peers" / "node_modules" / "minecraft-data" / "minecraft-data" / "data" / "pc"
_STRUCTURES = ("mineshaft", "mineshafts", "stronghold", "strongholds", "endcity", "trailruins")
_WORD = re.compile(r"[A-Z]?[a-z]+")  # "ArmorStand" (1.8's entity names) is two words


def _version_key(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in name.split(".") if part.isdigit())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pc", nargs="?", type=Path, default=DEFAULT_PC)
    args = parser.parse_args()
    releases = sorted((d for d in args.pc.iterdir() if re.fullmatch(r"1\.\d+(\.\d+)?|\d\d\.\d+(\.\d+)?", d.name)),
                      key=lambda d: _version_key(d.name))
    words: set[str] = set(_STRUCTURES)
    for version in releases:
        for table in ("entities.json", "biomes.json"):
            path = version / table
            if path.exists():
                for row in json.loads(path.read_text(encoding="utf-8")):
                    text = f"{row.get('displayName', '')} {row.get('category', '')}"
                    words.update(w.lower() for w in _WORD.findall(text))
    newest = next(v / "language.json" for v in reversed(releases) if (v / "language.json").exists())
    for text in json.loads(newest.read_text(encoding="utf-8")).values():
        words.update(w for w in re.findall(r"[A-Za-z]+", text) if w.islower())
    kept = sorted(w for w in words if len(w) >= 4 and w.isascii())
    # mtime=0: the same data gives the same bytes.
    OUT.write_bytes(gzip.compress(("\n".join(kept) + "\n").encode("ascii"), mtime=0))
    print(f"{OUT}: {len(kept)} words from {newest.parent.name} and {len(releases)} versions")


if __name__ == "__main__":
    main()
