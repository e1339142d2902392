"""One way to run model calls: a ``ModelRunner`` handed to the Session through its constructor.

How this works: engine code never awaits and never holds an event loop. Whoever
needs the model (the assistant for an unsure request, the autopilot's ``api``
provider for a decision) builds a ``ModelCall`` and hands it to the runner with
a ``deliver`` callback. The runner starts the call off the tick path and later
calls ``deliver(reply, now)`` exactly once, however the call ended (an answer,
a failure, a timeout, cancelled at shutdown), on the thread that ticks the
session. What ``deliver`` does is the caller's business: the Session keeps the
assistant's answers for its next tick, the autopilot resolves its request and
polls it on its next tick. Runners: the proxy's (``proxy.agent.model_service``, on
the asyncio loop the reactor runs), ``AsyncioRunner`` here for the headless
simulator and tests that talk to a real server, and any fake a test needs.
"""
from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Protocol

from engine.llm.calls import FailureKind, ModelCall, ModelFailure, ModelReply
from engine.llm.client import ModelClient

Deliver = Callable[[ModelReply, float], None]


class ModelRunner(Protocol):
    def run(self, call: ModelCall, deliver: Deliver) -> None:
        """Start ``call`` without blocking; call ``deliver(reply, now)`` once when it ends."""
        ...


class AsyncioRunner:
    """Runs calls with a ``ModelClient`` on an asyncio loop in a worker thread; replies wait in a
    queue until the ticking thread calls ``deliver_ready`` (the simulator does, once per tick)."""

    def __init__(self, client: ModelClient, clock: Callable[[], float]) -> None:
        self.client = client
        self.clock = clock
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="model-runner", daemon=True)
        self._thread.start()
        self._lock = threading.Lock()
        self._ready: list[tuple[Deliver, ModelReply]] = []
        self.in_flight = 0

    def run(self, call: ModelCall, deliver: Deliver) -> None:
        self.in_flight += 1

        async def job() -> None:
            try:
                reply = await self.client.complete(call)
            except Exception as exc:  # the client maps its own errors; anything else is a bug, told as a failure
                reply = ModelFailure(FailureKind.BAD_RESPONSE, type(exc).__name__)
            with self._lock:
                self._ready.append((deliver, reply))

        asyncio.run_coroutine_threadsafe(job(), self.loop)

    def deliver_ready(self) -> int:
        """Hand every finished call its reply, here, on the caller's thread; how many there were."""
        with self._lock:
            ready, self._ready = self._ready, []
        now = self.clock()
        for deliver, reply in ready:
            self.in_flight -= 1
            deliver(reply, now)
        return len(ready)

    def close(self) -> None:
        async def shut() -> None:
            await self.client.aclose()

        try:
            asyncio.run_coroutine_threadsafe(shut(), self.loop).result(timeout=5)
        except Exception:
            pass
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5)
