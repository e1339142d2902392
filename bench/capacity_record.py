"""Record a real session at the proxy for the capacity bench (``bench/capacity.py record``).

How this works: a real server on varied terrain starts on loopback (1.20.1: flying-squid
with its ``diamond_square`` generator; 1.21.x: peers/world.js with the survival rules,
cows and zombies, on the simulator's world for a seed), then the real proxy with
``MCAGENT_RECORD_DIR`` set (``proxy.connection.recording``), both at view distance 10. A
second mineflayer player joins the server directly (so the recorded player sees another
player), and the recorded mineflayer player joins through the proxy and for ``seconds``
walks and sprints (jumping up the hills), looks around, mines the block ahead and chats.
When it leaves, the proxy writes the capture, which is copied to ``bench/data/``.
"""
from __future__ import annotations

import math
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from proxy.connection import recording  # noqa: E402
from tests.e2e.peers import Bot, GameServer, PeerError, SquidServer, WorldServer  # noqa: E402
from tests.e2e.proxy_process import ProxyProcess  # noqa: E402

DATA = REPO / "bench" / "data"
VIEW_DISTANCE = 10
SEED = 7


def data_file(version: str) -> Path:
    return DATA / f"capacity-{version}.mcrec.xz"


def start_server(version: str, workdir: Path) -> GameServer:
    if version.startswith("1.20"):
        return SquidServer().start(version=version, view_distance=VIEW_DISTANCE, gamemode="survival",
                                   max_players=10, timeout=120, generation="diamond_square")
    from engine.sim.export import main as export  # the simulator's terrain, trees, ores, pools and cows

    world = workdir / "world.json"
    export(["--seed", str(SEED), "--out", str(world)])
    return WorldServer().start(version, view_distance=VIEW_DISTANCE, gamemode="survival", max_players=10,
                               timeout=120, extra_args=("--rules", "survival", "--world", str(world),
                                                        "--mobs", "true", "--seed", str(SEED)))


def play(bot: Bot, seconds: float, log: Any) -> dict[str, int]:
    """Walk, sprint, look, mine and chat until ``seconds`` have passed."""
    rng = random.Random(SEED)
    done = {"walks": 0, "digs": 0, "chats": 0}
    deadline = time.monotonic() + seconds
    step = 0
    while time.monotonic() < deadline:
        step += 1
        try:
            bot.look(rng.uniform(-math.pi, math.pi), rng.uniform(-0.3, 0.3))
            bot.control("jump", True)
            bot.walk(rng.uniform(4, 12), sprint=step % 2 == 0)
            bot.control("jump", False)
            done["walks"] += 1
            if step % 3 == 0:
                bot.chat(f"walking along, step {step}")
                done["chats"] += 1
            if step % 2 == 1:
                p = bot.position()
                yaw = rng.uniform(-math.pi, math.pi)
                x, z = math.floor(p.x - math.sin(yaw)), math.floor(p.z - math.cos(yaw))
                for y in (math.floor(p.y), math.floor(p.y) - 1):
                    name = bot.block_at(x, y, z)
                    if name not in (None, "air", "water", "lava", "bedrock"):
                        bot.dig(x, y, z, timeout=15)
                        done["digs"] += 1
                        break
        except (PeerError, TimeoutError) as exc:  # a walk into a wall, a block out of reach: go on
            log(f"  step {step}: {str(exc).splitlines()[0][:100]}")
    return done


def record(version: str, seconds: float, log: Any) -> Path:
    with tempfile.TemporaryDirectory(prefix="mcagent-capacity-") as tmp:
        workdir = Path(tmp)
        captures = workdir / "captures"
        server = start_server(version, workdir)
        os.environ[recording.ENV] = str(captures)
        try:
            proxy = ProxyProcess(server.port, autopilot={"log_dir": None}, max_players=10,
                                 features={"assistant": True, "reflexes": True, "autopilot": True, "world": True})
        finally:
            del os.environ[recording.ENV]
        other = player = None
        try:
            other = Bot().connect(port=server.port, username="Neighbour", version=version, timeout=120)
            player = Bot().connect(port=proxy.port, username="Recorded", version=version, timeout=120)
            log(f"{version}: recording {seconds:g} s at the proxy")
            done = play(player, seconds, log)
            log(f"{version}: {done}")
            player.quit()
            player = None
            deadline = time.monotonic() + 120  # the capture is compressed when the connection closes
            while time.monotonic() < deadline and not list(captures.glob("*.mcrec.xz")):
                time.sleep(0.5)
        finally:
            for bot in (player, other):
                if bot is not None:
                    bot.quit()
            proxy.close()
            server.close()
        files = sorted(captures.glob("*.mcrec.xz"))
        if not files:
            raise RuntimeError(f"{version}: the proxy wrote no capture")
        DATA.mkdir(parents=True, exist_ok=True)
        target = data_file(version)
        shutil.copyfile(files[-1], target)
        capture = recording.decode(target.read_bytes(), str(target))
        log(f"{version}: {len(capture.records)} packets, {target.stat().st_size / 1024:.0f} KiB -> {target}")
        return target
