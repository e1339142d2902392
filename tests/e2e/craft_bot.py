"""peers/craft_bot.js from Python: mineflayer on its own, crafting and smelting to an iron pickaxe.

``CraftBot().start(port, version)`` runs the script with mineflayer 4.39 (peers/next, which
speaks 1.20.1 as well as the newest versions); ``steps()`` and ``done()`` read what it did.
The test gives it its materials through the server (``MATERIALS``, as the script expects).
"""
from __future__ import annotations

from typing import Any

from tests.e2e.peers import PEERS_SRC, JsonLineProcess, next_install_dir, node_executable

CRAFT_BOT_JS = PEERS_SRC / "craft_bot.js"
MATERIALS = {"oak_log": 4, "cobblestone": 11, "raw_iron": 1, "coal": 1, "iron_ingot": 2}
STEPS = ("planks", "sticks", "crafting_table", "place_table", "wooden_pickaxe", "stone_pickaxe",
         "furnace", "place_furnace", "smelt", "iron_pickaxe")


class CraftBot(JsonLineProcess):
    name = "craft-bot"

    def start(self, port: int, version: str, username: str = "crafter") -> "CraftBot":
        self.name = f"craft-bot-{username}"
        self.spawn([node_executable(), str(CRAFT_BOT_JS), "--port", str(port), "--version", version,
                    "--username", username], peers_dir=next_install_dir())
        return self

    def wait_spawned(self, timeout: float = 30.0) -> None:
        self.wait_for("spawn", timeout=timeout)

    def done(self, timeout: float = 90.0) -> dict[str, Any]:
        return self.wait_for("done", timeout=timeout)

    def steps(self) -> dict[str, dict[str, Any]]:
        return {str(e["name"]): e for e in self.find_all("step")}
