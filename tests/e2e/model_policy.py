"""A model service that makes the autopilot take chosen actions, for the per-action e2e tests.

The proxy's autopilot with ``provider: api`` asks the model service for every decision, sending
the decision state and the legal actions (``engine.decision.providers.state_message``). This
policy answers as a model would, with one JSON decision: the next action of its script when it
is among the legal ones (with the script's arguments, or the first legal ones), otherwise
``idle``. Each script step is chosen once. The autopilot still checks every choice against its
own legal-action filter, so a test that sees the server's state change has seen that action's
executor, through the real proxy, do it.
"""
from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from typing import Any

from tests.llm_server import text_body

Step = tuple[str, Sequence[str | int] | None]


class ScriptPolicy:
    """``ScriptedModelServer(default=ScriptPolicy([("craft", ["oak_planks"]), ("go_to", [3, 5, 0])]))``."""

    def __init__(self, steps: Sequence[Step]) -> None:
        self.steps = [(action, list(args) if args is not None else None) for action, args in steps]
        self._lock = threading.Lock()
        self._next = 0
        self.chosen: list[str] = []        # every answer given: "action(args)"
        self.states: list[dict[str, Any]] = []

    def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        body = json.loads(request["messages"][-1]["content"])
        legal: list[dict[str, Any]] = body["legal"]
        pick: dict[str, Any] = {"choice": "idle", "args": []}
        with self._lock:
            if self._next < len(self.steps):
                action, args = self.steps[self._next]
                for option in legal:
                    if option["choice"] != action:
                        continue
                    if action == "go_to" and args is not None:
                        pick = {"choice": action, "args": args}      # any position is legal
                    elif args is None or option["args"] == args:
                        pick = {"choice": action, "args": option["args"]}
                    else:
                        continue
                    self._next += 1
                    break
            self.chosen.append(f"{pick['choice']}({','.join(str(a) for a in pick['args'])})")
            self.states.append(body["state"])
        return text_body(json.dumps({**pick, "confidence": 0.9, "urgency": 0.5, "reason": "test script"}))

    @property
    def finished(self) -> bool:
        with self._lock:
            return self._next >= len(self.steps)

    def taken(self) -> list[str]:
        with self._lock:
            return [c for c in self.chosen if not c.startswith("idle(")]
