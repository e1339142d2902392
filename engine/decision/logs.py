"""Per-player episode logs: ``decision_log.jsonl`` and ``episode_events.json``.

How this works: the autopilot appends plain dicts to bounded in-memory logs
on the tick (no I/O there); ``write(folder)`` is called off the tick path (the
proxy's worker, or the simulator at the end of an episode) and writes both
files. A decision record holds the compact state JSON the provider saw (position,
health, food, inventory, known blocks, threats: never a key or a chat line), its
digest, the legal choices, the choice and its outcome; every string passes
through ``_clean`` with the configured secrets anyway, so a key can never reach
a log even if it ended up in an error text. Size is bounded per episode (the
host starts a new pair of files per episode): MAX_DECISIONS records of at most
about 1 kB each, MAX_EVENTS events; past that the oldest go and the count of
dropped ones is kept.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from collections import deque
from collections.abc import Iterable
from typing import Any

from engine.llm.secrets import forms

MAX_DECISIONS = 20_000
MAX_EVENTS = 5_000
MAX_TEXT = 200
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def folder_name(player: str) -> str:
    """A player's log folder name: the name itself when it is a plain Minecraft name,
    otherwise its safe characters plus a digest of the whole name.

    Dots are not kept, so "." and ".." can never climb out of the log root; the
    digest keeps two names that differ only in unsafe characters apart.
    """
    safe = _UNSAFE.sub("_", player)[:32]
    if safe == player and player:
        return player
    return f"{safe or 'player'}-{hashlib.sha256(player.encode('utf-8')).hexdigest()[:10]}"


def episode_folder(root: str, player: str, leaf: str) -> str:
    """``root/<folder_name(player)>/<leaf>``, refused if it would end up outside ``root``."""
    base = os.path.realpath(root)
    path = os.path.realpath(os.path.join(base, folder_name(player), _UNSAFE.sub("_", leaf)))
    if os.path.commonpath([base, path]) != base or path == base:
        raise ValueError(f"episode log path outside {root}")
    return path


def _clean(value: Any, secrets: tuple[str, ...]) -> Any:
    if isinstance(value, str):
        for s in secrets:
            if s:
                value = value.replace(s, "[redacted]")
        return value[:MAX_TEXT]
    if isinstance(value, dict):
        return {k: _clean(v, secrets) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v, secrets) for v in value]
    return value


class EpisodeLog:
    def __init__(self, secrets: Iterable[str] = (), max_decisions: int = MAX_DECISIONS,
                 max_events: int = MAX_EVENTS) -> None:
        # Every written form of each secret (raw, repr- and JSON-escaped), longest first.
        self.secrets = tuple(sorted({form for s in secrets if s for form in forms(s)}, key=len, reverse=True))
        self.decisions: deque[dict[str, Any]] = deque(maxlen=max_decisions)
        self.events: deque[dict[str, Any]] = deque(maxlen=max_events)
        self.dropped_decisions = 0
        self.dropped_events = 0

    def decision(self, record: dict[str, Any]) -> None:
        if len(self.decisions) == self.decisions.maxlen:
            self.dropped_decisions += 1
        self.decisions.append(_clean(record, self.secrets))

    def event(self, record: dict[str, Any]) -> None:
        if len(self.events) == self.events.maxlen:
            self.dropped_events += 1
        self.events.append(_clean(record, self.secrets))

    def episode_json(self, summary: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"summary": _clean(summary or {}, self.secrets), "events": list(self.events),
                "dropped_events": self.dropped_events}

    def write(self, folder: str, summary: dict[str, Any] | None = None) -> None:
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "decision_log.jsonl"), "w", encoding="utf-8") as f:
            for record in self.decisions:
                f.write(json.dumps(record, separators=(",", ":"), sort_keys=True) + "\n")
        with open(os.path.join(folder, "episode_events.json"), "w", encoding="utf-8") as f:
            json.dump(self.episode_json(summary), f, indent=1, sort_keys=True)
