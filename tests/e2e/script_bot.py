"""A scripted mineflayer bot from Python: the base of ``CraftBot`` and ``SurvivalBot``.

The scripts (peers/craft_bot.js, peers/survival_bot.js, on peers/bot_steps.js) report
``{"event":"spawn"}``, a ``step`` event per named step and a ``done`` event at the end; they
run with mineflayer 4.39 (peers/next).
"""
from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

from tests.e2e.peers import JsonLineProcess, next_install_dir, node_executable


class ScriptBot(JsonLineProcess):
    script: Path

    def run_script(self, port: int, version: str, username: str, *extra: str) -> None:
        self.spawn([node_executable(), str(self.script), "--port", str(port), "--version", version,
                    "--username", username, *extra], peers_dir=next_install_dir())

    def close(self, grace: float = 3.0) -> int | None:
        # The scripts read no stdin: closing it would only wait out the grace period.
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return super().close(grace)

    def wait_spawned(self, timeout: float = 30.0) -> None:
        self.wait_for("spawn", timeout=timeout)

    def done(self, timeout: float = 120.0) -> dict[str, Any]:
        return self.wait_for("done", timeout=timeout)

    def steps(self) -> dict[str, dict[str, Any]]:
        return {str(e["name"]): e for e in self.find_all("step")}
