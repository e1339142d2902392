"""Recorded autopilot episodes for the replay page: found on disk, read, checked, made into frames.

How this works: an episode is a folder holding ``decision_log.jsonl`` and
``episode_events.json`` (the proxy writes one per player and episode under
``autopilot.log_dir``; ``mcagent sim --log-dir`` one per seed). ``find``
lists the folders under a root, ``load`` reads one into a frozen ``Episode``:
a frame per decision (tick, where the player stood, the choice, why, its
outcome, the milestone worked toward) and a timeline of milestones, deaths,
reflexes and watchdog events. An episode from ``mcagent sim --log-dir`` also
holds ``terrain.json`` (engine/world/terrain_record.py): the block under each
column around the track, by name; it becomes the live map's kinds here, with
absolute heights the page shades against the feet of the frame it shows. The page scrubs through frames by tick. A file
that is not what it should be raises ``EpisodeError`` naming the file and the
line; nothing of the files' text goes back but the fields named here.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import attrs

from engine.decision.ladder import NAMES as MILESTONES
from engine.world.blocks import BlockTable
from proxy.dashboard.terrain_map import Kind, kind_of

DECISIONS = "decision_log.jsonl"
EVENTS = "episode_events.json"
TERRAIN = "terrain.json"
TERRAIN_FORMAT = "mcagent-terrain/1"
MAX_TERRAIN_SIZE = 256
MAX_FILE_BYTES = 64 << 20     # a decision log holds at most 20,000 records of about 1 kB
MAX_EPISODES = 500


class EpisodeError(Exception):
    """A file of an episode cannot be read as one: the message names the file (and line)."""


@attrs.frozen
class Frame:
    tick: int
    x: float
    y: float
    z: float
    choice: str
    reason: str
    outcome: str | None
    milestone: str | None
    health: float | None
    food: int | None


@attrs.frozen
class TimelineEvent:
    tick: int
    kind: str          # milestone, death, respawned, reflex, watchdog, autopilot, suppressed, trapped
    label: str


@attrs.frozen
class Terrain:
    """``size`` x ``size`` columns from (``x0``, ``z0``), rows along z, as the live map's ``Kind``s;
    ``tops`` the absolute y of each column's block (None where unknown)."""

    x0: int
    z0: int
    size: int
    kinds: tuple[int, ...]
    tops: tuple[int | None, ...]


@attrs.frozen
class Episode:
    name: str
    frames: tuple[Frame, ...]
    timeline: tuple[TimelineEvent, ...]
    last_tick: int
    milestones_reached: tuple[str, ...]
    ladder: tuple[str, ...] = MILESTONES
    terrain: Terrain | None = None   # only episodes that carry terrain.json (mcagent sim --log-dir)


def find(root: Path) -> list[str]:
    """Episode folders under ``root`` (relative paths, sorted), the root itself if it is one."""
    if (root / DECISIONS).is_file():
        return ["."]
    found: list[str] = []
    for folder, _dirs, files in os.walk(root):
        if DECISIONS in files and EVENTS in files:
            found.append(os.path.relpath(folder, root))
            if len(found) >= MAX_EPISODES:
                break
    return sorted(found)


def resolve(root: Path, name: str) -> Path:
    """``root/name``, refused if it leaves ``root`` (a name comes from the page)."""
    base = root.resolve()
    path = (base / name).resolve()
    if path != base and base not in path.parents:
        raise EpisodeError(f"episode {name!r} is outside the episode folder")
    return path


