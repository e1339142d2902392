"""peers/craft_bot.js from Python: mineflayer on its own, crafting and smelting to an iron pickaxe.

``CraftBot().start(port, version)`` runs the script with mineflayer 4.39 (peers/next, which
speaks 1.20.1 as well as the newest versions); ``steps()`` and ``done()`` read what it did.
The test gives it its materials through the server (``MATERIALS``, as the script expects).
"""
from __future__ import annotations

from typing import Any

from tests.e2e.peers import PEERS_SRC
from tests.e2e.script_bot import ScriptBot

CRAFT_BOT_JS = PEERS_SRC / "craft_bot.js"
MATERIALS = {"oak_log": 4, "cobblestone": 11, "raw_iron": 1, "coal": 1, "iron_ingot": 2}
STEPS = ("planks", "sticks", "crafting_table", "place_table", "wooden_pickaxe", "stone_pickaxe",
         "furnace", "place_furnace", "smelt", "iron_pickaxe")


class CraftBot(ScriptBot):
    name = "craft-bot"
    script = CRAFT_BOT_JS

    def start(self, port: int, version: str, username: str = "crafter") -> "CraftBot":
        self.name = f"craft-bot-{username}"
        self.run_script(port, version, username)
        return self

    def done(self, timeout: float = 90.0) -> dict[str, Any]:
        return super().done(timeout)
