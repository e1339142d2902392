"""A real OpenAI-compatible chat-completions server on loopback, scripted per test.

    with ScriptedModelServer() as model:
        model.push(tool_body("agent_position"), Reply(body=text_body("hi"), delay=10.0), 503)
        ... point the proxy at model.base_url ...
        model.wait_requests(1)

Each POST to ``/chat/completions`` (any prefix) takes the next step of the
script: a JSON body (200), a status code, a ``Reply`` (status, body, headers,
delay) or a callable of the request's JSON returning one of those. With the
script empty it answers ``default`` (a 500 unless set). Every request's JSON
and headers are recorded. Handlers run in their own threads, so a slow step
does not hold the others up.
"""
from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import attrs

from engine.llm.testing import completion_body, text_body, tool_body

__all__ = ["Reply", "ScriptedModelServer", "completion_body", "text_body", "tool_body"]


@attrs.frozen
class Reply:
    status: int = 200
    body: dict[str, Any] | None = None
    delay: float = 0.0
    headers: dict[str, str] = attrs.field(factory=dict)


Step = dict[str, Any] | int | Reply | Callable[[dict[str, Any]], Any]


class ScriptedModelServer:
    def __init__(self, *steps: Step, default: Step | None = None) -> None:
        self._lock = threading.Lock()
        self._script: deque[Step] = deque(steps)
        self.default: Step = default if default is not None else Reply(500, {"error": {"message": "script empty"}})
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.paths: list[str] = []
        self._server: ThreadingHTTPServer | None = None

    # -- script ------------------------------------------------------------------------
    def push(self, *steps: Step) -> None:
        with self._lock:
            self._script.extend(steps)

    def _next(self) -> Step:
        with self._lock:
            return self._script.popleft() if self._script else self.default

    def wait_requests(self, count: int, timeout: float = 10.0) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self.requests) >= count:
                return self.requests
            time.sleep(0.02)
        raise TimeoutError(f"the scripted model server saw {len(self.requests)} requests, expected {count}")

    # -- server ------------------------------------------------------------------------
    @property
    def port(self) -> int:
        assert self._server is not None, "not started"
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "ScriptedModelServer":
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    request = json.loads(raw or b"{}")
                except ValueError:
                    request = {"_unparsed": raw.decode("utf-8", "replace")}
                with owner._lock:
                    owner.requests.append(request)
                    owner.headers.append({k.lower(): v for k, v in self.headers.items()})
                    owner.paths.append(self.path)
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(Reply(404, {"error": {"message": "not found"}}))
                    return
                step = owner._next()
                if callable(step) and not isinstance(step, (dict, int, Reply)):
                    step = step(request)
                if isinstance(step, int):
                    step = Reply(step, {"error": {"message": f"scripted {step}"}})
                elif isinstance(step, dict):
                    step = Reply(200, step)
                assert isinstance(step, Reply)
                if step.delay:
                    time.sleep(step.delay)
                self._send(step)

            def _send(self, reply: Reply) -> None:
                data = json.dumps(reply.body if reply.body is not None else {}).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the client gave up (timeout): nothing to answer

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        self._server = server
        threading.Thread(target=server.serve_forever, name="scripted-model", daemon=True).start()
        return self

    def close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> "ScriptedModelServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
