"""peers/survival_bot.js from Python: mineflayer on its own, digging, eating and hunting.

``SurvivalBot().start(port, version, scenario)`` runs the script with mineflayer 4.39
(peers/next); ``steps()`` and ``done()`` read what it did. ``scene(server)`` builds what the
``live`` scenario expects round the spawn of the flat world (0.5, 5, 0.5).
"""
from __future__ import annotations

from tests.e2e.peers import PEERS_SRC, WorldServer
from tests.e2e.script_bot import ScriptBot

SURVIVAL_BOT_JS = PEERS_SRC / "survival_bot.js"
STEPS = ("log", "stone", "iron_wood", "eat", "cow")


class SurvivalBot(ScriptBot):
    name = "survival-bot"
    script = SURVIVAL_BOT_JS

    def start(self, port: int, version: str, scenario: str = "live", username: str = "survivor",
              seconds: int = 60) -> "SurvivalBot":
        self.name = f"survival-bot-{username}"
        self.run_script(port, version, username, "--scenario", scenario, "--seconds", str(seconds))
        return self


def scene(server: WorldServer, player: str = "survivor") -> None:
    """The live scenario's scene: a log, a stone and an iron ore east of the spawn, the tools and
    a bread in the hotbar, the food bar at 10, a cow to the west."""
    for x, z, block in ((2, 0, "oak_log"), (2, 1, "stone"), (2, -1, "iron_ore")):
        server.run(f"/setblock {x} 5 {z} {block}")
    for item in ("wooden_pickaxe", "stone_pickaxe", "bread"):
        server.run(f"/give {player} {item} 1")
    server.request("food", player=player, food=10, saturation=0)
    server.run("/summon cow -3.5 5 0.5")
