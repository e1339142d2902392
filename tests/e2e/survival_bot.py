"""peers/survival_bot.js from Python: mineflayer on its own, digging, eating and hunting.

``SurvivalBot().start(port, version, scenario)`` runs the script with mineflayer 4.39
(peers/next); ``steps()`` and ``done()`` read what it did. ``scene(server)`` builds what the
``live`` scenario expects round the spawn of the flat world (0.5, 5, 0.5).
"""
from __future__ import annotations

from typing import Any

from tests.e2e.peers import PEERS_SRC, JsonLineProcess, WorldServer, next_install_dir, node_executable

SURVIVAL_BOT_JS = PEERS_SRC / "survival_bot.js"
STEPS = ("log", "stone", "iron_wood", "eat", "cow")


class SurvivalBot(JsonLineProcess):
    name = "survival-bot"

    def start(self, port: int, version: str, scenario: str = "live", username: str = "survivor",
              seconds: int = 60) -> "SurvivalBot":
        self.name = f"survival-bot-{username}"
        self.spawn([node_executable(), str(SURVIVAL_BOT_JS), "--port", str(port), "--version", version,
                    "--username", username, "--scenario", scenario, "--seconds", str(seconds)],
                   peers_dir=next_install_dir())
        return self

    def wait_spawned(self, timeout: float = 30.0) -> None:
        self.wait_for("spawn", timeout=timeout)

    def done(self, timeout: float = 120.0) -> dict[str, Any]:
        return self.wait_for("done", timeout=timeout)

    def steps(self) -> dict[str, dict[str, Any]]:
        return {str(e["name"]): e for e in self.find_all("step")}


def scene(server: WorldServer, player: str = "survivor") -> None:
    """The live scenario's scene: a log, a stone and an iron ore east of the spawn, the tools and
    a bread in the hotbar, the food bar at 10, a cow to the west."""
    for x, z, block in ((2, 0, "oak_log"), (2, 1, "stone"), (2, -1, "iron_ore")):
        server.run(f"/setblock {x} 5 {z} {block}")
    for item in ("wooden_pickaxe", "stone_pickaxe", "bread"):
        server.run(f"/give {player} {item} 1")
    server.request("food", player=player, food=10, saturation=0)
    server.run("/summon cow -3.5 5 0.5")