def _read(path: Path) -> str:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise EpisodeError(f"{path.name}: larger than {MAX_FILE_BYTES >> 20} MiB")
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise EpisodeError(f"{path.name}: not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise EpisodeError(f"{path.name}: cannot be read ({type(exc).__name__})") from None


def _records(path: Path) -> list[dict[str, Any]]:
    out = []
    for number, line in enumerate(_read(path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise EpisodeError(f"{path.name} line {number}: not JSON ({exc.msg})") from None
        if not isinstance(record, dict):
            raise EpisodeError(f"{path.name} line {number}: a record must be a JSON object")
        out.append(record)
    return out


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise EpisodeError(f"{where}: expected a number, got {type(value).__name__}")
    return float(value)


def _frames(records: list[dict[str, Any]]) -> list[Frame]:
    frames: list[Frame] = []
    for i, record in enumerate(records, 1):
        kind = record.get("kind")
        if kind == "outcome" and frames and frames[-1].outcome is None:
            frames[-1] = attrs.evolve(frames[-1], outcome=str(record.get("outcome", ""))[:60])
            continue
        if kind != "decision":
            continue
        state = record.get("state")
        pos = state.get("pos") if isinstance(state, dict) else None
        if not isinstance(pos, list) or len(pos) != 3:
            continue      # a decision taken before the position was known
        where = f"{DECISIONS} record {i} state.pos"
        x, y, z = (_number(v, where) for v in pos)
        decision = record.get("decision") if isinstance(record.get("decision"), dict) else {}
        assert isinstance(decision, dict) and isinstance(state, dict)
        args = decision.get("args") or []
        choice = str(decision.get("choice", "?")) + (f"({','.join(str(a) for a in args)})" if args else "")
        health, food = state.get("health"), state.get("food")
        frames.append(Frame(
            int(_number(record.get("tick", 0), f"{DECISIONS} record {i} tick")), x, y, z, choice[:60],
            str(decision.get("reason", ""))[:120], None,
            str(state["milestone"]) if state.get("milestone") in MILESTONES else None,
            float(health) if isinstance(health, (int, float)) else None,
            int(food) if isinstance(food, int) else None))
    return frames


def _label(event: dict[str, Any]) -> tuple[str, str]:
    kind = str(event.get("kind", "?"))
    if kind == "milestone":
        return kind, f"{event.get('index', '?')}/9 {event.get('name', '?')}"
    if kind == "watchdog":
        if event.get("event") == "reflex":
            return "reflex", str(event.get("detail", ""))[:40]
        return kind, f"{event.get('event', '?')}: {event.get('from', '?')} -> {event.get('to', '?')}"
    if kind in ("death", "respawned"):
        return kind, f"working toward {event.get('milestone') or 'the first milestone'}"
    if kind == "autopilot":
        return kind, str(event.get("detail", ""))[:80]
    if kind == "suppressed":
        return kind, str(event.get("choice", ""))[:60]
    return kind, ""


def _timeline(path: Path) -> list[TimelineEvent]:
    try:
        document = json.loads(_read(path))
    except json.JSONDecodeError as exc:
        raise EpisodeError(f"{path.name}: not JSON (line {exc.lineno}: {exc.msg})") from None
    events = document.get("events") if isinstance(document, dict) else None
    if not isinstance(events, list):
        raise EpisodeError(f"{path.name}: expected an object with an 'events' list")
    out = []
    for i, event in enumerate(events, 1):
        if not isinstance(event, dict):
            raise EpisodeError(f"{path.name}: event {i} is not an object")
        kind, label = _label(event)
        out.append(TimelineEvent(int(_number(event.get("tick", 0), f"{path.name} event {i} tick")), kind, label))
    return sorted(out, key=lambda e: e.tick)


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EpisodeError(f"{TERRAIN}: {where}: expected a whole number, got {type(value).__name__}")
    return value


def _terrain(path: Path) -> Terrain | None:
    if not path.is_file():
        return None        # the proxy's own episodes carry no terrain: the page draws a grid
    try:
        document = json.loads(_read(path))
    except json.JSONDecodeError as exc:
        raise EpisodeError(f"{TERRAIN}: not JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(document, dict) or document.get("format") != TERRAIN_FORMAT:
        raise EpisodeError(f"{TERRAIN}: expected an object with format {TERRAIN_FORMAT!r}")
    version = document.get("version")
    if not isinstance(version, str) or version not in BlockTable.versions():
        raise EpisodeError(f"{TERRAIN}: version: not a known Minecraft version")
    x0, z0, size = (_int(document.get(k), k) for k in ("x0", "z0", "size"))
    if not 1 <= size <= MAX_TERRAIN_SIZE:
        raise EpisodeError(f"{TERRAIN}: size: expected 1 to {MAX_TERRAIN_SIZE}")
    names, blocks, tops = document.get("names"), document.get("blocks"), document.get("tops")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise EpisodeError(f"{TERRAIN}: names: expected a list of block names")
    for key, cells in (("blocks", blocks), ("tops", tops)):
        if not isinstance(cells, list) or len(cells) != size * size:
            raise EpisodeError(f"{TERRAIN}: {key}: expected a list of size x size ({size * size}) entries")
    assert isinstance(blocks, list) and isinstance(tops, list)
    table = BlockTable.for_version(version)
    palette = []
    for name in names:
        try:
            state = table.state_for(name)
        except (KeyError, ValueError):
            raise EpisodeError(f"{TERRAIN}: names: {name[:40]!r} is not a block of {version}") from None
        palette.append(int(kind_of(name, table.flags(state))))
    kinds = []
    for i, block in enumerate(blocks):
        index = _int(block, f"blocks[{i}]")
        if not -1 <= index < len(palette):
            raise EpisodeError(f"{TERRAIN}: blocks[{i}]: no such name in the palette")
        kinds.append(int(Kind.UNKNOWN) if index < 0 else palette[index])
    heights = tuple(None if top is None else _int(top, f"tops[{i}]") for i, top in enumerate(tops))
    return Terrain(x0, z0, size, tuple(kinds), heights)


def load(folder: Path, name: str = ".") -> Episode:
    records = _records(folder / DECISIONS)
    frames = _frames(records)
    timeline = _timeline(folder / EVENTS)
    last = max([f.tick for f in frames] + [e.tick for e in timeline] + [0])
    reached = tuple(e.label.split(" ", 1)[1] for e in timeline if e.kind == "milestone")
    return Episode(name, tuple(frames), tuple(timeline), last, reached, terrain=_terrain(folder / TERRAIN))
