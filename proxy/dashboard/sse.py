"""Server-sent events: the framing, and one open stream that pushes a snapshot every interval.

How this works: ``frame(event, data)`` is one SSE message, the data as one line of
JSON (JSON escapes newlines inside strings, so a value can never end a message
early or forge another field). An ``EventStream`` writes the ``retry`` hint and a
first frame at once, then one frame per ``interval`` seconds from ``produce``
(called on the reactor thread, so it reads the proxy as it is between packets)
until the client goes away. ``produce`` may return None for "nothing to show"
(the player left): the stream then sends an ``gone`` event and ends.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from twisted.internet import task
from twisted.logger import Logger
from twisted.web.server import Request

log = Logger(namespace="mcagent.dashboard")

_EVENT_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
RETRY_MS = 2000


def frame(event: str, data: Any, event_id: int | None = None) -> bytes:
    if not _EVENT_NAME.match(event):
        raise ValueError(f"SSE event name {event!r} must be a short lower-case word")
    payload = json.dumps(data, separators=(",", ":"), allow_nan=False)
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {payload}\n\n".encode("utf-8")


class EventStream:
    def __init__(self, request: Request, event: str, produce: Callable[[], Any | None], clock: Any,
                 interval: float, on_close: Callable[["EventStream"], None]) -> None:
        self.request = request
        self.event = event
        self.produce = produce
        self.sent = 0
        self.closed = False
        self._on_close = on_close
        self._loop = task.LoopingCall(self.push)
        self._loop.clock = clock
        request.setHeader(b"content-type", b"text/event-stream; charset=utf-8")
        request.setHeader(b"cache-control", b"no-store")
        request.setHeader(b"x-accel-buffering", b"no")
        request.write(f"retry: {RETRY_MS}\n\n".encode())
        request.notifyFinish().addBoth(self._finished)
        self._loop.start(interval, now=True)

    def push(self) -> None:
        if self.closed:
            return
        try:
            data = self.produce()
        except Exception:  # a bug in a view must end this stream, never the proxy's reactor loop
            log.failure("dashboard {event} stream failed", event=self.event)
            data = None
        if data is None:
            self.request.write(frame("gone", {}))
            self.close()
            return
        self.sent += 1
        self.request.write(frame(self.event, data, self.sent))

    def close(self) -> None:
        if self.closed:
            return
        self._stop()
        self.request.finish()

    def _stop(self) -> None:
        self.closed = True
        if self._loop.running:
            self._loop.stop()
        self._on_close(self)

    def _finished(self, _result: Any) -> None:
        if not self.closed:
            self._stop()
