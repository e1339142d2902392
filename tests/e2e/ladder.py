"""One autopilot ladder end to end, and the same seed in the simulator (issue 22).

A seed's world is exported from the simulator (``engine.sim.export``) and loaded by the
survival-rules test server (``peers/world.js --rules survival --world FILE``); a mineflayer
player that stands still (a human who handed over) joins through the real proxy and says
``!autopilot on``. The run ends when the proxy hands back (its episode log is written) or
at the deadline. What the server saw (deaths, refused or delayed digs, resynced clicks) is
read from its own event stream, what the autopilot saw from the episode log, and what the
player holds from the server's inventory. ``tests/e2e/test_ladder.py`` and
``bench/sim_vs_real.py`` both use it.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.decision.ladder import NAMES
from engine.decision.logs import EpisodeLog
from engine.decision.providers import MockProvider
from engine.sim.episode import run_episode
from engine.sim.export import document
from engine.sim.records import SimOptions
from engine.sim.server import ServerWorld
from tests.e2e.peers import Bot, PeerPool, WorldServer
from tests.e2e.proxy_process import ProxyProcess

PLAYER = "handsoff"
VIEW_DISTANCE = 4          # from the spawn (the box's centre chunk) every chunk of the 96-block box is sent
# The simulator starts with no bread: end to end the player starts with an empty inventory,
# as the issue asks, so the food comes from the cows in both.
OPTIONS = SimOptions(start_bread=0)
SERVER_TROUBLE = ("dig_refused", "dig_delayed", "click_resync")
# A click with a stale state id is applied by vanilla (and the test server) and answered with the
# whole window: no disagreement about the outcome. What counts is a click the server contradicted.
STALE_ONLY = {"click_resync": "state_id"}


@dataclass
class LadderRun:
    """One ladder, from one side (``where`` is "sim" or "real")."""

    seed: int
    where: str
    milestones: dict[str, int] = field(default_factory=dict)     # name -> the episode's tick
    deaths: list[str] = field(default_factory=list)
    trouble: dict[str, int] = field(default_factory=dict)        # SERVER_TROUBLE event -> count
    inventory: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    ended: str = ""                               # "iron pickaxe" | "handed back" | "deadline"
    notes: list[str] = field(default_factory=list)

    @property
    def iron_pickaxe(self) -> int | None:
        return self.milestones.get("iron_pickaxe")

    def as_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "where": self.where, "milestones": self.milestones, "deaths": self.deaths,
                "trouble": self.trouble, "inventory": self.inventory, "seconds": round(self.seconds, 1),
                "ended": self.ended, "notes": self.notes}


def export_world(seed: int, folder: Path, options: SimOptions = OPTIONS) -> Path:
    path = folder / f"world-{seed}.json"
    path.write_text(json.dumps(document(ServerWorld(seed, options)), separators=(",", ":")))
    return path


def sim_ladder(seed: int, ticks: int, options: SimOptions = OPTIONS) -> LadderRun:
    started = time.monotonic()
    result = run_episode(seed, ticks, MockProvider(), options, EpisodeLog(), stop_when_done=True)
    run = LadderRun(seed, "sim", dict(result.milestones), seconds=time.monotonic() - started,
                    ended="iron pickaxe" if result.iron_pickaxe is not None else "deadline")
    run.deaths = [cause for cause, n in result.deaths.items() for _ in range(n)]
    run.trouble = {k: v for k, v in result.rejected.items() if v}
    return run


def start_server(pool: PeerPool, version: str, world: Path) -> WorldServer:
    return pool.world(version, gamemode="survival", view_distance=VIEW_DISTANCE,
                      extra_args=("--rules", "survival", "--world", str(world)))


def _episode_events(log_dir: Path, final: bool = True) -> dict[str, Any] | None:
    """The episode's event log; with ``final``, only once the episode has ended (the log is
    also written as it goes, with ``summary.final`` false)."""
    found = sorted(log_dir.glob(f"{PLAYER}/*-episode1/episode_events.json"))
    if not found:
        return None
    try:
        data: dict[str, Any] = json.loads(found[0].read_text())
    except json.JSONDecodeError:      # caught while the worker writes it
        return None
    if final and not data.get("summary", {}).get("final", False):
        return None
    return data


def real_ladder(seed: int, server: WorldServer, proxy: ProxyProcess, bot: Bot, log_dir: Path,
                deadline_s: float, hand_back: bool = False) -> LadderRun:
    """Say ``!autopilot on`` and wait for the iron pickaxe, then ``!stop`` as the simulator's
    ``stop_when_done`` does; with ``hand_back``, wait for the autopilot's own hand-back instead
    (after the ladder it stocks food first: minutes more). Either way until the deadline."""
    server_mark = server.mark()
    mark = bot.mark()
    started = time.monotonic()
    bot.chat("!autopilot on")
    bot.wait_chat("Autopilot on", since=mark)
    events = None
    ended = "deadline"
    while time.monotonic() - started < deadline_s:
        events = _episode_events(log_dir)
        if events is not None:
            ended = "handed back"
            break
        so_far = _episode_events(log_dir, final=False)
        if not hand_back and so_far is not None and "iron_pickaxe" in so_far.get("summary", {}).get("milestones", {}):
            ended = "iron pickaxe"
            break
        time.sleep(1.0)
    run = LadderRun(seed, "real", seconds=time.monotonic() - started, ended=ended)
    if events is None:
        # Still running: stop it, which writes the log, so the milestones so far are known.
        bot.chat("!stop")
        for _ in range(20):
            events = _episode_events(log_dir)
            if events is not None:
                break
            time.sleep(0.5)
        events = events or _episode_events(log_dir, final=False)
    for e in (events or {}).get("events", []):
        if e.get("kind") == "milestone" and e.get("name") in NAMES:
            run.milestones.setdefault(e["name"], int(e["tick"]))
    run.deaths = [str(e.get("cause")) for e in server.deaths(PLAYER, since=server_mark)]
    run.trouble = {kind: n for kind in SERVER_TROUBLE
                   if (n := len([e for e in server.find_all(kind, since=server_mark, player=PLAYER)
                                 if not (kind in STALE_ONLY and e.get("reason") == STALE_ONLY[kind])]))}
    stale = len(server.find_all("click_resync", since=server_mark, player=PLAYER, reason="state_id"))
    if stale:
        run.notes.append(f"{stale} stale-id clicks (applied, window resent)")
    run.inventory = server.inventory(PLAYER)
    # The server's side of the run, next to the proxy's logs, for whoever reads a failure.
    with (log_dir / "server_events.jsonl").open("w") as out:
        for e in server.find_all(lambda e: True, since=server_mark):
            out.write(json.dumps(e) + "\n")
    return run


def join(pool: PeerPool, proxy: ProxyProcess, version: str) -> Bot:
    return pool.bot(proxy.port, username=PLAYER, version=version, respawn=True)
